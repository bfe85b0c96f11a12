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
#include "core/roundtrip.h" /* al_roundtrip_result */
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

/* Readings settle for 1 s after the signal appears: a run is at least this long. */
#define AL_ROUNDTRIP_MIN_NS (2 * AL_NS_PER_SEC)

/*
 * audiolat roundtrip's defaults into o (zeroed first): 5 s; for a device
 * without a server, 48000 Hz, 2 periods of 256 frames, SCHED_FIFO 70.
 */
void al_roundtrip_opts_init(struct al_roundtrip_opts *o);

/*
 * Measure into x (zeroed by the call). Returns 0 (a stream that died
 * during the run is x->stream_err, not a failure), or -errno with
 * x->failed_at and x->why saying where. Library rules: no printing.
 */
int al_roundtrip_run(const struct al_roundtrip_opts *o, struct al_roundtrip_result *x);
void al_roundtrip_result_free(struct al_roundtrip_result *x);

#endif
