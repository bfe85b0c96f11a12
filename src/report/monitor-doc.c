/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The "monitor" object of a monitor result (docs/json.md), and the result's document. */
#include "monitor-doc.h"
#include "report.h"

static json_t *
series_json(const struct al_mw_series *s)
{
	json_t *rows = json_array();
	size_t i;
	int k;

	for (i = 0; s && i < s->n; i++) {
		const struct al_mw *w = &s->w[i];
		json_t *b = json_array();

		for (k = 0; k < AL_MW_BUCKETS; k++)
			json_array_append_new(b, json_integer((json_int_t)w->buckets[k]));
		if (w->periods)
			json_array_append_new(
				rows,
				json_pack("[I, I, I, I, I, I, I, I, I, I, o]", (json_int_t)w->start_ns,
					  (json_int_t)w->periods, (json_int_t)w->wakeups,
					  (json_int_t)w->missed, (json_int_t)w->wake_min_ns,
					  (json_int_t)(w->wake_sum_ns / (int64_t)w->periods),
					  (json_int_t)w->wake_max_ns, (json_int_t)w->interval_max_ns,
					  (json_int_t)w->xruns, (json_int_t)w->lost_periods, b));
		else /* nothing due: the figures were not measured */
			json_array_append_new(
				rows, json_pack("[I, i, i, i, n, n, n, n, I, I, o]",
						(json_int_t)w->start_ns, 0, 0, 0, (json_int_t)w->xruns,
						(json_int_t)w->lost_periods, b));
	}
	return json_pack("{s:I, s:i, s:[s, s, s, s, s, s, s, s, s, s, s], s:o}", "window_ns",
			 (json_int_t)(s ? s->len_ns : 0), "merges", s ? (int)s->merges : 0,
			 "columns", "t_ns", "periods", "wakeups", "missed", "wake_min_ns",
			 "wake_mean_ns", "wake_max_ns", "interval_max_ns", "xruns", "lost_periods",
			 "buckets", "rows", rows);
}

json_t *
al_report_monitor_json(const struct al_monitor_doc_input *in)
{
	json_t *le = json_array();
	int i;

	for (i = 0; i < AL_MW_BOUNDS; i++)
		json_array_append_new(le, json_integer(al_mw_le_ns[i]));
	return json_pack("{s:i, s:b, s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:o, s:o, s:o}",
			 "version", 1, "final", in->final, "bucket_le_ns", le, "short",
			 series_json(in->shortw), "long", series_json(in->longw), "windows_lost",
			 (json_int_t)in->windows_lost, "checkpoints", (json_int_t)in->checkpoints,
			 "events", (json_int_t)in->events, "events_suppressed",
			 (json_int_t)in->events_suppressed, "checkpoint_ns",
			 in->checkpoint_ns ? json_integer(in->checkpoint_ns) : json_null(),
			 "threshold_ns",
			 in->threshold_ns ? json_integer(in->threshold_ns) : json_null(),
			 "on_threshold", in->on_threshold ? json_string(in->on_threshold)
							  : json_null());
}

json_t *
al_report_monitor_doc(const struct al_result *snap, const struct al_monitor_doc_input *in,
		      const char *cmdline)
{
	json_t *doc = al_doc_run_json(snap);

	if (!doc)
		return NULL;
	json_object_set_new(doc, "monitor", al_report_monitor_json(in));
	if (cmdline)
		json_object_set_new(doc, "cmdline", al_json_text(cmdline));
	return doc;
}

char *
al_report_monitor_arena_text(const struct al_result *snap, const struct al_monitor_doc_input *in,
			     const char *cmdline)
{
	json_t *doc = al_report_monitor_doc(snap, in, cmdline);
	char *text = doc ? al_doc_arena_text(doc) : NULL;

	json_decref(doc);
	return text;
}
