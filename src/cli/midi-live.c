/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi record and loop: plan the phases, open the port, run the
 * session (src/midi/session.h: the phases, what the port hands over), then
 * the statistics, the MIDI file, the report.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/rt.h"
#include "core/stats.h"
#include "core/units.h"
#include "midi/session.h"
#include "cli.h"
#include "midi-live.h"

#define STATUS_NS (200 * AL_NS_PER_MS)
#define LOOP_DEFAULT_NS (10 * AL_NS_PER_SEC)

struct live {
	struct midi_opts *o;
	const char *cmd;               /* "record", "loop" */
	struct al_midi_port *port;
	struct al_phase_spec *spec;
	size_t n_spec;
	struct midi_phase *phases;     /* as reported: the session's, with statistics */
	int64_t duration_ns;           /* 0: until interrupted */
	struct al_midi_session S;      /* the measurement (src/midi/session.h) */
};

static void
status_line(void *ud, const struct al_midi_session *S, int64_t now_ns)
{
	const struct live *L = ud;
	char v[32], total[32] = "";

	al_format_duration(S->live_max_ns, v, sizeof(v));
	if (L->duration_ns)
		snprintf(total, sizeof(total), "/%.1f", (double)L->duration_ns / AL_NS_PER_SEC);
	if (!strcmp(L->cmd, "loop"))
		fprintf(stderr, "\r\033[K[%6.1f%s s] probes=%llu lost=%llu max latency=%s",
			(double)(now_ns - S->start_ns) / AL_NS_PER_SEC, total,
			(unsigned long long)S->selected, (unsigned long long)S->lost, v);
	else
		fprintf(stderr, "\r\033[K[%6.1f%s s] events=%llu %s=%s",
			(double)(now_ns - S->start_ns) / AL_NS_PER_SEC, total,
			(unsigned long long)S->selected,
			L->o->interval_ns ? "max |delta-interval|" : "max delta", v);
	fflush(stderr);
}

/* --load and -d -> the phases; 0 or an exit code after one line. */
static int
plan(struct live *L, int64_t default_ns)
{
	struct midi_opts *o = L->o;
	char err[512];
	size_t i;
	int rc;

	L->duration_ns = o->duration_ns;
	if (o->load_spec) {
		if (al_load_spec_parse(o->load_spec, o->duration_ns, &L->spec, &L->n_spec, err,
				       sizeof(err)))
			return cli_usage_error("midi", "%s: --load: %s", L->cmd, err);
		for (i = 0; i < L->n_spec && L->n_spec > 1; i++)
			if (!L->spec[i].duration_ns)
				return cli_usage_error("midi", "%s: --load: phase '%s' has no time "
							       "(give each phase one, or -d)",
						       L->cmd, L->spec[i].name);
		if (!L->duration_ns)
			L->duration_ns = al_load_spec_total_ns(L->spec, L->n_spec);
		if (!L->duration_ns && default_ns)
			L->spec[0].duration_ns = L->duration_ns = default_ns;
		rc = al_load_check_opts(&o->load_opts, L->spec, L->n_spec, err, sizeof(err));
		if (rc == -EOPNOTSUPP)
			return cli_cmd_error(AL_EXIT_UNAVAILABLE, "midi", "%s: %s", L->cmd, err);
		if (rc)
			return cli_usage_error("midi", "%s: %s", L->cmd, err);
	} else if (!L->duration_ns) {
		L->duration_ns = default_ns;
	}
	L->phases = calloc(L->n_spec ? L->n_spec : 1, sizeof(*L->phases));
	if (!L->phases)
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "out of memory");
	return 0;
}

