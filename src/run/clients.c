/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The server's other clients in the flight recorder (clients.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "trace/clients.h"
#include "clients.h"

int
al_run_clients_open(struct al_run_clients *c, const struct al_backend_ops *ops, void *priv,
		    int64_t period_ns, char *err, size_t err_size)
{
	int rc;

	memset(c, 0, sizeof(*c));
	al_spsc_init(&c->idx);
	c->ops = ops;
	c->priv = priv;
	c->period_ns = period_ns;
	rc = al_clients_open(&c->rec, 0, err, err_size);
	if (rc) {
		c->rec = NULL;
		snprintf(c->note, sizeof(c->note), "%s", err);
	}
	return rc;
}

void
al_run_clients_service(struct al_run_clients *c)
{
	struct al_task tasks[AL_TASKS_MAX];
	uint32_t first, k, ready;
	unsigned gen = c->gen;
	int n;

	if (!c->rec)
		return;
	ready = al_spsc_ready(&c->idx, &first);
	for (k = 0; k < ready; k++)
		al_clients_cycle(c->rec, c->ring[(first + k) & (AL_CYCLE_RING - 1)], c->period_ns);
	al_spsc_pop(&c->idx, ready);
	n = c->ops->tasks(c->priv, tasks, AL_TASKS_MAX, &gen);
	if (n >= 0 && gen != c->gen) {
		c->gen = gen;
		al_clients_follow(c->rec, tasks, n);
	}
	al_clients_read(c->rec, al_clock_now_ns());
}

void
al_run_clients_finish(struct al_run_clients *c, struct al_result *r)
{
	if (!c->rec) {
		if (c->note[0] && !r->graph) {
			r->graph = calloc(1, sizeof(*r->graph));
			if (r->graph) {
				snprintf(r->graph->source, sizeof(r->graph->source), "jack-trace");
				snprintf(r->graph->note, sizeof(r->graph->note), "%s", c->note);
			}
		}
		return;
	}
	al_run_clients_service(c);
	if (!r->graph)
		r->graph = calloc(1, sizeof(*r->graph));
	al_clients_read(c->rec, 0); /* the rest, all of it: now 0 */
	if (r->graph)
		al_clients_blame(c->rec, r->graph, r->cfg.device, r->start_mono_ns);
	al_clients_close(c->rec);
	c->rec = NULL;
}
