/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON reporter: writes a document as --json does (src/doc builds them). */
#include <errno.h>

#include "report.h"

static int
json_write(const struct al_report_input *in, FILE *f)
{
	const json_t *doc = in->compare ? in->compare : in->n == 1 ? in->docs[0].doc : NULL;

	if (!doc)
		return -EINVAL;
	return al_doc_fwrite(f, doc, 0);
}

const struct al_reporter al_reporter_json = {
	.name = "json",
	.file_ext = "json",
	.summary = "the document itself (a run's, the comparison's), indented",
	.write = json_write,
};
