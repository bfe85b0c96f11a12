/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JACK MIDI ports. Everything the process callback touches is allocated
 * and touched before jack_activate(); the callback only reads JACK's
 * buffers and timer, the clock, does arithmetic and pushes to / pops from
 * the lock-free rings.
 *
 * Times: an event at frame offset o of the cycle starting at frame f0 is
 * at T(f0 + o) on CLOCK_MONOTONIC, T the server's frame clock: a line over
 * its frame counter fitted to its own cycle starts (cycle_begin). JACK's
 * own clock (jack_get_time(): CLOCK_MONOTONIC in some jack2 releases,
 * CLOCK_MONOTONIC_RAW in others, Debian 12's 1.9.21 among them) is only
 * identified and reported: a cycle start is read as a difference on it
 * (jack_frames_since_cycle_start()) from one of our clock reads.
 *
 * Sending: the sender thread stamps each message with CLOCK_MONOTONIC when
 * it wakes; the callback places it one period later at the same position
 * in the period (jack_time_to_frames(t) + nframes), so relative timing is
 * kept to a frame while a message stamped during cycle k goes out in
 * cycle k + 1. Messages found later than that go at offset 0 ("late").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jack/jack.h>
#include <jack/midiport.h>

#include "core/clock.h"
#include "core/grid.h"
#include "core/rt.h"

#define LINE_SINCE_MAX 16          /* periods: a cycle start older than this is not this cycle's */
#define LINE_SLACK_NS 1000000      /* the server's cycle starts this far off the line ... */
#define LINE_OFF_CYCLES 8          /* ... this many cycles in a row: a new line */
#define LAST_EVENTS 16             /* record: the last cycle's events kept to spot a replay */

#define AL_MIDI_PORT_PRIVATE_ALLOW
#include "port-private.h"

enum jclock { JCLOCK_MONO, JCLOCK_RAW, JCLOCK_OTHER };

struct jport {
	struct al_midi_port *p;
	jack_client_t *client;
	jack_port_t *in, *out;
	struct al_midi_ring tx;      /* send: sender thread -> callback */
	int mode;
	jack_nframes_t nframes;
	int64_t rate_hz;
	int clock_kind;              /* enum jclock */
	int64_t offset_ns;           /* JACK clock - CLOCK_MONOTONIC at the start (reported only) */
	atomic_bool armed;           /* connected: the callback may act */

	_Atomic uint64_t cycles;
	_Atomic uint64_t irregular;  /* cycles whose first frame did not follow the last by a period */
	_Atomic uint64_t replayed;   /* record: events a cycle run again on the same frames gave twice */
	_Atomic uint64_t xruns;
	_Atomic uint64_t late;
	_Atomic uint64_t dropped;
	_Atomic uint64_t unexpected;
	_Atomic uint64_t sent;
	atomic_bool gone;            /* the server shut us down */
	char gone_reason[160];

	/* loop: the process thread's own */
	int64_t cycle_wake_ns;       /* when this cycle's callback started */
	bool in_flight;
	uint32_t seq;
	jack_nframes_t sent_frame;
	int64_t sent_wake_ns;        /* wake_ns of the cycle that sent the probe */
	int32_t sent_off;
	uint8_t expect[3];
	bool have_next;
	jack_nframes_t next_frame;
	int32_t timeout_frames;
	int32_t gap_frames;
	uint64_t rng;

	/* this cycle's timer snapshot (process thread) */
	jack_nframes_t cyc_f0;
	jack_time_t cyc_cur_us;      /* the server's time of its cycle start, as JACK gives it */
	bool replay;                 /* this cycle's frames and start are the last one's */
	int64_t cyc_ns;              /* time of cyc_f0 on CLOCK_MONOTONIC */
	int64_t cyc_len_ns;          /* the fitted length of a period */
	int64_t cyc_frames;
	struct al_grid grid;         /* the server's frame clock (cycle_begin) */
	int64_t frames;              /* frames since the first cycle, on 64 bits */
	uint64_t grid_xruns;         /* the xrun notifications the line has seen */
	unsigned int line_off;       /* cycles in a row a cycle start was off the line */

	struct al_hist wake_ns;      /* callback start - cycle start */

	/* record: the last cycle's events (offset, bytes), for a replay of it */
	struct { jack_nframes_t time; uint8_t len, data[3]; } last_ev[LAST_EVENTS];
	uint32_t n_last_ev;
};

static inline int64_t
clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * AL_NS_PER_SEC + ts.tv_nsec;
}

