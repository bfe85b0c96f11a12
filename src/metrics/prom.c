/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/why.h"
#include "prom.h"

struct buf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void __attribute__((format(printf, 2, 3)))
put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if ((size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = (b->cap + (size_t)n + 1) * 2;
		char *s = realloc(b->s, cap);

		if (!s) {
			b->oom = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
}

/* A label value: backslash, double quote and newline escaped. */
static void
label_value(char *out, size_t size, const char *v)
{
	size_t o = 0;

	for (; v && *v && o + 3 < size; v++) {
		if (*v == '\\' || *v == '"') {
			out[o++] = '\\';
			out[o++] = *v;
		} else if (*v == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else {
			out[o++] = *v;
		}
	}
	out[o] = '\0';
}

static double
sec(int64_t ns)
{
	return (double)ns / 1e9;
}

static void
histogram(struct buf *b, const char *name, const char *help, const char *labels,
	  const uint64_t *buckets, int64_t sum_ns)
{
	uint64_t cum = 0;
	int i;

	put(b, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
	for (i = 0; i < AL_MW_BOUNDS; i++) {
		cum += buckets[i];
		put(b, "%s_bucket{%s,le=\"%.9g\"} %llu\n", name, labels, sec(al_mw_le_ns[i]),
		    (unsigned long long)cum);
	}
	cum += buckets[AL_MW_BOUNDS];
	/* +Inf is _count by construction, whatever a concurrent writer did */
	put(b, "%s_bucket{%s,le=\"+Inf\"} %llu\n", name, labels, (unsigned long long)cum);
	put(b, "%s_sum{%s} %.9f\n", name, labels, sec(sum_ns));
	put(b, "%s_count{%s} %llu\n", name, labels, (unsigned long long)cum);
}

static void
counter(struct buf *b, const char *name, const char *help, const char *labels, uint64_t v)
{
	put(b, "# HELP %s %s\n# TYPE %s counter\n%s{%s} %llu\n", name, help, name, name, labels,
	    (unsigned long long)v);
}

static void
window_gauge(struct buf *b, const char *name, const char *help, const char *labels,
	     const struct al_mw *w)
{
	if (!w || !w->periods)
		return; /* not measured yet: absent, never 0 */
	put(b, "# HELP %s %s\n# TYPE %s gauge\n%s{%s} %.9f\n", name, help, name, name, labels,
	    sec(w->wake_max_ns));
}

char *
al_prom_text(const struct al_prom_input *in)
{
	struct buf b = { 0 };
	char be[64], dev[300], labels[460], help[160];
	const struct al_mw_totals *t = in->t;

	label_value(be, sizeof(be), in->backend);
	label_value(dev, sizeof(dev), in->device);
	snprintf(labels, sizeof(labels), "backend=\"%s\",device=\"%s\",period=\"%lld\"", be, dev,
		 (long long)in->period_frames);
	histogram(&b, "audiolat_wake_latency_seconds",
		  "Wake latency of every period due (a period a stall swallowed counts from its "
		  "due time until the audio thread ran again).",
		  labels, t->wake_buckets, t->wake_sum_ns);
	histogram(&b, "audiolat_interval_seconds",
		  "Time from one wake-up of the audio thread to the next.", labels,
		  t->interval_buckets, t->interval_sum_ns);
	counter(&b, "audiolat_periods_total", "Periods due since the monitor started.", labels,
		t->periods);
	counter(&b, "audiolat_missed_periods_total",
		"Periods due that a stall swallowed (no wake-up of their own).", labels, t->missed);
	counter(&b, "audiolat_xruns_total", "Xrun events (one stall is one event).", labels,
		t->xruns);
	counter(&b, "audiolat_lost_periods_total", "Periods the card had no audio for.", labels,
		t->lost_periods);
	if (in->why_counts) {
		/* one series per class: the label's values are the nine of docs/why.md */
		put(&b, "# HELP audiolat_why_events_total Xruns and late periods by the cause "
			"audiolat gave them (docs/why.md).\n# TYPE audiolat_why_events_total counter\n");
		for (int i = 0; i < AL_WHY_CLASSES; i++)
			put(&b, "audiolat_why_events_total{%s,cause=\"%s\"} %llu\n", labels,
			    al_why_class_name((enum al_why_class)i),
			    (unsigned long long)in->why_counts[i]);
	}
	if (in->last_short) {
		snprintf(help, sizeof(help),
			 "Longest wake latency in the last closed %.0f s window.",
			 sec(in->last_short->len_ns));
		window_gauge(&b, "audiolat_window_wake_latency_max_seconds", help, labels,
			     in->last_short);
	}
	if (in->last_long) {
		snprintf(help, sizeof(help),
			 "Longest wake latency in the last closed %.0f s long window.",
			 sec(in->last_long->len_ns));
		window_gauge(&b, "audiolat_long_window_wake_latency_max_seconds", help, labels,
			     in->last_long);
	}
	if (in->started_at_ns)
		put(&b, "# HELP audiolat_start_time_seconds When the monitor's stream started "
			"(Unix time).\n# TYPE audiolat_start_time_seconds gauge\n"
			"audiolat_start_time_seconds{%s} %.3f\n",
		    labels, sec(in->started_at_ns));
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

int
al_prom_write_file(const char *path, const char *text)
{
	char tmp[4096];
	const char *slash = strrchr(path, '/');
	size_t dir_len = slash ? (size_t)(slash - path + 1) : 0, len = strlen(text), off = 0;
	int fd, n, rc = 0;

	n = snprintf(tmp, sizeof(tmp), "%.*s.%s.XXXXXX", (int)dir_len, path,
		     slash ? slash + 1 : path);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = w < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)w;
	}
	if (!rc && fchmod(fd, 0644))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

int
al_prom_publish(struct al_prom_sink *s, const struct al_prom_input *in)
{
	char *text = al_prom_text(in);
	int rc = 0;
	bool was_failing = s->failing;

	if (!text)
		return 0;
	if (s->file) {
		rc = al_prom_write_file(s->file, text);
		s->failing = rc != 0;
	}
	if (s->http)
		al_prom_http_set(s->http, text);
	free(text);
	return was_failing ? 0 : rc;
}
