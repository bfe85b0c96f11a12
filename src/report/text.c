/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text reporter: the report of a run, rendered from its document
 * (audiolat.run/2, or /1 whose wake latencies are per wake-up), which
 * `audiolat run` and `audiolat show` print the same (a MIDI result's:
 * midi-text.c); or the table of a comparison (compare.c, compare-midi.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/text.h"
#include "core/units.h"
#include "compare/compare.h"
#include "doc/view.h"
#include "core/format.h"
#include "midi.h"
#include "report.h"
#include "tail-text.h"
#include "text-imported.h"
#include "why-text.h"

#define BAR_WIDTH 40
#define XRUNS_SHOWN 10
#define SPIKES_SHOWN 5

/* The name a text from a document may be printed under: control characters become '?'. */
static const char *
safe(const char *s, char *buf, size_t size)
{
	al_text_term_safe(s ? s : "-", buf, size, size);
	return buf;
}

/* "1.234 ms" or "-" for what is not a number in the document. */
static void
fmt_ms(const json_t *o, const char *path, char *buf, size_t size)
{
	const json_t *v = al_doc_get(o, path);

	if (json_is_integer(v))
		snprintf(buf, size, "%.3f ms", (double)json_integer_value(v) / AL_NS_PER_MS);
	else
		snprintf(buf, size, "-");
}

static void
fmt_real(const json_t *o, const char *path, const char *fmt, char *buf, size_t size)
{
	const json_t *v = al_doc_get(o, path);

	if (json_is_number(v))
		snprintf(buf, size, fmt, json_number_value(v));
	else
		snprintf(buf, size, "-");
}

/* The integer at path, or "-" where the document has none (an imported run's tool did not count it). */
static void
int_cell(const json_t *o, const char *path, char *buf, size_t size)
{
	const json_t *v = al_doc_get(o, path);

	if (json_is_integer(v))
		snprintf(buf, size, "%" PRId64, (int64_t)json_integer_value(v));
	else
		snprintf(buf, size, "-");
}

/* The line a latencytest user recognises; "max latency" is the per-period wake latency. */
static void
latencytest_line(const json_t *doc, const json_t *st, FILE *f)
{
	char lat[32], pct[32], itv[32], f1[32], f2[32], xr[24];

	fmt_ms(st, "wake_latency_ns.max", lat, sizeof(lat));
	if (json_is_null(json_object_get(st, "wake_latency_ns")))
		snprintf(lat, sizeof(lat), "not measured");
	if (al_doc_per_period(doc))
		fmt_real(st, "max_latency_pct_of_buffer", "%.1f", pct, sizeof(pct));
	else /* a /1 document has the interval's share only */
		fmt_real(st, "max_interval_pct_of_buffer", "%.1f", pct, sizeof(pct));
	fmt_ms(st, "interval_ns.max", itv, sizeof(itv));
	fmt_real(st, "within_1ms_pct", "%.3f", f1, sizeof(f1));
	fmt_real(st, "within_2ms_pct", "%.3f", f2, sizeof(f2));
	int_cell(st, "xruns", xr, sizeof(xr));
	fprintf(f, "max latency=%s  factor=%s %% of buffer  max interval=%s  1MS factor=%s  "
		   "2MS factor=%s  xruns=%s\n",
		lat, pct, itv, f1, f2, xr);
}

static void
percentile_row(const char *name, const json_t *s, FILE *f)
{
	static const char *const cols[] = { "min", "mean", "p50", "p90", "p99", "p999", "p9999",
					    "max" };
	size_t c;

	if (!json_is_object(s)) { /* null: the tool that made it does not measure it */
		fprintf(f, "%-14s %12s\n", name, "not measured");
		return;
	}
	if (al_doc_int(s, "count", 0) <= 0) {
		fprintf(f, "%-14s %10s\n", name, "-");
		return;
	}
	fprintf(f, "%-14s", name);
	for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
		const json_t *v = json_object_get(s, cols[c]);

		if (json_is_integer(v))
			fprintf(f, " %10.1f", (double)json_integer_value(v) / AL_NS_PER_US);
		else
			fprintf(f, " %10s", "-");
	}
	fprintf(f, "\n");
}