/* CLOCK_MONOTONIC_RAW - CLOCK_MONOTONIC now, to a few tens of ns (vDSO reads). */
static inline int64_t
raw_offset_ns(void)
{
	int64_t m1 = clock_ns(CLOCK_MONOTONIC), r = clock_ns(CLOCK_MONOTONIC_RAW);
	int64_t m2 = clock_ns(CLOCK_MONOTONIC);

	return r - (m1 + (m2 - m1) / 2);
}

/*
 * Common start of every cycle: one snapshot of the server's frame clock
 * (the cycle's first frame and its time on CLOCK_MONOTONIC, the length of
 * a frame), used for every frame <-> time conversion of the cycle: a
 * client late in its cycle can otherwise see the server move its timer on
 * between two calls (found with a non-real-time jackd under hackbench:
 * probes "echoed" before they were sent). The clock is a line over the
 * frame counter fitted to the earliest of the server's own cycle starts
 * (core/grid.h; jack_frames_since_cycle_start() from our clock read, an
 * upper bound to a frame), as the jack audio backend's boundaries: not
 * JACK's delay-locked loop, which an xrun or a client joining puts off by
 * milliseconds for seconds (a 50 ms server stall made 10 Hz events read
 * 102-104.7 ms apart for a second and 99.66 ms four seconds later). A new
 * line after each xrun notification (jack2's timed drivers re-anchor their
 * clock when late), a counter jump, a cycle begun a period or more late
 * (its events went out then), or starts that stay 1 ms off the line.
 * Also the wake-up lateness of the callback.
 */
static inline jack_nframes_t
cycle_begin(struct jport *j, jack_nframes_t n)
{
	jack_nframes_t f0, since;
	jack_time_t cur_us, next_us;
	float period_us;
	int64_t now_ns = al_clock_now_ns(), start_ns, due_ns;
	int64_t period_ns = (int64_t)n * AL_NS_PER_SEC / j->rate_hz;
	uint64_t xr;

	atomic_fetch_add_explicit(&j->cycles, 1, memory_order_relaxed);
	j->cycle_wake_ns = now_ns;
	since = jack_frames_since_cycle_start(j->client);
	start_ns = al_clock_now_ns() - (int64_t)since * AL_NS_PER_SEC / j->rate_hz;
	if ((int64_t)since > LINE_SINCE_MAX * (int64_t)n || start_ns > now_ns)
		start_ns = now_ns;
	if (jack_get_cycle_times(j->client, &f0, &cur_us, &next_us, &period_us)) {
		f0 = jack_last_frame_time(j->client);
		cur_us = 0; /* unknown: no cycle is taken for a replay */
	}
	/*
	 * jack2 resuming from a stall or a slip can run a client's callback
	 * again on the frames and cycle start of the last one, its input
	 * buffer as it was (a source that wrote one event, record reading
	 * it twice): a replay, which record does not take twice.
	 */
	j->replay = j->cyc_frames && cur_us && f0 == j->cyc_f0 && cur_us == j->cyc_cur_us;
	j->cyc_cur_us = cur_us;
	/* the frame counter should advance by exactly one period a cycle */
	if (j->cyc_frames && (int32_t)(f0 - j->cyc_f0) != (int32_t)n) {
		atomic_fetch_add_explicit(&j->irregular, 1, memory_order_relaxed);
		if ((int32_t)(f0 - j->cyc_f0) <= 0 ||
		    (int32_t)(f0 - j->cyc_f0) > LINE_SINCE_MAX * (int32_t)n)
			al_grid_start(&j->grid, j->rate_hz);
	}
	j->frames += j->cyc_frames ? (int64_t)(int32_t)(f0 - j->cyc_f0) : 0;
	xr = atomic_load_explicit(&j->xruns, memory_order_relaxed);
	if (xr != j->grid_xruns) {
		j->grid_xruns = xr;
		al_grid_start(&j->grid, j->rate_hz);
	}
	j->cyc_f0 = f0;
	j->cyc_ns = al_grid_boundary(&j->grid, j->frames, start_ns);
	due_ns = j->cyc_ns;
	/*
	 * A cycle the server began a period or more after the line: its clock
	 * stopped (a stalled server; the frame counter goes on where it
	 * stopped, and jack2's timed drivers re-anchor their clock and notify
	 * an xrun, which reaches us a cycle or two later). The events of this
	 * cycle went out now, not when they were due: a new line from here.
	 */
	if (start_ns - j->cyc_ns >= period_ns) {
		al_grid_start(&j->grid, j->rate_hz);
		j->cyc_ns = al_grid_boundary(&j->grid, j->frames, start_ns);
		j->line_off = 0;
	} else if (start_ns - j->cyc_ns > LINE_SLACK_NS || j->cyc_ns - start_ns > LINE_SLACK_NS) {
		if (++j->line_off >= LINE_OFF_CYCLES) {
			al_grid_start(&j->grid, j->rate_hz);
			j->line_off = 0;
		}
	} else {
		j->line_off = 0;
	}
	j->cyc_len_ns = (int64_t)llround(al_grid_frame_ns(&j->grid) * (double)n);
	j->cyc_frames = n;
	al_hist_add(&j->wake_ns, now_ns - due_ns); /* a late cycle's lateness counts */
	return f0;
}

