/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The readers of result documents: the input as JSON goes through
 * al_doc_check(), the HTML report (al_reporter_html) and the comparison of
 * the document with itself (al_compare, text and Markdown), as a hostile
 * file given to `audiolat report` or `audiolat compare` would. Checks:
 * the report is refused (-EINVAL, nothing written) exactly when
 * al_doc_check() refuses the document; otherwise it succeeds, ends with
 * </html>, is valid UTF-8, and every '<' in it opens markup (text from the
 * document never does), and its text report (every line: -v, --why)
 * succeeds with no control character but the newline (the document's are
 * shown as '?'); the comparison is refused unless the document is
 * an audiolat.run/2 or /1 one, and then succeeds, compares the document with
 * itself as "no significant difference" or "not enough data" for every
 * statistic, and every interval holds its difference.
 */
#include <errno.h>

#include <jansson.h>

#include "compare/compare.h"
#include "doc/view.h"
#include "report/report.h"
#include "fuzz.h"

static char *
capture_html(const struct al_report_doc *in, size_t n, const json_t *cmp, int *rc, size_t *len)
{
	const struct al_report_input ri = {.docs = in, .n = n, .compare = cmp, .title = "fuzz"};
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	FUZZ_CHECK(f, "%s", "open_memstream");
	*rc = al_reporter_html.write(&ri, f);
	fclose(f);
	return buf;
}

static void
check_markup(const char *html, size_t len)
{
	const unsigned char *p = (const unsigned char *)html, *end = p + len;

	FUZZ_CHECK(strlen(html) == len, "%s", "a NUL byte in the report");
	FUZZ_CHECK(len > 8 && !strcmp(html + len - 8, "</html>\n"), "%s",
		   "the report is cut short");
	while (p < end) {
		int n = *p < 0x80	      ? 1
			: (*p & 0xe0) == 0xc0 ? 2
			: (*p & 0xf0) == 0xe0 ? 3
			: (*p & 0xf8) == 0xf0 ? 4
					      : 0;

		FUZZ_CHECK(n && p + n <= end, "bad UTF-8 at offset %td", (const char *)p - html);
		for (int i = 1; i < n; i++)
			FUZZ_CHECK((p[i] & 0xc0) == 0x80, "bad UTF-8 at offset %td",
				   (const char *)p - html);
		if (*p == '<')
			FUZZ_CHECK((p[1] >= 'a' && p[1] <= 'z') || p[1] == '/' || p[1] == '!',
				   "a '<' that opens no markup at offset %td: '%.20s'",
				   (const char *)p - html, (const char *)p);
		p += n;
	}
}

static void
check_compare(const json_t *cmp)
{
	const json_t *scope, *c, *st;
	size_t i, j, k;

	json_array_foreach(json_object_get(cmp, "scopes"), i, scope)
	    json_array_foreach(json_object_get(scope, "comparisons"), j, c)
		json_array_foreach(json_object_get(c, "statistics"), k, st)
	{
		const char *v = al_doc_str(st, "verdict", "?");
		const json_t *lo = json_object_get(st, "ci_low_ns");
		const json_t *hi = json_object_get(st, "ci_high_ns");
		int64_t d = al_doc_int(st, "diff_ns", 1);

		if (!strcmp(v, "not measured")) { /* only for a figure the document lacks */
			FUZZ_CHECK(!json_is_integer(json_object_get(st, "baseline_ns")),
				   "'not measured' for a figure the document has: %s",
				   al_doc_str(st, "name", "?"));
			continue;
		}
		FUZZ_CHECK(!strcmp(v, "no significant difference") || !strcmp(v, "not enough data"),
			   "a document against itself: '%s'", v);
		FUZZ_CHECK(d == 0, "a document against itself differs by %lld", (long long)d);
		FUZZ_CHECK(!json_is_integer(lo) || json_integer_value(lo) <= 0, "%s",
			   "interval above the difference");
		FUZZ_CHECK(!json_is_integer(hi) || json_integer_value(hi) >= 0, "%s",
			   "interval below the difference");
	}
}

/*
 * The text report, every line of it (--why, -v): it succeeds, and no byte
 * of the document's text reaches the terminal as a control character
 * other than a newline (ESC and the like are shown as '?').
 */
static void
check_text(const struct al_report_doc *in)
{
	const struct al_report_input ri = {.docs = in, .n = 1, .verbose = true, .why = true};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	FUZZ_CHECK(f, "%s", "open_memstream");
	rc = al_reporter_text.write(&ri, f);
	fclose(f);
	FUZZ_CHECK(rc == 0, "text report failed: %d", rc);
	for (size_t i = 0; i < len; i++)
		FUZZ_CHECK((unsigned char)buf[i] >= 0x20 || buf[i] == '\n', "a control character "
			   "(0x%02x) in the text at offset %zu", (unsigned char)buf[i], i);
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct al_compare_opts co = {.confidence = 0.95, .resamples = 100, .seed = 1};
	json_t *doc, *cmp = NULL;
	char err[160], *html, *text = NULL;
	size_t len = 0;
	int rc;

	doc = json_loadb((const char *)data, size, 0, NULL);
	if (!doc)
		return 0;
	{
		struct al_report_doc in[2] = {{doc, "fuzz <input>"}, {doc, NULL}};
		struct al_report_doc ci[2] = {{doc, "a"}, {doc, "b"}};
		int ok = !al_doc_check(doc, err, sizeof(err));

		html = capture_html(in, 1, NULL, &rc, &len);
		if (!ok) {
			FUZZ_CHECK(rc == -EINVAL, "refused document rendered: %d", rc);
			FUZZ_CHECK(len == 0, "%s", "a refused document wrote something");
			FUZZ_CHECK(al_compare(ci, 2, &co, &cmp) == -EINVAL, "%s",
				   "a refused document compared");
			free(html);
			json_decref(doc);
			return 0;
		}
		FUZZ_CHECK(rc == 0, "report failed: %d", rc);
		check_markup(html, len);
		free(html);
		check_text(in);
		if (!al_doc_is_run(doc)) { /* a MIDI result: reported, not compared */
			FUZZ_CHECK(al_compare(ci, 2, &co, &cmp) == -EINVAL, "%s",
				   "a MIDI document compared");
			json_decref(doc);
			return 0;
		}
		rc = al_compare(ci, 2, &co, &cmp);
		FUZZ_CHECK(rc == 0 && cmp, "compare failed: %d", rc);
		check_compare(cmp);
		html = capture_html(in, 2, cmp, &rc, &len);
		FUZZ_CHECK(rc == 0, "report with the comparison failed: %d", rc);
		check_markup(html, len);
		free(html);
		{
			FILE *f = open_memstream(&text, &len);

			FUZZ_CHECK(f, "%s", "open_memstream");
			al_compare_text(cmp, f);
			al_compare_markdown(cmp, f);
			fclose(f);
			free(text);
		}
		json_decref(cmp);
	}
	json_decref(doc);
	return 0;
}
