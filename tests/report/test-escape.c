/* SPDX-License-Identifier: GPL-2.0-or-later */
/* al_html_escape(): entities, UTF-8 checking, characters XML does not allow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare/ci.h"
#include "doc/escape.h"

#define FFFD "\xef\xbf\xbd"

static char *
escaped(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	al_html_escape(f, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void
check(const char *in, const char *want)
{
	char *got = escaped(in);

	assert_string_equal(got, want);
	free(got);
}

/* Is s well-formed UTF-8 with only characters XML 1.0 allows? */
static int
xml_text_ok(const unsigned char *s)
{
	while (*s) {
		uint32_t c;
		int len, i;

		if (*s < 0x80) {
			if (*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r')
				return 0;
			s++;
			continue;
		}
		if (*s >= 0xc2 && *s <= 0xdf)
			len = 2, c = *s & 0x1f;
		else if (*s >= 0xe0 && *s <= 0xef)
			len = 3, c = *s & 0x0f;
		else if (*s >= 0xf0 && *s <= 0xf4)
			len = 4, c = *s & 0x07;
		else
			return 0;
		for (i = 1; i < len; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			c = c << 6 | (s[i] & 0x3f);
		}
		if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
		    (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff)
			return 0;
		s += len;
	}
	return 1;
}

static void
markup_characters(void **state)
{
	(void)state;
	check("plain text 1.5 ms", "plain text 1.5 ms");
	check("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;");
	check("a & b", "a &amp; b");
	check("&amp;", "&amp;amp;");
	check("\"double\" 'single'", "&quot;double&quot; &#39;single&#39;");
	check("", "");
	check("tab\there\nnewline", "tab\there\nnewline");
}

static void
null_writes_nothing(void **state)
{
	char *got;

	(void)state;
	got = escaped(NULL);
	assert_string_equal(got, "");
	free(got);
}

static void
valid_utf8_kept(void **state)
{
	(void)state;
	check("15 \xc2\xb5s", "15 \xc2\xb5s");	       /* µ */
	check("\xe2\x82\xac", "\xe2\x82\xac");	       /* € */
	check("\xf0\x9f\x8e\xb5", "\xf0\x9f\x8e\xb5"); /* U+1F3B5 */
	check("\xef\xbf\xbd", "\xef\xbf\xbd");	       /* U+FFFD itself */
	check("\xf4\x8f\xbf\xbd", "\xf4\x8f\xbf\xbd"); /* U+10FFFD, the last allowed */
}

static void
invalid_utf8_replaced(void **state)
{
	(void)state;
	check("host\xff\xfe", "host" FFFD FFFD);
	check("\xc0\xaf", FFFD FFFD);			/* overlong '/' */
	check("\xe0\x80\xaf", FFFD FFFD FFFD);		/* overlong, 3 bytes */
	check("\xed\xa0\x80", FFFD FFFD FFFD);		/* a surrogate */
	check("\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD); /* above U+10FFFF */
	check("end\xe2\x82", "end" FFFD FFFD);		/* cut short */
	check("\x80x", FFFD "x");			/* a lone continuation */
	check("\xc3<", FFFD "&lt;");			/* cut by markup */
}

static void
controls_and_noncharacters_replaced(void **state)
{
	(void)state;
	check("a\x01"
	      "b",
	      "a" FFFD "b");
	check("\x1b[31mred", FFFD "[31mred"); /* a terminal escape */
	check("cr\r", "cr" FFFD);
	check("del\x7f", "del" FFFD);
	check("\xc2\x85", FFFD); /* C1 NEL */
	check("\xc2\x9f", FFFD);
	check("\xc2\xa0", "\xc2\xa0");	       /* NBSP is fine */
	check("\xef\xbf\xbe", FFFD);	       /* U+FFFE */
	check("\xef\xbf\xbf", FFFD);	       /* U+FFFF */
	check("\xef\xb7\x90", FFFD);	       /* U+FDD0 */
	check("\xef\xb7\xaf", FFFD);	       /* U+FDEF */
	check("\xef\xb7\xb0", "\xef\xb7\xb0"); /* U+FDF0 is a character */
	check("\xf0\x9f\xbf\xbe", FFFD);       /* U+1FFFE */
}

/* Random bytes: the output is always XML text with no markup of its own. */
static void
random_bytes_come_out_safe(void **state)
{
	static const char *const entities[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
	struct al_rng rng;
	char in[64];
	int t, i;

	(void)state;
	al_rng_seed(&rng, 42);
	for (t = 0; t < 20000; t++) {
		int len = (int)(al_rng_next(&rng) % (sizeof(in) - 1));
		char *out, *p;

		for (i = 0; i < len; i++) {
			in[i] = (char)(al_rng_next(&rng) & 0xff);
			if (!in[i])
				in[i] = '<';
		}
		in[len] = '\0';
		out = escaped(in);
		assert_true(xml_text_ok((const unsigned char *)out));
		assert_null(strpbrk(out, "<>\"'"));
		for (p = strchr(out, '&'); p; p = strchr(p + 1, '&')) {
			size_t k;

			for (k = 0; k < 5; k++)
				if (!strncmp(p, entities[k], strlen(entities[k])))
					break;
			assert_true(k < 5);
		}
		free(out);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(markup_characters),
	    cmocka_unit_test(null_writes_nothing),
	    cmocka_unit_test(valid_utf8_kept),
	    cmocka_unit_test(invalid_utf8_replaced),
	    cmocka_unit_test(controls_and_noncharacters_replaced),
	    cmocka_unit_test(random_bytes_come_out_safe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