/* Run the session (the phase driver) until the end, an interruption or a failure. */
static void
measure(struct live *L)
{
	bool status = cli_status_wanted(L->o->quiet);
	struct al_midi_session *S = &L->S;
	size_t i;

	S->port = L->port;
	S->loop = !strcmp(L->cmd, "loop");
	S->filter = &L->o->filter;
	S->interval_ns = L->o->interval_ns;
	S->count = L->o->count;
	S->spec = L->spec;
	S->n_spec = L->n_spec;
	S->load_opts = &L->o->load_opts;
	S->duration_ns = L->duration_ns;
	S->stop_requested = &cli_stop_requested;
	S->status = status ? status_line : NULL;
	S->status_ud = L;
	S->status_ns = STATUS_NS;
	if (al_midi_session_run(S)) {
		S->failed = true;
		snprintf(S->err, sizeof(S->err), "out of memory");
	}
	for (i = 0; i < S->n_phases; i++) {
		struct midi_phase *ph = &L->phases[i];
		const struct al_phase *rp = &S->phases[i];

		snprintf(ph->name, sizeof(ph->name), "%s", rp->name);
		snprintf(ph->load, sizeof(ph->load), "%s", rp->load);
		snprintf(ph->error, sizeof(ph->error), "%s", rp->error);
		ph->start_ns = rp->start_ns;
		ph->end_ns = rp->end_ns;
		memcpy(ph->throughput, rp->throughput, sizeof(ph->throughput));
		ph->n_throughput = rp->n_throughput;
	}
	if (status)
		fprintf(stderr, "\r\033[K");
}

int
midi_port_error(const struct midi_opts *o, int rc, const char *err)
{
	return cli_fault("midi", rc, o->sub, err, NULL);
}

/* Open the port after the common setup; an exit code, 0 when open. */
static int
open_port(struct live *L, struct midi_report *r, int mode)
{
	struct midi_opts *o = L->o;
	struct al_midi_port_cfg cfg = {
		.api = o->api,
		.mode = mode,
		.server = o->server,
		.prio = o->prio,
		.loop_timeout_ns = o->timeout_ns,
		.loop_gap_ns = o->gap_ns,
	};
	char err[256];
	struct al_rt rt;
	int rc;

	if (mode == AL_MIDI_MODE_RECORD) {
		cfg.in = o->port;
		cfg.client_name = "audiolat-record";
	} else {
		cfg.out = o->out;
		cfg.in = o->in;
		cfg.client_name = "audiolat-loop";
	}
	if (o->prio) {
		al_rt_init(&rt);
		rc = al_rt_lock_memory(&rt);
		if (rc)
			midi_report_warn(r, "mlockall failed (%s); memory is not locked", strerror(-rc));
		r->memory_locked = rt.locked;
	}
	rc = al_midi_port_open(&cfg, &L->port, &r->info, err, sizeof(err));
	if (rc)
		return midi_port_error(o, rc, err);
	r->realtime = r->info.thread_realtime;
	if (o->prio && o->api != AL_MIDI_API_JACK && !r->info.thread_realtime)
		midi_report_warn(r, "SCHED_FIFO priority %d was not permitted: the %s thread ran at "
				    "SCHED_OTHER", o->prio, mode == AL_MIDI_MODE_RECORD ? "reader" : "prober");
	if (o->prio && o->api == AL_MIDI_API_JACK)
		midi_report_warn(r, "-p does not apply to JACK: the process callback runs at the "
				    "server's priority (%s)", r->info.server_realtime ? "real-time" : "not real-time");
	if (r->info.timestamp_note[0])
		midi_report_warn(r, "%s", r->info.timestamp_note);
	return 0;
}

static void
finish_common(struct live *L, struct midi_report *r)
{
	struct al_summary s;

	al_midi_port_stop(L->port);
	al_midi_session_collect(&L->S);
	al_midi_port_counters(L->port, &r->cnt);
	if (r->cnt.wake_ns && r->cnt.wake_ns->count) {
		al_stats_summarize(r->cnt.wake_ns, &s);
		r->wake.count = s.count;
		r->wake.min_ns = s.min_ns;
		r->wake.mean_ns = s.mean_ns;
		r->wake.median_ns = s.p50_ns;
		r->wake.p99_ns = s.p99_ns;
		r->wake.max_ns = s.max_ns;
		r->wake.stddev_ns = s.stddev_ns;
	}
	r->cnt.wake_ns = NULL; /* the port's, freed at close */
	r->duration_ns = al_clock_now_ns() - L->S.start_ns;
	r->interrupted = L->S.interrupted;
	r->phases = L->phases;
	r->n_phases = L->S.n_phases;
	for (size_t i = 0; i < L->S.n_phases; i++)
		if (L->phases[i].error[0])
			midi_report_warn(r, "phase %s: %s", L->phases[i].name, L->phases[i].error);
	if (r->cnt.xruns)
		midi_report_warn(r, "%llu xrun(s) during the measurement",
				 (unsigned long long)r->cnt.xruns);
	if (r->cnt.irregular)
		midi_report_warn(r, "%llu JACK cycle(s) did not start one period after the one "
				    "before (frames repeated or skipped)",
				 (unsigned long long)r->cnt.irregular);
	if (r->cnt.dropped)
		midi_report_warn(r, "%llu message(s) lost to a full buffer",
				 (unsigned long long)r->cnt.dropped);
}

