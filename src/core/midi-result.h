/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The result of audiolat midi as plain data: what was asked (struct
 * al_midi_config), and what analyze, record, loop, send and thru found
 * (struct al_midi_result): the port, the statistics of the deltas or the
 * round trips, the load phases, the warnings. src/midi fills it
 * (src/midi/measure.h); src/report makes its document and its text
 * (src/report/midi.h). Nothing here measures or prints.
 */
#ifndef AL_CORE_MIDI_RESULT_H
#define AL_CORE_MIDI_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "result.h"
#include "sysinfo.h"

/* ---- names ---- */

enum al_midi_api {
	AL_MIDI_API_JACK = 0,
	AL_MIDI_API_RAWMIDI,
	AL_MIDI_API_SEQ,
	AL_MIDI_API_COUNT,
};

/* "jack", "rawmidi", "seq" -> enum; 0 or -EINVAL. */
int al_midi_api_parse(const char *s, int *api);
const char *al_midi_api_name(int api);

enum al_midi_select {
	AL_MIDI_SEL_NOTE_ON = 0, /* note-on with velocity > 0 (the default) */
	AL_MIDI_SEL_NOTE_OFF,    /* note-off, or note-on with velocity 0 */
	AL_MIDI_SEL_ALL,         /* every channel message and sysex */
};

/* "note-on", "note-off", "all" -> enum; 0 or -EINVAL. */
int al_midi_select_parse(const char *s, int *out);
const char *al_midi_select_name(int sel);

struct al_midi_filter {
	int events;   /* enum al_midi_select */
	int channel;  /* 1..16; 0: every channel */
};

/* ---- statistics ---- */

/* Exact figures of a set of values (sorted copy, nearest-rank percentiles). */
struct al_midi_summary {
	uint64_t count;
	int64_t min_ns;
	int64_t max_ns;
	int64_t mean_ns;         /* rounded to the nearest ns */
	int64_t median_ns;       /* the mean of the two middle values for an even count */
	int64_t p99_ns;          /* nearest rank */
	int64_t stddev_ns;       /* population standard deviation */
	int64_t mean_abs_dev_ns; /* mean |value - mean| (average jitter) */
};

/* A linear histogram for display: rows of step_ns from start_ns, exact counts. */
#define AL_MIDI_LINHIST_ROWS 21
struct al_midi_linhist {
	int64_t start_ns;
	int64_t step_ns;           /* 1, 2 or 5 x 10^k ns */
	int rows;                  /* 0 when empty */
	uint64_t count[AL_MIDI_LINHIST_ROWS];
};

/*
 * The deltas over time, for a timeline: per window of timeline_window_ns
 * from the first event, the shortest and longest delta ending in it.
 * Bounded: longer recordings get longer windows.
 */
#define AL_MIDI_TIMELINE_MAX 2000
#define AL_MIDI_TIMELINE_WINDOW_NS 1000000000LL /* 1 s at the least */

struct al_midi_window {
	int64_t t_ns;          /* window start, relative to the first event */
	int64_t delta_min_ns;
	int64_t delta_max_ns;
	uint32_t deltas;       /* 0: no event ended a delta in this window */
};

struct al_midi_stats {
	uint64_t events;            /* selected events */
	uint64_t deltas;            /* events - 1 (0 when fewer than 2 events) */
	int64_t interval_ns;        /* given, or the median delta (auto) */
	bool interval_auto;
	bool interval_mode;         /* auto, but the median was 0 (events bunched in one
				     * cycle): the most frequent non-zero delta instead */
	struct al_midi_summary delta; /* of the deltas */
	int64_t jitter_max_ns;      /* delta max - interval (seed 002's figure) */
	int64_t jitter_abs_max_ns;  /* max |delta - interval| */
	int64_t jitter_mean_abs_ns; /* mean |delta - interval| */
	int64_t first_ns, last_ns;  /* times of the first and last selected event */
	struct al_hist hist;        /* the deltas */
	struct al_hist jitter_hist; /* |delta - interval|: finer buckets near 0 */
	struct al_midi_linhist delta_lin;  /* the deltas, for display */
	struct al_midi_linhist jitter_lin; /* |delta - interval|, for display */
	int64_t timeline_window_ns;
	size_t n_timeline;                 /* windows up to the last event */
	struct al_midi_window timeline[AL_MIDI_TIMELINE_MAX];
};