/* Decade bins 1-2-5 from 1 us up to the first bin above max; negatives in a row of their own. */
static void
ascii_histogram(const json_t *hist, const json_t *summary, FILE *f)
{
	static const int64_t steps[] = { 1, 2, 5 };
	int64_t edges[64], counts[64], peak = 0, negative = 0;
	int64_t max_ns = al_doc_int(summary, "max", 0), min_ns = al_doc_int(summary, "min", 0);
	const json_t *b;
	int n = 0, i;
	size_t k;

	if (al_doc_int(hist, "count", 0) <= 0)
		return;
	edges[n++] = 0;
	for (int64_t dec = AL_NS_PER_US; n < 62; dec *= 10) {
		for (i = 0; i < 3 && n < 62; i++)
			edges[n++] = dec * steps[i];
		if (edges[n - 1] > max_ns)
			break;
	}
	memset(counts, 0, sizeof(counts));
	json_array_foreach(json_object_get(hist, "buckets"), k, b) {
		int64_t low = json_integer_value(json_array_get(b, 0));
		int64_t cnt = json_integer_value(json_array_get(b, 2));

		if (low < 0) {
			negative += cnt;
			continue;
		}
		for (i = n - 1; i > 0 && edges[i] > low; i--)
			;
		counts[i] += cnt;
	}
	negative += al_doc_int(hist, "underflow", 0);
	counts[n - 2] += al_doc_int(hist, "overflow", 0);
	for (i = 0; i < n; i++)
		if (counts[i] > peak)
			peak = counts[i];
	if (negative > peak)
		peak = negative;
	fprintf(f, "wake latency histogram (log scale):\n");
	if (negative)
		fprintf(f, "  %10s   %-10s %12" PRId64 " |%.*s\n", "below 0", "", negative,
			1 + (int)((BAR_WIDTH - 1) * log10((double)negative) /
				  fmax(1.0, log10((double)peak))),
			"########################################");
	for (i = 0; i + 1 < n; i++) {
		char lo[24], hi[24];
		int width = 0;

		if (!counts[i] && (edges[i] > max_ns || edges[i + 1] <= min_ns))
			continue;
		al_format_duration(edges[i], lo, sizeof(lo));
		al_format_duration(edges[i + 1], hi, sizeof(hi));
		if (counts[i])
			width = 1 + (int)((BAR_WIDTH - 1) * log10((double)counts[i]) /
					  fmax(1.0, log10((double)peak)));
		fprintf(f, "  %10s - %-10s %12" PRId64 " |%.*s\n", lo, hi, counts[i], width,
			"########################################");
	}
}

static void
phase_table(const json_t *doc, FILE *f)
{
	const json_t *phases = json_object_get(doc, "phases"), *ph, *m;
	char name[80], load[600], err[200], lat[32], pct[32], f1[32], f2[32], si[48];
	const char *key;
	size_t i;

	fprintf(f, "\n%-16s %9s %10s %9s %9s %9s %6s %6s %10s  %s\n", "phase", "periods",
		"max [ms]", "%buffer", "1MS", "2MS", "xruns", "lost", "p99 [us]", "load");
	json_array_foreach(phases, i, ph) {
		const json_t *p99 = al_doc_get(ph, "wake_latency_ns.p99");
		char p99s[32];

		if (json_is_integer(p99))
			snprintf(p99s, sizeof(p99s), "%.1f",
				 (double)json_integer_value(p99) / AL_NS_PER_US);
		else
			snprintf(p99s, sizeof(p99s), "-");
		lat[0] = '\0';
		if (json_is_integer(al_doc_get(ph, "wake_latency_ns.max")))
			snprintf(lat, sizeof(lat), "%.3f",
				 (double)al_doc_int(ph, "wake_latency_ns.max", 0) / AL_NS_PER_MS);
		else
			snprintf(lat, sizeof(lat), "-");
		fmt_real(ph, al_doc_per_period(doc) ? "max_latency_pct_of_buffer"
						    : "max_interval_pct_of_buffer", "%.1f", pct,
			 sizeof(pct));
		fmt_real(ph, "within_1ms_pct", "%.3f", f1, sizeof(f1));
		fmt_real(ph, "within_2ms_pct", "%.3f", f2, sizeof(f2));
		fprintf(f, "%-16s %9" PRId64 " %10s %9s %9s %9s %6" PRId64 " %6" PRId64 " %10s  %s",
			safe(al_doc_str(ph, "name", "?"), name, sizeof(name)),
			al_doc_int(ph, "periods", 0), lat, pct, f1, f2, al_doc_int(ph, "xruns", 0),
			al_doc_int(ph, "lost_periods", 0), p99s,
			safe(al_doc_str(ph, "load", "none"), load, sizeof(load)));
		if (al_doc_str(ph, "error", NULL))
			fprintf(f, "  FAILED: %s", safe(al_doc_str(ph, "error", ""), err, sizeof(err)));
		fprintf(f, "\n");
		json_object_foreach((json_t *)json_object_get(ph, "throughput"), key, m) {
			if (!json_is_number(json_object_get(m, "value")))
				continue;
			al_format_si(json_number_value(json_object_get(m, "value")),
				     al_doc_str(m, "unit", ""), si, sizeof(si));
			fprintf(f, "%-16s   %s=%s\n", "", safe(key, name, sizeof(name)), si);
		}
	}
}