static void
live_free(struct live *L)
{
	size_t i;

	if (L->port)
		al_midi_port_close(L->port);
	for (i = 0; L->phases && i < (L->n_spec ? L->n_spec : 1); i++)
		free(L->phases[i].st);
	free(L->phases);
	if (L->spec)
		al_load_spec_free(L->spec);
	al_midi_session_free(&L->S);
}

/* The start of record and loop: the phases, the port, the signals; an exit code, 0. */
static int
begin(struct live *L, struct midi_report *r, int mode, int64_t default_ns)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->kind = L->cmd;
	r->o = L->o;
	rc = plan(L, default_ns);
	if (!rc)
		rc = open_port(L, r, mode);
	if (rc) {
		live_free(L);
		return rc;
	}
	cli_catch_stop_signals();
	al_sysinfo_read("/", &r->sys);
	return 0;
}

/* ---- record ---- */

static bool
threshold_fail_record(const struct midi_report *r)
{
	return r->o->max_jitter_ns && r->st->deltas && r->st->jitter_abs_max_ns > r->o->max_jitter_ns;
}

static int
cmp_msg(const void *a, const void *b)
{
	const struct al_midi_msg *x = a, *y = b;

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq; /* arrival order */
}

/*
 * The end of record and loop: the text (print, unless -q or JSON to stdout)
 * and summary line, the warnings on stderr when the text did not show
 * them, the JSON and the database, and the failure that cut the run short.
 * Returns the exit code, exit_code when nothing worse happened.
 */
static int
report_out(const struct midi_report *r, const struct live *L,
	   void (*print)(FILE *f, const struct midi_report *r), const char *what,
	   const char *got, const char *verdict, int exit_code)
{
	bool text = !(L->o->json_path && !strcmp(L->o->json_path, "-"));
	int rc;

	if (text && !L->o->quiet)
		print(stdout, r);
	if (text)
		midi_summary_line(stdout, r, verdict);
	fflush(stdout);
	if (!text || L->o->quiet)
		for (int w = 0; w < r->n_warnings; w++)
			cli_warn("%s", r->warnings[w]);
	rc = midi_report_emit(r, true);
	if (rc && !exit_code)
		exit_code = rc;
	if (L->S.failed) {
		cli_cmd_error(AL_EXIT_RUNTIME, "midi", "%s: %s; reporting what was %s", what, L->S.err,
			      got);
		exit_code = AL_EXIT_RUNTIME;
	}
	return exit_code;
}

