/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi record and loop (measure.h): plan the phases, open the
 * port, run the session (session.h: the phases, what the port hands
 * over), then the statistics and the MIDI file, into the result.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/rt.h"
#include "core/stats.h"
#include "core/url.h"
#include "measure.h"
#include "session.h"

#define LOOP_DEFAULT_NS (10 * AL_NS_PER_SEC)

struct live {
	const struct al_midi_config *cfg;
	const struct al_midi_ctl *ctl;
	struct al_midi_result *r;
	struct al_midi_port *port;
	struct al_phase_spec *spec;
	size_t n_spec;
	struct al_midi_session S;      /* the measurement (session.h) */
};

static int
fail(struct al_midi_result *r, int stage, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
fail(struct al_midi_result *r, int stage, int rc, const char *fmt, ...)
{
	va_list ap;

	r->stage = stage;
	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return rc;
}

static void
status(void *ud, const struct al_midi_session *S, int64_t now_ns)
{
	const struct live *L = ud;
	struct al_midi_live v = {
		.kind = L->cfg->kind, .elapsed_ns = now_ns - S->start_ns,
		.planned_ns = L->r->planned_ns, .selected = S->selected, .lost = S->lost,
		.max_ns = S->live_max_ns,
	};

	L->ctl->status(L->ctl->ud, &v);
}

/* --load and -d -> the phases; 0, -EINVAL, -EOPNOTSUPP or -ENOMEM. */
static int
plan(struct live *L, int64_t default_ns)
{
	const struct al_midi_config *c = L->cfg;
	struct al_midi_result *r = L->r;
	char err[512];
	size_t i;
	int rc;

	r->planned_ns = c->duration_ns;
	if (c->load_spec) {
		if (al_load_spec_parse(c->load_spec, c->duration_ns, &L->spec, &L->n_spec, err,
				       sizeof(err)))
			return fail(r, AL_MIDI_STAGE_CONFIG, -EINVAL, "--load: %s", err);
		for (i = 0; i < L->n_spec && L->n_spec > 1; i++)
			if (!L->spec[i].duration_ns)
				return fail(r, AL_MIDI_STAGE_CONFIG, -EINVAL,
					    "--load: phase '%s' has no time (give each phase one, or -d)",
					    L->spec[i].name);
		if (!r->planned_ns)
			r->planned_ns = al_load_spec_total_ns(L->spec, L->n_spec);
		if (!r->planned_ns && default_ns)
			L->spec[0].duration_ns = r->planned_ns = default_ns;
		rc = al_load_check_opts(L->ctl->load_opts, L->spec, L->n_spec, err, sizeof(err));
		if (rc)
			return fail(r, AL_MIDI_STAGE_CONFIG, rc == -EOPNOTSUPP ? rc : -EINVAL, "%s", err);
	} else if (!r->planned_ns) {
		r->planned_ns = default_ns;
	}
	r->phases = calloc(L->n_spec ? L->n_spec : 1, sizeof(*r->phases));
	if (!r->phases)
		return fail(r, AL_MIDI_STAGE_RUN, -ENOMEM, "out of memory");
	return 0;
}

/* Run the session (the phase driver) until the end, an interruption or a failure. */
static void
measure(struct live *L)
{
	struct al_midi_session *S = &L->S;
	struct al_midi_result *r = L->r;
	size_t i;

	S->port = L->port;
	S->loop = L->cfg->kind == AL_MIDI_LOOP;
	S->filter = &L->cfg->filter;
	S->interval_ns = L->cfg->interval_ns;
	S->count = L->cfg->count;
	S->spec = L->spec;
	S->n_spec = L->n_spec;
	S->load_opts = L->ctl->load_opts;
	S->duration_ns = r->planned_ns;
	S->stop_requested = L->ctl->stop_requested;
	S->status = L->ctl->status ? status : NULL;
	S->status_ud = L;
	S->status_ns = L->ctl->status_ns;
	if (al_midi_session_run(S)) {
		S->failed = true;
		snprintf(S->err, sizeof(S->err), "out of memory");
	}
	for (i = 0; i < S->n_phases; i++) {
		struct al_midi_phase_result *ph = &r->phases[i];
		const struct al_phase *rp = &S->phases[i];

		snprintf(ph->name, sizeof(ph->name), "%s", rp->name);
		snprintf(ph->load, sizeof(ph->load), "%s", rp->load);
		snprintf(ph->error, sizeof(ph->error), "%s", rp->error);
		ph->start_ns = rp->start_ns;
		ph->end_ns = rp->end_ns;
		memcpy(ph->throughput, rp->throughput, sizeof(ph->throughput));
		ph->n_throughput = rp->n_throughput;
	}
}

/* Open the port; 0 or the port's -errno. */
static int
open_port(struct live *L, int mode)
{
	const struct al_midi_config *o = L->cfg;
	struct al_midi_result *r = L->r;
	struct al_midi_port_cfg cfg = {
		.api = o->api,
		.mode = mode,
		.server = o->server,
		.prio = o->prio,
		.loop_timeout_ns = o->timeout_ns,
		.loop_gap_ns = o->gap_ns,
	};
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
			al_midi_result_warn(r, "mlockall failed (%s); memory is not locked", strerror(-rc));
		r->memory_locked = rt.locked;
	}
	rc = al_midi_port_open(&cfg, &L->port, &r->info, r->err, sizeof(r->err));
	if (rc) {
		r->stage = AL_MIDI_STAGE_OPEN;
		return rc;
	}
	r->realtime = r->info.thread_realtime;
	if (o->prio && o->api != AL_MIDI_API_JACK && !r->info.thread_realtime)
		al_midi_result_warn(r, "SCHED_FIFO priority %d was not permitted: the %s thread ran at "
				    "SCHED_OTHER", o->prio, mode == AL_MIDI_MODE_RECORD ? "reader" : "prober");
	if (o->prio && o->api == AL_MIDI_API_JACK)
		al_midi_result_warn(r, "-p does not apply to JACK: the process callback runs at the "
				    "server's priority (%s)", r->info.server_realtime ? "real-time" : "not real-time");
	if (r->info.timestamp_note[0])
		al_midi_result_warn(r, "%s", r->info.timestamp_note);
	return 0;
}

