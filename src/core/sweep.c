/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"
#include "clock.h"
#include "result.h"
#include "units.h"

int
al_sweep_init(struct al_sweep *s, int n_backends, int n_rates, int n_period_frames, int n_periods,
	      int repeat)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->n_cells = n_backends * n_rates * n_period_frames * n_periods;
	s->n_backends = n_backends;
	s->n_rates = n_rates;
	s->n_period_frames = n_period_frames;
	s->n_periods = n_periods;
	s->repeat = repeat;
	s->cells = calloc((size_t)(s->n_cells ? s->n_cells : 1), sizeof(*s->cells));
	if (!s->cells)
		return -ENOMEM;
	for (i = 0; i < s->n_cells; i++) {
		s->cells[i].fig = calloc((size_t)(repeat ? repeat : 1), sizeof(*s->cells[i].fig));
		if (!s->cells[i].fig)
			return -ENOMEM;
	}
	return 0;
}

int
al_sweep_init_grid(struct al_sweep *s, const struct al_sweep_grid *g, int repeat)
{
	int i = 0, b, rr, pf, np;

	if (al_sweep_init(s, g->n_backends, g->n_rates, g->n_period_frames, g->n_periods, repeat))
		return -ENOMEM;
	for (b = 0; b < g->n_backends; b++)
		for (rr = 0; rr < g->n_rates; rr++)
			for (pf = 0; pf < g->n_period_frames; pf++)
				for (np = 0; np < g->n_periods; np++, i++) {
					struct al_sweep_cell *c = &s->cells[i];

					snprintf(c->backend, sizeof(c->backend), "%s",
						 g->backends[b].name);
					snprintf(c->device, sizeof(c->device), "%s",
						 g->backends[b].device);
					c->rate_hz = g->rates[rr];
					c->period_frames = g->period_frames[pf];
					c->periods = g->periods[np];
				}
	return 0;
}

void
al_sweep_free(struct al_sweep *s)
{
	for (int i = 0; s->cells && i < s->n_cells; i++)
		free(s->cells[i].fig);
	free(s->cells);
	s->cells = NULL;
	s->n_cells = 0;
}

struct al_sweep_range
al_sweep_range(const struct al_sweep_cell *c, enum al_sweep_fig f)
{
	struct al_sweep_range r = { INFINITY, -INFINITY, 0, 0 };

	for (int i = 0; i < c->n_runs; i++) {
		double v = c->fig[i][f];

		if (isnan(v))
			continue;
		r.min = fmin(r.min, v);
		r.max = fmax(r.max, v);
		r.sum += v;
		r.n++;
	}
	return r;
}

int
al_sweep_runs_with_xruns(const struct al_sweep_cell *c)
{
	int n = 0;

	for (int i = 0; i < c->n_runs; i++)
		n += c->fig[i][AL_SWEEP_XRUNS] > 0;
	return n;
}

int64_t
al_sweep_buffer_ns(const struct al_sweep_cell *c)
{
	return al_frames_to_ns(c->periods * c->period_frames, c->rate_hz);
}

int
al_sweep_smallest_safe(const struct al_sweep *s)
{
	int64_t best_ns = INT64_MAX;
	int i, best = -1;

	for (i = 0; i < s->n_cells; i++) {
		int64_t ns = al_sweep_buffer_ns(&s->cells[i]);

		if (s->cells[i].n_runs && !al_sweep_runs_with_xruns(&s->cells[i]) && ns < best_ns) {
			best_ns = ns;
			best = i;
		}
	}
	return best;
}

void
al_sweep_cell_name(const struct al_sweep_cell *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s %ld Hz %ld x %ld", c->backend, c->device[0] ? ":" : "",
		 c->device, c->rate_hz, c->periods, c->period_frames);
}

void
al_sweep_verdict(const struct al_sweep_cell *c, char *buf, size_t size)
{
	int x = al_sweep_runs_with_xruns(c);

	if (!c->n_runs)
		snprintf(buf, size, "did not run (exit %d)", c->failed_code);
	else if (!x)
		snprintf(buf, size, "ok");
	else
		snprintf(buf, size, "xruns in %d/%d", x, c->n_runs);
}