int
midi_record(struct midi_opts *o)
{
	struct live L = { .o = o, .cmd = "record" };
	struct midi_report r;
	int64_t *t = NULL, origin_us, verdict_v;
	size_t n_sel = 0, i;
	char err[512], a[32], b[32];
	int rc, exit_code = AL_EXIT_OK;
	bool text = !(o->json_path && !strcmp(o->json_path, "-"));
	const char *verdict;

	rc = begin(&L, &r, AL_MIDI_MODE_RECORD, 0);
	if (rc)
		return rc;
	if (text && !o->quiet) {
		if (o->port)
			printf("recording from %s into %s (%s", o->port, r.info.in_name,
			       al_midi_api_name(o->api));
		else
			printf("recording into %s (%s", r.info.in_name, al_midi_api_name(o->api));
		if (o->api == AL_MIDI_API_JACK)
			printf(", %u Hz, %u frames a period", r.info.rate_hz, r.info.period_frames);
		printf(")%s\n", o->port ? "" : "; connect a MIDI source to it");
		if (L.duration_ns)
			printf("duration: %.3f s\n", (double)L.duration_ns / AL_NS_PER_SEC);
		else
			printf("duration: until interrupted (Ctrl-C)\n");
		fflush(stdout);
	}
	r.started_at_ns = al_clock_realtime_ns();
	measure(&L);
	finish_common(&L, &r);

	/* in time order (JACK and the readers deliver in order; make sure) */
	for (i = 0; i < L.S.n_msgs; i++)
		L.S.msgs[i].seq = (uint32_t)i;
	qsort(L.S.msgs, L.S.n_msgs, sizeof(*L.S.msgs), cmp_msg);
	r.received = L.S.n_msgs;
	t = malloc((L.S.n_msgs ? L.S.n_msgs : 1) * sizeof(*t));
	r.st = malloc(sizeof(*r.st));
	if (!t || !r.st) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "midi", "record: out of memory");
		goto out;
	}
	for (i = 0; i < L.S.n_msgs; i++) {
		/* real-time and system common messages have no place in a MIDI file */
		if (!(L.S.msgs[i].flags & AL_MIDI_MSG_SYSEX) && !al_midi_data_bytes(L.S.msgs[i].data[0]))
			r.not_in_file++;
		if (al_midi_session_selected(&L.S, &L.S.msgs[i]))
			t[n_sel++] = al_midi_quantize(L.S.msgs[i].t_ns);
	}
	if (al_midi_analyze_times(t, n_sel, o->interval_ns, r.st)) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "midi", "record: out of memory");
		goto out;
	}
	r.tick_ns = 1000;
	for (i = 0; i < L.S.n_phases; i++)
		if (al_midi_analyze_stretch(t, n_sel, o->interval_ns,
					    L.S.start_ns + L.phases[i].start_ns,
					    i + 1 < L.S.n_phases ? L.S.start_ns + L.phases[i].end_ns
								 : 0,
					    &L.phases[i].st)) {
			exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "midi", "record: out of memory");
			goto out;
		}
	if (o->smf_path) {
		origin_us = L.S.start_ns / 1000;
		if (L.S.n_msgs && al_midi_quantize(L.S.msgs[0].t_ns) / 1000 < origin_us)
			origin_us = al_midi_quantize(L.S.msgs[0].t_ns) / 1000;
		r.not_in_file = 0;
		rc = al_midi_session_write_smf(&L.S, o->smf_path, origin_us,
					       (L.S.start_ns + r.duration_ns) / 1000, &r.not_in_file,
					       err, sizeof(err));
		if (rc) {
			cli_cmd_error(AL_EXIT_RUNTIME, "midi", "record: -o %s", err);
			exit_code = AL_EXIT_RUNTIME;
		} else {
			r.smf_written = o->smf_path;
		}
	}
	if (r.not_in_file)
		midi_report_warn(&r, "%llu real-time or system message(s) received; a MIDI file "
				     "cannot hold them", (unsigned long long)r.not_in_file);

	verdict = threshold_fail_record(&r) ? "FAIL" : "PASS";
	exit_code = report_out(&r, &L, midi_print_stats, "record", "received", verdict, exit_code);
	verdict_v = r.st->jitter_abs_max_ns;
	if (!exit_code && !strcmp(verdict, "FAIL")) {
		al_format_duration(verdict_v, a, sizeof(a));
		al_format_duration(o->max_jitter_ns, b, sizeof(b));
		exit_code = cli_cmd_error(AL_EXIT_THRESHOLD, "midi",
					  "record: max |delta - interval| %s exceeds --max-jitter %s", a, b);
	}
out:
	free(t);
	free(r.st);
	live_free(&L);
	return exit_code;
}

/* ---- loop ---- */

