/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi record and loop: open the port, run the load phases while
 * it measures, collect what it hands over, then the statistics, the MIDI
 * file, the report.
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
#include "load/phases.h"
#include "cli.h"
#include "midi-live.h"

#define POLL_NS (20 * AL_NS_PER_MS)
#define STATUS_NS (200 * AL_NS_PER_MS)
#define LOOP_DEFAULT_NS (10 * AL_NS_PER_SEC)

/* What the port handed over, in arrival order. */
struct msgs {
	struct al_midi_msg *m;
	size_t n, cap;
};

struct live {
	struct midi_opts *o;
	const char *cmd;               /* "record", "loop" */
	struct al_midi_port *port;
	struct al_phase_spec *spec;
	size_t n_spec;
	struct midi_phase *phases;
	struct al_phase *run;          /* the driver's phases, copied into phases */
	size_t n_phases;               /* reached */
	int64_t start_ns;
	int64_t duration_ns;           /* 0: until interrupted */
	struct msgs got;
	bool interrupted;
	bool failed;
	char err[AL_WARN_LEN];
	/* live figures for the status line */
	uint64_t selected;
	int64_t last_sel_ns;
	int64_t live_max_ns;           /* record: max |delta - interval| or max delta; loop: max latency */
	uint64_t lost;
};

static int
msgs_add(struct msgs *g, const struct al_midi_msg *m, size_t n)
{
	struct al_midi_msg *nm;
	size_t cap;

	if (g->n + n > g->cap) {
		cap = g->cap ? g->cap : 1024;
		while (cap < g->n + n)
			cap *= 2;
		nm = realloc(g->m, cap * sizeof(*nm));
		if (!nm)
			return -ENOMEM;
		g->m = nm;
		g->cap = cap;
	}
	memcpy(g->m + g->n, m, n * sizeof(*m));
	g->n += n;
	return 0;
}

/* Times are kept to the microsecond: the tick of the written file. */
static inline int64_t
quantize(int64_t t_ns)
{
	return t_ns >= 0 ? t_ns / 1000 * 1000 : -((-t_ns + 999) / 1000 * 1000);
}

static bool
selected(const struct midi_opts *o, const struct al_midi_msg *m)
{
	if (m->flags & AL_MIDI_MSG_REALTIME)
		return false;
	return al_midi_filter_match(&o->filter, m->data[0], m->len > 1 ? m->data[1] : 0,
				    m->len > 2 ? m->data[2] : 0);
}

/* Take what the port has; update the live figures. */
static int
collect(struct live *L)
{
	struct al_midi_msg buf[256];
	size_t n, i;
	int64_t d, t;

	while ((n = al_midi_port_drain(L->port, buf, 256))) {
		if (msgs_add(&L->got, buf, n))
			return -ENOMEM;
		for (i = 0; i < n; i++) {
			if (!strcmp(L->cmd, "loop")) {
				if (buf[i].flags & AL_MIDI_MSG_LOST)
					L->lost++;
				else if (buf[i].t_ns - buf[i].ref_ns > L->live_max_ns)
					L->live_max_ns = buf[i].t_ns - buf[i].ref_ns;
				L->selected++;
				continue;
			}
			if (!selected(L->o, &buf[i]))
				continue;
			t = quantize(buf[i].t_ns);
			if (L->selected) {
				d = t - L->last_sel_ns;
				if (L->o->interval_ns)
					d = llabs(d - L->o->interval_ns);
				if (d > L->live_max_ns)
					L->live_max_ns = d;
			}
			L->selected++;
			L->last_sel_ns = t;
		}
	}
	return 0;
}

static void
status_line(const struct live *L, int64_t now_ns)
{
	char v[32], total[32] = "";

	al_format_duration(L->live_max_ns, v, sizeof(v));
	if (L->duration_ns)
		snprintf(total, sizeof(total), "/%.1f", (double)L->duration_ns / AL_NS_PER_SEC);
	if (!strcmp(L->cmd, "loop"))
		fprintf(stderr, "\r\033[K[%6.1f%s s] probes=%llu lost=%llu max latency=%s",
			(double)(now_ns - L->start_ns) / AL_NS_PER_SEC, total,
			(unsigned long long)L->selected, (unsigned long long)L->lost, v);
	else
		fprintf(stderr, "\r\033[K[%6.1f%s s] events=%llu %s=%s",
			(double)(now_ns - L->start_ns) / AL_NS_PER_SEC, total,
			(unsigned long long)L->selected,
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
	L->run = calloc(L->n_spec ? L->n_spec : 1, sizeof(*L->run));
	if (!L->phases || !L->run)
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "out of memory");
	return 0;
}

