/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The JACK backend: a client of a running JACK server (or of PipeWire
 * through its libjack) whose process callback is the audio thread. Rate
 * and period are the server's. Per cycle: the cycle start from
 * jack_get_cycle_times() on CLOCK_MONOTONIC (JACK's frame times stay
 * perfect until an xrun, so wall-clock times are measured), the wake-up at
 * callback entry, the run driver's busy work, silence (or a sine) on the
 * output ports, the time left until the next cycle (margin), JACK's DSP
 * load. The server's frame counter says how many cycles ran without us
 * (a stall): they are missed periods charged to the cycle that finally
 * ran us, and one xrun event from the first cycle not served until we ran
 * again, measured on our clock. The server's xrun notifications for the
 * stall (jackd2 queues them and delivers them in a burst after it) merge
 * into that event; a notification for a cycle we did not miss (another
 * client, or the driver, was late) is an event of its own. The server's
 * jack_get_xrun_delayed_usecs() is its driver's last delay, never reset:
 * not used. The server going away ends the run through the shutdown
 * callback.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <jack/jack.h>
#include <jack/statistics.h>

#include "core/clock.h"
#include "jack-clients.h"
#include "jack-private.h"
#include "jack.h"
#include "core/grid.h"
#include "core/text.h"

#define PORTS_MAX 2
#define LINE_SLACK_NS AL_NS_PER_MS /* the server's cycle starts this far off the line ... */
#define LINE_OFF_CYCLES 8          /* ... this many cycles in a row: its clock moved, a new line */
#define SINCE_MAX_PERIODS 16       /* a cycle start older than this: not this cycle's */
#define LATE_CYCLES 8 /* cycles of the server's lateness kept for its notifications (> 3) */
#define TONE_AMPLITUDE 0.25f /* -12 dBFS */
/* JACK2 keeps its server sockets here: jack_<server>_<uid>_0 */

struct jk {
	jack_client_t *client;
	jack_port_t *out[PORTS_MAX];
	jack_port_t *in[PORTS_MAX];
	int n_out, n_in;
	const struct al_period_hooks *h;
	atomic_int armed;         /* start_cb ran: deliver periods */
	atomic_int dead;          /* the server went away */
	atomic_int period_changed;
	int64_t rate_hz;
	int64_t period_frames;
	int64_t period_ns;
	float phase, phase_inc;

	/* xrun notifications: counted by the xrun callback, read by the next cycle */
	atomic_uint xruns;
	_Atomic int64_t xrun_at_ns;   /* when the last one was delivered */
	/* process thread only */
	unsigned int xruns_seen;
	bool have_prev;
	jack_nframes_t prev_frames;   /* the server's frame counter at our previous cycle */
	int64_t prev_boundary_ns;
	int64_t stall_start_ns;       /* the last stall: first cycle not served */
	int64_t stall_end_ns;         /* ... until we ran again */
	unsigned int pending;         /* notifications not yet placed */
	int64_t pending_at_ns;        /* when the first of them came */
	unsigned int pending_cycles;  /* our cycles since */
	uint64_t stalls, merged, server_xruns, counter_jumps;

	/* DSP load, process thread only */
	double load_sum, load_max;
	uint64_t load_n;

	uint64_t bound_fit, bound_guessed, lines, since_bad;
	struct al_grid grid;          /* the server's frame clock fitted to its cycle starts (core/grid.h) */
	unsigned int grid_xruns;      /* the notifications the line has seen */
	unsigned int line_off;        /* cycles in a row the cycle start was off the line */
	int64_t late_ns[LATE_CYCLES]; /* the last cycles' starts - their boundaries (a ring) */
	unsigned int late_next;
	int64_t frames;               /* frames the server ran since our first cycle */
	int64_t prev_wake_ns;
	char server[128];
	char detail[200];
	char error[200];