/* CLOCK_MONOTONIC time of a frame, by this cycle's snapshot (frame may be earlier). */
static inline int64_t
frame_ns(const struct jport *j, jack_nframes_t frame)
{
	return j->cyc_ns + (int64_t)(int32_t)(frame - j->cyc_f0) * j->cyc_len_ns / j->cyc_frames;
}

/* The frame at a CLOCK_MONOTONIC time, by this cycle's snapshot (rounded down). */
static inline jack_nframes_t
ns_frame(const struct jport *j, int64_t t_ns)
{
	int64_t d = (t_ns - j->cyc_ns) * j->cyc_frames;

	d = d >= 0 ? d / j->cyc_len_ns : -((-d + j->cyc_len_ns - 1) / j->cyc_len_ns);
	return j->cyc_f0 + (jack_nframes_t)(int32_t)d;
}

/*
 * An event of a replayed cycle that the last cycle gave (the same offset
 * and bytes): counted, not taken again. Otherwise kept as this cycle's.
 */
static inline bool
seen_last_cycle(struct jport *j, const jack_midi_event_t *ev)
{
	uint8_t len = (uint8_t)(ev->size > 3 ? 3 : ev->size);
	uint32_t k;

	if (j->replay)
		for (k = 0; k < j->n_last_ev; k++)
			if (j->last_ev[k].time == ev->time && j->last_ev[k].len == len &&
			    !memcmp(j->last_ev[k].data, ev->buffer, len)) {
				atomic_fetch_add_explicit(&j->replayed, 1, memory_order_relaxed);
				return true;
			}
	if (!j->replay && j->n_last_ev < LAST_EVENTS) {
		j->last_ev[j->n_last_ev].time = ev->time;
		j->last_ev[j->n_last_ev].len = len;
		memcpy(j->last_ev[j->n_last_ev].data, ev->buffer, len);
		j->n_last_ev++;
	}
	return false;
}

static int
process_record(jack_nframes_t n, void *arg)
{
	struct jport *j = arg;
	jack_midi_event_t ev;
	struct al_midi_msg m;
	jack_nframes_t f0 = cycle_begin(j, n);
	void *in = jack_port_get_buffer(j->in, n);
	uint32_t i, count;

	if (!atomic_load_explicit(&j->armed, memory_order_acquire))
		return 0;
	count = jack_midi_get_event_count(in);
	if (!j->replay)
		j->n_last_ev = 0;
	for (i = 0; i < count; i++) {
		if (jack_midi_event_get(&ev, in, i))
			continue;
		if (!ev.size)
			continue;
		if (seen_last_cycle(j, &ev))
			continue;
		memset(&m, 0, sizeof(m));
		m.t_ns = frame_ns(j, f0 + ev.time);
		if (ev.buffer[0] == 0xF0) {
			m.flags = AL_MIDI_MSG_SYSEX;
			m.len = 1;
			m.data[0] = 0xF0;
		} else {
			m.len = (uint8_t)(ev.size > 3 ? 3 : ev.size);
			memcpy(m.data, ev.buffer, m.len);
			if (ev.buffer[0] >= 0xF8)
				m.flags = AL_MIDI_MSG_REALTIME;
		}
		al_midi_ring_push(&j->p->rx, &m);
	}
	return 0;
}

