/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pw-profiler's log (PipeWire 0.3.65's `pw-profiler -o FILE`,
 * docs/interchange.md) as it holds it (pw-prof.c), and as an audiolat.run/2
 * document (pw-prof-doc.c). Private to src/interchange.
 *
 * A line per profiler point (one per driver cycle, and one more for a
 * cycle the graph had not completed by the driver's next), tab-separated
 * whole microseconds: 4 driver columns, then 8 per follower column (64 on
 * 0.3.65), each blank (" ") where no node was in that point.
 */
#ifndef AL_INTERCHANGE_PWPROFILER_H
#define AL_INTERCHANGE_PWPROFILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "ix-common.h"

/* follower columns a line may have (0.3.65 writes 64), nodes a file may name */
#define AL_PWP_COLUMNS_MAX 1024
#define AL_PWP_NODES_MAX 4096
/* a value's magnitude in us: its ns must fit in int64 with room to spare */
#define AL_PWP_VALUE_MAX_US (INT64_MAX / 1000 / 4)
/* a node's status in a point (PipeWire's activation states) */
#define AL_PWP_FINISHED 3

/* One node of a follower column (a column's id may change: a node each). */
struct al_pwp_node {
	uint32_t id;
	size_t column;       /* which follower column, from 0 */
	uint64_t points;     /* the points it was in */
	uint64_t unfinished; /* of them, not finished (status 1 triggered, 2 awake): pw-top's ERR */
	struct al_ix_us wait; /* awake - signal, where it woke (status 2, 3) */
	struct al_ix_us busy; /* finish - awake, where it finished (status 3) */
	struct al_ix_us end;  /* finish - the driver's signal, where it finished */
};

struct al_pwp_run {
	uint64_t points;     /* lines */
	uint64_t incomplete; /* interval 0: a point of a cycle not complete by the next */
	uint64_t clamped;    /* interval and driver time both 1.4 periods: either was over 1.3 */
	size_t columns;      /* follower columns per line */
	struct al_ix_us interval; /* the driver's signal - its previous signal (not clamped,
				     not incomplete) */
	struct al_ix_us driver_end; /* the driver's finish - its signal (not clamped) */
	struct al_ix_us delay;      /* the clock's delay */
	struct al_ix_us period;     /* the period the clock's duration and rate make */
	struct al_pwp_node *nodes;  /* in order of first appearance */
	size_t n_nodes, cap_nodes;
};

void al_pwp_run_free(struct al_pwp_run *r);

/* Is the first line of text one of pw-profiler's (4 tab-separated integers first)? */
bool al_pwp_looks_like(const char *text, size_t len);

/* The log (pw-prof.c). 0, or -EINVAL with ":LINE: expected ..." in err; -ENOMEM. */
int al_pwp_parse(const char *text, size_t len, struct al_pwp_run *r, char *err, size_t err_size);

/* The run document of r (pw-prof-doc.c), source.file file. NULL on ENOMEM. */
json_t *al_pwp_doc(struct al_pwp_run *r, const char *file);

#endif