	/* the clients' threads (--trace): jk_tasks(), on the controller's thread */
	_Atomic int self_tid;          /* our process thread (its init callback) */
	atomic_uint registrations;     /* clients (un)registered: look again */
	unsigned int regs_seen;
	int64_t last_scan_ns;
	bool unresolved;               /* a client without its thread yet: look again soon */
	struct al_task tasks[AL_TASKS_MAX];
	int n_tasks;
	unsigned int tasks_gen;
	char self_name[64];
};

/*
 * jackd2 queues its xrun notifications and delivers them in a burst when
 * the client runs again, before or after our first cycle: those within
 * this long of a stall belong to it. A notification waits this many of our
 * cycles for the stall it may belong to before it is an event of its own.
 */
#define XRUN_MERGE_NS (100 * AL_NS_PER_MS)
#define XRUN_PENDING_CYCLES 3

/*
 * Hot path: what the cycle counter and the notifications say about
 * xruns. cycles is how many periods the counter moved since our previous
 * cycle (1: none missed).
 */
static void
cycle_xruns(struct jk *j, uint64_t cycles, int64_t wake_ns,
	    struct al_write_info *wi)
{
	unsigned int xr = atomic_load_explicit(&j->xruns, memory_order_acquire);
	int64_t at_ns = atomic_load_explicit(&j->xrun_at_ns, memory_order_relaxed);

	if (xr != j->xruns_seen) {
		/* new notifications: they wait for a stall to belong to */
		if (!j->pending)
			j->pending_at_ns = at_ns;
		j->pending += xr - j->xruns_seen;
		j->xruns_seen = xr;
	}
	if (cycles > 1) {
		/* a stall: the server ran cycles - 1 cycles without us */
		int64_t start_ns = j->prev_boundary_ns + j->period_ns;

		wi->missed_before = (int64_t)(cycles - 1);
		wi->xrun_start_ns = start_ns < wake_ns ? start_ns : wake_ns;
		wi->xrun_ns = wake_ns - wi->xrun_start_ns;
		wi->lost_periods = wi->missed_before;
		wi->xrun_source = AL_XRUN_COUNTER;
		j->stall_start_ns = wi->xrun_start_ns;
		j->stall_end_ns = wake_ns;
		j->stalls++;
		/* what the server said about it, before our cycle came */
		if (j->pending && j->pending_at_ns >= j->stall_start_ns) {
			j->merged += j->pending;
			j->pending = 0;
		}
		return;
	}
	if (!j->pending)
		return;
	if (j->stall_end_ns && j->pending_at_ns >= j->stall_start_ns &&
	    j->pending_at_ns - j->stall_end_ns <= XRUN_MERGE_NS) {
		/* the server's notifications for the stall we already counted */
		j->merged += j->pending;
		j->pending = 0;
		return;
	}
	if (++j->pending_cycles < XRUN_PENDING_CYCLES)
		return;
	/*
	 * The server says a cycle failed, but its counter says we ran every
	 * one: the graph or the driver was late. One event for these
	 * notifications, lasting as long as a cycle came late.
	 */
	j->server_xruns++;
	wi->xrun_start_ns = j->pending_at_ns > 0 && j->pending_at_ns < wake_ns ? j->pending_at_ns
									       : wake_ns;
	wi->xrun_ns = 0;
	for (unsigned int k = 0; k < LATE_CYCLES; k++)
		if (j->late_ns[k] > wi->xrun_ns)
			wi->xrun_ns = j->late_ns[k];
	wi->lost_periods = 0;
	wi->xrun_source = AL_XRUN_SERVER;
	j->pending = 0;
	j->pending_cycles = 0;
}

/* Hot path: our output ports' buffers for this cycle, the tone (--tone) or silence. */
static inline void
jk_outputs(struct jk *j, jack_nframes_t nframes, bool tone)
{
	int i;

	if (tone) {
		float *out0 = j->n_out ? jack_port_get_buffer(j->out[0], nframes) : NULL;

		for (jack_nframes_t f = 0; out0 && f < nframes; f++) {
			out0[f] = TONE_AMPLITUDE * sinf(j->phase);
			j->phase += j->phase_inc;
			if (j->phase >= 2 * (float)M_PI)
				j->phase -= 2 * (float)M_PI;
		}
		for (i = 1; i < j->n_out; i++)
			memcpy(jack_port_get_buffer(j->out[i], nframes), out0, nframes * sizeof(float));
	} else {
		for (i = 0; i < j->n_out; i++)
			memset(jack_port_get_buffer(j->out[i], nframes), 0, nframes * sizeof(float));
	}
}