static int
process_send(jack_nframes_t n, void *arg)
{
	struct jport *j = arg;
	const struct al_midi_msg *m;
	jack_nframes_t f0 = cycle_begin(j, n), frame;
	void *out = jack_port_get_buffer(j->out, n);
	int32_t off, last = 0;

	jack_midi_clear_buffer(out);
	while ((m = al_midi_ring_peek(&j->tx))) {
		frame = ns_frame(j, m->t_ns) + n;
		off = (int32_t)(frame - f0);
		if (off >= (int32_t)n)
			break; /* stamped during this cycle: it goes in the next */
		if (off < 0) {
			off = 0;
			atomic_fetch_add_explicit(&j->late, 1, memory_order_relaxed);
		}
		if (off < last)
			off = last; /* events must not go back in time */
		if (jack_midi_event_write(out, (jack_nframes_t)off, m->data, m->len))
			atomic_fetch_add_explicit(&j->dropped, 1, memory_order_relaxed);
		else
			atomic_fetch_add_explicit(&j->sent, 1, memory_order_relaxed);
		last = off;
		al_midi_ring_pop(&j->tx);
	}
	return 0;
}

static int
process_thru(jack_nframes_t n, void *arg)
{
	struct jport *j = arg;
	jack_midi_event_t ev;
	void *in, *out;
	uint32_t i, count;

	cycle_begin(j, n);
	in = jack_port_get_buffer(j->in, n);
	out = jack_port_get_buffer(j->out, n);
	jack_midi_clear_buffer(out);
	count = jack_midi_get_event_count(in);
	for (i = 0; i < count; i++) {
		if (jack_midi_event_get(&ev, in, i))
			continue;
		if (jack_midi_event_write(out, ev.time, ev.buffer, ev.size))
			atomic_fetch_add_explicit(&j->dropped, 1, memory_order_relaxed);
		else
			atomic_fetch_add_explicit(&j->sent, 1, memory_order_relaxed);
	}
	return 0;
}

static inline uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static int
process_loop(jack_nframes_t n, void *arg)
{
	struct jport *j = arg;
	jack_nframes_t f0 = cycle_begin(j, n), frame;
	void *in = jack_port_get_buffer(j->in, n);
	void *out = jack_port_get_buffer(j->out, n);
	struct al_midi_msg res;
	jack_midi_event_t ev;
	uint32_t i, count;
	int32_t off;

	jack_midi_clear_buffer(out);
	if (!atomic_load_explicit(&j->armed, memory_order_acquire))
		return 0;
	count = jack_midi_get_event_count(in);
	for (i = 0; i < count; i++) {
		if (jack_midi_event_get(&ev, in, i))
			continue;
		if (!j->in_flight || ev.size != 3 || memcmp(ev.buffer, j->expect, 3)) {
			atomic_fetch_add_explicit(&j->unexpected, 1, memory_order_relaxed);
			continue;
		}
		frame = f0 + ev.time;
		memset(&res, 0, sizeof(res));
		res.seq = j->seq - 1;
		res.len = 3;
		memcpy(res.data, j->expect, 3);
		/*
		 * Both frames mapped with this cycle's snapshot (as
		 * jack_midi_latency_test maps both with the receiving
		 * cycle's clock): the round trip is frames x the fitted
		 * frame length, never negative, whatever happened between.
		 */
		res.ref_ns = frame_ns(j, j->sent_frame);
		res.t_ns = frame_ns(j, frame);
		res.frames = (int32_t)(frame - j->sent_frame);
		/* the wall clock: callback to callback, plus the places in the periods */
		res.wall_ns = j->cycle_wake_ns - j->sent_wake_ns +
			      ((int64_t)ev.time - j->sent_off) * AL_NS_PER_SEC / j->rate_hz;
		al_midi_ring_push(&j->p->rx, &res);
		j->in_flight = false;
		j->have_next = true;
		j->next_frame = frame + (jack_nframes_t)j->gap_frames;
	}
	if (j->in_flight && (int32_t)(f0 + n - j->sent_frame) > j->timeout_frames) {
		memset(&res, 0, sizeof(res));
		res.seq = j->seq - 1;
		res.len = 3;
		memcpy(res.data, j->expect, 3);
		res.ref_ns = frame_ns(j, j->sent_frame);
		res.flags = AL_MIDI_MSG_LOST;
		al_midi_ring_push(&j->p->rx, &res);
		j->in_flight = false;
		j->have_next = false; /* at once, at a random place */
	}
	if (j->in_flight)
		return 0;
	if (j->have_next && j->gap_frames) {
		off = (int32_t)(j->next_frame - f0);
		if (off >= (int32_t)n)
			return 0;
		if (off < 0)
			off = 0;
	} else {
		/* like jack_midi_latency_test: anywhere in the period */
		off = (int32_t)(xorshift(&j->rng) % n);
	}
	al__midi_probe(j->seq, j->expect);
	if (jack_midi_event_write(out, (jack_nframes_t)off, j->expect, 3)) {
		atomic_fetch_add_explicit(&j->dropped, 1, memory_order_relaxed);
		return 0;
	}
	j->seq++;
	j->sent_frame = f0 + (jack_nframes_t)off;
	j->sent_wake_ns = j->cycle_wake_ns;
	j->sent_off = off;
	j->in_flight = true;
	atomic_fetch_add_explicit(&j->sent, 1, memory_order_relaxed);
	return 0;
}

