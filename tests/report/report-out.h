/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the reporters' cmocka tests share (after <cmocka.h> and
 * "report/report.h"): a document from its text, what a reporter writes,
 * and how often a string stands in it.
 */
#ifndef AL_TESTS_REPORT_OUT_H
#define AL_TESTS_REPORT_OUT_H

#include <stdio.h>
#include <string.h>

/* The JSON text as a document (the test fails when it is not JSON). */
static __attribute__((unused)) json_t *
report_load(const char *text)
{
	json_error_t e;
	json_t *doc = json_loads(text, 0, &e);

	assert_non_null(doc);
	return doc;
}

/* What r writes for in: its return code, and the text (empty when nothing was written). */
static __attribute__((unused)) char *
report_render(const struct al_reporter *r, const struct al_report_input *in, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*rc = r->write(in, f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* How many times needle stands in hay (overlapping ones too). */
static __attribute__((unused)) int
report_count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

#endif
