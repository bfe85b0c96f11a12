/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pw-profiler's log as an audiolat.run/2 document (docs/interchange.md).
 * What it measures is the graph's: the driver's cycles (their interval, the
 * driver's end, the clock's delay and period) and each node's WAIT and
 * BUSY per cycle, under source (source.driver, source.nodes[]); total holds
 * the driver's interval. It has no wake latency of an audio thread (no due
 * time is written), no xrun count (0.3.65 does not write the driver's) and
 * none of the audio configuration but the period: those are null.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pwprofiler.h"

/* {KEY: the summary of u} added to o, and with hists, hists[KEY] its histogram. */
static int
put(json_t *o, json_t *hists, const char *key, struct al_ix_us *u)
{
	json_t *s, *h = NULL;

	if (al_ix_us_json(u, &s, hists ? &h : NULL))
		return -ENOMEM;
	if (json_object_set_new(o, key, s)) {
		json_decref(h);
		return -ENOMEM;
	}
	return hists && json_object_set_new(hists, key, h) ? -ENOMEM : 0;
}

static json_t *
node_json(struct al_pwp_node *n)
{
	json_t *o = json_pack("{s:I, s:I, s:n, s:I, s:I}", "id", (json_int_t)n->id, "column",
			      (json_int_t)n->column, "name", "points", (json_int_t)n->points,
			      "unfinished", (json_int_t)n->unfinished);
	json_t *hists = json_object();

	if (!o || !hists || put(o, hists, "wait_ns", &n->wait) || put(o, hists, "busy_ns", &n->busy) ||
	    put(o, NULL, "end_ns", &n->end) || json_object_set(o, "histogram", hists)) {
		json_decref(o);
		o = NULL;
	}
	json_decref(hists);
	return o;
}

static json_t *
source_json(struct al_pwp_run *r, const char *file)
{
	json_t *drv = json_object(), *nodes = json_array(), *src;

	if (!drv || put(drv, NULL, "interval_ns", &r->interval) ||
	    put(drv, NULL, "end_ns", &r->driver_end) || put(drv, NULL, "delay_ns", &r->delay) ||
	    put(drv, NULL, "period_ns", &r->period)) {
		json_decref(drv);
		drv = NULL;
	}
	for (size_t i = 0; nodes && i < r->n_nodes; i++)
		if (json_array_append_new(nodes, node_json(&r->nodes[i]))) {
			json_decref(nodes);
			nodes = NULL;
		}
	src = json_pack("{s:s, s:s, s:o, s:n, s:s, s:I, s:I, s:I, s:I, s:o?, s:o?}", "tool",
			"pw-profiler", "format", "pw-profiler", "file",
			al_json_text(al_ix_basename(file)), "version", "unit", "us", "points",
			(json_int_t)r->points, "incomplete_points", (json_int_t)r->incomplete,
			"clamped_points", (json_int_t)r->clamped, "node_columns",
			(json_int_t)r->columns, "driver", drv, "nodes", nodes);
	if (src && (!drv || !nodes)) {
		json_decref(src);
		return NULL;
	}
	return src;
}

json_t *
al_pwp_doc(struct al_pwp_run *r, const char *file)
{
	json_t *total = al_ix_total_null(), *doc, *src;
	bool one_period;

	if (!total || put(total, json_object_get(total, "histogram"), "interval_ns", &r->interval)) {
		json_decref(total);
		return NULL;
	}
	src = source_json(r, file); /* (sorts the periods) */
	doc = al_ix_doc_new(NULL, NULL, total);
	if (!doc || !src) {
		json_decref(doc);
		json_decref(src);
		return NULL;
	}
	/* the period, when the capture had one: the clock's (rate-adjusted) duration */
	one_period = r->period.n && r->period.v[0] > 0 && r->period.v[0] == r->period.v[r->period.n - 1];
	if (one_period)
		json_object_set_new(json_object_get(doc, "config"), "period_ns",
				    json_integer(r->period.v[0] * 1000));
	if (json_object_set_new(doc, "source", src)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}