void
al_sweep_cell_apply(const struct al_sweep_cell *c, struct al_config *cfg)
{
	snprintf(cfg->backend, sizeof(cfg->backend), "%s", c->backend);
	if (c->device[0])
		snprintf(cfg->device, sizeof(cfg->device), "%s", c->device);
	cfg->rate_hz = c->rate_hz;
	cfg->period_frames = c->period_frames;
	cfg->periods = (int)c->periods;
}

int
al_sweep_parse_list(const char *opt, const char *arg, long min, long max, long *vals, int cap,
		    int *n, char *err, size_t err_size)
{
	const char *p = arg;
	char item[32];

	*n = 0;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		long v;
		int rc, i;

		if (!len) {
			snprintf(err, err_size, "%s: '%s' has an empty item", opt, arg);
			return -EINVAL;
		}
		if (len >= sizeof(item)) {
			snprintf(err, err_size, "%s: '%.*s' is not a whole number", opt, 24, p);
			return -EINVAL;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		rc = al_parse_long(item, min, max, &v);
		if (rc == -EINVAL) {
			snprintf(err, err_size, "%s: '%s' is not a whole number", opt, item);
			return -EINVAL;
		}
		if (rc) {
			snprintf(err, err_size, "%s: '%s' is not in %ld..%ld", opt, item, min, max);
			return -EINVAL;
		}
		for (i = 0; i < *n; i++)
			if (vals[i] == v) {
				snprintf(err, err_size, "%s: %ld is given twice", opt, v);
				return -EINVAL;
			}
		if (*n == cap) {
			snprintf(err, err_size, "%s: more than %d values", opt, cap);
			return -EINVAL;
		}
		vals[(*n)++] = v;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

int
al_sweep_parse_backends(const char *arg, struct al_sweep_backend *b, int cap, int *n, char *err,
			size_t err_size)
{
	const char *p = arg;

	*n = 0;
	for (;;) {
		const char *comma = strchr(p, ','), *colon;
		size_t len = comma ? (size_t)(comma - p) : strlen(p), name_len;
		struct al_sweep_backend e;
		int i;

		memset(&e, 0, sizeof(e));
		colon = memchr(p, ':', len);
		name_len = colon ? (size_t)(colon - p) : len;
		if (!name_len) {
			snprintf(err, err_size, "-b/--backend: '%s' has an empty backend name",
				 arg);
			return -EINVAL;
		}
		if (name_len >= sizeof(e.name)) {
			snprintf(err, err_size, "-b/--backend: '%.*s' is too long", 40, p);
			return -EINVAL;
		}
		memcpy(e.name, p, name_len);
		if (colon) {
			size_t dev_len = len - name_len - 1;

			if (!dev_len || dev_len >= sizeof(e.device)) {
				snprintf(err, err_size, "-b/--backend: '%.*s': %s", 60, p,
					 dev_len ? "the device is too long"
						 : "no device after ':'");
				return -EINVAL;
			}
			memcpy(e.device, colon + 1, dev_len);
		}
		for (i = 0; i < *n; i++)
			if (!strcmp(b[i].name, e.name) && !strcmp(b[i].device, e.device)) {
				snprintf(err, err_size, "-b/--backend: '%.*s' is given twice", 60,
					 p);
				return -EINVAL;
			}
		if (*n == cap) {
			snprintf(err, err_size, "-b/--backend: more than %d backends", cap);
			return -EINVAL;
		}
		b[(*n)++] = e;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

void
al_sweep_grid_init(struct al_sweep_grid *g, const struct al_config *base)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->backends[0].name, sizeof(g->backends[0].name), "%s", base->backend);
	g->n_backends = 1;
	g->rates[0] = (long)base->rate_hz;
	g->n_rates = 1;
	g->period_frames[0] = (long)base->period_frames;
	g->n_period_frames = 1;
	g->periods[0] = base->periods;
	g->n_periods = 1;
}

int
al_sweep_cells(const struct al_sweep_grid *g)
{
	return g->n_backends * g->n_rates * g->n_period_frames * g->n_periods;
}

int
al_sweep_grid_check(const struct al_sweep_grid *g, char *err, size_t err_size)
{
	if (al_sweep_cells(g) <= AL_SWEEP_CELLS_MAX)
		return 0;
	snprintf(err, err_size, "the grid has %d configurations, more than %d", al_sweep_cells(g),
		 AL_SWEEP_CELLS_MAX);
	return -EINVAL;
}
