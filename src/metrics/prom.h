/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat monitor's figures for Prometheus (docs/monitor.md): the text
 * exposition format 0.0.4 that node_exporter's textfile collector reads,
 * written to a file atomically (a temp file in the same directory, then
 * rename) or served on /metrics over HTTP (prom-http.c, libmicrohttpd).
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
 * /metrics over HTTP/1.x (libmicrohttpd, prom-http.c): GET and HEAD of
 * /metrics (200), other paths 404, other methods 405, a request head over
 * 4 KiB 431. At most 64 connections (more wait in the listen queue), each
 * closed after 2 s without progress; one thread of libmicrohttpd's serves
 * them all without blocking, and one of ours accepts. The page is copied
 * under a lock that no socket write holds, so a client that never reads
 * cannot delay al_prom_http_set() or al_prom_http_stop().
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
 * What the handler answers a request of method for url (as libmicrohttpd
 * gives them: the path, "?QUERY" too is taken): 200 (GET or HEAD of
 * /metrics, *head set for HEAD), 404 or 405. A malformed request or
 * another HTTP version never gets here: libmicrohttpd answers it (400,
 * 505). Pure (prom-route.c), for the fuzz target and the unit test.
 */
int al_prom_http_route(const char *method, const char *url, bool *head);
/* The page from now on (copied). 0 or -ENOMEM. */
int al_prom_http_set(struct al_prom_http *h, const char *text);
/* The port it listens on (the one given, or the kernel's for port 0). */
int al_prom_http_port(const struct al_prom_http *h);
/* Closes every connection, whatever its client does, and frees h (NULL: nothing). */
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