/* The explained late wake-ups (--trace), worst first: what held the CPU. */
static void
spike_lines(const json_t *doc, bool verbose, FILE *f)
{
	const json_t *spikes = json_object_get(doc, "spikes"), *order[64], *s, *c;
	size_t n = json_array_size(spikes), shown, i, j, k;
	char lat[24], woken[24], on[24], dur[24], name[64];

	if (n > 64)
		n = 64;
	for (i = 0; i < n; i++) {
		s = json_array_get(spikes, i);
		for (j = i; j > 0 && al_doc_int(order[j - 1], "latency_ns", 0) <
					     al_doc_int(s, "latency_ns", 0); j--)
			order[j] = order[j - 1];
		order[j] = s;
	}
	shown = verbose ? n : (n < SPIKES_SHOWN ? n : SPIKES_SHOWN);
	fprintf(f, "\nlate wake-ups explained (%zu", n);
	if (al_doc_int(doc, "spikes_dropped", 0))
		fprintf(f, ", %" PRId64 " more not explained", al_doc_int(doc, "spikes_dropped", 0));
	fprintf(f, "), worst first:\n");
	for (i = 0; i < shown; i++) {
		int64_t latency_ns = al_doc_int(order[i], "latency_ns", 0);

		s = order[i];
		al_format_duration(latency_ns, lat, sizeof(lat));
		snprintf(woken, sizeof(woken), "?");
		snprintf(on, sizeof(on), "?");
		if (json_is_integer(json_object_get(s, "woken_ns")))
			al_format_duration(al_doc_int(s, "woken_ns", 0), woken, sizeof(woken));
		if (json_is_integer(json_object_get(s, "switched_in_ns")))
			al_format_duration(al_doc_int(s, "switched_in_ns", 0), on, sizeof(on));
		fprintf(f, "  at %.3f s: %s late; woken after %s, on the CPU after %s%s\n",
			(double)al_doc_int(s, "t_ns", 0) / AL_NS_PER_SEC, lat, woken, on,
			al_doc_bool(s, "truncated", false) ? " (events lost: may be incomplete)" : "");
		json_array_foreach(json_object_get(s, "causes"), k, c) {
			const char *kind = al_doc_str(c, "kind", "?");
			int64_t d_ns = al_doc_int(c, "duration_ns", 0), pid = al_doc_int(c, "pid", -1);

			al_format_duration(d_ns, dur, sizeof(dur));
			fprintf(f, "    %5.1f %%  %10s  %-10s %s", latency_ns > 0 ?
				100.0 * (double)d_ns / (double)latency_ns : 0.0, dur, kind,
				safe(al_doc_str(c, "name", "?"), name, sizeof(name)));
			if (pid >= 0 && (!strcmp(kind, "task") || !strcmp(kind, "self")))
				fprintf(f, " (pid %" PRId64 ")", pid);
			else if (pid >= 0 && !strcmp(kind, "irq"))
				fprintf(f, " (irq %" PRId64 ")", pid);
			fprintf(f, "\n");
		}
	}
	if (shown < n)
		fprintf(f, "... %zu more (-v lists them all)\n", n - shown);
}

/* --trace: the kernel's own wake-to-run histogram beside our per-wake-up figures. */
static void
kwake_line(const json_t *doc, FILE *f)
{
	const json_t *k = json_object_get(doc, "kernel_wake_to_run");
	char buf[256];

	if (!json_is_object(k))
		return;
	if (!al_doc_bool(k, "measured", false)) {
		fprintf(f, "kernel wake-to-run: %s\n", safe(al_doc_str(k, "note", "not made"), buf,
							     sizeof(buf)));
		return;
	}
	fprintf(f, "kernel wake-to-run (sched_waking -> sched_switch): %" PRId64 " wake-ups, p50 %"
		PRId64 " us, p99 %" PRId64 " us, max %" PRId64 " us; audiolat per wake-up: %" PRId64
		", max %" PRId64 " us: %s\n", al_doc_int(k, "count", 0),
		al_doc_int(k, "p50_ns", 0) / 1000, al_doc_int(k, "p99_ns", 0) / 1000,
		al_doc_int(k, "max_ns", 0) / 1000, al_doc_int(k, "ours_count", 0),
		al_doc_int(k, "ours_max_ns", 0) / 1000,
		al_doc_bool(k, "agree", false) ? "they agree (counts within 1 %, maxima within 20 us)"
					       : safe(al_doc_str(k, "note", "they diverge"), buf,
						      sizeof(buf)));
}