/*
 * Hot path: when the server began this cycle, from above and to a frame:
 * JACK2 stamps its driver's wake-up, PipeWire's libjack its driver's clock
 * (a difference on the server's clock: no mapping onto ours). Our own
 * wake-up is also no earlier.
 */
static int64_t
cycle_start(struct jk *j, int64_t wake_ns)
{
	jack_nframes_t since = jack_frames_since_cycle_start(j->client);
	int64_t start_ns = al_clock_now_ns() - (int64_t)since * AL_NS_PER_SEC / j->rate_hz;

	if ((int64_t)since > SINCE_MAX_PERIODS * j->period_frames) {
		start_ns = wake_ns;
		j->since_bad++;
	} else if (start_ns > wake_ns) {
		start_ns = wake_ns;
	}
	return start_ns;
}

/*
 * Hot path: the cycles the server's frame counter moved by since our last
 * one (at least 1) and this cycle's boundary (*boundary_ns), from the
 * counter; without cycle times, the cycle start is all we know.
 */
static uint64_t
cycle_boundary(struct jk *j, int64_t wake_ns, int64_t start_ns, int64_t *boundary_ns)
{
	jack_nframes_t cur_frames;
	jack_time_t cur_us, next_us;
	float period_us;
	unsigned int xr;
	uint64_t cycles = 1;

	if (jack_get_cycle_times(j->client, &cur_frames, &cur_us, &next_us, &period_us) != 0 ||
	    !cur_us) {
		*boundary_ns = start_ns;
		j->bound_guessed++;
		return 1;
	}
	xr = atomic_load_explicit(&j->xruns, memory_order_relaxed);
	if (j->have_prev && j->period_frames > 0) {
		/*
		 * The counter, as far as our own wake-ups agree: PipeWire's
		 * libjack moves it by hundreds of periods when its driver
		 * starts, with no time passed (the frame clock restarts).
		 */
		int64_t by_time = (wake_ns - j->prev_wake_ns + j->period_ns / 2) / j->period_ns;

		cycles = (uint64_t)(jack_nframes_t)(cur_frames - j->prev_frames) /
			 (uint64_t)j->period_frames;
		if ((int64_t)cycles > by_time + 1) {
			cycles = by_time > 1 ? (uint64_t)by_time : 1;
			j->counter_jumps++;
			al_grid_start(&j->grid, j->rate_hz);
		}
	}
	if (cycles < 1)
		cycles = 1;
	j->frames += (int64_t)cycles * j->period_frames;
	j->prev_frames = cur_frames;
	/*
	 * The period boundary is the server's frame clock: a line fitted
	 * over the frame counter to the earliest of its cycle starts
	 * (core/grid.h), so that its driver's own lateness counts and a
	 * client ahead of us in the graph does not move it. Not JACK's
	 * delay-locked loop (jack_get_cycle_times()): a server just
	 * started, or disturbed by a client joining or an xrun, has it
	 * off by milliseconds for seconds. A server whose driver falls
	 * behind re-anchors its clock (jack2's timed drivers) and says
	 * so with an xrun notification: a new line then, and whenever
	 * its cycle starts stay off the line.
	 */
	if (xr != j->grid_xruns) {
		j->grid_xruns = xr;
		al_grid_start(&j->grid, j->rate_hz);
		j->lines++;
	}
	*boundary_ns = al_grid_boundary(&j->grid, j->frames, start_ns);
	j->late_ns[j->late_next++ % LATE_CYCLES] = start_ns - *boundary_ns;
	if (start_ns - *boundary_ns > LINE_SLACK_NS || *boundary_ns - start_ns > LINE_SLACK_NS) {
		if (++j->line_off >= LINE_OFF_CYCLES) {
			al_grid_start(&j->grid, j->rate_hz);
			j->lines++;
			j->line_off = 0;
		}
	} else {
		j->line_off = 0;
	}
	j->bound_fit++;
	return cycles;
}

