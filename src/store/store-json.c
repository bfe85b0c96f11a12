/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The audiolat.history/1 listing (docs/store.md): what audiolat history --json writes. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "doc/doc.h"
#include "doc/schema.h"
#include "store.h"

static json_t *
jstr_or_null(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

static json_t *
jint_or_null(int64_t v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static json_t *
jreal_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *
entry_json(const struct al_store_entry *e)
{
	json_t *o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
			      "s:o, s:o, s:o, s:o}",
			      "id", (json_int_t)e->id, "schema", jstr_or_null(e->schema),
			      "source", jstr_or_null(e->source), "saved_at",
			      jstr_or_null(e->saved_at), "started_at", jstr_or_null(e->started_at),
			      "label", jstr_or_null(e->label), "hostname", jstr_or_null(e->hostname),
			      "kernel_release", jstr_or_null(e->kernel_release), "kernel_version",
			      jstr_or_null(e->kernel_version), "preempt", jstr_or_null(e->preempt),
			      "backend", jstr_or_null(e->backend), "load", jstr_or_null(e->load),
			      "rate", jint_or_null(e->rate_hz), "period_frames",
			      jint_or_null(e->period_frames), "buffer_periods",
			      jint_or_null(e->buffer_periods), "duration_ns",
			      jint_or_null(e->duration_ns));

	if (!o)
		return NULL;
	json_object_set_new(o, "uuid", jstr_or_null(e->uuid));
	if (e->has_stats) {
		json_object_set_new(o, "periods", jint_or_null(e->periods));
		json_object_set_new(o, "xruns", jint_or_null(e->xruns));
		json_object_set_new(o, "wake_max_ns", e->wake_max_ns == -1 ? json_null()
								 : json_integer(e->wake_max_ns));
		json_object_set_new(o, "wake_p99_ns", e->wake_p99_ns == -1 ? json_null()
								 : json_integer(e->wake_p99_ns));
		json_object_set_new(o, "max_interval_pct_of_buffer", jreal_or_null(e->max_interval_pct));
		json_object_set_new(o, "within_1ms_pct", jreal_or_null(e->within_1ms_pct));
		json_object_set_new(o, "within_2ms_pct", jreal_or_null(e->within_2ms_pct));
		json_object_set_new(o, "view", json_string(strcmp(e->schema, AL_SCHEMA_RUN_V1)
								   ? "per period" : "per wake-up"));
	} else {
		static const char *const keys[] = { "periods", "xruns", "wake_max_ns",
						    "wake_p99_ns", "max_interval_pct_of_buffer",
						    "within_1ms_pct", "within_2ms_pct" };

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			json_object_set_new(o, keys[i], json_null());
	}
	return o;
}

json_t *
al_store_history_new(const char *db_path)
{
	return json_pack("{s:s, s:s, s:I, s:[]}", "schema", AL_SCHEMA_HISTORY, "database", db_path,
			 "matching", (json_int_t)0, "results");
}

int
al_store_history_add(json_t *listing, const struct al_store_entry *e)
{
	json_t *o = entry_json(e);

	if (!o || json_array_append_new(json_object_get(listing, "results"), o))
		return -ENOMEM;
	return 0;
}

void
al_store_history_matching(json_t *listing, int64_t matching)
{
	json_object_set_new(listing, "matching", json_integer(matching));
}
