/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Markdown reporter: a comparison's tables and verdicts, to paste into
 * a patch description (compare.c, compare-midi.c render them); under a
 * comparison of runs, why each dropped out (why-text.c).
 */
#include <errno.h>
#include <string.h>

#include "compare/compare.h"
#include "doc/view.h"
#include "report.h"
#include "why-text.h"

static int
markdown_write(const struct al_report_input *in, FILE *f)
{
	if (!in->compare)
		return -EINVAL;
	if (!strcmp(al_doc_str(in->compare, "schema", ""), AL_SCHEMA_COMPARE_MIDI))
		al_compare_midi_table(in->compare, true, f);
	else if (!strcmp(al_doc_str(in->compare, "schema", ""), AL_SCHEMA_COMPARE_GROUPS))
		al_compare_groups_text(in->compare, true, f);
	else {
		al_compare_markdown(in->compare, f);
		for (size_t i = 0; i < in->n; i++)
			al__why_markdown(in->docs[i].doc,
					 al_doc_str(json_array_get(json_object_get(in->compare, "results"),
								   i), "key", "?"), f);
	}
	return ferror(f) ? -EIO : 0;
}

const struct al_reporter al_reporter_markdown = {
	.name = "markdown",
	.file_ext = "md",
	.summary = "a comparison as Markdown tables, for a patch description",
	.write = markdown_write,
};