static int
on_xrun(void *arg)
{
	struct jport *j = arg;

	atomic_fetch_add(&j->xruns, 1);
	return 0;
}

static void
on_shutdown(jack_status_t code, const char *reason, void *arg)
{
	struct jport *j = arg;

	snprintf(j->gone_reason, sizeof(j->gone_reason), "%s (status 0x%x)",
		 reason ? reason : "the JACK server went away", (unsigned)code);
	atomic_store(&j->gone, true);
}

/* How far jack_get_time() (truncated to a microsecond) lies outside a clock bracket. */
static int64_t
outside(int64_t jt_ns, int64_t a_ns, int64_t b_ns)
{
	return jt_ns < a_ns - 1000 ? jt_ns - a_ns : jt_ns > b_ns ? jt_ns - b_ns : 0;
}

/*
 * Which clock is JACK's? jack2 reads CLOCK_MONOTONIC in some releases and
 * CLOCK_MONOTONIC_RAW in others (Debian 12's 1.9.21: RAW), or a cycle
 * counter or HPET when the server was told so. Compare jack_get_time()
 * with both, bracketed, best of a few tries. Reported only: times come
 * from the server's frame clock on CLOCK_MONOTONIC (cycle_begin).
 */
static void
check_clock(struct jport *j, struct al_midi_port_info *info)
{
	int64_t best_ns = INT64_MAX, off_mono = 0, off_raw = 0, a, b, ra, rb, jt;
	int i;

	for (i = 0; i < 16; i++) {
		a = clock_ns(CLOCK_MONOTONIC);
		ra = clock_ns(CLOCK_MONOTONIC_RAW);
		jt = (int64_t)jack_get_time() * 1000;
		rb = clock_ns(CLOCK_MONOTONIC_RAW);
		b = clock_ns(CLOCK_MONOTONIC);
		if (b - a < best_ns) {
			best_ns = b - a;
			off_mono = outside(jt, a, b);
			off_raw = outside(jt, ra, rb);
		}
	}
	if (!off_mono) {
		j->clock_kind = JCLOCK_MONO;
		j->offset_ns = 0;
		snprintf(info->jack_clock, sizeof(info->jack_clock), "CLOCK_MONOTONIC");
	} else if (!off_raw) {
		j->clock_kind = JCLOCK_RAW;
		j->offset_ns = raw_offset_ns();
		snprintf(info->jack_clock, sizeof(info->jack_clock), "CLOCK_MONOTONIC_RAW");
	} else {
		j->clock_kind = JCLOCK_OTHER;
		j->offset_ns = off_mono;
		snprintf(info->jack_clock, sizeof(info->jack_clock), "other");
	}
	info->clock_monotonic = j->clock_kind == JCLOCK_MONO;
	info->clock_offset_ns = j->offset_ns;
}

static int
find_port(struct jport *j, const char *name, unsigned long want_flags, char *err, size_t size)
{
	jack_port_t *other = jack_port_by_name(j->client, name);

	if (!other)
		return al_text_err(err, size, -EINVAL, "jack: no port '%s' (jack_lsp lists them)",
				   name);
	if (strcmp(jack_port_type(other), JACK_DEFAULT_MIDI_TYPE))
		return al_text_err(err, size, -EINVAL, "jack: '%s' is not a MIDI port (%s)", name,
				   jack_port_type(other));
	if (!(jack_port_flags(other) & want_flags))
		return al_text_err(err, size, -EINVAL, "jack: '%s' is not an %s port", name,
				   want_flags == JackPortIsInput ? "input" : "output");
	return 0;
}