/* A real device: what it gave (and what was asked when that differs), its clocks, DSP load. */
static void
device_lines(const json_t *doc, FILE *f)
{
	const json_t *c = json_object_get(doc, "config"), *b = json_object_get(doc, "backend");
	char buf[256];
	int64_t req_rate = al_doc_int(c, "requested_rate", 0);

	if (al_doc_str(b, "detail", NULL))
		fprintf(f, "device: %s\n", safe(al_doc_str(b, "detail", ""), buf, sizeof(buf)));
	if (req_rate && (req_rate != al_doc_int(c, "rate", 0) ||
			 al_doc_int(c, "requested_period_frames", 0) != al_doc_int(c, "period_frames", 0) ||
			 al_doc_int(c, "requested_periods", 0) != al_doc_int(c, "periods", 0)))
		fprintf(f, "device gave %" PRId64 " Hz, %" PRId64 " x %" PRId64 " frames (asked %"
			   PRId64 " Hz, %" PRId64 " x %" PRId64 " frames)\n",
			al_doc_int(c, "rate", 0), al_doc_int(c, "periods", 0),
			al_doc_int(c, "period_frames", 0), req_rate,
			al_doc_int(c, "requested_periods", 0), al_doc_int(c, "requested_period_frames", 0));
	if (al_doc_str(b, "clock", NULL))
		fprintf(f, "clock: %s\n", safe(al_doc_str(b, "clock", ""), buf, sizeof(buf)));
	if (json_is_number(json_object_get(b, "dsp_load_mean_pct")))
		fprintf(f, "JACK DSP load: mean %.1f %%, max %.1f %%\n",
			al_doc_real(b, "dsp_load_mean_pct", 0), al_doc_real(b, "dsp_load_max_pct", 0));
	if (al_doc_int(b, "xrun_durations.fallback", 0))
		fprintf(f, "xrun durations: %" PRId64 " from the device's stamps, %" PRId64
			   " from the pointers (stamps rejected: %s)\n",
			al_doc_int(b, "xrun_durations.from_stamps", 0),
			al_doc_int(b, "xrun_durations.fallback", 0),
			safe(al_doc_str(b, "xrun_durations.last_reject", "?"), buf, sizeof(buf)));
}

static void
check_line(const json_t *doc, FILE *f)
{
	static const char *const status[4] = { "ok", "warn", "fail", "skip" };
	const json_t *checks = al_doc_get(doc, "system.checks.checks"), *k;
	char id[40];
	size_t i;

	if (!json_is_array(checks) || !json_array_size(checks))
		return;
	fprintf(f, "system check: ok=%" PRId64 " warn=%" PRId64 " fail=%" PRId64 " skip=%" PRId64,
		al_doc_int(doc, "system.checks.ok", 0), al_doc_int(doc, "system.checks.warn", 0),
		al_doc_int(doc, "system.checks.fail", 0), al_doc_int(doc, "system.checks.skip", 0));
	/* name what is not ok; `audiolat check` says how to fix it */
	for (int s = 2; s >= 1; s--) {
		if (!al_doc_int(doc, s == 2 ? "system.checks.fail" : "system.checks.warn", 0))
			continue;
		fprintf(f, "  %s:", status[s]);
		json_array_foreach(checks, i, k)
			if (!strcmp(al_doc_str(k, "status", ""), status[s]))
				fprintf(f, " %s", safe(al_doc_str(k, "id", "?"), id, sizeof(id)));
	}
	fprintf(f, "\n");
}

/* What a reader must know about the wake latencies: estimated boundaries, negatives, the view. */
static void
wake_notes(const json_t *doc, const json_t *st, FILE *f)
{
	const json_t *b = json_object_get(doc, "backend");
	int64_t total = al_doc_int(b, "boundaries.total", 0);
	int64_t est = al_doc_int(b, "boundaries.estimated", 0);
	int64_t neg = al_doc_int(st, "wake_latency_ns.negative", 0);
	int64_t missed = al_doc_int(st, "missed_periods", 0);
	char buf[200];

	if (!strcmp(al_doc_str(doc, "boundary", ""), "fitted"))
		fprintf(f, "wake jitter, not latency: no device or server clock gave the period "
			   "boundaries, a frame clock fitted to the earliest wake-ups did (a lateness "
			   "present when its line was drawn reads 0; docs/truth.md)\n");
	if (al_doc_imported_from(doc) && !json_is_object(json_object_get(st, "wake_latency_ns"))) {
		fprintf(f, "(imported from %s: it measures no wake latency; docs/interchange.md)\n",
			safe(al_doc_imported_from(doc), buf, sizeof(buf)));
		return;
	}
	if (al_doc_imported_from(doc)) {
		fprintf(f, "(imported from %s: its wake latencies count wake-ups only, as it measures "
			   "them; docs/interchange.md)\n",
			safe(al_doc_imported_from(doc), buf, sizeof(buf)));
		return;
	}
	if (!al_doc_per_period(doc)) {
		fprintf(f, "(an audiolat.run/1 result: its wake latencies count wake-ups only, not "
			   "the periods a stall swallowed)\n");
		return;
	}
	if (missed > 0)
		fprintf(f, "wake latency: per period due, the %" PRId64 " missed until the thread ran "
			   "again; per wake-up: as cyclictest\n", missed);
	if (total > 0 && est > 0)
		fprintf(f, "wake latency: %" PRId64 " of %" PRId64 " boundaries estimated (%s)\n",
			est, total, safe(al_doc_str(b, "boundaries.how", "?"), buf, sizeof(buf)));
	if (neg > 0)
		fprintf(f, "wake latency: %" PRId64 " negative (%s)\n", neg,
			safe(al_doc_str(b, "negative_cause", "the boundary was estimated late"), buf,
			     sizeof(buf)));
}

static void cause_text(const json_t *c, bool clients, char *out, size_t size);

/* The blame is JACK's (its clients' threads traced): clients, pids, periods. */
static bool
client_blame(const json_t *doc)
{
	return !strcmp(al_doc_str(doc, "graph.source", ""), "jack-trace");
}

