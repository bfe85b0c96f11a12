/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The flight recorder's names for what it charged (trace.h): timer
 * callbacks by address, then by symbol from /proc/kallsyms once after the
 * run (al_trace_symbolize); tasks seen without a comm from /proc.
 */
#define AL_TRACE_PRIVATE_ALLOWED
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-private.h"
#include "trace.h"

#define KALLSYMS_LINES_MAX (8 * 1024 * 1024)

void
al__trace_name_timers(struct al_spike *out, const uint64_t *addr)
{
	int i;

	for (i = 0; i < out->n_causes; i++)
		if (addr[i])
			snprintf(out->causes[i].name, sizeof(out->causes[i].name), "%#" PRIx64,
				 addr[i]);
}

/* "0x..." as written by al__trace_name_timers(); 0 for anything else. */
static uint64_t
timer_addr(const struct al_cause *c)
{
	unsigned long long a;
	char *end;

	if (strcmp(c->kind, "timer") || strncmp(c->name, "0x", 2))
		return 0;
	errno = 0;
	a = strtoull(c->name + 2, &end, 16);
	return errno || *end ? 0 : (uint64_t)a;
}

int
al_trace_symbolize(struct al_spike *spikes, int n)
{
	char line[512], sym[256], type;
	unsigned long long a;
	int i, k, left = 0, lines = 0;
	FILE *f;

	for (i = 0; i < n; i++)
		for (k = 0; k < spikes[i].n_causes; k++)
			left += timer_addr(&spikes[i].causes[k]) != 0;
	if (!left)
		return 0;
	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return -errno;
	while (left && lines++ < KALLSYMS_LINES_MAX && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3 || !a)
			continue;
		for (i = 0; i < n; i++)
			for (k = 0; k < spikes[i].n_causes; k++) {
				struct al_cause *c = &spikes[i].causes[k];

				if (timer_addr(c) != a)
					continue;
				snprintf(c->name, sizeof(c->name), "%.31s", sym);
				left--;
			}
	}
	fclose(f);
	return 0;
}

void
al__trace_name_tasks(struct al_spike *out)
{
	char path[64];
	FILE *f;
	int i;

	for (i = 0; i < out->n_causes; i++) {
		struct al_cause *c = &out->causes[i];

		if (c->name[0] || c->pid < 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", c->pid);
		f = fopen(path, "re");
		if (f) {
			if (fgets(c->name, sizeof(c->name), f))
				c->name[strcspn(c->name, "\n")] = '\0';
			fclose(f);
		}
		if (!c->name[0])
			snprintf(c->name, sizeof(c->name), "pid-%d", c->pid);
	}
}
