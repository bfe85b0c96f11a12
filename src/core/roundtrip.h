/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The result of audiolat roundtrip as plain data: what the MTDM estimator
 * read (src/roundtrip), what the backend's duplex stream reported
 * (src/backend/duplex.h), and what the roundtrip driver made of it
 * (src/run/roundtrip.c fills it); src/report builds its document and text
 * (report/roundtrip-doc.h). docs/roundtrip.md.
 */
#ifndef AL_CORE_ROUNDTRIP_H
#define AL_CORE_ROUNDTRIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest digit residual of a valid reading (0 perfect .. 0.5 random). */
#define AL_MTDM_MAX_ERROR 0.25

enum al_mtdm_status {
	AL_MTDM_VALID = 0,
	AL_MTDM_NO_SIGNAL, /* the master tone is below AL_MTDM_MIN_LEVEL */
	AL_MTDM_UNSTABLE,  /* the tones disagree: error or levels out of bounds */
};

/* One reading of the estimator. */
struct al_mtdm_result {
	enum al_mtdm_status status;
	double delay_frames; /* total loop delay; meaningful when VALID */
	double error;        /* worst digit residual, 0 .. 0.5 (> MAX_ERROR: UNSTABLE) */
	double level;        /* loop gain measured on the master tone (1.0 = unity) */
	double level_spread; /* largest ratio between a tone's gain and the master's */
	bool inverted;       /* the loop inverts polarity (delay still valid) */
	uint64_t frames;     /* frames processed when the state was published */
	uint64_t bad_frames; /* NaN, Inf or huge input samples seen (read as 0) */
};

struct al_roundtrip_reading {
	int64_t t_ns;                /* since the stream started */
	uint32_t xruns;              /* the stream's xruns by then (the status's count) */
	struct al_mtdm_result r;
};

enum al_roundtrip_why {
	AL_ROUNDTRIP_OK = 0,
	AL_ROUNDTRIP_NEVER_VALID,    /* no valid reading in the whole run */
	AL_ROUNDTRIP_NOT_SETTLED,    /* valid, but the run ended before it settled */
	AL_ROUNDTRIP_LOST,           /* settled readings that are not valid */
	AL_ROUNDTRIP_SPREAD,         /* settled readings too far apart */
	AL_ROUNDTRIP_POLARITY,       /* settled readings disagree about polarity */
};

/* A run's readings as one verdict (src/roundtrip/summary.h). */
struct al_roundtrip_summary {
	enum al_mtdm_status status;  /* VALID, or what went wrong */
	enum al_roundtrip_why why;
	int64_t settled_at_ns;       /* -1: never */
	size_t n_readings;
	size_t n_settled;            /* readings at or after settled_at_ns */
	size_t n_valid;              /* of those, valid */
	size_t n_no_signal;
	size_t n_unstable;
	double delay_frames;         /* mean of the settled valid readings */
	double min_frames, max_frames, stddev_frames;
	double worst_error;          /* largest digit residual among them */
	double level;                /* mean loop gain */
	bool inverted;
};

/* What a duplex stream runs at (src/backend/duplex.h: its open() fills it). */
struct al_duplex_info {
	uint32_t rate_hz;
	uint32_t period_frames;
	uint32_t periods;                 /* ALSA: buffer periods (a server: 0, not known) */
	/*
	 * The nominal latency of the path as the backend reports it: JACK the
	 * ports' latency ranges (max of capture + max of playback, refreshed
	 * by status()); ALSA the period read on capture and the rest of the
	 * prefilled playback buffer; PipeWire the ports' latency params.
	 */
	uint32_t capture_latency_frames;
	uint32_t playback_latency_frames;
	char in_name[160];                /* what feeds our input ("jack:audiolat-roundtrip:out") */
	char out_name[160];               /* what our output feeds */
	char format[24];                  /* ALSA: "PLAYBACK/CAPTURE" formats; a server: "float" */
	bool linked;                      /* ALSA: capture and playback started together */
	/* a server's client: its name ("JACK", "PipeWire"), as the text names it; "": ALSA */
	char server[16];
	/* the backend reports the path's nominal latency (JACK, ALSA; PipeWire 0.3.65 does not) */
	bool latency_known;
	/* jackd's -I/-O can compensate the extra (JACK, or ALSA: a card JACK may run on) */
	bool jackd_io;
};

/* How a duplex stream is doing (polled while it runs). */
#define AL_DUPLEX_XRUN_TIMES 16 /* xruns whose time a roundtrip keeps */

struct al_duplex_status {
	/* 0 running; -errno: the stream died (server gone), -ENOLINK a link of the loop went away */
	int err;
	uint64_t periods;                 /* periods processed */
	uint32_t xruns;                   /* xruns (ALSA: recovered by a restart) */
	uint32_t restarts;                /* ALSA: stream restarts after an xrun */
	uint32_t capture_latency_frames;  /* current nominal latency (JACK: re-read) */
	uint32_t playback_latency_frames;
	bool period_changed;              /* a server: the period changed under us */
	bool realtime;                    /* the audio thread runs SCHED_FIFO */
	/* when the first AL_DUPLEX_XRUN_TIMES xruns were seen (CLOCK_MONOTONIC; 0: not kept) */
	int64_t xrun_at_ns[AL_DUPLEX_XRUN_TIMES];
	int64_t linked_at_ns;             /* the loop's links were made (CLOCK_MONOTONIC); 0: none */
};

/* Where al_roundtrip_run() failed (al_roundtrip_result.failed_at). */
enum al_roundtrip_stage {
	AL_ROUNDTRIP_MEMORY = 1, /* allocating: -ENOMEM */
	AL_ROUNDTRIP_OPEN,       /* the backend's open: why says it */
	AL_ROUNDTRIP_RATE,       /* the estimator cannot work at info.rate_hz */
	AL_ROUNDTRIP_START,      /* the backend's start: why may say it */
	AL_ROUNDTRIP_MEASURE,    /* no memory for the readings */
};

struct al_roundtrip_result {
	/* what was asked: the backend, -D and -C as given (NULL: the default), --self-loop */
	char backend[16];
	const char *device;
	const char *capture_device;
	bool self_loop;
	char uuid[37];                   /* the document's id, made at the start; "" none */
	char cmdline[1024];              /* "audiolat roundtrip ...": the caller's to fill */
	struct al_duplex_info info;
	struct al_duplex_status st;      /* the last status (latencies, xruns) */
	struct al_roundtrip_reading *rd; /* the readings, n_rd of them */
	size_t n_rd, cap_rd;
	struct al_roundtrip_summary s;
	int64_t started_at_ns;           /* wall clock */
	int64_t t0_ns;                   /* the readings' zero (CLOCK_MONOTONIC) */
	int64_t ran_ns;
	bool memory_locked;
	bool interrupted;                /* the stop flag ended it early */
	int stream_err;                  /* -errno: the stream died during the run */
	/* derived */
	double nominal_frames;           /* capture + playback latency, as reported; NAN: none */
	double extra_frames;             /* the delay beyond it; NAN: no nominal */
	long io_frames;                  /* jackd -I/-O each that would compensate it; -1: none */
	/* on failure */
	enum al_roundtrip_stage failed_at;
	char why[256];
};

/* "valid", "no-signal", "unstable". */
const char *al_mtdm_status_name(enum al_mtdm_status s);
/* One line: "no signal on the input", "readings spread over 3.2 frames", ... */
const char *al_roundtrip_why_text(enum al_roundtrip_why why);

#endif
