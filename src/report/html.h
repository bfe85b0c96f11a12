/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The HTML report: one self-contained file (inline CSS and SVG, no
 * script, no outside assets) from audiolat JSON documents. The markup is
 * XML-compatible (polyglot XHTML), so an XML parser can check it. What it
 * shows: docs/report.md.
 */
#ifndef AL_REPORT_HTML_H
#define AL_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* One result to render: a document and where it came from (a file name, "db:12", NULL). */
struct al_html_input {
	const json_t *doc;
	const char *source;
};

struct al_html_opts {
	const char *title;     /* NULL: "audiolat report" */
	const json_t *compare; /* an audiolat.compare/1 document shown first, or NULL */
};

/*
 * Write the report of in[0..n) (documents al_doc_check() accepts) to f.
 * Returns 0, -EINVAL (a document it cannot render; nothing is written)
 * or -EIO (a write failed).
 */
int al_report_html(FILE *f, const struct al_html_input *in, size_t n, const struct al_html_opts *o);

#endif
