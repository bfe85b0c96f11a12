/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The system checks' text and document (json-check.h). */
#include <string.h>

#include "json-check.h"

static const char *
label(const char *status)
{
	if (!strcmp(status, "ok"))
		return "[ OK ]";
	if (!strcmp(status, "warn"))
		return "[WARN]";
	if (!strcmp(status, "fail"))
		return "[FAIL]";
	return "[SKIP]";
}

void
al_report_check_text(FILE *f, const struct al_syscheck *c, int n, bool quiet)
{
	int i;

	for (i = 0; i < n; i++) {
		if (quiet && strcmp(c[i].status, "fail"))
			continue;
		fprintf(f, "%s %-15s %s\n", label(c[i].status), c[i].id, c[i].message);
		if (c[i].fix[0] && strcmp(c[i].status, "ok"))
			fprintf(f, "       fix: %s\n", c[i].fix);
	}
}

void
al_report_check_summary(FILE *f, const struct al_syscheck *c, int n)
{
	struct al_check_tally t;

	al_check_tally(c, n, &t);
	fprintf(f, "summary: ok=%d warn=%d fail=%d skip=%d\n", t.ok, t.warn, t.fail, t.skip);
}

json_t *
al_report_check_json(const char *root, const struct al_syscheck *c, int n)
{
	json_t *doc = al_doc_new(AL_SCHEMA_CHECK, NULL), *checks = al_json_checks(c, n);

	if (!doc || !checks || json_object_set_new(doc, "root", al_json_text(root)) ||
	    json_object_update(doc, checks)) {
		json_decref(doc);
		doc = NULL;
	}
	json_decref(checks);
	return doc;
}
