/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "core/clock.h"
#include "core/stats.h"
#include "core/units.h"
#include "report.h"

#define BAR_WIDTH 40
#define XRUNS_SHOWN 10
#define SPIKES_SHOWN 5

static double
ms(int64_t ns)
{
	return (double)ns / AL_NS_PER_MS;
}

static double
us(int64_t ns)
{
	return (double)ns / AL_NS_PER_US;
}

/* The line a latencytest user recognises. */
static void
latencytest_line(const struct al_result *r, const struct al_period_stats *st, FILE *f)
{
	fprintf(f, "max latency=%.3f ms  factor=%.1f %% of buffer  1MS factor=%.3f  "
		   "2MS factor=%.3f  xruns=%" PRIu64 "\n",
		ms(st->interval_ns.count ? st->interval_ns.max_ns : 0),
		al_stats_max_interval_pct(st, r->buffer_ns), al_stats_within_pct(st, 1),
		al_stats_within_pct(st, 2), st->xruns);
}

static void
percentile_row(const char *name, const struct al_hist *h, FILE *f)
{
	struct al_summary s;

	al_stats_summarize(h, &s);
	if (!s.count) {
		fprintf(f, "%-14s %10s\n", name, "-");
		return;
	}
	fprintf(f, "%-14s %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f\n", name,
		us(s.min_ns), us(s.mean_ns), us(s.p50_ns), us(s.p90_ns), us(s.p99_ns),
		us(s.p999_ns), us(s.p9999_ns), us(s.max_ns));
}