/* Hot path: the server's DSP load, summed for its mean and max. */
static void
count_load(struct jk *j)
{
	float load = jack_cpu_load(j->client);

	if (isfinite(load) && load >= 0) {
		j->load_sum += load;
		if (load > j->load_max)
			j->load_max = load;
		j->load_n++;
	}
}

/* Hot path: one JACK cycle. */
static int
jk_process(jack_nframes_t nframes, void *arg)
{
	struct jk *j = arg;
	int64_t wake_ns = al_clock_now_ns(), start_ns, next_ns, t0_ns, t1_ns;
	struct al_write_info wi = { 0 };
	struct al_wake w;
	uint64_t cycles;
	int i;

	if (!atomic_load_explicit(&j->armed, memory_order_acquire)) {
		jk_outputs(j, nframes, false);
		return 0;
	}
	w.wake_ns = wake_ns;
	start_ns = cycle_start(j, wake_ns);
	cycles = cycle_boundary(j, wake_ns, start_ns, &w.boundary_ns);
	next_ns = w.boundary_ns + j->period_ns;
	j->prev_wake_ns = wake_ns;
	t1_ns = j->h->work(j->h->ctx, &t0_ns);

	for (i = 0; i < j->n_in; i++) {
		volatile float *in = jack_port_get_buffer(j->in[i], nframes);

		(void)in[0];
	}
	jk_outputs(j, nframes, j->phase_inc > 0);
	/* the time left until the next cycle needs our output */
	wi.margin_ns = next_ns - al_clock_now_ns();
	cycle_xruns(j, cycles, wake_ns, &wi);
	count_load(j);
	j->prev_boundary_ns = w.boundary_ns;
	j->have_prev = true;
	j->h->record(j->h->ctx, &w, t0_ns, t1_ns, &wi);
	return 0;
}

/* JACK's notification thread: count, keep the time; the next cycle reports it. */
static int
jk_xrun(void *arg)
{
	struct jk *j = arg;

	atomic_store_explicit(&j->xrun_at_ns, al_clock_now_ns(), memory_order_relaxed);
	atomic_fetch_add_explicit(&j->xruns, 1, memory_order_release);
	return 0;
}

/* Our process thread, once, before its first cycle: whom the flight recorder follows. */
static void
jk_thread_init(void *arg)
{
	struct jk *j = arg;
	int policy = sched_getscheduler(0);

	/*
	 * jackd2 calls it in its notification thread too: the real-time one
	 * is the process thread (without real-time, the first one stands in)
	 */
	if (policy == SCHED_FIFO || policy == SCHED_RR || !atomic_load(&j->self_tid))
		atomic_store(&j->self_tid, (int)syscall(SYS_gettid));
}

/* JACK's notification thread: a client came or went; jk_tasks() looks again. */
static void
jk_client_registration(const char *name, int reg, void *arg)
{
	struct jk *j = arg;

	(void)name;
	(void)reg;
	atomic_fetch_add(&j->registrations, 1);
}

static void
jk_shutdown(jack_status_t code, const char *reason, void *arg)
{
	struct jk *j = arg;

	(void)code;
	(void)reason;
	atomic_store(&j->dead, 1);
	if (atomic_load(&j->armed) && j->h && j->h->fail)
		j->h->fail(j->h->ctx, -ECONNRESET);
}

static int
jk_buffer_size(jack_nframes_t nframes, void *arg)
{
	struct jk *j = arg;

	if ((int64_t)nframes != j->period_frames)
		atomic_store(&j->period_changed, 1);
	return 0;
}