/* An xrun's causes in the graph (-b pipewire's blame), when it has them. */
static void
blame_line(const json_t *e, int64_t quantum_ns, bool clients, FILE *f)
{
	const json_t *bl = json_object_get(e, "blame");
	char cause[160];
	size_t k;

	if (!json_is_array(bl))
		return;
	fprintf(f, "  xrun at %.3f s:", (double)al_doc_int(e, "t_ns", 0) / AL_NS_PER_SEC);
	if (!json_array_size(bl))
		fprintf(f, " unattributed (no %s was late with it)",
			clients ? "client followed" : "node of the graph");
	for (k = 0; k < json_array_size(bl); k++) {
		cause_text(json_array_get(bl, k), clients, cause, sizeof(cause));
		fprintf(f, "%s %s", k ? ";" : "", cause);
	}
	fprintf(f, " of a %.3f ms %s", (double)quantum_ns / AL_NS_PER_MS,
		clients ? "period" : "quantum");
	if (json_array_size(bl))
		fprintf(f, " [%s, tied to it by time overlap]",
			al_doc_str(json_array_get(bl, 0), "evidence", "?"));
	fprintf(f, "\n");
}

static void
xrun_lines(const json_t *doc, bool verbose, FILE *f)
{
	const json_t *events = json_object_get(doc, "xrun_events"), *e;
	size_t n = json_array_size(events), shown, i;
	bool capture = al_doc_bool(doc, "config.capture", false);
	bool phased = json_array_size(json_object_get(doc, "phases")) > 1;
	char phase[80];

	if (!n)
		return;
	shown = verbose ? n : (n < XRUNS_SHOWN ? n : XRUNS_SHOWN);
	fprintf(f, "\n");
	for (i = 0; i < shown; i++) {
		e = json_array_get(events, i);
		fprintf(f, "%s!!! (at least %.3f ms long) at %.3f s, %" PRId64 " period(s) lost%s%s\n",
			capture ? "overrun" : "underrun",
			(double)al_doc_int(e, "duration_ns", 0) / AL_NS_PER_MS,
			(double)al_doc_int(e, "t_ns", 0) / AL_NS_PER_SEC,
			al_doc_int(e, "lost_periods", 0), phased ? ", phase " : "",
			phased ? safe(al_doc_str(e, "phase", "?"), phase, sizeof(phase)) : "");
		blame_line(e, al_doc_int(doc, "config.period_ns", 0), client_blame(doc), f);
	}
	if (shown < n)
		fprintf(f, "... %zu more xruns (-v lists them all)\n", n - shown);
}

/*
 * The server's notifications that matched no span of ours (docs/truth.md,
 * "One xrun definition"): another client's or the driver's, never our
 * underrun.
 */
static void
server_reported_line(const json_t *doc, FILE *f)
{
	const json_t *events = json_object_get(doc, "server_reported");
	size_t n = json_array_size(events), i;
	int64_t longest_ns = 0;

	if (!n)
		return;
	for (i = 0; i < n; i++)
		if (al_doc_int(json_array_get(events, i), "duration_ns", 0) > longest_ns)
			longest_ns = al_doc_int(json_array_get(events, i), "duration_ns", 0);
	fprintf(f, "server reported %zu xrun(s) in cycles that served us (not ours: another "
		   "client or the driver; the longest %.3f ms late)\n", n,
		(double)longest_ns / AL_NS_PER_MS);
	for (i = 0; i < n && i < XRUNS_SHOWN; i++)
		blame_line(json_array_get(events, i), al_doc_int(doc, "config.period_ns", 0),
			   client_blame(doc), f);
}

/* " %10.1f" microseconds of the integer at path, or " %10s" "-". */
static void
fmt_us_cell(const json_t *o, const char *path, FILE *f)
{
	const json_t *v = al_doc_get(o, path);

	if (json_is_integer(v))
		fprintf(f, " %10.1f", (double)json_integer_value(v) / AL_NS_PER_US);
	else
		fprintf(f, " %10s", "-");
}

/*
 * "node 'NAME' (id N) busy X ms" for one cause of a late cycle or an xrun
 * (docs/pipewire.md); JACK's clients (docs/jack.md): "client 'NAME' (pid N)
 * ran X ms", or "woken, waited X ms for a CPU"; "task 'NAME' (pid N) held
 * its CPU X ms" for what preempted the client before it ("irq 'NAME' (irq
 * N)", "softirq 'NET_RX'" for an interrupt that did).
 */
