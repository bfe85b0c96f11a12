/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Escaping text for HTML and XML markup (escape.h). */
#include <stdint.h>
#include <stdio.h>

#include "escape.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

/* Length of the well-formed UTF-8 sequence at p and its code point; 0 if malformed. */
static int
utf8_decode(const unsigned char *p, uint32_t *cp)
{
	int len, i;
	uint32_t c;

	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		c = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		c = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		c = p[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80) /* also stops at the NUL */
			return 0;
		c = (c << 6) | (p[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

void
al_html_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	int len;

	if (!s)
		return;
	while (*p) {
		if (*p < 0x80) {
			switch (*p) {
			case '&':
				fputs("&amp;", f);
				break;
			case '<':
				fputs("&lt;", f);
				break;
			case '>':
				fputs("&gt;", f);
				break;
			case '"':
				fputs("&quot;", f);
				break;
			case '\'':
				fputs("&#39;", f);
				break;
			case '\t':
			case '\n':
				fputc(*p, f);
				break;
			default:
				if (*p < 0x20 || *p == 0x7f)
					fputs(REPLACEMENT, f);
				else
					fputc(*p, f);
			}
			p++;
			continue;
		}
		len = utf8_decode(p, &cp);
		if (!len) {
			fputs(REPLACEMENT, f);
			p++;
			continue;
		}
		if (cp <= 0x9f || (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe)
			fputs(REPLACEMENT, f);
		else
			fwrite(p, 1, (size_t)len, f);
		p += len;
	}
}