int
midi_loop(struct midi_opts *o)
{
	struct live L = { .o = o, .cmd = "loop" };
	struct midi_report r;
	struct al_hist *h = NULL;
	int64_t *lat = NULL, *wall = NULL;
	size_t n = 0, i, k;
	char a[32], b[32];
	int rc, exit_code = AL_EXIT_OK;
	bool text = !(o->json_path && !strcmp(o->json_path, "-"));
	const char *verdict = "PASS";

	rc = begin(&L, &r, AL_MIDI_MODE_LOOP,
		   o->count && !o->duration_ns && !o->load_spec ? 0 : LOOP_DEFAULT_NS);
	if (rc)
		return rc;
	if (text && !o->quiet) {
		printf("loop: %s -> %s ... %s -> %s (%s", r.info.out_name,
		       o->out ? o->out : "(connect it)", o->in ? o->in : "(connect it)",
		       r.info.in_name, al_midi_api_name(o->api));
		if (o->api == AL_MIDI_API_JACK)
			printf(", %u Hz, %u frames a period", r.info.rate_hz, r.info.period_frames);
		printf(")\n");
		fflush(stdout);
	}
	r.started_at_ns = al_clock_realtime_ns();
	measure(&L);
	finish_common(&L, &r);

	lat = malloc((L.S.n_msgs ? L.S.n_msgs : 1) * sizeof(*lat));
	wall = malloc((L.S.n_msgs ? L.S.n_msgs : 1) * sizeof(*wall));
	h = malloc(sizeof(*h));
	if (!lat || !wall || !h) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "midi", "loop: out of memory");
		goto out;
	}
	al_hist_init(h);
	r.frames_min = INT32_MAX;
	r.frames_max = INT32_MIN;
	for (i = 0; i < L.S.n_msgs; i++) {
		const struct al_midi_msg *m = &L.S.msgs[i];

		if (o->count && i >= (size_t)o->count)
			break;
		if (m->flags & AL_MIDI_MSG_LOST) {
			r.lost++;
			continue;
		}
		wall[n] = m->wall_ns;
		lat[n++] = m->t_ns - m->ref_ns;
		al_hist_add(h, m->t_ns - m->ref_ns);
		if (m->frames < r.frames_min)
			r.frames_min = m->frames;
		if (m->frames > r.frames_max)
			r.frames_max = m->frames;
	}
	r.echoed = n;
	r.sent = r.cnt.sent;
	al_midi_linhist_fill(&r.lat_lin, lat, n);
	r.lat_hist = h;
	if (al_midi_summarize(lat, n, &r.lat) || al_midi_summarize(wall, n, &r.wall)) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "midi", "loop: out of memory");
		goto out;
	}
	/* per phase, by when the probe went out */
	for (k = 0; k < L.S.n_phases; k++) {
		int64_t from = L.S.start_ns + L.phases[k].start_ns;
		int64_t to = k + 1 < L.S.n_phases ? L.S.start_ns + L.phases[k].end_ns : INT64_MAX;
		size_t m_n = 0;

		for (i = 0; i < L.S.n_msgs && (!o->count || i < (size_t)o->count); i++) {
			const struct al_midi_msg *m = &L.S.msgs[i];

			if (m->ref_ns < from || m->ref_ns >= to)
				continue;
			if (m->flags & AL_MIDI_MSG_LOST)
				L.phases[k].lost++;
			else
				lat[m_n++] = m->t_ns - m->ref_ns;
		}
		al_midi_summarize(lat, m_n, &L.phases[k].lat);
	}
	if ((o->max_latency_ns && r.lat.count && r.lat.max_ns > o->max_latency_ns) ||
	    (o->max_jitter_ns && r.lat.count && r.lat.max_ns - r.lat.min_ns > o->max_jitter_ns))
		verdict = "FAIL";
	if (r.lost)
		midi_report_warn(&r, "%llu message(s) lost (no echo within %s)", (unsigned long long)r.lost,
				 o->timeout_ns ? "--timeout" : "1 s");
	exit_code = report_out(&r, &L, midi_print_loop, "loop", "measured", verdict, exit_code);
	if (!exit_code && !strcmp(verdict, "FAIL")) {
		if (o->max_latency_ns && r.lat.max_ns > o->max_latency_ns) {
			al_format_duration(r.lat.max_ns, a, sizeof(a));
			al_format_duration(o->max_latency_ns, b, sizeof(b));
			exit_code = cli_cmd_error(AL_EXIT_THRESHOLD, "midi",
						  "loop: max latency %s exceeds --max-latency %s", a, b);
		} else {
			al_format_duration(r.lat.max_ns - r.lat.min_ns, a, sizeof(a));
			al_format_duration(o->max_jitter_ns, b, sizeof(b));
			exit_code = cli_cmd_error(AL_EXIT_THRESHOLD, "midi",
						  "loop: peak-to-peak jitter %s exceeds --max-jitter %s", a, b);
		}
	}
out:
	free(lat);
	free(wall);
	free(h);
	live_free(&L);
	return exit_code;
}
