/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gen-result: a synthetic audiolat.run/2 document for the report and
 * compare tests. Periods are drawn from a seeded PRNG (log-normal wake
 * latency around --base-us, spread --sigma, times --scale per phase) and
 * recorded through the real results model (al_result_record) and JSON
 * builder (al_doc_run_json), so the document is what `audiolat run` would
 * write for such a run.
 *
 *   gen-result [--seed N] [--duration S] [--rate HZ] [--period FRAMES]
 *              [--periods N] [--base-us US] [--sigma S] [--scale F]
 *              [--phases NAME:SECONDS[:SCALE],...] [--xruns N] [--stall]
 *              [--spikes N] [--label TEXT] [--label-raw TEXT]
 *              [--hostname TEXT] [--cmdline TEXT] [--load TEXT]
 *              [--tail XI,SIGMA_US,P[,FROM_US]] [--why N] [-o FILE]
 *
 * --tail gives the wake latency a known tail (docs/tail.md): with
 * probability P a period's latency is FROM_US (default 100) plus a
 * generalised Pareto draw of shape XI and scale SIGMA_US, instead of the
 * log-normal body (which lies below FROM_US: far enough for the default
 * body, whose 99.99999th percentile is 98 us).
 * --why N gives the run a "why" (core/why.h) of N events later than a
 * period, the first --xruns of them xruns, every 17th not classified,
 * the rest from evidence templates (preempted thrice, a page fault, an
 * interrupt storm, nothing), classified, explained and judged by
 * core/why.c.
 * --label-raw writes the label's bytes into the file as they are: with
 * bytes that are not UTF-8 the file is not valid JSON, for the tests of
 * bad input. --stall leaves a window without a wake-up.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "compare/ci.h"
#include "report/report.h"

#define MAX_PHASES 16

/* --why N: the events' evidence in turn (the xruns among the first) */
static struct al_why *
make_why(const struct al_result *r, long n, long xruns)
{
	struct al_why *w = calloc(1, sizeof(*w));
	int64_t p = r->period_ns;

	if (!w)
		return NULL;
	w->threshold_ns = p;
	w->sample_ns = AL_NS_PER_MS;
	w->has_schedstat = w->has_irqs = true;
	snprintf(w->note, sizeof(w->note), "no steal: the kernel counts none here");
	for (long i = 0; i < n; i++) {
		struct al_why_event e = {
			.t_ns = (i + 1) * r->cfg.duration_ns / (n + 1), .size_ns = p + (i % 7) * p / 4,
			.late_ns = p / 2, .work_ns = i % 5 == 4 ? -1 : p / 2, .periods = 1 + i % 3,
			.xrun = i < xruns,
			.ev = { .window_ns = 3 * AL_NS_PER_MS, .wait_ns = 0, .cpu_ns = p / 2,
				.vcsw = 3, .ivcsw = 0, .minflt = 0, .majflt = 0, .steal_ns = -1,
				.irq_ns = 0, .irqs = 10, .irqs_expected = 9, .softirqs = 4,
				.softirqs_expected = 4, .cpu = 1, .policy = 1, .priority = 80 } };

		w->total++;
		if (i % 17 == 16) {
			w->dropped++;
			continue;
		}
		if (i % 5 < 3) { /* preempted: the wait covers the lateness */
			e.ev.wait_ns = e.size_ns - p / 10;
			e.ev.ivcsw = 2;
		} else if (i % 5 == 3) {
			e.ev.minflt = 400; /* 4 ms at 10 us each: they cover it */
		} else if (i % 10 == 4) {
			e.ev.irqs = 400;
		} else {
			e.ev.cpu = -1;
			e.ev.policy = -1;
		}
		e.cls = al_why_classify(&e, p);
		al_why_explain(&e, p);
		w->count[e.cls]++;
		if (w->n_events < AL_WHY_EVENTS_MAX)
			w->events[w->n_events++] = e;
	}
	al_why_verdict(w, r->cfg.period_frames, r->cfg.rate_hz, r->cfg.periods,
		       r->total.wake_ns.max_ns, r->total.xruns, true, true);
	return w;
}

