/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi: the options and the report, and their text and JSON
 * (midi-out.c); used by cmd-midi.c (options, analyze, send, thru) and
 * midi-live.c (record, loop).
 */
#ifndef AL_CLI_MIDI_OUT_H
#define AL_CLI_MIDI_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/result.h"
#include "core/sysinfo.h"
#include "load/load.h"
#include "midi/analyze.h"
#include "midi/port.h"
#include "midi/smf.h"

/* The record file: 1000 ticks per quarter at 1000 us per quarter = 1 us a tick. */
#define MIDI_REC_PPQ 1000
#define MIDI_REC_TEMPO_US 1000

struct midi_opts {
	const char *sub;            /* analyze, send, record, loop, thru */
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
	bool channel_given;
	const char *smf_path;       /* record -o */
	const char *json_path;
	int prio;                   /* -p */
	const char *load_spec;      /* --load */
	struct al_load_opts load_opts;
	int64_t max_jitter_ns;      /* 0: no threshold */
	int64_t max_latency_ns;
	int64_t timeout_ns;         /* loop --timeout */
	int64_t gap_ns;             /* loop --gap */
	long count;                 /* loop -n */
	const char *label;
	const char *db_path;
	bool no_db;
	bool quiet;
	bool no_histogram;
	bool help;
	char cmdline[1024];
};

/* One load phase of a record or loop, as reported. */
struct midi_phase {
	char name[AL_NAME_MAX];
	char load[AL_LOAD_DESC_MAX];
	int64_t start_ns, end_ns;   /* relative to the start */
	char error[AL_WARN_LEN];
	struct al_metric throughput[AL_PHASE_METRICS];
	int n_throughput;
	struct al_midi_stats *st;   /* record: events of the phase; loop: latencies */
	struct al_midi_summary lat; /* loop */
	uint64_t lost;              /* loop */
};

/* Everything a report of analyze, record or loop says. */
struct midi_report {
	const char *kind;           /* "analyze", "record", "loop" */
	const struct midi_opts *o;
	/* analyze: the file */
	const struct al_smf *smf;
	size_t file_bytes;
	/* record, loop: the port */
	struct al_midi_port_info info;
	struct al_midi_port_counters cnt;
	struct al_midi_summary wake; /* JACK callback wake-up lateness */
	struct al_sysinfo sys;
	int64_t started_at_ns;
	int64_t duration_ns;
	bool interrupted;
	bool realtime;              /* reader/prober thread at SCHED_FIFO */
	bool memory_locked;
	uint64_t received;          /* record: messages received */
	uint64_t not_in_file;       /* record: real-time and system common messages */
	const char *smf_written;    /* record: -o path, when written */
	/* statistics */
	struct al_midi_stats *st;   /* analyze, record: the deltas */
	int64_t tick_ns;
	struct al_midi_summary lat; /* loop: latency (JACK: frame times, one DLL) */
	struct al_midi_summary wall; /* loop: latency on the wall clock (JACK: callback to callback) */
	struct al_hist *lat_hist;   /* loop */
	struct al_midi_linhist lat_lin; /* loop, for display */
	int32_t frames_min, frames_max; /* loop, JACK */
	uint64_t sent, echoed, lost;
	struct midi_phase *phases;
	size_t n_phases;
	char warnings[AL_WARN_MAX][AL_WARN_LEN];
	int n_warnings;
};

/* midi-out.c */
void midi_report_warn(struct midi_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void midi_print_stats(FILE *f, const struct midi_report *r);
void midi_print_loop(FILE *f, const struct midi_report *r);
void midi_print_hist(FILE *f, const struct al_midi_linhist *lh, const char *title);
void midi_summary_line(FILE *f, const struct midi_report *r, const char *verdict);
json_t *midi_report_json(const struct midi_report *r);
/* Write JSON to --json and save it in the database (unless --no-db); exit code. */
int midi_report_emit(const struct midi_report *r, bool save);
/* "note-on (velocity > 0), every channel" */
void midi_describe_filter(const struct al_midi_filter *f, char *buf, size_t size);

#endif
