/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat show ID: a concise summary of one saved result, from its JSON. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/clock.h"
#include "core/text.h"
#include "core/units.h"
#include "store/store.h"
#include "cli.h"
#include "cli-store.h"
#include "commands.h"

#define XRUNS_SHOWN 10

static const char help[] =
	"usage: audiolat show [options] ID\n"
	"\n"
	"Print a summary of the result saved under ID (audiolat history lists them):\n"
	"label, system, configuration, the latencytest line, the percentile table,\n"
	"phases, xruns and warnings. audiolat export ID prints the whole document.\n"
	"\n"
	"      --db PATH          the database (default $XDG_DATA_HOME/audiolat/results.db)\n"
	"  -h, --help             this text\n"
	"\n"
	"exit status: 0 done, 1 runtime error (no such id, a database error),\n"
	"2 usage error\n";

static const struct option long_opts[] = {
	{ "db", required_argument, NULL, CLI_OPT_DB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* doc.a.b ("total.wake_latency_ns"), NULL when missing. */
static json_t *
jget(json_t *o, const char *path)
{
	char key[64];
	const char *dot;
	size_t n;

	while (o && path) {
		dot = strchr(path, '.');
		n = dot ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		o = json_object_get(o, key);
		path = dot ? dot + 1 : NULL;
	}
	return o;
}

/*
 * Text from a saved document (which may have been imported from anywhere)
 * made safe for the terminal: control characters become '?'. The copy
 * lives in one of a few rotating buffers, enough for one printf.
 */
static const char *
safe(const char *s)
{
	static char bufs[12][512];
	static unsigned next;
	char *b = bufs[next++ % 12];

	al_text_term_safe(s, b, sizeof(bufs[0]), sizeof(bufs[0]));
	return b;
}

static const char *
jstr(json_t *o, const char *path, const char *none)
{
	const char *s = json_string_value(jget(o, path));

	return safe(s ? s : none);
}

static int64_t
jint(json_t *o, const char *path)
{
	return (int64_t)json_integer_value(jget(o, path)); /* 0 when missing */
}

static double
jnum(json_t *o, const char *path)
{
	return json_number_value(jget(o, path));
}

static void
dur(json_t *o, const char *path, char *buf, size_t size)
{
	json_t *j = jget(o, path);

	if (json_is_integer(j))
		al_format_duration((int64_t)json_integer_value(j), buf, size);
	else
		snprintf(buf, size, "-");
}

/* The latencytest line, the counts and the percentile table of a <stats> object. */
static void
stats_block(json_t *st)
{
	static const char *const cols[] = { "min", "mean", "p50", "p90", "p99", "p999", "p9999",
					    "max" };
	static const struct {
		const char *key, *name;
	} rows[] = {
		{ "wake_latency_ns", "wake latency" },
		{ "interval_ns", "interval" },
		{ "work_ns", "work" },
	};
	char margin[32];

	printf("max latency=%.3f ms  factor=%.1f %% of buffer  1MS factor=%.3f  2MS factor=%.3f  "
	       "xruns=%" PRId64 "\n",
	       (double)jint(st, "interval_ns.max") / AL_NS_PER_MS,
	       jnum(st, "max_interval_pct_of_buffer"), jnum(st, "within_1ms_pct"),
	       jnum(st, "within_2ms_pct"), jint(st, "xruns"));
	dur(st, "min_margin_ns", margin, sizeof(margin));
	printf("periods=%" PRId64 "  missed periods=%" PRId64 "  lost periods=%" PRId64
	       "  min margin=%s\n\n",
	       jint(st, "periods"), jint(st, "missed_periods"), jint(st, "lost_periods"), margin);
	printf("%-14s %10s %10s %10s %10s %10s %10s %10s %10s\n", "[us]", "min", "mean", "p50",
	       "p90", "p99", "p99.9", "p99.99", "max");
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		json_t *s = json_object_get(st, rows[r].key);

		if (!jint(s, "count")) {
			printf("%-14s %10s\n", rows[r].name, "-");
			continue;
		}
		printf("%-14s", rows[r].name);
		for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
			printf(" %10.1f", (double)jint(s, cols[c]) / AL_NS_PER_US);
		printf("\n");
	}
}

static void
phases_block(json_t *phases)
{
	size_t i;
	json_t *ph;

	printf("\n%-16s %9s %10s %9s %9s %9s %6s %6s %10s  %s\n", "phase", "periods", "max [ms]",
	       "%buffer", "1MS", "2MS", "xruns", "lost", "p99 [us]", "load");
	json_array_foreach(phases, i, ph) {
		printf("%-16s %9" PRId64 " %10.3f %9.1f %9.3f %9.3f %6" PRId64 " %6" PRId64
		       " %10.1f  %s%s%s\n",
		       jstr(ph, "name", "?"), jint(ph, "periods"),
		       (double)jint(ph, "interval_ns.max") / AL_NS_PER_MS,
		       jnum(ph, "max_interval_pct_of_buffer"), jnum(ph, "within_1ms_pct"),
		       jnum(ph, "within_2ms_pct"), jint(ph, "xruns"), jint(ph, "lost_periods"),
		       (double)jint(ph, "wake_latency_ns.p99") / AL_NS_PER_US,
		       jstr(ph, "load", "-"), json_is_string(jget(ph, "error")) ? "  FAILED: " : "",
		       jstr(ph, "error", ""));
	}
}

static void
show_run(json_t *doc)
{
	json_t *events = json_object_get(doc, "xrun_events"), *ev, *w;
	size_t i, n_ev = json_array_size(events);
	int64_t prio = jint(doc, "priority");

	printf("started:   %s  duration=%.3f s%s\n", jstr(doc, "started_at", "-"),
	       (double)jint(doc, "duration_ns") / AL_NS_PER_SEC,
	       json_is_true(jget(doc, "interrupted")) ? "  (interrupted)" : "");
	printf("system:    %s  %s %s (preempt: %s)  %s  %" PRId64 " CPUs  %s\n",
	       jstr(doc, "system.hostname", "-"), jstr(doc, "system.sysname", "-"),
	       jstr(doc, "system.kernel_release", "-"), jstr(doc, "system.preempt", "-"),
	       jstr(doc, "system.machine", "-"), jint(doc, "system.cpus"),
	       jstr(doc, "system.cpu_model", ""));
	printf("stream:    backend=%s%s%s rate=%" PRId64 " Hz  %" PRId64 " x %" PRId64
	       " frames  period=%.3f ms  buffer=%.3f ms  cpu load=%" PRId64 " %%\n",
	       jstr(doc, "config.backend", "-"), json_is_string(jget(doc, "config.device")) ?
							 " device=" : "",
	       jstr(doc, "config.device", ""), jint(doc, "config.rate"),
	       jint(doc, "config.periods"), jint(doc, "config.period_frames"),
	       (double)jint(doc, "config.period_ns") / AL_NS_PER_MS,
	       (double)jint(doc, "config.buffer_ns") / AL_NS_PER_MS,
	       jint(doc, "config.cpu_load_pct"));
	if (json_is_true(jget(doc, "realtime")))
		printf("scheduling: SCHED_FIFO priority=%" PRId64 "%s\n", prio,
		       json_is_true(jget(doc, "memory_locked")) ? "  memory locked" : "");
	else
		printf("scheduling: SCHED_OTHER (not real-time)\n");
	printf("load:      %s\n", jstr(doc, "config.load", "none"));
	printf("command:   %s\n", jstr(doc, "cmdline", "-"));
	json_array_foreach(json_object_get(doc, "warnings"), i, w)
		printf("warning: %s\n", safe(json_string_value(w) ? json_string_value(w) : "?"));
	printf("\n");
	stats_block(json_object_get(doc, "total"));
	if (json_array_size(json_object_get(doc, "phases")) > 1)
		phases_block(json_object_get(doc, "phases"));
	if (n_ev) {
		printf("\n");
		json_array_foreach(events, i, ev) {
			if (i == XRUNS_SHOWN)
				break;
			printf("underrun!!! (at least %.3f ms long) at %.3f s, %" PRId64
			       " period(s) lost, phase %s\n",
			       (double)jint(ev, "duration_ns") / AL_NS_PER_MS,
			       (double)jint(ev, "t_ns") / AL_NS_PER_SEC, jint(ev, "lost_periods"),
			       jstr(ev, "phase", "?"));
		}
		if (n_ev > XRUNS_SHOWN)
			printf("... %zu more xruns (audiolat export shows them all)\n",
			       n_ev - XRUNS_SHOWN);
	}
}

static int
show_entry(const struct al_store_entry *e, void *ud)
{
	(void)ud;
	printf("result %lld: %s, saved %s (%s)\n", (long long)e->id, safe(e->schema),
	       safe(e->saved_at), safe(e->source));
	if (e->label[0])
		printf("label:     %s\n", safe(e->label));
	return 1;
}

int
cmd_show(int argc, char **argv)
{
	struct al_store_filter f = { 0 };
	struct al_store *db = NULL;
	const char *db_opt = NULL;
	char path[PATH_MAX], *text = NULL;
	json_error_t jerr;
	json_t *doc;
	int64_t id;
	int opt, rc, ret;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		switch (opt) {
		default:
			rc = cli_store_opt("show", opt, help, argv, &db_opt);
			if (rc != CLI_OPT_NEXT)
				return rc;
			break;
		}
	}
	ret = cli_store_fetch_arg("show", db_opt, argc, argv, optind, &text, &db, &id, path,
				  sizeof(path));
	if (ret)
		goto out;
	doc = json_loads(text, 0, &jerr);
	if (!doc) { /* saved documents were checked: the file was changed behind our back */
		ret = cli_cmd_error(AL_EXIT_RUNTIME, "show", "%s: result %lld: %d:%d: invalid JSON: %s",
				    path, (long long)id, jerr.line, jerr.column, jerr.text);
		goto out;
	}
	f.id = id;
	rc = al_store_list(db, &f, show_entry, NULL);
	if (rc < 0) {
		ret = cli_cmd_error(AL_EXIT_RUNTIME, "show", "%s: %s", path, al_store_error(db));
		json_decref(doc);
		goto out;
	}
	if (!strcmp(jstr(doc, "schema", ""), "audiolat.run/1")) {
		show_run(doc);
	} else {
		if (json_is_string(jget(doc, "started_at")))
			printf("started:   %s\n", jstr(doc, "started_at", "-"));
		if (json_is_object(jget(doc, "system")))
			printf("system:    %s  %s (preempt: %s)\n", jstr(doc, "system.hostname", "-"),
			       jstr(doc, "system.kernel_release", "-"),
			       jstr(doc, "system.preempt", "-"));
		printf("%zu bytes of JSON; audiolat export %lld prints it\n", strlen(text),
		       (long long)id);
	}
	json_decref(doc);
	ret = AL_EXIT_OK;
out:
	free(text);
	al_store_close(db);
	return ret;
}
