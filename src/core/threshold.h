/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The thresholds of a run (--max-latency, --max-interval, --fail-on-xrun:
 * al_config) judged over the whole result: `audiolat run` and `audiolat
 * monitor` exit 3 on the first one exceeded, in this order.
 */
#ifndef AL_CORE_THRESHOLD_H
#define AL_CORE_THRESHOLD_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

enum al_threshold {
	AL_THRESHOLD_NONE = 0,
	AL_THRESHOLD_LATENCY,  /* the max per-period wake latency passed --max-latency */
	AL_THRESHOLD_INTERVAL, /* the longest interval passed --max-interval */
	AL_THRESHOLD_XRUN,     /* an xrun of ours with --fail-on-xrun */
	AL_THRESHOLD_SERVER_XRUN, /* a server's xrun not ours with --fail-on-server-xrun */
};

/* Was any threshold asked for? */
bool al_threshold_given(const struct al_config *c);

/* The first threshold r's total exceeded, or AL_THRESHOLD_NONE. */
enum al_threshold al_threshold_exceeded(const struct al_result *r);

/*
 * The line that says which, as "max wake latency 301 ms exceeded
 * --max-latency 100 ms", "2 xrun(s) with --fail-on-xrun" ("" for NONE).
 */
void al_threshold_describe(const struct al_result *r, enum al_threshold t, char *buf,
			   size_t size);

#endif