static void
cause_text(const json_t *c, bool clients, char *out, size_t size)
{
	char name[AL_NAME_MAX + 8];
	const char *state = al_doc_str(c, "state", "?"), *kind = al_doc_str(c, "kind", "task");

	safe(al_doc_str(c, "name", "?"), name, sizeof(name));
	if (clients && !strcmp(state, "preempting") && !strcmp(kind, "softirq"))
		snprintf(out, size, "softirq '%s' held its CPU %.3f ms", name,
			 (double)al_doc_int(c, "busy_ns", 0) / AL_NS_PER_MS);
	else if (clients && !strcmp(state, "preempting") && !strcmp(kind, "irq") &&
		 al_doc_int(c, "id", -1) >= 0)
		snprintf(out, size, "irq '%s' (irq %" PRId64 ") held its CPU %.3f ms", name,
			 al_doc_int(c, "id", 0), (double)al_doc_int(c, "busy_ns", 0) / AL_NS_PER_MS);
	else if (clients && !strcmp(state, "preempting") && !strcmp(kind, "irq"))
		snprintf(out, size, "irq '%s' held its CPU %.3f ms", name,
			 (double)al_doc_int(c, "busy_ns", 0) / AL_NS_PER_MS);
	else if (clients && !strcmp(state, "preempting"))
		snprintf(out, size, "task '%s' (pid %" PRId64 ") held its CPU %.3f ms", name,
			 al_doc_int(c, "id", 0), (double)al_doc_int(c, "busy_ns", 0) / AL_NS_PER_MS);
	else if (clients && !strcmp(state, "triggered"))
		snprintf(out, size, "client '%s' (pid %" PRId64 ") woken, waited %.3f ms for a CPU%s",
			 name, al_doc_int(c, "id", 0), (double)al_doc_int(c, "wait_ns", 0) / AL_NS_PER_MS,
			 al_doc_bool(c, "self", false) ? " (audiolat)" : "");
	else if (clients)
		snprintf(out, size, "client '%s' (pid %" PRId64 ") ran %.3f ms%s", name,
			 al_doc_int(c, "id", 0), (double)al_doc_int(c, "busy_ns", 0) / AL_NS_PER_MS,
			 al_doc_bool(c, "self", false) ? " (audiolat)" : "");
	else if (al_doc_bool(c, "driver", false))
		snprintf(out, size, "driver '%s' (id %" PRId64 ") began it %.3f ms late", name,
			 al_doc_int(c, "id", 0), (double)al_doc_int(c, "wait_ns", 0) / AL_NS_PER_MS);
	else if (!strcmp(state, "triggered") && al_doc_int(c, "busy_ns", 0) <= 0)
		snprintf(out, size, "node '%s' (id %" PRId64 ") signalled, not yet running%s", name,
			 al_doc_int(c, "id", 0), al_doc_bool(c, "self", false) ? " (audiolat)" : "");
	else
		snprintf(out, size, "node '%s' (id %" PRId64 ") busy %s%.3f ms%s", name,
			 al_doc_int(c, "id", 0), al_doc_bool(c, "busy_at_least", false) ? "at least " : "",
			 (double)al_doc_int(c, "busy_ns", 0) / AL_NS_PER_MS,
			 al_doc_bool(c, "self", false) ? " (audiolat)" : "");
}

/* Graph blame: the late cycles and their causes, each node's WAIT/BUSY. */
static void
graph_lines(const json_t *doc, bool verbose, FILE *f)
{
	const json_t *g = json_object_get(doc, "graph"), *late, *lc, *n;
	char buf[256], cause[160];
	size_t i, shown, k;

	if (!json_is_object(g))
		return;
	fprintf(f, "\n");
	if (!al_doc_bool(g, "active", false)) {
		fprintf(f, "graph blame: none (%s)\n",
			safe(al_doc_str(g, "note", "no profiler"), buf, sizeof(buf)));
		return;
	}
	late = json_object_get(g, "late_cycles");
	fprintf(f, "graph blame (%s): driver '%s', %" PRId64 " cycles, %" PRId64 " late (%" PRId64
		   " not complete by their deadline, %" PRId64 " begun late), %" PRId64
		   " driver xruns\n",
		safe(al_doc_str(g, "source", "?"), cause, sizeof(cause)),
		safe(al_doc_str(g, "driver.name", "?"), buf, sizeof(buf)), al_doc_int(g, "cycles", 0),
		(int64_t)json_array_size(late), al_doc_int(g, "incomplete", 0),
		al_doc_int(g, "late_starts", 0), al_doc_int(g, "driver_xruns", 0));
	shown = json_array_size(late);
	if (!verbose && shown > XRUNS_SHOWN)
		shown = XRUNS_SHOWN;
	for (i = 0; i < shown; i++) {
		const json_t *causes;

		lc = json_array_get(late, i);
		causes = json_object_get(lc, "causes");
		fprintf(f, "late cycle at %.3f s, %.3f ms past its deadline:",
			(double)al_doc_int(lc, "t_ns", 0) / AL_NS_PER_SEC,
			(double)al_doc_int(lc, "late_ns", 0) / AL_NS_PER_MS);
		if (!json_array_size(causes))
			fprintf(f, " no node named (all had finished or not begun)");
		for (k = 0; k < json_array_size(causes); k++) {
			cause_text(json_array_get(causes, k), client_blame(doc), cause, sizeof(cause));
			fprintf(f, "%s %s", k ? ";" : "", cause);
		}
		fprintf(f, " of a %.3f ms %s\n", (double)al_doc_int(lc, "quantum_ns", 0) / AL_NS_PER_MS,
			client_blame(doc) ? "period" : "quantum");
	}
	if (shown < json_array_size(late))
		fprintf(f, "... %zu more late cycles (-v lists them all)\n",
			json_array_size(late) - shown);
	fprintf(f, "%-24s %8s %8s %8s %8s %10s %10s %10s %10s\n", "node [us]", "id", "runs",
		"unfin.", "blamed", "wait p50", "wait p99", "busy p50", "busy p99");
	json_array_foreach(json_object_get(g, "nodes"), i, n) {
		char name[AL_NAME_MAX + 16];

		snprintf(name, sizeof(name), "%s%s", al_doc_str(n, "name", "?"),
			 al_doc_bool(n, "self", false) ? " (audiolat)"
			 : al_doc_bool(n, "driver", false) ? " (driver)" : "");
		fprintf(f, "%-24s %8" PRId64 " %8" PRId64 " %8" PRId64 " %8" PRId64, safe(name, buf, 25),
			al_doc_int(n, "id", 0), al_doc_int(n, "runs", 0), al_doc_int(n, "unfinished", 0),
			al_doc_int(n, "blamed", 0));
		fmt_us_cell(n, "wait_ns.p50", f);
		fmt_us_cell(n, "wait_ns.p99", f);
		fmt_us_cell(n, "busy_ns.p50", f);
		fmt_us_cell(n, "busy_ns.p99", f);
		fprintf(f, "\n");
	}
}

