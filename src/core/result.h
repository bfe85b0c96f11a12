/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results model: what one measurement run configured, measured and
 * saw. Everything the audio thread writes to is allocated by
 * al_result_alloc() before the run starts; al_result_record() is the only
 * thing the hot path calls.
 */
#ifndef AL_CORE_RESULT_H
#define AL_CORE_RESULT_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "hist.h"
#include "sysinfo.h"
#include "why.h"

#define AL_NAME_MAX 64
#define AL_LOAD_DESC_MAX 512
#define AL_WARN_MAX 8
#define AL_WARN_LEN 160

/* cfg.duration_ns for a run that lasts until it is stopped (about 100 years) */
#define AL_RUN_FOREVER_NS (100LL * 365 * 24 * 3600 * 1000000000LL)

struct al_config {
	char backend[16];
	char device[128];
	int64_t rate_hz;
	int64_t period_frames;
	int periods;              /* buffer = periods * period_frames */
	int cpu_load_pct;         /* busy work per period, % of a period */
	int priority;             /* requested SCHED_FIFO priority */
	int affinity_cpu;         /* -1: not pinned */
	int64_t duration_ns;
	int dma_latency_us;       /* -1: /dev/cpu_dma_latency untouched */
	int64_t max_latency_ns;   /* per-period wake latency threshold, 0: none */
	int64_t max_interval_ns;  /* longest interval threshold, 0: none */
	bool fail_on_xrun;         /* xrun events of ours only */
	bool fail_on_server_xrun;  /* the server's notifications that were not ours */
	int64_t window_ns;        /* time series window, 0: default (100 ms, longer for long runs) */
	char load_spec[AL_LOAD_DESC_MAX]; /* as given, "" when none */
	/* real devices (alsa, jack) */
	int blame;                /* --blame 1, --no-blame -1, 0: where the server allows it (pipewire) */
	bool capture;             /* --capture: record instead of play */
	bool duplex;              /* --duplex: record and play */
	bool mmap;                /* --mmap: mmap transfers instead of read/write */
	bool nearest;             /* --nearest: take what the device gives */
	int tone_hz;              /* --tone: a sine of this frequency, 0: silence */
	int channels;             /* what the device gave, 0: not known */
	char format[16];          /* the sample format the device gave, "" */
	int64_t req_rate_hz;      /* what was asked, before the device answered (al_run) */
	int64_t req_period_frames;
	int req_periods;
	char label[128];          /* --label, names the result; "" when none */
	/* sim --sim-tail: with probability p a period's wake-up is put off by a GPD(xi, sigma) draw */
	double sim_tail_xi;
	int64_t sim_tail_sigma_ns;
	double sim_tail_p;        /* 0: none */
};

/*
 * audiolat run's configuration before its options: sim, 48000 Hz, 64
 * frames, 3 periods, 80 % busy work, SCHED_FIFO 80, not pinned, 10 s,
 * /dev/cpu_dma_latency untouched (run, monitor, sweep's base and grid).
 */
void al_config_defaults(struct al_config *c);

/* What a backend saw beyond the periods: its setup, clocks and xrun stamps. */
struct al_backend_info {
	char detail[320];         /* "plug:jack: playback, RW_INTERLEAVED, S16_LE, 2 ch", "" */
	char clock[96];           /* how the device's stamps map onto CLOCK_MONOTONIC, "" */
	char error[200];          /* why open failed (one line), "" */
	bool dsp_load_valid;      /* JACK's DSP load was read */
	double dsp_load_mean_pct;
	double dsp_load_max_pct;
	uint64_t xrun_stamped;    /* xrun durations taken from the device's stamps */
	uint64_t xrun_fallback;   /* ... from the pointers, the stamps being rejected */
	char xrun_reject[96];     /* why the last stamps were rejected, "" */
	uint64_t bound_total;     /* period boundaries the backend gave (0: not counted) */
	uint64_t bound_estimated; /* of them, estimated (a fitted grid, our account), not read */
	char bound_note[160];     /* how the estimated ones were found, "" */
	/*
	 * Where the period boundaries came from (docs/truth.md, "Measured or
	 * fitted"): the device's or server's own clock (its stamps, its cycle
	 * starts, the simulated card's timer), or a frame clock fitted to
	 * our own wake-ups. A fitted boundary moves with a lateness present
	 * when its line was drawn: its figure is jitter, not latency.
	 */
	bool bound_fitted;
	char negative_note[160];  /* what can make a wake latency negative here, "" when nothing */
	/*
	 * The real-time priority of the thread that measured, when it is the
	 * backend's own (a server's data thread, PipeWire): rt_known, and
	 * rt_priority (0: SCHED_OTHER). The run driver reports it as the run's.
	 */
	bool rt_known;
	int rt_priority;
};