static void
jack_stop(struct al_midi_port *p)
{
	struct jport *j = p->priv;

	if (j && j->client && atomic_load(&j->armed)) {
		atomic_store(&j->armed, false);
		jack_deactivate(j->client);
	}
}

static void
jack_close(struct al_midi_port *p)
{
	struct jport *j = p->priv;

	if (!j)
		return;
	if (j->client) {
		jack_deactivate(j->client);
		jack_client_close(j->client);
	}
	al_midi_ring_free(&j->tx);
	free(j);
	p->priv = NULL;
}

static JackProcessCallback
process_of(int mode)
{
	switch (mode) {
	case AL_MIDI_MODE_SEND:
		return process_send;
	case AL_MIDI_MODE_RECORD:
		return process_record;
	case AL_MIDI_MODE_LOOP:
		return process_loop;
	default:
		return process_thru;
	}
}

/* Our ports to --out and from --in (once active); 0 or -EIO with one line in err. */
static int
connect_ports(struct jport *j, const struct al_midi_port_cfg *cfg, char *err, size_t err_size)
{
	int rc;

	if (cfg->out) {
		rc = jack_connect(j->client, jack_port_name(j->out), cfg->out);
		if (rc && rc != EEXIST)
			return al_text_err(err, err_size, -EIO, "jack: cannot connect %s to %s",
					   jack_port_name(j->out), cfg->out);
	}
	if (cfg->in) {
		rc = jack_connect(j->client, cfg->in, jack_port_name(j->in));
		if (rc && rc != EEXIST)
			return al_text_err(err, err_size, -EIO, "jack: cannot connect %s to %s",
					   cfg->in, jack_port_name(j->in));
	}
	return 0;
}

/* The server's period and rate, its clock checked, the loop's timeouts in its frames. */
static void
server_figures(struct jport *j, const struct al_midi_port_cfg *cfg, struct al_midi_port_info *info)
{
	j->nframes = jack_get_buffer_size(j->client);
	j->rate_hz = jack_get_sample_rate(j->client);
	al_grid_start(&j->grid, j->rate_hz);
	info->rate_hz = jack_get_sample_rate(j->client);
	info->period_frames = j->nframes;
	info->server_realtime = jack_is_realtime(j->client);
	check_clock(j, info);
	snprintf(info->timestamp_source, sizeof(info->timestamp_source), "jack-frame-time");
	j->timeout_frames = (int32_t)((cfg->loop_timeout_ns / 1000) * info->rate_hz / 1000000);
	j->gap_frames = (int32_t)((cfg->loop_gap_ns / 1000) * info->rate_hz / 1000000);
	if (j->timeout_frames < (int32_t)j->nframes * 2)
		j->timeout_frames = (int32_t)j->nframes * 2;
}