struct phase_spec {
	char name[AL_NAME_MAX];
	double seconds;
	double scale;
};

static int
parse_phases(const char *arg, struct phase_spec *ph, int *n)
{
	char *copy = strdup(arg), *save = NULL, *tok;

	*n = 0;
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && *n < MAX_PHASES;
	     tok = strtok_r(NULL, ",", &save)) {
		char *c1 = strchr(tok, ':'), *c2;

		if (!c1) {
			free(copy);
			return -EINVAL;
		}
		*c1++ = '\0';
		c2 = strchr(c1, ':');
		if (c2)
			*c2++ = '\0';
		snprintf(ph[*n].name, sizeof(ph[*n].name), "%s", tok);
		ph[*n].seconds = atof(c1);
		ph[*n].scale = c2 ? atof(c2) : 1.0;
		if (!(ph[*n].seconds > 0) || !(ph[*n].scale > 0)) {
			free(copy);
			return -EINVAL;
		}
		(*n)++;
	}
	free(copy);
	return *n ? 0 : -EINVAL;
}

int
main(int argc, char **argv)
{
	struct phase_spec ph[MAX_PHASES] = {{"idle", 10, 1}};
	struct al_config cfg = {.backend = "sim",
				.rate_hz = 48000,
				.period_frames = 64,
				.periods = 3,
				.cpu_load_pct = 80,
				.priority = 80,
				.affinity_cpu = -1,
				.dma_latency_us = -1};
	const char *out = "-", *label = NULL, *label_raw = NULL, *hostname = "gen-host";
	const char *cmdline = "audiolat run (synthetic)", *load = NULL;
	double base_us = 15, sigma = 0.35, scale = 1, duration = 0;
	long seed = 1, xruns = 0, n_spikes = 0, n_why = -1;
	double tail_xi = 0, tail_sigma_us = 0, tail_p = 0, tail_from_us = 100;
	int n_ph = 1, i, stall = 0;
	struct al_result r;
	struct al_rng rng;
	json_t *doc;
	char *text;
	FILE *f;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--stall")) {
			stall = 1;
			continue;
		}
		if (!v) {
			fprintf(stderr, "gen-result: %s needs a value\n", a);
			return 2;
		}
		i++;
		if (!strcmp(a, "--seed"))
			seed = atol(v);
		else if (!strcmp(a, "--duration"))
			duration = atof(v);
		else if (!strcmp(a, "--rate"))
			cfg.rate_hz = atol(v);
		else if (!strcmp(a, "--period"))
			cfg.period_frames = atol(v);
		else if (!strcmp(a, "--periods"))
			cfg.periods = atoi(v);
		else if (!strcmp(a, "--base-us"))
			base_us = atof(v);
		else if (!strcmp(a, "--sigma"))
			sigma = atof(v);
		else if (!strcmp(a, "--scale"))
			scale = atof(v);
		else if (!strcmp(a, "--phases")) {
			if (parse_phases(v, ph, &n_ph)) {
				fprintf(stderr, "gen-result: bad --phases '%s'\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--xruns"))
			xruns = atol(v);
		else if (!strcmp(a, "--spikes"))
			n_spikes = atol(v);
		else if (!strcmp(a, "--label"))
			label = v;
		else if (!strcmp(a, "--label-raw"))
			label_raw = v;
		else if (!strcmp(a, "--hostname"))
			hostname = v;
		else if (!strcmp(a, "--cmdline"))
			cmdline = v;
		else if (!strcmp(a, "--load"))
			load = v;
		else if (!strcmp(a, "--tail")) {
			if (sscanf(v, "%lf,%lf,%lf,%lf", &tail_xi, &tail_sigma_us, &tail_p,
				   &tail_from_us) < 3 || !(tail_sigma_us > 0) || !(tail_p > 0)) {
				fprintf(stderr, "gen-result: bad --tail '%s'\n", v);
				return 2;
			}
		}
		else if (!strcmp(a, "--why"))
			n_why = atol(v);
		else if (!strcmp(a, "-o"))
			out = v;
		else {
			fprintf(stderr, "gen-result: unknown option %s\n", a);
			return 2;
		}
	}
	if (duration > 0 && n_ph == 1)
		ph[0].seconds = duration;
	duration = 0;
	for (i = 0; i < n_ph; i++)
		duration += ph[i].seconds;
	cfg.duration_ns = (int64_t)(duration * 1e9);
	if (load)
		snprintf(cfg.load_spec, sizeof(cfg.load_spec), "%s", load);
	if (al_result_alloc(&r, &cfg, (size_t)n_ph, 1024))
		return 1;
	snprintf(r.tool_version, sizeof(r.tool_version), "%s", AL_VERSION);
	snprintf(r.cmdline, sizeof(r.cmdline), "%s", cmdline);
	snprintf(r.sys.sysname, sizeof(r.sys.sysname), "Linux");
	snprintf(r.sys.nodename, sizeof(r.sys.nodename), "%s", hostname);
	snprintf(r.sys.release, sizeof(r.sys.release), "6.1.0-gen%ld", seed);
	snprintf(r.sys.version, sizeof(r.sys.version), "#1 SMP PREEMPT_DYNAMIC");
	snprintf(r.sys.machine, sizeof(r.sys.machine), "x86_64");
	snprintf(r.sys.preempt, sizeof(r.sys.preempt), "full");
	snprintf(r.sys.preempt_source, sizeof(r.sys.preempt_source), "synthetic");
	snprintf(r.sys.cpu_model, sizeof(r.sys.cpu_model), "Synthetic CPU <gen> & \"co\"");
	snprintf(r.sys.clocksource, sizeof(r.sys.clocksource), "tsc");
	r.sys.cpus = 4;
	r.realtime = true;
	r.priority = 80;
	r.memory_locked = true;
	r.started_at_ns = 1764478800LL * AL_NS_PER_SEC; /* fixed: 2025-11-30T05:00:00Z */
	r.start_mono_ns = 1000 * AL_NS_PER_SEC;
	r.n_checks = 2;
	snprintf(r.checks[0].id, sizeof(r.checks[0].id), "governor");
	snprintf(r.checks[0].status, sizeof(r.checks[0].status), "warn");
	snprintf(r.checks[0].message, sizeof(r.checks[0].message),
		 "cpu0 on 'powersave' <not performance> & more");
	snprintf(r.checks[0].fix, sizeof(r.checks[0].fix),
		 "echo performance > /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	snprintf(r.checks[1].id, sizeof(r.checks[1].id), "rtprio");
	snprintf(r.checks[1].status, sizeof(r.checks[1].status), "ok");
	snprintf(r.checks[1].message, sizeof(r.checks[1].message), "RLIMIT_RTPRIO 95");
	al_rng_seed(&rng, (uint64_t)seed);

	{
		int64_t period_ns = r.period_ns, t_ns = 0, prev_wake = 0, phase_end_ns = 0;
		int64_t total_ns = cfg.duration_ns, n_periods = total_ns / period_ns, k;
		int p = -1;
		int64_t stall_from = stall ? total_ns / 20 * 11 : -1;

		for (k = 0; k < n_periods; k++) {
			struct al_sample s = {0};
			double lat;
			int64_t boundary;

			t_ns = k * period_ns;
			while (t_ns >= phase_end_ns && p + 1 < n_ph) {
				p++;
				r.phases[p].start_ns = phase_end_ns;
				phase_end_ns += (int64_t)(ph[p].seconds * 1e9);
				r.phases[p].end_ns = phase_end_ns;
				snprintf(r.phases[p].name, sizeof(r.phases[p].name), "%s",
					 ph[p].name);
				snprintf(r.phases[p].load, sizeof(r.phases[p].load), "%s %s",
					 ph[p].name, "policy=other nice=0 cpus=all");
				if (strcmp(ph[p].name, "idle")) {
					r.phases[p].n_throughput = 1;
					snprintf(r.phases[p].throughput[0].name,
						 sizeof(r.phases[p].throughput[0].name),
						 "loops_per_s");
					r.phases[p].throughput[0].value = 1234.5;
					snprintf(r.phases[p].throughput[0].unit,
						 sizeof(r.phases[p].throughput[0].unit), "1/s");
				}
				atomic_store(&r.live.phase, p);
			}
			/* 250 ms without a wake-up: at least one window is empty */
			if (stall_from >= 0 && t_ns >= stall_from &&
			    t_ns < stall_from + 250 * AL_NS_PER_MS)
				continue;
			lat =
			    base_us * 1e3 * scale * ph[p].scale * exp(sigma * al_rng_normal(&rng));
			if (tail_p > 0 && al_rng_uniform(&rng) < tail_p) {
				double u = al_rng_uniform(&rng);

				lat = tail_from_us * 1e3 +
				      tail_sigma_us * 1e3 *
					  (fabs(tail_xi) < 1e-12 ? -log(u) : (pow(u, -tail_xi) - 1) / tail_xi);
				lat = fmin(lat, 1e12);
			}
			boundary = r.start_mono_ns + t_ns;
			s.boundary_ns = boundary;
			s.wake_ns = boundary + (int64_t)lat;
			s.prev_wake_ns = prev_wake;
			s.work_ns = period_ns * cfg.cpu_load_pct / 100;
			s.margin_ns = r.buffer_ns - period_ns - (int64_t)lat;
			/* xruns spread evenly over the run */
			if (xruns && k > 0 && k % (n_periods / (xruns + 1)) == 0 &&
			    k / (n_periods / (xruns + 1)) <= xruns) {
				s.xrun_start_ns = s.wake_ns - 3 * AL_NS_PER_MS;
				s.xrun_ns = 3 * AL_NS_PER_MS;
				s.lost_periods = 2;
				s.margin_ns = 0;
			}
			if (stall_from >= 0 && prev_wake &&
			    s.wake_ns - prev_wake > 100 * AL_NS_PER_MS)
				s.missed = (s.wake_ns - prev_wake) / period_ns - 1;
			prev_wake = s.wake_ns;
			al_result_record(&r, &s);
		}
	}
	r.duration_ns = cfg.duration_ns;
	al_result_finish(&r);
	if (n_why >= 0 && !(r.why = make_why(&r, n_why, xruns)))
		return 1;
	doc = al_doc_run_json(&r);
	if (!doc)
		return 1;
	if (label)
		json_object_set_new(doc, "label", json_string(label));
	/* jansson will not write bytes that are not UTF-8: put them in afterwards */
	if (label_raw)
		json_object_set_new(doc, "label", json_string("@LABEL-RAW@"));
	if (n_spikes) {
		json_t *spikes = json_array();

		for (i = 0; i < n_spikes; i++)
			json_array_append_new(
			    spikes,
			    json_pack("{s:I, s:I, s:b, s:[{s:s, s:s, s:i, s:I, s:f}, "
				      "{s:s, s:s, s:i, s:I, s:f}]}",
				      "t_ns",
				      (json_int_t)((i + 1) * cfg.duration_ns / (n_spikes + 1)),
				      "latency_ns", (json_int_t)(400000 + 10000 * i), "truncated",
				      0, "causes", "kind", "task", "name", "al-hog <x> & 'y'",
				      "pid", 100 + i, "duration_ns", (json_int_t)300000, "pct",
				      75.0, "kind", "irq", "name", "eth0", "pid", 42, "duration_ns",
				      (json_int_t)(90000 + 10000 * i), "pct", 22.5));
		json_object_set_new(doc, "spikes", spikes);
	}
	text = json_dumps(doc, JSON_INDENT(1));
	json_decref(doc);
	al_result_free(&r);
	if (!text)
		return 1;
	f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	if (!f) {
		perror(out);
		free(text);
		return 1;
	}
	if (label_raw && strstr(text, "@LABEL-RAW@")) {
		char *at = strstr(text, "@LABEL-RAW@");

		fwrite(text, 1, (size_t)(at - text), f);
		fputs(label_raw, f);
		fputs(at + strlen("@LABEL-RAW@"), f);
	} else {
		fputs(text, f);
	}
	fputc('\n', f);
	free(text);
	return fclose(f) ? 1 : 0;
}
