/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The blocks documents are built of: the envelope, text from outside, histograms, checks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/stats.h"
#include "doc.h"

json_t *
al_json_text(const char *s)
{
	json_t *j;
	char *copy;
	size_t i;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (i = 0; copy[i]; i++)
		if ((unsigned char)copy[i] >= 0x80 || (copy[i] < 0x20 && copy[i] != '\t'))
			copy[i] = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

json_t *
al_json_int_or_null(int64_t v, int64_t none)
{
	return v == none ? json_null() : json_integer(v);
}

json_t *
al_json_real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *
al_json_throughput(const struct al_metric *m, int n)
{
	json_t *tp = json_object();

	for (int i = 0; tp && i < n; i++)
		json_object_set_new(tp, m[i].name,
				    json_pack("{s:o, s:s}", "value", al_json_real_or_null(m[i].value),
					      "unit", m[i].unit));
	return tp;
}

json_t *
al_json_summary(const struct al_hist *h)
{
	struct al_summary s;

	al_stats_summarize(h, &s);
	if (!s.count)
		return json_pack("{s:i, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:i, s:i, s:i}",
				 "count", 0, "min", "mean", "stddev", "p50", "p90", "p99", "p999",
				 "p9999", "max", "overflow", 0, "underflow", 0, "negative", 0);
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			 "count", (json_int_t)s.count, "min", (json_int_t)s.min_ns, "mean",
			 (json_int_t)s.mean_ns, "stddev", (json_int_t)s.stddev_ns, "p50",
			 (json_int_t)s.p50_ns, "p90", (json_int_t)s.p90_ns, "p99",
			 (json_int_t)s.p99_ns, "p999", (json_int_t)s.p999_ns, "p9999",
			 (json_int_t)s.p9999_ns, "max", (json_int_t)s.max_ns, "overflow",
			 (json_int_t)h->overflow, "underflow", (json_int_t)h->underflow, "negative",
			 (json_int_t)h->negative);
}

static void
append_bucket(void *ud, int64_t low_ns, int64_t high_ns, uint64_t count)
{
	json_array_append_new(ud, json_pack("[I, I, I]", (json_int_t)low_ns, (json_int_t)high_ns,
					    (json_int_t)count));
}

json_t *
al_json_histogram(const struct al_hist *h)
{
	json_t *buckets = json_array();

	al_hist_foreach(h, append_bucket, buckets);
	return json_pack("{s:I, s:I, s:I, s:I, s:o}", "count", (json_int_t)h->count, "overflow",
			 (json_int_t)h->overflow, "underflow", (json_int_t)h->underflow, "negative",
			 (json_int_t)h->negative, "buckets", buckets);
}

/*
 * A JSON string from a fixed-size field that may come from anywhere (a
 * stored result): bounded by the field, bytes outside printable ASCII
 * become '?', so the document stays valid UTF-8.
 */
static json_t *
field_str(const char *s, size_t size)
{
	char buf[256];
	size_t i, len = strnlen(s, size);

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	for (i = 0; i < len; i++)
		buf[i] = ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e) ? '?' : s[i];
	buf[len] = '\0';
	return json_string(buf);
}

json_t *
al_json_checks(const struct al_syscheck *c, int n)
{
	json_int_t ok = 0, warn = 0, fail = 0, skip = 0;
	json_t *arr;
	int i;

	arr = json_array();
	if (!arr)
		return NULL;
	for (i = 0; i < n; i++) {
		const struct al_syscheck *k = &c[i];
		json_t *o = json_object();
		char status[sizeof(k->status)];

		snprintf(status, sizeof(status), "%.*s", (int)strnlen(k->status, sizeof(k->status)),
			 k->status);
		if (!strcmp(status, "ok"))
			ok++;
		else if (!strcmp(status, "warn"))
			warn++;
		else if (!strcmp(status, "fail"))
			fail++;
		else {
			skip++;
			snprintf(status, sizeof(status), "skip");
		}
		if (!o || json_object_set_new(o, "id", field_str(k->id, sizeof(k->id))) ||
		    json_object_set_new(o, "status", json_string(status)) ||
		    json_object_set_new(o, "message", field_str(k->message, sizeof(k->message))) ||
		    json_object_set_new(o, "fix", field_str(k->fix, sizeof(k->fix)))) {
			json_decref(o);
			json_decref(arr);
			return NULL;
		}
		if (json_array_append_new(arr, o)) { /* o is released either way */
			json_decref(arr);
			return NULL;
		}
	}
	/* "o" hands arr over, also when packing fails */
	return json_pack("{s:I, s:I, s:I, s:I, s:o}", "ok", ok, "warn", warn, "fail", fail, "skip",
			 skip, "checks", arr);
}

json_t *
al_doc_new(const char *schema, const char *kind)
{
	json_t *doc = al_doc_new_plain(schema);

	if (doc && kind)
		json_object_set_new(doc, "kind", json_string(kind));
	if (doc)
		json_object_set_new(doc, "tool_version", json_string(AL_VERSION));
	return doc;
}

json_t *
al_doc_new_plain(const char *schema)
{
	json_t *doc = json_object();

	if (doc)
		json_object_set_new(doc, "schema", json_string(schema));
	return doc;
}

json_t *
al_doc_time(int64_t epoch_ns)
{
	char iso[40];

	al_clock_format_iso(epoch_ns, iso, sizeof(iso));
	return json_string(iso);
}

json_t *
al_doc_system(const struct al_sysinfo *s, const struct al_syscheck *checks, int n_checks)
{
	json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i, s:o}", "sysname",
			      al_json_text(s->sysname), "hostname", al_json_text(s->nodename),
			      "kernel_release", al_json_text(s->release), "kernel_version",
			      al_json_text(s->version), "machine", al_json_text(s->machine),
			      "preempt", al_json_text(s->preempt), "preempt_source",
			      al_json_text(s->preempt_source), "cpu_model",
			      al_json_text(s->cpu_model), "cpus", s->cpus, "clocksource",
			      al_json_text(s->clocksource));

	if (o && n_checks >= 0)
		json_object_set_new(o, "checks",
				    n_checks ? al_json_checks(checks, n_checks) : json_null());
	return o;
}

void
al_doc_cmdline(const char *prefix, int argc, char **argv, char *buf, size_t size)
{
	size_t used;
	int i;

	used = (size_t)snprintf(buf, size, "%s", prefix);
	for (i = 0; i < argc && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, " %s", argv[i]);
}
