/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat monitor's figures for Prometheus (docs/monitor.md): the text
 * exposition format 0.0.4 that node_exporter's textfile collector reads,
 * written to a file atomically (a temp file in the same directory, then
 * rename) or served on /metrics by a minimal HTTP handler (prom-http.c).
 * Base units (seconds); labels backend, device and period only.
 */
#ifndef AL_REPORT_PROM_H
#define AL_REPORT_PROM_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/mwin.h"

struct al_prom_input {
	const char *backend;
	const char *device;          /* "" when none */
	int64_t period_frames;
	const struct al_mw_totals *t;
	const struct al_mw *last_short; /* the newest closed short window; periods 0: none yet */
	const struct al_mw *last_long;
	int64_t started_at_ns;       /* epoch ns of the stream start, 0: not started */
};

/* The exposition text (malloc'd), NULL on ENOMEM. */
char *al_prom_text(const struct al_prom_input *in);

/*
 * Write text to path atomically: ".NAME.XXXXXX" beside it (a name the
 * textfile collector, which reads *.prom, skips), mode 0644, renamed over
 * path. A reader sees the old file or the new one, never a part. 0 or
 * -errno (nothing is left behind on failure).
 */
int al_prom_write_file(const char *path, const char *text);

/*
 * A minimal HTTP/1.x server of one page, /metrics, on one thread: one
 * connection at a time, a request of at most 4 KiB read within 2 s (else
 * 431 or 408), GET and HEAD only, then closed. No library: the one page,
 * the size and time limits and the loopback default are the whole of it.
 */
struct al_prom_http;

/*
 * Listen on addr ("127.0.0.1:9101", "[::1]:9101", "0.0.0.0:9101"; a port
 * alone, "9101", is loopback's). 0,
 * -EINVAL (not HOST:PORT), -EADDRINUSE, -EACCES, other -errno; err gets
 * one line.
 */
int al_prom_http_start(const char *addr, struct al_prom_http **out, char *err, size_t err_size);
/*
 * What the handler answers a request head (NUL-terminated): 200 (GET or
 * HEAD of /metrics, *head set for HEAD), 400, 404 or 405. For tests.
 */
int al_prom_http_route(const char *req, bool *head);
/* The page from now on (copied). 0 or -ENOMEM. */
int al_prom_http_set(struct al_prom_http *h, const char *text);
/* The port it listens on (the one given, or the kernel's for port 0). */
int al_prom_http_port(const struct al_prom_http *h);
void al_prom_http_stop(struct al_prom_http *h);

/* What a monitor result adds to its run document ("monitor": docs/json.md). */
struct al_monitor_doc_input {
	const struct al_mw_series *shortw;
	const struct al_mw_series *longw;
	const struct al_mw_totals *t;
	uint64_t windows_lost;        /* windows a stall longer than the ring overran */
	uint64_t checkpoints;
	uint64_t events;
	uint64_t events_suppressed;
	int64_t checkpoint_ns;        /* 0: none */
	int64_t threshold_ns;         /* 0: none */
	const char *on_threshold;     /* "exec:...", NULL */
	bool final;                   /* the end of the run, not a checkpoint */
};

json_t *al_report_monitor_json(const struct al_monitor_doc_input *in);

#endif