/* One run's report: the configuration, the latencytest line, percentiles, phases, xruns... */
static void
run_text(const json_t *doc, const struct al_report_input *o, FILE *f)
{
	const json_t *st = json_object_get(doc, "total"), *c = json_object_get(doc, "config"), *w;
	const json_t *phases = json_object_get(doc, "phases");
	char margin[32], buf[256];
	bool per_period = al_doc_per_period(doc);
	bool fitted = !strcmp(al_doc_str(doc, "boundary", ""), "fitted");
	size_t i;

	if (al_doc_imported_from(doc)) {
		al__text_imported(doc, f);
	} else {
	fprintf(f, "backend=%s rate=%" PRId64 " Hz  %" PRId64 " x %" PRId64 " frames  period=%.3f ms  "
		   "buffer=%.3f ms  cpu load=%" PRId64 " %%  %s\n",
		safe(al_doc_str(c, "backend", "?"), buf, sizeof(buf)), al_doc_int(c, "rate", 0),
		al_doc_int(c, "periods", 0), al_doc_int(c, "period_frames", 0),
		(double)al_doc_int(c, "period_ns", 0) / AL_NS_PER_MS,
		(double)al_doc_int(c, "buffer_ns", 0) / AL_NS_PER_MS, al_doc_int(c, "cpu_load_pct", 0),
		al_doc_bool(doc, "realtime", false) ? "SCHED_FIFO" : "SCHED_OTHER (not real-time)");
	if (al_doc_bool(doc, "realtime", false))
		fprintf(f, "priority=%" PRId64 "  ", al_doc_int(doc, "priority", 0));
	}
	fprintf(f, "kernel %s", safe(al_doc_str(doc, "system.kernel_release", "?"), buf, sizeof(buf)));
	if (json_is_integer(json_object_get(doc, "duration_ns")))
		snprintf(margin, sizeof(margin), "%.3f s",
			 (double)al_doc_int(doc, "duration_ns", 0) / AL_NS_PER_SEC);
	else
		snprintf(margin, sizeof(margin), "-");
	fprintf(f, " (preempt: %s)  duration=%s%s\n",
		safe(al_doc_str(doc, "system.preempt", "?"), buf, sizeof(buf)), margin,
		al_doc_bool(doc, "interrupted", false) ? "  (interrupted)" : "");
	device_lines(doc, f);
	check_line(doc, f);
	json_array_foreach(json_object_get(doc, "warnings"), i, w)
		fprintf(f, "warning: %s\n", safe(json_string_value(w), buf, sizeof(buf)));
	fprintf(f, "\n");
	latencytest_line(doc, st, f);
	if (json_is_integer(json_object_get(st, "min_margin_ns")))
		al_format_duration(al_doc_int(st, "min_margin_ns", 0), margin, sizeof(margin));
	else
		snprintf(margin, sizeof(margin), "-");
	if (al_doc_imported_from(doc)) {
		char pd[24], wk[24], ms[24], lp[24];

		int_cell(st, "periods", pd, sizeof(pd));
		int_cell(st, "wakeups", wk, sizeof(wk));
		int_cell(st, "missed_periods", ms, sizeof(ms));
		int_cell(st, "lost_periods", lp, sizeof(lp));
		fprintf(f, "periods=%s  wake-ups=%s  missed periods=%s  lost periods=%s  min margin=%s"
			   "\n\n", pd, wk, ms, lp, margin);
	} else if (per_period)
		fprintf(f, "periods=%" PRId64 "  wake-ups=%" PRId64 "  missed periods=%" PRId64
			   "  lost periods=%" PRId64 "  min margin=%s\n\n",
			al_doc_int(st, "periods", 0), al_doc_int(st, "wakeups", 0),
			al_doc_int(st, "missed_periods", 0), al_doc_int(st, "lost_periods", 0), margin);
	else
		fprintf(f, "periods=%" PRId64 "  missed periods=%" PRId64 "  lost periods=%" PRId64
			   "  min margin=%s\n\n",
			al_doc_int(st, "periods", 0), al_doc_int(st, "missed_periods", 0),
			al_doc_int(st, "lost_periods", 0), margin);
	fprintf(f, "%-14s %10s %10s %10s %10s %10s %10s %10s %10s\n", "[us]", "min", "mean",
		"p50", "p90", "p99", "p99.9", "p99.99", "max");
	percentile_row(fitted ? "wake jitter" : "wake latency", json_object_get(st, "wake_latency_ns"),
		       f);
	if (per_period)
		percentile_row("  per wake-up", json_object_get(st, "wake_latency_per_wakeup_ns"), f);
	percentile_row("interval", json_object_get(st, "interval_ns"), f);
	percentile_row("work", json_object_get(st, "work_ns"), f);
	wake_notes(doc, st, f);
	if (json_array_size(phases) > 1)
		phase_table(doc, f);
	else if (al_doc_str(json_array_get(phases, 0), "error", NULL))
		fprintf(f, "load FAILED: %s\n",
			safe(al_doc_str(json_array_get(phases, 0), "error", ""), buf, sizeof(buf)));
	al__tail_text(doc, f);
	xrun_lines(doc, o->verbose, f);
	server_reported_line(doc, f);
	graph_lines(doc, o->verbose, f);
	if (json_array_size(json_object_get(doc, "spikes")))
		spike_lines(doc, o->verbose, f);
	kwake_line(doc, f);
	al__why_text(doc, o->why, f);
	if (!o->no_histogram) {
		fprintf(f, "\n");
		ascii_histogram(al_doc_get(st, "histogram.wake_latency_ns"),
				json_object_get(st, "wake_latency_ns"), f);
	}
}