/*
 * Statistics of a stretch of periods: a phase, or the whole run. Every
 * period boundary that fell due is one sample (docs/truth.md): a boundary
 * served by a wake-up of its own counts wake-up - boundary; a boundary that
 * passed with no wake-up of its own (a stall swallowed it) is "missed" and
 * is charged the moment the thread was next seen running after it minus
 * its due time. wakeup_ns holds the first kind only (the view cyclictest
 * has), missed_ns the second; wake_ns, the per-period figure, is their sum,
 * made by al_result_finish().
 */
struct al_period_stats {
	uint64_t periods;         /* periods due: wakeups + missed_periods */
	uint64_t wakeups;         /* periods served by a wake-up of their own */
	uint64_t missed_periods;  /* boundaries passed with no wake-up of their own */
	uint64_t xruns;           /* xrun events of ours: overlapping evidence is one */
	uint64_t server_xruns;    /* the server's notifications that matched no span of ours */
	int64_t xrun_end_ns;      /* al_period_stats_record(): absolute end of the last xrun, */
	int64_t xrun_lost;        /* ... and its lost periods, for evidence that overlaps it */
	uint64_t lost_periods;    /* periods the card had no audio for */
	uint64_t within_1ms;      /* wake-ups whose interval is within +-1 ms of the period */
	uint64_t within_2ms;
	uint64_t missed_within_1ms; /* missed periods served within 1 ms of their due time */
	uint64_t missed_within_2ms;
	int64_t min_margin_ns;    /* INT64_MAX when no write was made */
	int64_t xrun_ns;          /* total time starved */
	struct al_hist wakeup_ns;   /* per wake-up: wake-up - its period boundary */
	struct al_hist missed_ns;   /* per missed period: seen running - due */
	struct al_hist wake_ns;     /* per period due: wakeup_ns + missed_ns (al_result_finish) */
	struct al_hist interval_ns; /* wake-up - previous wake-up */
	struct al_hist work_ns;     /* duration of the busy work */
};

/* A throughput figure of a load in a phase ("messages_per_s", 123.4, "1/s"). */
struct al_metric {
	char name[48];
	double value;
	char unit[16];
};

#define AL_PHASE_METRICS 16 /* throughput figures of one phase (all its loads together) */

/* One system check (audiolat check), kept with every result. */
struct al_syscheck {
	char id[32];          /* "rtprio", "governor", ... */
	char status[8];       /* "ok", "warn", "fail", "skip" */
	char message[200];    /* one line of explanation */
	char fix[200];        /* the command or setting that fixes it, "" */
};

#define AL_SYSCHECKS_MAX 64

/* How many of each status a set of checks holds. */
struct al_check_tally {
	int ok;
	int warn;
	int fail;
	int skip;
};

/* Count the statuses of c[0..n); unknown statuses count as skip. */
void al_check_tally(const struct al_syscheck *c, int n, struct al_check_tally *t);

struct al_phase {
	char name[AL_NAME_MAX];
	char load[AL_LOAD_DESC_MAX]; /* exact load parameters, "none" */
	int64_t start_ns;            /* relative to the run start */
	int64_t end_ns;
	char error[AL_WARN_LEN];     /* a load that failed in this phase, "" */
	struct al_metric throughput[AL_PHASE_METRICS];
	int n_throughput;
	struct al_period_stats stats;
};

/*
 * Who said there was an xrun (docs/truth.md, "One xrun definition"). Every
 * source but AL_XRUN_SERVER is evidence of a span of ours: a time our
 * stream was not fed (playback) or not drained (capture). Evidence from
 * several sources whose spans overlap is one event; a server's
 * notification for a cycle we did not miss is no event of ours but a
 * server_reported one, never counted in xruns.
 */
enum al_xrun_source {
	AL_XRUN_DEVICE = 0,   /* the device: -EPIPE, XRUN state, a pointer past the buffer */
	AL_XRUN_ACCOUNT,      /* our account: frames written against frames consumed by now */
	AL_XRUN_COUNTER,      /* a server's cycle counter: cycles ran without us (a stall) */
	AL_XRUN_SERVER,       /* a server's notification for a cycle we did not miss */
	AL_XRUN_SIM,          /* the simulated card ran dry */
	AL_XRUN_DRIVER,       /* a server's driver began a cycle over a period late: nothing served */
	AL_XRUN_SOURCES
};

