/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cells, rows and small blocks that every section of the HTML report uses. */
#define AL_HTML_INTERNAL
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "html-private.h"

static const char *const palette[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
};

#define PALETTE_N (sizeof(palette) / sizeof(palette[0]))

const char *
al__html_color(size_t i)
{
	return palette[i % PALETTE_N];
}

void
al__html_section_begin(FILE *f, const char *cls, size_t idx, size_t n)
{
	fprintf(f, "<section class=\"%s\" id=\"result-%zu\">\n<h2>", cls, idx + 1);
	if (n > 1)
		fprintf(f, "<span class=\"swatch\" style=\"background:%s\"></span>%c: ",
			al__html_color(idx), (char)('A' + idx % 26));
}

void
al__html_meta_end(FILE *f, const json_t *doc, const char *source)
{
	esc(f, al_doc_str(doc, "started_at", "?"));
	if (source) {
		fputs(" · <code>", f);
		esc(f, source);
		fputs("</code>", f);
	}
	fputs("</p>\n", f);
}

/* A duration for a table: "812 ns", "15.2 µs", "1.352 ms", "3.100 s". */
void
al__html_dur(int64_t ns, char *buf, size_t size)
{
	double a = fabs((double)ns); /* not -ns: INT64_MIN */

	if (a < 1000)
		snprintf(buf, size, "%" PRId64 " ns", ns);
	else if (a < 1000000)
		snprintf(buf, size, "%.1f µs", (double)ns / 1e3);
	else if (a < 1000000000)
		snprintf(buf, size, "%.3f ms", (double)ns / 1e6);
	else
		snprintf(buf, size, "%.3f s", (double)ns / 1e9);
}

/* <td> with an escaped string, "-" when missing or empty. */
void
al__html_td_str(FILE *f, const char *s)
{
	fputs("<td>", f);
	esc(f, s && s[0] ? s : "-");
	fputs("</td>", f);
}

/* <td class="num"> with a duration at path in o, "-" when it has none. */
void
al__html_td_dur(FILE *f, const json_t *o, const char *path)
{
	char buf[32];

	if (json_is_number(al_doc_get(o, path))) {
		al__html_dur(al_doc_int(o, path, 0), buf, sizeof(buf));
		fprintf(f, "<td class=\"num\">%s</td>", buf);
	} else {
		fputs("<td class=\"num\">-</td>", f);
	}
}

void
al__html_td_real(FILE *f, const json_t *o, const char *path, const char *fmt, const char *unit)
{
	char buf[48];

	if (json_is_number(al_doc_get(o, path))) {
		snprintf(buf, sizeof(buf), fmt, al_doc_real(o, path, 0));
		fprintf(f, "<td class=\"num\">%s%s</td>", buf, unit);
	} else {
		fputs("<td class=\"num\">-</td>", f);
	}
}

void
al__html_td_int(FILE *f, const json_t *o, const char *path)
{
	if (json_is_number(al_doc_get(o, path)))
		fprintf(f, "<td class=\"num\">%" PRId64 "</td>", al_doc_int(o, path, 0));
	else
		fputs("<td class=\"num\">-</td>", f);
}

void
al__html_td_figures(FILE *f, const json_t *o, const char *const path[9])
{
	al__html_td_dur(f, o, path[0]);
	al__html_td_real(f, o, path[1], "%.1f", " %");
	al__html_td_real(f, o, path[2], "%.3f", "");
	al__html_td_real(f, o, path[3], "%.3f", "");
	al__html_td_dur(f, o, path[4]);
	al__html_td_dur(f, o, path[5]);
	al__html_td_dur(f, o, path[6]);
	al__html_td_dur(f, o, path[7]);
	al__html_td_int(f, o, path[8]);
}

/* A row of a key/value table; value already formatted (escaped here). */
void
al__html_kv(FILE *f, const char *key, const char *value)
{
	fprintf(f, "<tr><th>%s</th>", key);
	al__html_td_str(f, value);
	fputs("</tr>\n", f);
}

void
al__html_kv_str(FILE *f, const json_t *doc, const char *key, const char *path)
{
	al__html_kv(f, key, al_doc_str(doc, path, NULL));
}

void
al__html_kv_int(FILE *f, const json_t *doc, const char *key, const char *path, const char *unit)
{
	char buf[48];

	if (!json_is_number(al_doc_get(doc, path))) {
		al__html_kv(f, key, NULL);
		return;
	}
	snprintf(buf, sizeof(buf), "%" PRId64 "%s", al_doc_int(doc, path, 0), unit);
	al__html_kv(f, key, buf);
}

void
al__html_kv_dur(FILE *f, const json_t *doc, const char *key, const char *path)
{
	char buf[32];

	if (!json_is_number(al_doc_get(doc, path))) {
		al__html_kv(f, key, NULL);
		return;
	}
	al__html_dur(al_doc_int(doc, path, 0), buf, sizeof(buf));
	al__html_kv(f, key, buf);
}