/* The driver's tick: take what the port has; a port that failed or a loop's -n ends it. */
static int
live_tick(void *ud, int64_t now_ns)
{
	struct live *L = ud;

	(void)now_ns;
	if (collect(L)) {
		snprintf(L->err, sizeof(L->err), "out of memory for the messages");
		return -ENOMEM;
	}
	if (al_midi_port_status(L->port, L->err, sizeof(L->err)))
		return -EIO;
	if (!strcmp(L->cmd, "loop") && L->o->count && L->got.n >= (size_t)L->o->count)
		return 1;
	return 0;
}

static void
live_status(void *ud, int64_t now_ns)
{
	status_line(ud, now_ns);
}

/* Run the phases (the phase driver) until the end, an interruption or a failure. */
static void
measure(struct live *L)
{
	bool status = cli_status_wanted(L->o->quiet);
	struct al_phase_driver d = {
		.spec = L->spec, .n_spec = L->n_spec, .load_opts = &L->o->load_opts,
		.stop_requested = &cli_stop_requested,
		.tick = live_tick, .tick_ns = POLL_NS,
		.status = status ? live_status : NULL, .status_ns = STATUS_NS,
		.ud = L, .phases = L->run,
	};
	size_t i;

	L->start_ns = al_clock_now_ns();
	d.origin_ns = L->start_ns;
	d.end_ns = L->duration_ns ? L->start_ns + L->duration_ns : 0;
	al_phase_driver_run(&d);
	L->interrupted = d.interrupted;
	L->failed = d.ended < 0;
	L->n_phases = d.n_done;
	for (i = 0; i < L->n_phases; i++) {
		struct midi_phase *ph = &L->phases[i];
		const struct al_phase *rp = &L->run[i];

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
	collect(L);
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
	r->duration_ns = al_clock_now_ns() - L->start_ns;
	r->interrupted = L->interrupted;
	r->phases = L->phases;
	r->n_phases = L->n_phases;
	for (size_t i = 0; i < L->n_phases; i++)
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
	free(L->run);
	if (L->spec)
		al_load_spec_free(L->spec);
	free(L->got.m);
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

static int
write_smf(const struct live *L, const char *path, int64_t origin_us, int64_t end_us,
	  uint64_t *not_in_file, char *err, size_t err_size)
{
	static const uint8_t name[] = "audiolat midi record";
	static const uint8_t empty_sysex[] = { 0xF7 };
	struct al_smf_writer w;
	uint8_t *buf;
	size_t len, i;
	uint64_t tick = 0;
	FILE *f;
	int rc, n;

	al_smf_writer_init(&w, 0, 1, MIDI_REC_PPQ, true);
	al_smf_writer_track_begin(&w);
	al_smf_writer_meta(&w, 0, 0x03, name, sizeof(name) - 1);
	al_smf_writer_tempo(&w, 0, MIDI_REC_TEMPO_US);
	for (i = 0; i < L->got.n; i++) {
		const struct al_midi_msg *m = &L->got.m[i];

		tick = (uint64_t)(quantize(m->t_ns) / 1000 - origin_us);
		if (m->flags & AL_MIDI_MSG_SYSEX) {
			al_smf_writer_sysex(&w, tick, 0xF0, empty_sysex, 1);
			continue;
		}
		n = al_midi_data_bytes(m->data[0]);
		if (!n || m->len != 1 + n || (m->data[1] | (n == 2 ? m->data[2] : 0)) & 0x80) {
			(*not_in_file)++;
			continue;
		}
		al_smf_writer_channel(&w, tick, m->data[0], m->data[1], n == 2 ? m->data[2] : 0);
	}
	if (end_us - origin_us > (int64_t)tick)
		tick = (uint64_t)(end_us - origin_us);
	al_smf_writer_track_end(&w, tick);
	rc = al_smf_writer_finish(&w, &buf, &len);
	if (rc)
		return snprintf(err, err_size, "%s: cannot build the file: %s", path, strerror(-rc)), rc;
	f = fopen(path, "wbe");
	if (!f) {
		rc = -errno;
		free(buf);
		return snprintf(err, err_size, "%s: %s", path, strerror(-rc)), rc;
	}
	rc = fwrite(buf, 1, len, f) == len ? 0 : -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	free(buf);
	if (rc)
		snprintf(err, err_size, "%s: %s", path, strerror(-rc));
	return rc;
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
	if (L->failed) {
		cli_cmd_error(AL_EXIT_RUNTIME, "midi", "%s: %s; reporting what was %s", what, L->err,
			      got);
		exit_code = AL_EXIT_RUNTIME;
	}
	return exit_code;
}

/* The statistics of the selected events in [from, to) (absolute ns, 0: open). */
static int
stats_of(const struct live *L, const int64_t *t, size_t n, int64_t from_ns, int64_t to_ns,
	 struct al_midi_stats **out)
{
	struct al_midi_stats *st = malloc(sizeof(*st));
	size_t first = 0, last, events;
	int rc;

	*out = st;
	if (!st)
		return -ENOMEM;
	while (first < n && from_ns && t[first] < from_ns)
		first++;
	last = first;
	while (last < n && (!to_ns || t[last] < to_ns))
		last++;
	events = last - first;
	/* the delta from the event before the stretch belongs to it */
	if (first > 0 && events)
		first--;
	rc = al_midi_analyze_times(t + first, last - first, L->o->interval_ns, st);
	st->events = events;
	return rc;
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

	memset(&r, 0, sizeof(r));
	r.kind = "record";
	r.o = o;
	rc = plan(&L, 0);
	if (rc) {
		live_free(&L);
		return rc;
	}
	rc = open_port(&L, &r, AL_MIDI_MODE_RECORD);
	if (rc) {
		live_free(&L);
		return rc;
	}
	cli_catch_stop_signals();
	al_sysinfo_read("/", &r.sys);
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
	for (i = 0; i < L.got.n; i++)
		L.got.m[i].seq = (uint32_t)i;
	qsort(L.got.m, L.got.n, sizeof(*L.got.m), cmp_msg);
	r.received = L.got.n;
	t = malloc((L.got.n ? L.got.n : 1) * sizeof(*t));
	r.st = malloc(sizeof(*r.st));
	if (!t || !r.st) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "midi", "record: out of memory");
		goto out;
	}
	for (i = 0; i < L.got.n; i++) {
		/* real-time and system common messages have no place in a MIDI file */
		if (!(L.got.m[i].flags & AL_MIDI_MSG_SYSEX) && !al_midi_data_bytes(L.got.m[i].data[0]))
			r.not_in_file++;
		if (selected(o, &L.got.m[i]))
			t[n_sel++] = quantize(L.got.m[i].t_ns);
	}
	if (al_midi_analyze_times(t, n_sel, o->interval_ns, r.st)) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "midi", "record: out of memory");
		goto out;
	}
	r.tick_ns = 1000;
	for (i = 0; i < L.n_phases; i++)
		if (stats_of(&L, t, n_sel, L.start_ns + L.phases[i].start_ns,
			     i + 1 < L.n_phases ? L.start_ns + L.phases[i].end_ns : 0,
			     &L.phases[i].st)) {
			exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "midi", "record: out of memory");
			goto out;
		}
	if (o->smf_path) {
		origin_us = L.start_ns / 1000;
		if (L.got.n && quantize(L.got.m[0].t_ns) / 1000 < origin_us)
			origin_us = quantize(L.got.m[0].t_ns) / 1000;
		r.not_in_file = 0;
		rc = write_smf(&L, o->smf_path, origin_us, (L.start_ns + r.duration_ns) / 1000,
			       &r.not_in_file, err, sizeof(err));
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

	memset(&r, 0, sizeof(r));
	r.kind = "loop";
	r.o = o;
	rc = plan(&L, o->count && !o->duration_ns && !o->load_spec ? 0 : LOOP_DEFAULT_NS);
	if (rc) {
		live_free(&L);
		return rc;
	}
	rc = open_port(&L, &r, AL_MIDI_MODE_LOOP);
	if (rc) {
		live_free(&L);
		return rc;
	}
	cli_catch_stop_signals();
	al_sysinfo_read("/", &r.sys);
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

	lat = malloc((L.got.n ? L.got.n : 1) * sizeof(*lat));
	wall = malloc((L.got.n ? L.got.n : 1) * sizeof(*wall));
	h = malloc(sizeof(*h));
	if (!lat || !wall || !h) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "midi", "loop: out of memory");
		goto out;
	}
	al_hist_init(h);
	r.frames_min = INT32_MAX;
	r.frames_max = INT32_MIN;
	for (i = 0; i < L.got.n; i++) {
		const struct al_midi_msg *m = &L.got.m[i];

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
	for (k = 0; k < L.n_phases; k++) {
		int64_t from = L.start_ns + L.phases[k].start_ns;
		int64_t to = k + 1 < L.n_phases ? L.start_ns + L.phases[k].end_ns : INT64_MAX;
		size_t m_n = 0;

		for (i = 0; i < L.got.n && (!o->count || i < (size_t)o->count); i++) {
			const struct al_midi_msg *m = &L.got.m[i];

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