const char *al_xrun_source_name(enum al_xrun_source s);

struct al_xrun_event {
	int64_t t_ns;          /* start of the starvation, relative to the run start */
	int64_t duration_ns;
	int64_t lost_periods;
	int phase;
	enum al_xrun_source source; /* the first evidence of it */
	uint32_t seen_by;      /* every source that saw it: bit (1u << source) */
};

/*
 * One window of the time series: enough to draw a run of any length at a
 * constant size. Windows are window_ns long from the stream start; a period
 * counts in the window its boundary was due in.
 */
struct al_window {
	int64_t wake_min_ns;   /* per period due, missed periods included */
	int64_t delay_sum_frames; /* the device clock's delay, summed over clock_n cycles */
	double rate_diff_sum;  /* its rate against CLOCK_MONOTONIC, the same */
	uint32_t clock_n;      /* cycles that gave them (0: not known) */
	int64_t wake_max_ns;
	int64_t wake_sum_ns;
	int64_t interval_max_ns;
	uint32_t periods;      /* periods due; 0: none (the stream was stopped) */
	uint32_t wakeups;      /* of them, served by a wake-up of their own */
	uint32_t xruns;
	int32_t phase;
};

/*
 * A run of missed periods, for the time series: n boundaries due at
 * due_ns, due_ns + period, ..., all served at serve_ns. Written by the
 * audio thread, spread over the windows by al_result_finish().
 */
struct al_span {
	int64_t due_ns;        /* absolute */
	int64_t serve_ns;
	uint64_t n;
	int32_t phase;
	int64_t period_ns;     /* the period they were due at */
};

/*
 * A stretch of the run at one period: a server that changes its quantum or
 * rate during the run (PipeWire's clock.force-quantum) starts a new one.
 * The statistics of each stretch are its own (the phases' span them).
 */
struct al_segment {
	int64_t start_ns;      /* its first boundary (absolute; relative to the stream start after finish) */
	int64_t end_ns;        /* the next one's first boundary, or the end of the run */
	int64_t period_frames;
	int64_t rate_hz;
	int64_t period_ns;
	struct al_period_stats stats;
};

#define AL_SEGMENTS_MAX 8      /* stretches kept; later changes add to the last */

/* A change of period during the run (an event of the result). */
struct al_period_change {
	int64_t t_ns;          /* the first boundary at the new period, relative to the stream start */
	int64_t from_frames, from_rate_hz;
	int64_t to_frames, to_rate_hz;
};

#define AL_PERIOD_CHANGES_MAX 256

#define AL_SPANS_MAX 16384

struct al_sample;
/*
 * The boundaries a period's wake-up did not have to itself, as up to 3
 * runs (docs/truth.md): those before its own (a callback backend's server
 * ran cycles without us) and those after it that passed before the
 * wake-up, served at the wake-up; those that passed during the work,
 * served at seen_ns. Each boundary is charged serve_ns - its due time.
 * Returns how many runs were written to out.
 */
int al_sample_spans(const struct al_sample *s, int64_t period_ns, struct al_span out[3]);

/*
 * What delayed one late wake-up (src/trace, docs/trace.md): one thing that
 * held the measured CPU between the period boundary and the wake-up.
 * kind: "task" (another thread), "irq", "softirq", "timer" (an hrtimer
 * callback), "idle" (the CPU slept), "irqoff"/"preemptoff" (overlapping
 * sections; only with the preemptirq events), "self" (the measured thread
 * itself still ran), "other" (the rest, when there were too many sources).
 */
struct al_cause {
	char kind[12];
	char name[32];        /* comm, IRQ handler, softirq type, timer function */
	int pid;              /* task pid; IRQ number; softirq vector; -1 */
	int64_t duration_ns;  /* time it held the CPU inside the window */
};

#define AL_SPIKE_CAUSES 8
#define AL_SPIKES_MAX 32

struct al_spike {
	int64_t t_ns;           /* the period boundary (relative to the run start in a result) */
	int64_t latency_ns;     /* wake-up - boundary */
	int64_t woken_ns;       /* sched_waking of the thread - boundary; -1 when not seen */
	int64_t switched_in_ns; /* sched_switch to the thread - boundary; -1 when not seen */
	bool truncated;         /* events were lost around the window: may be incomplete */
	int n_causes;           /* causes[] sorted by duration, longest first */
	struct al_cause causes[AL_SPIKE_CAUSES];
};

