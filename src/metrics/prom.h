/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat monitor's figures for Prometheus (docs/monitor.md): the text
 * exposition format 0.0.4 that node_exporter's textfile collector reads,
 * written to a file atomically (a temp file in the same directory, then
 * rename) or served on /metrics by a minimal HTTP handler (prom-http.c).
 * Base units (seconds); labels backend, device and period only.
 */
#ifndef AL_METRICS_PROM_H
#define AL_METRICS_PROM_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/monitor-figures.h"
#include "core/mwin.h"

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

/* Where the metrics go: a file (--metrics-file, NULL: none) and a page (--listen, NULL: none). */
struct al_prom_sink {
	const char *file;
	struct al_prom_http *http;
	bool failing;                /* the file's last write failed */
};

/*
 * The exposition of in to s's file (al_prom_write_file()) and page. 0, or
 * the file's -errno when a write fails after one that did not (or the
 * first): a failure is said once, and the file tried again every time.
 * Nothing is published when the text cannot be made (ENOMEM).
 */
int al_prom_publish(struct al_prom_sink *s, const struct al_prom_input *in);

#endif