static void
finish_common(struct live *L)
{
	struct al_midi_result *r = L->r;
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
	r->n_phases = L->S.n_phases;
	for (size_t i = 0; i < L->S.n_phases; i++)
		if (r->phases[i].error[0])
			al_midi_result_warn(r, "phase %s: %s", r->phases[i].name, r->phases[i].error);
	if (r->cnt.xruns)
		al_midi_result_warn(r, "%llu xrun(s) during the measurement",
				    (unsigned long long)r->cnt.xruns);
	if (r->cnt.irregular)
		al_midi_result_warn(r, "%llu JACK cycle(s) did not start one period after the one "
				    "before (frames repeated or skipped)",
				    (unsigned long long)r->cnt.irregular);
	if (r->cnt.replayed)
		al_midi_result_warn(r, "%llu event(s) JACK gave again in a cycle run twice on the same "
				    "frames: taken once", (unsigned long long)r->cnt.replayed);
	if (r->cnt.dropped)
		al_midi_result_warn(r, "%llu message(s) lost to a full buffer",
				    (unsigned long long)r->cnt.dropped);
	/* the failure that cut the run short: reported with what was measured */
	r->failed = L->S.failed;
	if (r->failed)
		snprintf(r->err, sizeof(r->err), "%s", L->S.err);
}

static void
live_free(struct live *L)
{
	if (L->port)
		al_midi_port_close(L->port);
	if (L->spec)
		al_load_spec_free(L->spec);
	al_midi_session_free(&L->S);
}

/* The start of record and loop: the phases, the port, the system; 0 or -errno. */
static int
begin(struct live *L, int mode, int64_t default_ns)
{
	int rc;

	memset(L->r, 0, sizeof(*L->r));
	L->r->cfg = *L->cfg;
	rc = plan(L, default_ns);
	if (!rc)
		rc = open_port(L, mode);
	if (rc) {
		live_free(L);
		return rc;
	}
	al_sysinfo_read("/", &L->r->sys);
	if (L->ctl->opened)
		L->ctl->opened(L->ctl->ud, L->r);
	L->r->started_at_ns = al_clock_realtime_ns();
	if (al_uuid_random(L->r->uuid))
		L->r->uuid[0] = '\0'; /* the store makes one of the document's bytes */
	return 0;
}