#define AL_WINDOW_DEFAULT_NS (100 * 1000 * 1000LL)
#define AL_WINDOWS_MAX 36000   /* 1 h of 100 ms windows; longer runs get longer windows */

/* One period as measured by the audio thread. */
struct al_sample {
	int64_t boundary_ns;   /* when the period should have started (absolute) */
	int64_t wake_ns;       /* when the thread woke (absolute) */
	int64_t prev_wake_ns;  /* 0 for the first period */
	int64_t work_ns;       /* busy work duration, -1 when none done */
	int64_t seen_ns;       /* the thread's last clock reading of the period (after the work) */
	int64_t margin_ns;     /* audio left queued at the write, INT64_MAX when none */
	/*
	 * Boundaries due before boundary_ns (after the previous period's)
	 * that had no wake-up of their own: callback backends, whose server
	 * ran cycles without us. Served by this wake-up.
	 */
	int64_t missed_before;
	/* boundaries after ours that passed by seen_ns (served by this wake-up or at seen_ns) */
	int64_t missed;
	int64_t xrun_start_ns; /* absolute; 0 when no xrun before this write */
	int64_t xrun_ns;
	int64_t lost_periods;
	enum al_xrun_source xrun_source;
	/*
	 * A server that sets the period (PipeWire's quantum): this period's
	 * frames and rate; 0: the one the stream opened with. A change
	 * starts a new segment.
	 */
	int64_t period_frames;
	int64_t rate_hz;
	/* the device clock's delay (frames) and rate_diff this period, when clock_valid */
	bool clock_valid;
	int64_t delay_frames;
	double rate_diff;
};

/* Counters for a live status line; written by the audio thread only. */
struct al_live {
	_Atomic uint64_t periods;
	_Atomic uint64_t xruns;
	_Atomic int64_t max_wake_ns;
	_Atomic int phase;     /* written by the controller, read by the audio thread */
};

struct al_result {
	struct al_config cfg;
	struct al_sysinfo sys;
	char tool_version[32];
	char uuid[37];              /* the document's id (al_uuid_random()); "" when none */
	char cmdline[1024];
	bool realtime;              /* SCHED_FIFO really applied */
	int priority;               /* applied priority, 0 when SCHED_OTHER */
	bool memory_locked;
	int dma_latency_us;         /* applied, -1 when untouched */
	int64_t cpu_load_loops;     /* calibrated busy-loop iterations per period */
	int64_t started_at_ns;      /* epoch ns */
	int64_t start_mono_ns;      /* CLOCK_MONOTONIC at the stream start */
	int64_t duration_ns;
	bool interrupted;
	int64_t period_ns;          /* derived, rounded */
	int64_t buffer_ns;

	struct al_phase *phases;
	size_t n_phases;
	struct al_period_stats total;  /* filled by al_result_finish() */

	struct al_xrun_event *xrun_events;
	size_t xrun_cap;
	_Atomic size_t n_xrun_events;
	_Atomic uint64_t xrun_events_dropped;
	int64_t xrun_end_ns;        /* absolute end of the last event of ours (0: none yet) */
	int64_t xrun_lost;          /* ... and its lost periods */
	/* the server's notifications that matched no span of ours (xrun_cap of them) */
	struct al_xrun_event *server_events;
	_Atomic size_t n_server_events;
	_Atomic uint64_t server_events_dropped;

	struct al_live live;

	struct al_window *windows;  /* time series, window_cap entries */
	size_t window_cap;
	int64_t window_ns;
	size_t n_windows;           /* written by the audio thread; read after the run */
	uint64_t windows_dropped;   /* periods past the last window */
	struct al_span *spans;      /* missed periods, spread over the windows at the end */
	size_t n_spans;
	uint64_t spans_dropped;     /* runs of missed periods not drawn in the time series */

	struct al_spike spikes[AL_SPIKES_MAX]; /* explained late wake-ups (--trace), worst kept */
	int n_spikes;
	uint64_t spikes_dropped;    /* spikes seen but not explained (rate limit, cap) */
	int64_t trace_threshold_ns; /* --trace in force: wake latency that counts as a spike; 0: off */

	struct al_syscheck checks[AL_SYSCHECKS_MAX]; /* filled by the CLI, may be empty */
	int n_checks;

	struct al_backend_info backend; /* filled by the backend's info(), may be empty */