/* audiolat show: when and where it ran; a run's load and how it was started too. */
static void
provenance_lines(const json_t *doc, FILE *f)
{
	char a[128], b[128], c[1024];

	if (!al_doc_is_run(doc)) {
		if (json_is_string(al_doc_get(doc, "started_at")))
			fprintf(f, "started:   %s\n", safe(al_doc_str(doc, "started_at", "-"), a, sizeof(a)));
		if (json_is_object(al_doc_get(doc, "system")))
			fprintf(f, "system:    %s  %s (preempt: %s)\n",
				safe(al_doc_str(doc, "system.hostname", "-"), a, sizeof(a)),
				safe(al_doc_str(doc, "system.kernel_release", "-"), b, sizeof(b)),
				safe(al_doc_str(doc, "system.preempt", "-"), c, 128));
		return;
	}
	fprintf(f, "started:   %s\n", safe(al_doc_str(doc, "started_at", "-"), a, sizeof(a)));
	fprintf(f, "system:    %s  %s  %" PRId64 " CPUs  %s\n",
		safe(al_doc_str(doc, "system.hostname", "-"), a, sizeof(a)),
		safe(al_doc_str(doc, "system.machine", "-"), b, sizeof(b)),
		al_doc_int(doc, "system.cpus", 0),
		safe(al_doc_str(doc, "system.cpu_model", ""), c, sizeof(c)));
	fprintf(f, "load:      %s\n", safe(al_doc_str(doc, "config.load", "none"), a, sizeof(a)));
	fprintf(f, "command:   %s\n", safe(al_doc_str(doc, "cmdline", "-"), c, sizeof(c)));
	fprintf(f, "\n");
}

static int
text_write(const struct al_report_input *in, FILE *f)
{
	size_t i;

	if (in->compare) {
		if (!strcmp(al_doc_str(in->compare, "schema", ""), AL_SCHEMA_COMPARE_MIDI))
			al_compare_midi_table(in->compare, false, f);
		else if (!strcmp(al_doc_str(in->compare, "schema", ""), AL_SCHEMA_COMPARE_GROUPS))
			al_compare_groups_text(in->compare, false, f);
		else
			al_compare_text(in->compare, f);
		return ferror(f) ? -EIO : 0;
	}
	for (i = 0; i < in->n && !in->provenance; i++)
		if (!al_doc_is_run(in->docs[i].doc) && !al__midi_doc(in->docs[i].doc))
			return -EINVAL;
	for (i = 0; i < in->n; i++) {
		if (i)
			fputc('\n', f);
		if (in->provenance)
			provenance_lines(in->docs[i].doc, f);
		if (al_doc_is_run(in->docs[i].doc))
			run_text(in->docs[i].doc, in, f);
		else if (al__midi_doc(in->docs[i].doc))
			al__midi_text(f, in->docs[i].doc, in);
	}
	return ferror(f) ? -EIO : 0;
}

const struct al_reporter al_reporter_text = {
	.name = "text",
	.file_ext = "txt",
	.summary = "the report for a terminal: a run's figures and tables, or the comparison",
	.write = text_write,
};