/* ---- the port ---- */

struct al_midi_port_info {
	char timestamp_source[48]; /* "jack-frame-time", "rawmidi-framing-monotonic", ... */
	char timestamp_note[192];  /* why a fallback was taken, "" */
	char in_name[160];         /* our input / output as the API names them */
	char out_name[160];
	uint32_t rate_hz;          /* JACK */
	uint32_t period_frames;    /* JACK */
	bool server_realtime;      /* JACK: the process thread is real-time */
	char jack_clock[24];       /* JACK's clock: "CLOCK_MONOTONIC", "CLOCK_MONOTONIC_RAW", "other" */
	bool clock_monotonic;      /* JACK: its clock is CLOCK_MONOTONIC itself */
	int64_t clock_offset_ns;   /* JACK clock - CLOCK_MONOTONIC at the start (0 when the same) */
	bool thread_realtime;      /* the reader/prober thread got SCHED_FIFO */
};

struct al_midi_port_counters {
	uint64_t sent;             /* loop: probes sent; send: messages queued (JACK) */
	uint64_t cycles;           /* JACK process cycles */
	uint64_t irregular;        /* JACK cycles not starting a period after the last one */
	uint64_t replayed;         /* record (JACK): events a cycle run again on the same frames gave twice, taken once */
	uint64_t xruns;            /* JACK xruns, rawmidi input overruns (bytes) */
	uint64_t late;             /* send: messages that missed their frame */
	uint64_t dropped;          /* messages lost to a full ring */
	uint64_t unexpected;       /* loop: echoes that matched no probe */
	uint64_t ignored;          /* record: real-time, long sysex, stray bytes */
	struct al_hist *wake_ns;   /* JACK: callback start - cycle start (wall clock); may be NULL */
};

/* The sender of audiolat midi send. */
struct al_midi_sender_stats {
	uint64_t sent;             /* messages */
	uint64_t errors;           /* sends that failed */
	int64_t late_max_ns;       /* worst wake-up after the due time */
	bool realtime;             /* SCHED_FIFO applied */
};

/* ---- what was asked ---- */

enum al_midi_kind {
	AL_MIDI_ANALYZE = 0,
	AL_MIDI_SEND,
	AL_MIDI_RECORD,
	AL_MIDI_LOOP,
	AL_MIDI_THRU,
};

/* The strings point into the command line (the caller keeps them). */
struct al_midi_config {
	int kind;                   /* enum al_midi_kind */
	const char *file;           /* analyze FILE */
	int api;                    /* enum al_midi_api */
	const char *port;           /* send: destination; record: source */
	const char *out, *in;       /* loop, thru */
	const char *server;         /* --server (JACK) */
	double rate_hz;             /* send --rate */
	int send_channel;           /* send --channel (1..16) */
	int64_t duration_ns;        /* -d, 0: not given */
	int64_t interval_ns;        /* --interval, 0: auto */
	struct al_midi_filter filter;
	const char *smf_path;       /* record -o */
	int prio;                   /* -p */
	const char *load_spec;      /* --load */
	int64_t max_jitter_ns;      /* 0: no threshold */
	int64_t max_latency_ns;
	int64_t timeout_ns;         /* loop --timeout */
	int64_t gap_ns;             /* loop --gap */
	long count;                 /* loop -n */
	const char *label;
	char cmdline[1024];
};

/* What kind asks by default: jack, 10 Hz on channel 1, note-ons (the rest zero). */
void al_midi_config_init(struct al_midi_config *c, int kind);

/* --rate: a positive decimal number ("10", "2.5") in 0.01..1000 Hz; 0, or -EINVAL with one line. */
int al_midi_rate_parse(const char *arg, double *hz, char *err, size_t err_size);

/*
 * What the API of c needs and the options cannot say alone (a port for
 * rawmidi and seq, thru on JACK only, --server with JACK only): 0, or
 * -EINVAL with one line in err naming the option.
 */
int al_midi_config_check(const struct al_midi_config *c, char *err, size_t err_size);

/* The live figures of a measurement, for a status line. */
struct al_midi_live {
	int kind;                   /* enum al_midi_kind */
	int64_t elapsed_ns;         /* since the start */
	int64_t planned_ns;         /* 0: until interrupted */
	uint64_t selected;          /* record: events; loop: probes; send: messages sent */
	uint64_t lost;              /* loop */
	int64_t max_ns;             /* record: max |delta - interval| (or delta); loop: latency */
};