/* The server's periods: the latency of a physical playback port in periods. */
static int
server_periods(struct jk *j)
{
	const char **ports = jack_get_ports(j->client, NULL, JACK_DEFAULT_AUDIO_TYPE,
					    JackPortIsPhysical | JackPortIsInput);
	jack_latency_range_t range = { 0, 0 };
	int periods = 0;

	if (ports && ports[0]) {
		jack_port_t *p = jack_port_by_name(j->client, ports[0]);

		if (p)
			jack_port_get_latency_range(p, JackPlaybackLatency, &range);
		if (range.max >= j->period_frames && range.max % j->period_frames == 0)
			periods = (int)(range.max / j->period_frames);
	}
	jack_free(ports);
	return periods;
}

static void
jk_close(void *priv)
{
	struct jk *j = priv;

	if (j->client)
		jack_client_close(j->client);
	j->client = NULL;
}

static int
jk_open(void *priv, struct al_config *cfg)
{
	struct jk *j = priv;
	jack_status_t status = 0;
	char name[64];
	int periods, i;

	al__jack_quiet();
	snprintf(j->server, sizeof(j->server), "%s", cfg->device[0] ? cfg->device : al__jack_default_server());
	snprintf(name, sizeof(name), "audiolat-%d", (int)getpid());
	j->client = al__jack_connect(name, cfg->device, &status);
	if (!j->client) {
		snprintf(j->error, sizeof(j->error), "JACK server '%.64s': %s", j->server,
			 (status & JackServerFailed) ? "not running"
			 : (status & JackVersionError) ? "protocol version mismatch"
			 : "the client could not be opened");
		return (status & JackServerFailed) ? -ENODEV : -EIO;
	}
	j->rate_hz = jack_get_sample_rate(j->client);
	j->period_frames = jack_get_buffer_size(j->client);
	if (j->rate_hz <= 0 || j->period_frames <= 0) {
		snprintf(j->error, sizeof(j->error), "JACK server '%.64s': rate %lld, period %lld",
			 j->server, (long long)j->rate_hz, (long long)j->period_frames);
		jk_close(j);
		return -EIO;
	}
	j->period_ns = al_frames_to_ns(j->period_frames, j->rate_hz);
	j->phase_inc = 2 * (float)M_PI * (float)cfg->tone_hz / (float)j->rate_hz;
	for (i = 0; i < PORTS_MAX && !cfg->capture; i++) {
		snprintf(name, sizeof(name), "out_%d", i + 1);
		j->out[i] = jack_port_register(j->client, name, JACK_DEFAULT_AUDIO_TYPE,
					       JackPortIsOutput, 0);
		if (!j->out[i])
			break;
		j->n_out++;
	}
	for (i = 0; i < PORTS_MAX && (cfg->capture || cfg->duplex); i++) {
		snprintf(name, sizeof(name), "in_%d", i + 1);
		j->in[i] = jack_port_register(j->client, name, JACK_DEFAULT_AUDIO_TYPE,
					      JackPortIsInput, 0);
		if (!j->in[i])
			break;
		j->n_in++;
	}
	if ((!cfg->capture && !j->n_out) || ((cfg->capture || cfg->duplex) && !j->n_in) ||
	    jack_set_process_callback(j->client, jk_process, j) ||
	    jack_set_xrun_callback(j->client, jk_xrun, j) ||
	    jack_set_buffer_size_callback(j->client, jk_buffer_size, j) ||
	    jack_set_thread_init_callback(j->client, jk_thread_init, j) ||
	    jack_set_client_registration_callback(j->client, jk_client_registration, j)) {
		snprintf(j->error, sizeof(j->error), "JACK server '%.64s': cannot register ports and "
			 "callbacks", j->server);
		jk_close(j);
		return -EIO;
	}
	jack_on_info_shutdown(j->client, jk_shutdown, j);
	periods = server_periods(j);

	/* the server decides: record what it runs */
	cfg->rate_hz = j->rate_hz;
	cfg->period_frames = j->period_frames;
	cfg->periods = periods > 0 ? periods : 2;
	cfg->channels = j->n_out ? j->n_out : j->n_in;
	snprintf(cfg->format, sizeof(cfg->format), "FLOAT");
	snprintf(j->self_name, sizeof(j->self_name), "%s", jack_get_client_name(j->client));
	snprintf(cfg->device, sizeof(cfg->device), "%s", j->server);
	snprintf(j->detail, sizeof(j->detail), "JACK server '%.40s' (libjack %.40s): client %.24s, %s, "
		 "%lld Hz, %lld frames, %s", j->server, jack_get_version_string(),
		 jack_get_client_name(j->client),
		 cfg->duplex ? "duplex" : cfg->capture ? "capture" : "playback",
		 (long long)j->rate_hz, (long long)j->period_frames,
		 periods > 0 ? "periods from the latency" : "periods unknown, 2 assumed");
	return 0;
}

