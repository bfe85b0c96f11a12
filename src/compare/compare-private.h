/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the comparisons only (compare.c, compare-group.c): what one
 * result holds in one scope (the whole run or one phase), its histogram
 * and its effective sample size, read once in compare-scope.c.
 */
#ifndef AL_REPORT_COMPARE_PRIVATE_H
#define AL_REPORT_COMPARE_PRIVATE_H

#ifndef AL_COMPARE_INTERNAL
#error "compare-private.h is for src/report/compare*.c only"
#endif

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "doc/view.h"

/* A phase identified across results: its name and which occurrence of it. */
struct scope_key {
	const char *name; /* NULL: the whole run */
	int occurrence;
};

/* What one result has in one scope. */
struct scope_data {
	const json_t *stats; /* "total" or the phase object; NULL: not in this result */
	struct al_dhist hist;
	int64_t *win_n;
	double *win_mean;
	int64_t *win_max;
	size_t m; /* windows with wake-ups */
	double deff;
	double n_eff;
};

/* A phase's name, "?" when it has none. */
const char *al__phase_name(const json_t *ph);

/*
 * Fill sd from doc for key: its statistics object, the wake-latency
 * histogram, the series windows of the scope and the design effect over
 * them. 0 (sd->stats NULL: the result has no such phase) or -errno;
 * al__scope_free() either way.
 */
int al__scope_load(const json_t *doc, const struct scope_key *key, struct scope_data *sd);
void al__scope_free(struct scope_data *sd);

#endif