void
al__html_kv_bool(FILE *f, const json_t *doc, const char *key, const char *path)
{
	const json_t *v = al_doc_get(doc, path);

	al__html_kv(f, key, json_is_boolean(v) ? (json_is_true(v) ? "yes" : "no") : NULL);
}

/* Copy at most max_chars characters of UTF-8 text (size >= 4), with "…" when cut. */
void
al__html_truncate_utf8(const char *in, char *out, size_t size, size_t max_chars)
{
	size_t i, n, chars = 0, limit;
	bool cut;

	for (i = 0; in[i]; i++) {
		if (((unsigned char)in[i] & 0xc0) == 0x80)
			continue;
		if (chars == max_chars)
			break;
		chars++;
	}
	cut = in[i] != '\0';
	limit = size - 1 - (cut ? 3 : 0);
	n = i;
	if (n > limit) {
		n = limit;
		cut = true;
		limit = size - 4;
		if (n > limit)
			n = limit;
	}
	/* never end in the middle of a character */
	while (n && ((unsigned char)in[n] & 0xc0) == 0x80)
		n--;
	memcpy(out, in, n);
	if (cut) {
		memcpy(out + n, "\xe2\x80\xa6", 3);
		n += 3;
	}
	out[n] = '\0';
}

/*
 * One cause of a spike (docs/json.md): {kind, name, pid, duration_ns, pct}
 * as "irq eth0 [42] 120.0 µs (35.1 %)"; a string as it is; anything else
 * as compact JSON.
 */
void
al__html_cause_text(FILE *f, const json_t *c)
{
	char *text;

	if (json_is_string(c)) {
		esc(f, json_string_value(c));
		return;
	}
	if (json_is_object(c) && json_is_string(json_object_get(c, "kind"))) {
		char d[32];

		esc(f, al_doc_str(c, "kind", "?"));
		if (al_doc_str(c, "name", NULL)) {
			fputc(' ', f);
			esc(f, al_doc_str(c, "name", ""));
		}
		if (json_is_integer(json_object_get(c, "pid")) && al_doc_int(c, "pid", -1) >= 0)
			fprintf(f, " [%" PRId64 "]", al_doc_int(c, "pid", -1));
		if (json_is_number(json_object_get(c, "duration_ns"))) {
			al__html_dur(al_doc_int(c, "duration_ns", 0), d, sizeof(d));
			fprintf(f, " %s", d);
		}
		if (json_is_number(json_object_get(c, "pct")))
			fprintf(f, " (%.1f %%)", al_doc_real(c, "pct", 0));
		return;
	}
	text = json_dumps(c, JSON_COMPACT | JSON_ENCODE_ANY);
	esc(f, text ? text : "?");
	free(text);
}

void
al__html_warnings(FILE *f, const json_t *doc)
{
	const json_t *w = json_object_get(doc, "warnings"), *s;
	size_t i;

	if (!json_array_size(w))
		return;
	fputs("<ul class=\"warnings\">\n", f);
	json_array_foreach(w, i, s)
	{
		fputs("<li>", f);
		esc(f, json_is_string(s) ? json_string_value(s) : "?");
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

void
al__html_checks_table(FILE *f, const json_t *doc)
{
	const json_t *checks = al_doc_get(doc, "system.checks"), *c;
	size_t i;

	if (!json_is_object(checks))
		return;
	fprintf(f,
		"<h3>System checks</h3>\n<p class=\"small\">ok %" PRId64 ", warn %" PRId64
		", fail %" PRId64 ", skip %" PRId64 " (taken right after the run)</p>\n",
		al_doc_int(checks, "ok", 0), al_doc_int(checks, "warn", 0),
		al_doc_int(checks, "fail", 0), al_doc_int(checks, "skip", 0));
	fputs("<table class=\"checks\"><thead><tr><th>status</th><th>check</th><th>what</th>"
	      "<th>fix</th></tr></thead><tbody>\n",
	      f);
	json_array_foreach(json_object_get(checks, "checks"), i, c)
	{
		const char *st = al_doc_str(c, "status", "skip");
		const char *cls = !strcmp(st, "ok")	? "ok"
				  : !strcmp(st, "warn") ? "warn"
				  : !strcmp(st, "fail") ? "fail"
							: "skip";

		fprintf(f, "<tr><td class=\"%s\">", cls);
		esc(f, st);
		fputs("</td>", f);
		al__html_td_str(f, al_doc_str(c, "id", NULL));
		al__html_td_str(f, al_doc_str(c, "message", NULL));
		fputs("<td><code>", f);
		esc(f, al_doc_str(c, "fix", ""));
		fputs("</code></td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}
