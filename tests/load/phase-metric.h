/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A phase's throughput figure by name, for the load tests (cmocka: a missing one fails). */
#ifndef AL_TESTS_PHASE_METRIC_H
#define AL_TESTS_PHASE_METRIC_H

#include <string.h>

#include "load/load.h"

static inline double
metric(const struct al_phase *ph, const char *name)
{
	int i;

	for (i = 0; i < ph->n_throughput; i++)
		if (!strcmp(ph->throughput[i].name, name))
			return ph->throughput[i].value;
	fail_msg("no metric %s in '%s'", name, ph->load);
	return -1;
}

#endif