/* ---- record ---- */

static int
cmp_msg(const void *a, const void *b)
{
	const struct al_midi_msg *x = a, *y = b;

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq; /* arrival order */
}

/* The -o file of what was received, ticks of 1 us from the start (or the first message). */
static void
write_smf(struct live *L)
{
	const struct al_midi_session *S = &L->S;
	struct al_midi_result *r = L->r;
	int64_t origin_us = S->start_ns / 1000;

	if (S->n_msgs && al_midi_quantize(S->msgs[0].t_ns) / 1000 < origin_us)
		origin_us = al_midi_quantize(S->msgs[0].t_ns) / 1000;
	r->not_in_file = 0;
	if (!al_midi_session_write_smf(S, L->cfg->smf_path, origin_us,
				       (S->start_ns + r->duration_ns) / 1000, &r->not_in_file,
				       r->smf_err, sizeof(r->smf_err)))
		r->smf_written = L->cfg->smf_path;
}

/* The statistics of the events received (in time order), of all and per phase. */
static int
record_stats(struct live *L)
{
	struct al_midi_session *S = &L->S;
	struct al_midi_result *r = L->r;
	int64_t *t;
	size_t n_sel = 0, i;
	int rc = 0;

	t = malloc((S->n_msgs ? S->n_msgs : 1) * sizeof(*t));
	r->st = malloc(sizeof(*r->st));
	if (!t || !r->st) {
		free(t);
		return -ENOMEM;
	}
	for (i = 0; i < S->n_msgs; i++) {
		/* real-time and system common messages have no place in a MIDI file */
		if (!(S->msgs[i].flags & AL_MIDI_MSG_SYSEX) && !al_midi_data_bytes(S->msgs[i].data[0]))
			r->not_in_file++;
		if (al_midi_session_selected(S, &S->msgs[i]))
			t[n_sel++] = al_midi_quantize(S->msgs[i].t_ns);
	}
	if (al_midi_analyze_times(t, n_sel, L->cfg->interval_ns, r->st))
		rc = -ENOMEM;
	r->tick_ns = 1000;
	for (i = 0; !rc && i < S->n_phases; i++)
		if (al_midi_analyze_stretch(t, n_sel, L->cfg->interval_ns,
					    S->start_ns + r->phases[i].start_ns,
					    i + 1 < S->n_phases ? S->start_ns + r->phases[i].end_ns : 0,
					    &r->phases[i].st))
			rc = -ENOMEM;
	free(t);
	return rc;
}

int
al_midi_record(const struct al_midi_config *cfg, const struct al_midi_ctl *ctl,
	       struct al_midi_result *r)
{
	struct live L = { .cfg = cfg, .ctl = ctl, .r = r };
	size_t i;
	int rc;

	rc = begin(&L, AL_MIDI_MODE_RECORD, 0);
	if (rc)
		return rc;
	measure(&L);
	finish_common(&L);

	/* in time order (JACK and the readers deliver in order; make sure) */
	for (i = 0; i < L.S.n_msgs; i++)
		L.S.msgs[i].seq = (uint32_t)i;
	qsort(L.S.msgs, L.S.n_msgs, sizeof(*L.S.msgs), cmp_msg);
	r->received = L.S.n_msgs;
	rc = record_stats(&L);
	if (rc) {
		fail(r, AL_MIDI_STAGE_RUN, rc, "out of memory");
		goto out;
	}
	if (cfg->smf_path)
		write_smf(&L);
	if (r->not_in_file)
		al_midi_result_warn(r, "%llu real-time or system message(s) received; a MIDI file "
				    "cannot hold them", (unsigned long long)r->not_in_file);
	if (cfg->max_jitter_ns && r->st->deltas && r->st->jitter_abs_max_ns > cfg->max_jitter_ns)
		r->threshold = AL_MIDI_THRESH_JITTER_ABS;
out:
	live_free(&L);
	return rc;
}