	struct al_segment *segments; /* stretches of one period, AL_SEGMENTS_MAX allocated */
	size_t n_segments;           /* written by the audio thread; 1 when the period never changed */
	struct al_period_change *period_changes;
	size_t n_period_changes;
	uint64_t period_changes_dropped; /* changes past AL_PERIOD_CHANGES_MAX (still split) */
	uint64_t segments_merged;    /* changes past AL_SEGMENTS_MAX: counted in the last segment */

	struct al_graph *graph;      /* graph blame (PipeWire's profiler), NULL when none */
	struct al_why *why;          /* a cause per xrun and late period (docs/why.md), NULL: not collected */
	struct al_kernel_wake *kwake; /* the kernel's own wake-to-run histogram (--trace), NULL: not asked */

	char warnings[AL_WARN_MAX][AL_WARN_LEN];
	int n_warnings;
};

/*
 * The kernel's own view of the measured thread's wake-ups (--trace,
 * docs/trace.md): a histogram the kernel made with hist triggers from
 * sched_waking to the sched_switch onto the thread (a synthetic event), in
 * microseconds, beside audiolat's per-wake-up figures of the same span.
 * measured false: not made (note says why); the figures are then unset.
 */
#define AL_KWAKE_MAX_APART_NS (20 * 1000) /* maxima further apart: they diverge */

struct al_kernel_wake {
	bool measured;
	char note[480];
	uint64_t count;        /* wake-ups the kernel paired (waking, then switched in) */
	uint64_t dropped;      /* the kernel's hist table had no room (its "Dropped") */
	int64_t p50_ns, p99_ns, max_ns; /* of its microsecond keys */
	uint64_t ours_count;   /* audiolat's wake-ups (total.wakeups) */
	int64_t ours_max_ns;   /* audiolat's per-wake-up max (wake-up - boundary) */
	int64_t ours_p50_ns;   /* ... and median */
	bool agree;            /* counts within 1 %, maxima within 20 us */
};

/*
 * The verdict of k against r's finished statistics: ours_*, agree, and a
 * note when they diverge (fitted: our boundaries are fitted, not measured,
 * which hides a floor the kernel sees).
 */
void al_kernel_wake_judge(struct al_kernel_wake *k, const struct al_period_stats *total,
			  bool fitted);

void al_period_stats_init(struct al_period_stats *st);
void al_period_stats_merge(struct al_period_stats *dst, const struct al_period_stats *src);

/*
 * Allocate n_phases phases and room for xrun_cap xrun events, zero and
 * touch them. The time series covers cfg->duration_ns, plus the time
 * loads may take to start and stop when cfg->load_spec is set. Returns 0
 * or -ENOMEM. cfg is copied.
 */
int al_result_alloc(struct al_result *r, const struct al_config *cfg, size_t n_phases,
		    size_t xrun_cap);
void al_result_free(struct al_result *r);

/*
 * Hot path: account one period into st alone (no spans, windows or
 * events), as al_result_record() does into the current phase; returns the
 * period's largest charge (its own wake latency, or a missed period's).
 * The monitor's statistics (src/run/monitor.c) are made with it.
 */
int64_t al_period_stats_record(struct al_period_stats *st, const struct al_sample *s,
			       int64_t period_ns);

/* Hot path: account one period into the current phase. */
void al_result_record(struct al_result *r, const struct al_sample *s);

/*
 * After the run: the per-period histograms (wake_ns), the missed periods
 * spread over the time series, the phases merged into r->total.
 */
void al_result_finish(struct al_result *r);

/* Keep a warning (printf-style, truncated) for the report. */
void al_result_warn(struct al_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same into any list of warnings w[0..*n) (the first AL_WARN_MAX are kept). */
void al_warnings_vadd(char w[][AL_WARN_LEN], int *n, const char *fmt, va_list ap);

/*
 * As % of the buffer: the longest per-period wake latency, the longest
 * interval. NAN when nothing was measured.
 */
double al_stats_max_latency_pct(const struct al_period_stats *st, int64_t buffer_ns);
double al_stats_max_interval_pct(const struct al_period_stats *st, int64_t buffer_ns);
/*
 * latencytest's 1MS/2MS factors (ms = 1 or 2), in %: per period due (a
 * wake-up counts when its interval is within +-ms of the period, a missed
 * period when it was served within ms of its due time), or per wake-up
 * (intervals only, latencytest's own definition). NAN when nothing was
 * measured.
 */
double al_stats_within_pct(const struct al_period_stats *st, int ms);
double al_stats_within_pct_per_wakeup(const struct al_period_stats *st, int ms);

#endif