/* Our ports to the physical ones, as a player would; failures only noted. */
static void
connect_ports(struct jk *j)
{
	const char **phys;
	int i, failed = 0;

	phys = jack_get_ports(j->client, NULL, JACK_DEFAULT_AUDIO_TYPE,
			      JackPortIsPhysical | JackPortIsInput);
	for (i = 0; i < j->n_out && phys && phys[i]; i++)
		failed |= jack_connect(j->client, jack_port_name(j->out[i]), phys[i]) != 0;
	jack_free(phys);
	phys = jack_get_ports(j->client, NULL, JACK_DEFAULT_AUDIO_TYPE,
			      JackPortIsPhysical | JackPortIsOutput);
	for (i = 0; i < j->n_in && phys && phys[i]; i++)
		failed |= jack_connect(j->client, phys[i], jack_port_name(j->in[i])) != 0;
	jack_free(phys);
	if (failed)
		snprintf(j->error, sizeof(j->error), "some ports could not be connected to the "
			 "physical ones");
}

static int
jk_start_cb(void *priv, const struct al_period_hooks *h, int64_t *start_ns)
{
	struct jk *j = priv;

	if (atomic_load(&j->dead))
		return -ECONNRESET;
	j->h = h;
	al_grid_start(&j->grid, j->rate_hz);
	/* xruns before the measurement are not the measurement's */
	j->xruns_seen = atomic_load(&j->xruns);
	*start_ns = al_clock_now_ns();
	atomic_store_explicit(&j->armed, 1, memory_order_release);
	if (jack_activate(j->client)) {
		atomic_store(&j->armed, 0);
		snprintf(j->error, sizeof(j->error), "JACK server '%.64s': cannot activate the client",
			 j->server);
		return -EIO;
	}
	connect_ports(j);
	return 0;
}

static int
jk_stop(void *priv)
{
	struct jk *j = priv;

	if (j->client && !atomic_load(&j->dead))
		jack_deactivate(j->client);
	atomic_store(&j->armed, 0);
	return 0;
}

static void
jk_info(void *priv, struct al_backend_info *out)
{
	struct jk *j = priv;

	snprintf(out->detail, sizeof(out->detail), "%.150s%s", j->detail,
		 atomic_load(&j->period_changed) ? "; the server changed its period during the run"
						 : "");
	snprintf(out->clock, sizeof(out->clock),
		 "CLOCK_MONOTONIC; cycle starts from jack_frames_since_cycle_start() (to a frame)");
	snprintf(out->error, sizeof(out->error), "%s", j->error);
	if (j->load_n) {
		out->dsp_load_valid = true;
		out->dsp_load_mean_pct = j->load_sum / (double)j->load_n;
		out->dsp_load_max_pct = j->load_max;
	}
	out->bound_total = j->bound_fit + j->bound_guessed;
	out->bound_estimated = out->bound_total;
	if (j->bound_guessed)
		snprintf(out->bound_note, sizeof(out->bound_note),
			 "jack_get_cycle_times() failed %llu times: the cycle start stood for the "
			 "boundary then", (unsigned long long)j->bound_guessed);
	else
		snprintf(out->bound_note, sizeof(out->bound_note),
			 "the server's frame clock: a line over its frame counter fitted to its cycle "
			 "starts (%llu lines; %llu starts unusable, our wake-up stood in)",
			 (unsigned long long)j->lines + 1, (unsigned long long)j->since_bad);
	snprintf(out->negative_note, sizeof(out->negative_note),
		 "the line fitted to the server's cycle starts lies microseconds after one that "
		 "came early (within its fit), or after all of them when its clock moved back");
	if (j->stalls || j->merged || j->server_xruns || j->counter_jumps) {
		size_t len = strlen(out->detail);

		snprintf(out->detail + len, sizeof(out->detail) - len,
			 "; xruns: %llu stalls (%llu server notifications merged), %llu from the "
			 "server alone; %llu counter jumps without time", (unsigned long long)j->stalls,
			 (unsigned long long)j->merged, (unsigned long long)j->server_xruns,
			 (unsigned long long)j->counter_jumps);
	}
}