/* Decade bins 1-2-5 from 1 us up to the first bin above max. */
static void
ascii_histogram(const struct al_hist *h, FILE *f)
{
	static const int64_t steps[] = { 1, 2, 5 };
	int64_t edges[64], counts[64], peak = 0;
	int n = 0, i, b;

	if (!h->count)
		return;
	edges[n++] = 0;
	for (int64_t dec = AL_NS_PER_US; n < 62; dec *= 10) {
		for (i = 0; i < 3 && n < 62; i++)
			edges[n++] = dec * steps[i];
		if (edges[n - 1] > h->max_ns)
			break;
	}
	memset(counts, 0, sizeof(counts));
	for (b = 0; b < AL_HIST_BUCKETS; b++) {
		int64_t low = al_hist_bucket_low(b);

		if (!h->buckets[b])
			continue;
		for (i = n - 1; i > 0 && edges[i] > low; i--)
			;
		counts[i] += (int64_t)h->buckets[b];
	}
	counts[n - 2] += (int64_t)h->overflow;
	for (i = 0; i < n; i++)
		if (counts[i] > peak)
			peak = counts[i];
	fprintf(f, "wake latency histogram (log scale):\n");
	for (i = 0; i + 1 < n; i++) {
		char lo[24], hi[24];
		int width = 0;

		if (!counts[i] && (edges[i] > h->max_ns || edges[i + 1] <= h->min_ns))
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
phase_table(const struct al_result *r, FILE *f)
{
	size_t i;

	fprintf(f, "\n%-16s %9s %10s %9s %9s %9s %6s %6s %10s  %s\n", "phase", "periods",
		"max [ms]", "%buffer", "1MS", "2MS", "xruns", "lost", "p99 [us]", "load");
	for (i = 0; i < r->n_phases; i++) {
		const struct al_phase *ph = &r->phases[i];
		const struct al_period_stats *st = &ph->stats;

		fprintf(f, "%-16s %9" PRIu64 " %10.3f %9.1f %9.3f %9.3f %6" PRIu64 " %6" PRIu64
			   " %10.1f  %s%s%s\n",
			ph->name, st->periods,
			ms(st->interval_ns.count ? st->interval_ns.max_ns : 0),
			al_stats_max_interval_pct(st, r->buffer_ns), al_stats_within_pct(st, 1),
			al_stats_within_pct(st, 2), st->xruns, st->lost_periods,
			us(al_hist_quantile(&st->wake_ns, 0.99)), ph->load,
			ph->error[0] ? "  FAILED: " : "", ph->error);
		for (int m = 0; m < ph->n_throughput; m++)
			fprintf(f, "%-16s   %s=%.6g %s\n", "", ph->throughput[m].name,
				ph->throughput[m].value, ph->throughput[m].unit);
	}
}

/* The explained late wake-ups (--trace), worst first: what held the CPU. */
static void
spike_lines(const struct al_result *r, bool verbose, FILE *f)
{
	int order[AL_SPIKES_MAX], n = r->n_spikes < AL_SPIKES_MAX ? r->n_spikes : AL_SPIKES_MAX;
	int shown = verbose ? n : (n < SPIKES_SHOWN ? n : SPIKES_SHOWN), i, j, k;
	char lat[24], woken[24], on[24], dur[24];

	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && r->spikes[order[j - 1]].latency_ns < r->spikes[i].latency_ns; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	fprintf(f, "\nlate wake-ups explained (%d", n);
	if (r->spikes_dropped)
		fprintf(f, ", %" PRIu64 " more not explained", r->spikes_dropped);
	fprintf(f, "), worst first:\n");
	for (i = 0; i < shown; i++) {
		const struct al_spike *s = &r->spikes[order[i]];

		al_format_duration(s->latency_ns, lat, sizeof(lat));
		snprintf(woken, sizeof(woken), "?");
		snprintf(on, sizeof(on), "?");
		if (s->woken_ns >= 0)
			al_format_duration(s->woken_ns, woken, sizeof(woken));
		if (s->switched_in_ns >= 0)
			al_format_duration(s->switched_in_ns, on, sizeof(on));
		fprintf(f, "  at %.3f s: %s late; woken after %s, on the CPU after %s%s\n",
			(double)s->t_ns / AL_NS_PER_SEC, lat, woken, on,
			s->truncated ? " (events lost: may be incomplete)" : "");
		for (k = 0; k < s->n_causes && k < AL_SPIKE_CAUSES; k++) {
			const struct al_cause *c = &s->causes[k];

			al_format_duration(c->duration_ns, dur, sizeof(dur));
			fprintf(f, "    %5.1f %%  %10s  %-10s %s", s->latency_ns > 0 ?
				100.0 * (double)c->duration_ns / (double)s->latency_ns : 0.0,
				dur, c->kind, c->name);
			if (c->pid >= 0 && (!strcmp(c->kind, "task") || !strcmp(c->kind, "self")))
				fprintf(f, " (pid %d)", c->pid);
			else if (c->pid >= 0 && !strcmp(c->kind, "irq"))
				fprintf(f, " (irq %d)", c->pid);
			fprintf(f, "\n");
		}
	}
	if (shown < n)
		fprintf(f, "... %d more (-v lists them all)\n", n - shown);
}

/* A real device: what it gave (and what was asked when that differs), its clocks, DSP load. */
static void
device_lines(const struct al_result *r, FILE *f)
{
	const struct al_config *c = &r->cfg;
	const struct al_backend_info *b = &r->backend;

	if (b->detail[0])
		fprintf(f, "device: %s\n", b->detail);
	if (c->req_rate_hz && (c->req_rate_hz != c->rate_hz || c->req_period_frames !=
			       c->period_frames || c->req_periods != c->periods))
		fprintf(f, "device gave %" PRId64 " Hz, %d x %" PRId64 " frames (asked %" PRId64
			   " Hz, %d x %" PRId64 " frames)\n", c->rate_hz, c->periods,
			c->period_frames, c->req_rate_hz, c->req_periods, c->req_period_frames);
	if (b->clock[0])
		fprintf(f, "clock: %s\n", b->clock);
	if (b->dsp_load_valid)
		fprintf(f, "JACK DSP load: mean %.1f %%, max %.1f %%\n", b->dsp_load_mean_pct,
			b->dsp_load_max_pct);
	if (b->xrun_fallback)
		fprintf(f, "xrun durations: %" PRIu64 " from the device's stamps, %" PRIu64
			   " from the pointers (stamps rejected: %s)\n", b->xrun_stamped,
			b->xrun_fallback, b->xrun_reject);
}

void
al_report_text(const struct al_result *r, const struct al_text_opts *o, FILE *f)
{
	const struct al_period_stats *st = &r->total;
	size_t n_ev = atomic_load(&r->n_xrun_events), i, shown;
	char margin[32];

	fprintf(f, "backend=%s rate=%" PRId64 " Hz  %d x %" PRId64 " frames  period=%.3f ms  "
		   "buffer=%.3f ms  cpu load=%d %%  %s\n",
		r->cfg.backend, r->cfg.rate_hz, r->cfg.periods, r->cfg.period_frames,
		ms(r->period_ns), ms(r->buffer_ns), r->cfg.cpu_load_pct,
		r->realtime ? "SCHED_FIFO" : "SCHED_OTHER (not real-time)");
	if (r->realtime)
		fprintf(f, "priority=%d  ", r->priority);
	fprintf(f, "kernel %s (preempt: %s)  duration=%.3f s%s\n", r->sys.release, r->sys.preempt,
		(double)r->duration_ns / AL_NS_PER_SEC, r->interrupted ? "  (interrupted)" : "");
	device_lines(r, f);
	if (r->n_checks) {
		static const char *const status[4] = { "ok", "warn", "fail", "skip" };
		int n[4] = { 0 };

		for (i = 0; i < (size_t)r->n_checks; i++)
			for (int k = 0; k < 4; k++)
				n[k] += !strcmp(r->checks[i].status, status[k]);
		fprintf(f, "system check: ok=%d warn=%d fail=%d skip=%d", n[0], n[1], n[2], n[3]);
		/* name what is not ok; `audiolat check` says how to fix it */
		for (int k = 2; k >= 1; k--) {
			if (!n[k])
				continue;
			fprintf(f, "  %s:", status[k]);
			for (i = 0; i < (size_t)r->n_checks; i++)
				if (!strcmp(r->checks[i].status, status[k]))
					fprintf(f, " %s", r->checks[i].id);
		}
		fprintf(f, "\n");
	}
	for (i = 0; i < (size_t)r->n_warnings; i++)
		fprintf(f, "warning: %s\n", r->warnings[i]);
	fprintf(f, "\n");
	latencytest_line(r, st, f);
	if (st->min_margin_ns == INT64_MAX)
		snprintf(margin, sizeof(margin), "-");
	else
		al_format_duration(st->min_margin_ns, margin, sizeof(margin));
	fprintf(f, "periods=%" PRIu64 "  missed periods=%" PRIu64 "  lost periods=%" PRIu64
		   "  min margin=%s\n\n",
		st->periods, st->missed_periods, st->lost_periods, margin);
	fprintf(f, "%-14s %10s %10s %10s %10s %10s %10s %10s %10s\n", "[us]", "min", "mean",
		"p50", "p90", "p99", "p99.9", "p99.99", "max");
	percentile_row("wake latency", &st->wake_ns, f);
	percentile_row("interval", &st->interval_ns, f);
	percentile_row("work", &st->work_ns, f);
	if (r->n_phases > 1)
		phase_table(r, f);
	else if (r->n_phases == 1 && r->phases[0].error[0])
		fprintf(f, "load FAILED: %s\n", r->phases[0].error);
	if (n_ev) {
		shown = (o && o->verbose) ? n_ev : (n_ev < XRUNS_SHOWN ? n_ev : XRUNS_SHOWN);
		fprintf(f, "\n");
		for (i = 0; i < shown; i++) {
			const struct al_xrun_event *e = &r->xrun_events[i];

			fprintf(f, "%s!!! (at least %.3f ms long) at %.3f s, %" PRId64
				   " period(s) lost%s%s\n",
				r->cfg.capture ? "overrun" : "underrun", ms(e->duration_ns), (double)e->t_ns / AL_NS_PER_SEC, e->lost_periods,
				r->n_phases > 1 ? ", phase " : "",
				r->n_phases > 1 ? r->phases[e->phase].name : "");
		}
		if (shown < n_ev)
			fprintf(f, "... %zu more xruns (-v lists them all)\n", n_ev - shown);
	}
	if (r->n_spikes > 0)
		spike_lines(r, o && o->verbose, f);
	if (!(o && o->no_histogram)) {
		fprintf(f, "\n");
		ascii_histogram(&st->wake_ns, f);
	}
}

void
al_report_summary_line(const struct al_result *r, const char *verdict, FILE *f)
{
	const struct al_period_stats *st = &r->total;
	struct al_summary w;

	al_stats_summarize(&st->wake_ns, &w);
	fprintf(f, "summary: backend=%s rate=%" PRId64 " period=%" PRId64 " periods=%d samples=%"
		   PRIu64 " min_ns=%" PRId64 " p50_ns=%" PRId64 " p99_ns=%" PRId64 " max_ns=%"
		   PRId64 " max_interval_ns=%" PRId64 " xruns=%" PRIu64 " lost_periods=%" PRIu64
		   " result=%s\n",
		r->cfg.backend, r->cfg.rate_hz, r->cfg.period_frames, r->cfg.periods, w.count,
		w.min_ns, w.p50_ns, w.p99_ns, w.max_ns,
		st->interval_ns.count ? st->interval_ns.max_ns : 0, st->xruns, st->lost_periods,
		verdict);
}
