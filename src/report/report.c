/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reporters' table: one row per output format, each defined in a file of its own. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/doc.h"
#include "doc/view.h"
#include "report.h"

const struct al_reporter *const al_reporters[] = {
	&al_reporter_text,	/* text.c */
	&al_reporter_summary,	/* summary.c */
	&al_reporter_json,	/* json.c */
	&al_reporter_markdown,	/* markdown.c */
	&al_reporter_html,	/* html.c */
	NULL,
};

const struct al_reporter *
al_reporter_find(const char *name)
{
	size_t i;

	for (i = 0; al_reporters[i]; i++)
		if (!strcmp(al_reporters[i]->name, name))
			return al_reporters[i];
	return NULL;
}

int
al_report_write_file(const struct al_reporter *r, const struct al_report_input *in,
		     const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	f = open_memstream(&buf, &len);
	if (!f)
		return -errno;
	rc = r->write(in, f);
	if (fclose(f) && !rc)
		rc = -EIO;
	if (!rc)
		rc = al_doc_write_text(path, buf);
	free(buf);
	return rc;
}

int
al_report_text_summary(const struct al_report_input *in, bool quiet, FILE *f)
{
	int rc = 0, src;

	if (!quiet) {
		rc = al_reporter_text.write(in, f);
		if (!rc && in->n && al_doc_is_run(in->docs[0].doc))
			fputc('\n', f);
	}
	src = al_reporter_summary.write(in, f);
	return rc ? rc : src;
}