/* a client registered but without its real-time thread yet: looked up again this often */
#define RESCAN_NS (250 * AL_NS_PER_MS)

/*
 * The clients' real-time threads (jack-clients.h), ours first; looked up
 * again when a client (un)registered, or while one has no thread yet.
 */
static int
jk_tasks(void *priv, struct al_task *out, int max, unsigned *gen)
{
	struct jk *j = priv;
	struct jkc_client clients[JKC_CLIENTS_MAX];
	struct al_task found[AL_TASKS_MAX];
	unsigned int regs = atomic_load(&j->registrations);
	int64_t now_ns = al_clock_now_ns();
	int n = 0, k, nc = 0, i;
	int self_tid = atomic_load(&j->self_tid);

	if (j->last_scan_ns && regs == j->regs_seen &&
	    (!j->unresolved || now_ns - j->last_scan_ns < RESCAN_NS))
		goto out;
	j->regs_seen = regs;
	j->last_scan_ns = now_ns;
	if (self_tid > 0) {
		memset(&found[0], 0, sizeof(found[0]));
		snprintf(found[0].client, sizeof(found[0].client), "%s", j->self_name);
		found[0].pid = (int)getpid();
		found[0].tid = self_tid;
		found[0].self = true;
		n = 1;
	}
	k = jkc_lookup(JACK_SERVER_DIR, j->server, j->self_name, found + n, AL_TASKS_MAX - n,
		       clients, &nc);
	if (k > 0)
		n += k;
	j->unresolved = self_tid <= 0;
	for (i = 0; i < nc; i++)
		j->unresolved |= !clients[i].internal && !clients[i].n_threads;
	/* the set changed: the caller follows the new one */
	if (n != j->n_tasks)
		j->tasks_gen++;
	else
		for (i = 0; i < n; i++)
			if (found[i].tid != j->tasks[i].tid) {
				j->tasks_gen++;
				break;
			}
	memcpy(j->tasks, found, sizeof(found[0]) * (size_t)n);
	j->n_tasks = n;
out:
	n = j->n_tasks < max ? j->n_tasks : max;
	memcpy(out, j->tasks, sizeof(out[0]) * (size_t)n);
	*gen = j->tasks_gen;
	return n;
}

const struct al_backend_ops al_backend_jack = {
	.name = "jack",
	.summary = "a client of a running JACK server (or PipeWire's JACK) in its process callback",
	.caps = AL_CAP_CAPTURE | AL_CAP_DUPLEX | AL_CAP_TONE | AL_CAP_NEAREST | AL_CAP_DEVICE |
		AL_CAP_CALLBACK | AL_CAP_BLAME,
	.duplex = &al_duplex_jack,
	.server_env = "JACK_DEFAULT_SERVER",
	.priv_size = sizeof(struct jk),
	.open = jk_open,
	.start_cb = jk_start_cb,
	.stop = jk_stop,
	.close = jk_close,
	.info = jk_info,
	.list = al__jack_list,
	.tasks = jk_tasks,
};
