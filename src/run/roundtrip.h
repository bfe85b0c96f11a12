/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The roundtrip driver (audiolat roundtrip): a backend's duplex stream
 * (al_backend_ops.duplex) plays the MTDM tones and captures them back
 * through a loop; a reading every 250 ms until the end, the stop flag or a
 * dead stream; then the summary of the settled readings and the part of the
 * delay the nominal buffering does not explain. docs/roundtrip.md.
 *
 *	struct al_roundtrip_opts o = { .ops = be->duplex, .cfg = ..., .duration_ns = ... };
 *	rc = al_roundtrip_run(&o, &x);   -> x.s, x.rd[0..n_rd), x.info, x.st
 *	al_roundtrip_result_free(&x);
 */
#ifndef AL_RUN_ROUNDTRIP_H
#define AL_RUN_ROUNDTRIP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/duplex.h"
#include "core/clock.h"
#include "roundtrip/mtdm.h"
#include "roundtrip/summary.h"

#define AL_ROUNDTRIP_READING_NS (250 * AL_NS_PER_MS)

struct al_roundtrip_opts {
	const struct al_duplex_ops *ops;
	struct al_duplex_config cfg;
	int64_t duration_ns;
	/* set asynchronously (a signal handler): end now, interrupted */
	volatile sig_atomic_t *stop_requested;
	/* every reading, on the calling thread (a live status line); may be NULL */
	void (*reading)(void *ud, const struct al_mtdm_result *r, uint32_t rate_hz);
	void *ud;
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
	struct al_duplex_info info;
	struct al_duplex_status st;      /* the last status (latencies, xruns) */
	struct al_roundtrip_reading *rd; /* the readings, n_rd of them */
	size_t n_rd, cap_rd;
	struct al_roundtrip_summary s;
	int64_t started_at_ns;           /* wall clock */
	int64_t ran_ns;
	bool memory_locked;
	bool interrupted;                /* the stop flag ended it early */
	int stream_err;                  /* -errno: the stream died during the run */
	/* derived */
	double nominal_frames;           /* capture + playback latency, as reported */
	double extra_frames;             /* the delay beyond it */
	long io_frames;                  /* jackd -I/-O each that would compensate it; -1: none */
	/* on failure */
	enum al_roundtrip_stage failed_at;
	char why[256];
};

/*
 * Measure into x (zeroed by the call). Returns 0 (a stream that died
 * during the run is x->stream_err, not a failure), or -errno with
 * x->failed_at and x->why saying where. Library rules: no printing.
 */
int al_roundtrip_run(const struct al_roundtrip_opts *o, struct al_roundtrip_result *x);
void al_roundtrip_result_free(struct al_roundtrip_result *x);

#endif