/* ---- what was found ---- */

/* The header of an analyzed file. */
struct al_midi_file_info {
	size_t bytes;
	bool rmid;
	int format;
	int n_tracks;
	int division;
	int ppq;                    /* 0 with an SMPTE division */
	int smpte_fps;
	int ticks_per_frame;
	uint64_t n_tempos;
	uint64_t n_events;
	int64_t duration_ns;
	int64_t tick_ns_min;
};

/* One load phase of a record or loop. */
struct al_midi_phase_result {
	char name[AL_NAME_MAX];
	char load[AL_LOAD_DESC_MAX];
	int64_t start_ns, end_ns;   /* relative to the start */
	char error[AL_WARN_LEN];
	struct al_metric throughput[AL_PHASE_METRICS];
	int n_throughput;
	struct al_midi_stats *st;   /* record: events of the phase */
	struct al_midi_summary lat; /* loop */
	uint64_t lost;              /* loop */
};

/* Which threshold was exceeded (the verdict FAIL), none: PASS. */
enum al_midi_threshold {
	AL_MIDI_THRESH_NONE = 0,
	AL_MIDI_THRESH_JITTER_ABS,  /* analyze, record: max |delta - interval| > --max-jitter */
	AL_MIDI_THRESH_LATENCY,     /* loop: max latency > --max-latency */
	AL_MIDI_THRESH_JITTER_PEAK, /* loop: peak-to-peak jitter > --max-jitter */
};

/* Where a failure without a result happened (the error's kind for the caller). */
enum al_midi_stage {
	AL_MIDI_STAGE_NONE = 0,
	AL_MIDI_STAGE_CONFIG,       /* --load and the options: refused or not available here */
	AL_MIDI_STAGE_INPUT,        /* analyze: the file cannot be read or is not a MIDI file */
	AL_MIDI_STAGE_OPEN,         /* the port did not open */
	AL_MIDI_STAGE_RUN,          /* after it opened: no memory, the sender did not start */
};

#define AL_MIDI_ERR_LEN 512

struct al_midi_result {
	struct al_midi_config cfg;  /* a copy of what was asked */
	char uuid[37];              /* the document's id (al_uuid_random()); "" when none */
	/* analyze: the file */
	bool has_file;
	struct al_midi_file_info file;
	/* send, record, loop, thru: the port */
	struct al_midi_port_info info;
	struct al_midi_port_counters cnt; /* cnt.wake_ns is NULL once finished */
	struct al_midi_summary wake; /* JACK callback wake-up lateness */
	struct al_sysinfo sys;
	int64_t started_at_ns;      /* epoch */
	int64_t planned_ns;         /* record, loop: how long it was to run, 0: until interrupted */
	int64_t duration_ns;
	bool interrupted;
	bool realtime;              /* reader/prober thread at SCHED_FIFO */
	bool memory_locked;
	uint64_t received;          /* record: messages received */
	uint64_t not_in_file;       /* record: real-time and system common messages */
	const char *smf_written;    /* record: -o path, when written */
	char smf_err[AL_MIDI_ERR_LEN]; /* record: why -o was not written, "" */
	/* statistics */
	struct al_midi_stats *st;   /* analyze, record: the deltas */
	int64_t tick_ns;
	struct al_midi_summary lat; /* loop: latency (JACK: frame times, one DLL) */
	struct al_midi_summary wall; /* loop: latency on the wall clock (JACK: callback to callback) */
	struct al_hist *lat_hist;   /* loop */
	struct al_midi_linhist lat_lin; /* loop, for display */
	int32_t frames_min, frames_max; /* loop, JACK */
	uint64_t sent, echoed, lost;
	struct al_midi_sender_stats sender; /* send */
	struct al_midi_phase_result *phases;
	size_t n_phases;
	char warnings[AL_WARN_MAX][AL_WARN_LEN];
	int n_warnings;
	int threshold;              /* enum al_midi_threshold */
	/* the failure: with a result (failed: the run was cut short), or without (stage) */
	bool failed;
	int stage;                  /* enum al_midi_stage */
	char err[AL_MIDI_ERR_LEN];  /* one line, "" */
};

#endif