static int
jack_open(struct al_midi_port *p, struct al_midi_port_info *info, char *err, size_t err_size)
{
	const struct al_midi_port_cfg *cfg = &p->cfg;
	jack_options_t opts = JackNoStartServer;
	jack_status_t status = 0;
	struct jport *j;
	int rc;

	j = calloc(1, sizeof(*j));
	if (!j)
		return al_text_err(err, err_size, -ENOMEM, "out of memory");
	p->priv = j;
	j->p = p;
	j->mode = cfg->mode;
	j->rng = 0x9E3779B97F4A7C15ULL ^ (uint64_t)al_clock_now_ns();
	if (!j->rng)
		j->rng = 1;
	al_hist_init(&j->wake_ns);
	atomic_init(&j->armed, false);
	atomic_init(&j->gone, false);
	atomic_init(&j->irregular, 0);
	atomic_init(&j->replayed, 0);
	rc = al_midi_ring_init(&j->tx, cfg->mode == AL_MIDI_MODE_SEND ? cfg->ring_msgs : 16);
	if (rc) {
		jack_close(p);
		return al_text_err(err, err_size, rc, "out of memory for the message ring");
	}
	al_rt_prefault(j->tx.buf, j->tx.size * sizeof(*j->tx.buf));
	al_rt_prefault(&j->wake_ns, sizeof(j->wake_ns));

	jack_set_error_function(al_text_discard_line);
	jack_set_info_function(al_text_discard_line);
	if (cfg->server)
		opts |= JackServerName;
	j->client = jack_client_open(cfg->client_name, opts, &status, cfg->server);
	if (!j->client) {
		jack_close(p);
		if (status & JackServerFailed) {
			const char *name = cfg->server ? cfg->server : getenv("JACK_DEFAULT_SERVER");

			return al_text_err(err, err_size, -ENOENT,
					   "jack: no JACK server '%s' running (start jackd, or give --server NAME)",
					   name && *name ? name : "default");
		}
		return al_text_err(err, err_size, -EIO, "jack: cannot open a client (status 0x%x)",
				   (unsigned)status);
	}
	server_figures(j, cfg, info);

	if (cfg->mode != AL_MIDI_MODE_SEND) {
		j->in = jack_port_register(j->client, "in", JACK_DEFAULT_MIDI_TYPE, JackPortIsInput, 0);
		if (!j->in)
			goto no_port;
		snprintf(info->in_name, sizeof(info->in_name), "%s", jack_port_name(j->in));
	}
	if (cfg->mode != AL_MIDI_MODE_RECORD) {
		j->out = jack_port_register(j->client, "out", JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput,
					    0);
		if (!j->out)
			goto no_port;
		snprintf(info->out_name, sizeof(info->out_name), "%s", jack_port_name(j->out));
	}
	if (cfg->out && (rc = find_port(j, cfg->out, JackPortIsInput, err, err_size)))
		goto fail;
	if (cfg->in && (rc = find_port(j, cfg->in, JackPortIsOutput, err, err_size)))
		goto fail;

	/*
	 * A recorder takes what reaches its port from its first cycle: a
	 * source may connect as soon as the port exists (before we are
	 * active), and its first event would otherwise be dropped unseen.
	 * The other modes act only once their ports are connected.
	 */
	if (cfg->mode == AL_MIDI_MODE_RECORD)
		atomic_store_explicit(&j->armed, true, memory_order_release);
	jack_set_process_callback(j->client, process_of(cfg->mode), j);
	jack_set_xrun_callback(j->client, on_xrun, j);
	jack_on_info_shutdown(j->client, on_shutdown, j);
	if (jack_activate(j->client)) {
		rc = al_text_err(err, err_size, -EIO, "jack: cannot activate the client");
		goto fail;
	}
	rc = connect_ports(j, cfg, err, err_size);
	if (rc)
		goto fail;
	atomic_store_explicit(&j->armed, true, memory_order_release);
	return 0;

no_port:
	rc = al_text_err(err, err_size, -EIO, "jack: cannot register a MIDI port");
fail:
	jack_close(p);
	return rc;
}

static int
jack_send(struct al_midi_port *p, struct al_midi_msg *m)
{
	struct jport *j = p->priv;

	m->t_ns = al_clock_now_ns();
	if (!al_midi_ring_push(&j->tx, m))
		return -ENOBUFS;
	return 0;
}

static void
jack_counters(struct al_midi_port *p, struct al_midi_port_counters *c)
{
	struct jport *j = p->priv;

	c->cycles = atomic_load(&j->cycles);
	c->irregular = atomic_load(&j->irregular);
	c->replayed = atomic_load(&j->replayed);
	c->xruns = atomic_load(&j->xruns);
	c->late = atomic_load(&j->late);
	c->dropped = atomic_load(&j->dropped) + atomic_load(&j->tx.dropped);
	c->unexpected = atomic_load(&j->unexpected);
	c->sent = atomic_load(&j->sent);
	c->wake_ns = &j->wake_ns;
}

static int
jack_status(struct al_midi_port *p, char *err, size_t err_size)
{
	struct jport *j = p->priv;

	if (atomic_load(&j->gone))
		return al_text_err(err, err_size, -EPIPE, "jack: the server shut the client down: %s",
				   j->gone_reason);
	return 0;
}

const struct port_impl al__midi_jack_impl = {
	.open = jack_open,
	.send = jack_send,
	.recv = NULL,
	.counters = jack_counters,
	.status = jack_status,
	.stop = jack_stop,
	.close = jack_close,
};
