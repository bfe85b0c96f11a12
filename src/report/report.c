/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reporters' table: one row per output format, each defined in a file of its own. */
#include <string.h>

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