/* ---- loop ---- */

/* The round trips of the probes that came back, of all and per phase (by when they went out). */
static int
loop_stats(struct live *L, int64_t *lat, int64_t *wall)
{
	const struct al_midi_session *S = &L->S;
	struct al_midi_result *r = L->r;
	long count = L->cfg->count;
	size_t n = 0, i, k;

	al_hist_init(r->lat_hist);
	r->frames_min = INT32_MAX;
	r->frames_max = INT32_MIN;
	for (i = 0; i < S->n_msgs && (!count || i < (size_t)count); i++) {
		const struct al_midi_msg *m = &S->msgs[i];

		if (m->flags & AL_MIDI_MSG_LOST) {
			r->lost++;
			continue;
		}
		wall[n] = m->wall_ns;
		lat[n++] = m->t_ns - m->ref_ns;
		al_hist_add(r->lat_hist, m->t_ns - m->ref_ns);
		if (m->frames < r->frames_min)
			r->frames_min = m->frames;
		if (m->frames > r->frames_max)
			r->frames_max = m->frames;
	}
	r->echoed = n;
	r->sent = r->cnt.sent;
	al_midi_linhist_fill(&r->lat_lin, lat, n);
	if (al_midi_summarize(lat, n, &r->lat) || al_midi_summarize(wall, n, &r->wall))
		return -ENOMEM;
	for (k = 0; k < S->n_phases; k++) {
		int64_t from = S->start_ns + r->phases[k].start_ns;
		int64_t to = k + 1 < S->n_phases ? S->start_ns + r->phases[k].end_ns : INT64_MAX;
		size_t m_n = 0;

		for (i = 0; i < S->n_msgs && (!count || i < (size_t)count); i++) {
			const struct al_midi_msg *m = &S->msgs[i];

			if (m->ref_ns < from || m->ref_ns >= to)
				continue;
			if (m->flags & AL_MIDI_MSG_LOST)
				r->phases[k].lost++;
			else
				lat[m_n++] = m->t_ns - m->ref_ns;
		}
		al_midi_summarize(lat, m_n, &r->phases[k].lat);
	}
	return 0;
}

int
al_midi_loop(const struct al_midi_config *cfg, const struct al_midi_ctl *ctl,
	     struct al_midi_result *r)
{
	struct live L = { .cfg = cfg, .ctl = ctl, .r = r };
	int64_t *lat = NULL, *wall = NULL;
	int rc;

	rc = begin(&L, AL_MIDI_MODE_LOOP,
		   cfg->count && !cfg->duration_ns && !cfg->load_spec ? 0 : LOOP_DEFAULT_NS);
	if (rc)
		return rc;
	measure(&L);
	finish_common(&L);

	lat = malloc((L.S.n_msgs ? L.S.n_msgs : 1) * sizeof(*lat));
	wall = malloc((L.S.n_msgs ? L.S.n_msgs : 1) * sizeof(*wall));
	r->lat_hist = malloc(sizeof(*r->lat_hist));
	if (!lat || !wall || !r->lat_hist || loop_stats(&L, lat, wall)) {
		rc = fail(r, AL_MIDI_STAGE_RUN, -ENOMEM, "out of memory");
		goto out;
	}
	if (cfg->max_latency_ns && r->lat.count && r->lat.max_ns > cfg->max_latency_ns)
		r->threshold = AL_MIDI_THRESH_LATENCY;
	else if (cfg->max_jitter_ns && r->lat.count && r->lat.max_ns - r->lat.min_ns > cfg->max_jitter_ns)
		r->threshold = AL_MIDI_THRESH_JITTER_PEAK;
	if (r->lost)
		al_midi_result_warn(r, "%llu message(s) lost (no echo within %s)",
				    (unsigned long long)r->lost, cfg->timeout_ns ? "--timeout" : "1 s");
out:
	free(lat);
	free(wall);
	live_free(&L);
	return rc;
}
