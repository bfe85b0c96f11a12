/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat sweep's document, table and HTML inputs (sweep.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/text.h"
#include "core/units.h"
#include "core/version.h"
#include "sweep.h"

/* The figures, in enum al_sweep_fig's order. */
static const struct {
	const char *name; /* in the sweep document */
	const char *path; /* in a run document */
} figures[AL_SWEEP_FIGURES] = {
	/* the latencytest figures; "max latency" is the per-period wake latency */
	{ "max_latency_ns", "total.wake_latency_ns.max" },
	{ "max_latency_pct_of_buffer", "total.max_latency_pct_of_buffer" },
	{ "within_1ms_pct", "total.within_1ms_pct" },
	{ "within_2ms_pct", "total.within_2ms_pct" },
	{ "wake_p99_ns", "total.wake_latency_ns.p99" },
	{ "max_interval_ns", "total.interval_ns.max" },
	{ "xruns", "total.xruns" },
	{ "missed_periods", "total.missed_periods" },
	{ "wake_max_ns", "total.wake_latency_ns.max" },
	{ "max_interval_pct_of_buffer", "total.max_interval_pct_of_buffer" },
};

void
al_report_sweep_figures(const json_t *run_doc, double fig[AL_SWEEP_FIGURES])
{
	for (int f = 0; f < AL_SWEEP_FIGURES; f++)
		fig[f] = al_doc_real(run_doc, figures[f].path, NAN);
}

/* "1.352" or "1.352-1.401" (the min and max over the runs) at scale div. */
static void
fmt_range(char *buf, size_t size, struct al_sweep_range r, double div, int decimals)
{
	char lo[32], hi[32];

	if (!r.n) {
		snprintf(buf, size, "-");
		return;
	}
	snprintf(lo, sizeof(lo), "%.*f", decimals, r.min / div);
	snprintf(hi, sizeof(hi), "%.*f", decimals, r.max / div);
	/* one number when the runs agree to the digits shown */
	if (!strcmp(lo, hi))
		snprintf(buf, size, "%s", lo);
	else
		snprintf(buf, size, "%s-%s", lo, hi);
}

/* "alsa:plug:jack": the backend column's text, terminal-safe (it came from the command line). */
static void
backend_text(const struct al_sweep_cell *c, char *out, size_t size)
{
	char be[160];

	snprintf(be, sizeof(be), "%s%s%s", c->backend, c->device[0] ? ":" : "", c->device);
	al_text_term_safe(be, out, size, size);
}

/* One row's columns. */
static void
row_text(const struct al_sweep_cell *c, char b[11][64])
{
	backend_text(c, b[0], sizeof(b[0]));
	snprintf(b[1], sizeof(b[1]), "%ld", c->rate_hz);
	snprintf(b[2], sizeof(b[2]), "%ld x %ld = %.3f ms", c->periods, c->period_frames,
		 (double)al_sweep_buffer_ns(c) / 1e6);
	fmt_range(b[3], sizeof(b[3]), al_sweep_range(c, AL_SWEEP_MAX_LATENCY), 1e6, 3);
	fmt_range(b[4], sizeof(b[4]), al_sweep_range(c, AL_SWEEP_MAX_LATENCY_PCT), 1, 1);
	fmt_range(b[5], sizeof(b[5]), al_sweep_range(c, AL_SWEEP_WITHIN_1MS), 1, 3);
	fmt_range(b[6], sizeof(b[6]), al_sweep_range(c, AL_SWEEP_WITHIN_2MS), 1, 3);
	fmt_range(b[7], sizeof(b[7]), al_sweep_range(c, AL_SWEEP_WAKE_P99), 1e3, 1);
	fmt_range(b[8], sizeof(b[8]), al_sweep_range(c, AL_SWEEP_MAX_INTERVAL), 1e6, 3);
	snprintf(b[9], sizeof(b[9]), "%.0f", al_sweep_range(c, AL_SWEEP_XRUNS).sum);
	al_sweep_verdict(c, b[10], sizeof(b[10]));
}

static void
print_table(const struct al_sweep *s, bool markdown, FILE *f)
{
	static const char *const head[] = {
		"backend", "rate", "buffer", "max latency [ms]", "% of buffer", "1MS factor",
		"2MS factor", "p99 wake [us]", "max interval [ms]", "xruns", "verdict"
	};
	char b[11][64];
	int i, k, wb = 14;

	/* the backend column as wide as its longest entry (a device path can be long) */
	for (i = 0; i < s->n_cells; i++) {
		backend_text(&s->cells[i], b[0], sizeof(b[0]));
		if (al_text_width(b[0]) > wb)
			wb = al_text_width(b[0]);
	}
	if (markdown)
		fprintf(f,
			"| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n"
			"|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n",
			head[0], head[1], head[2], head[3], head[4], head[5], head[6], head[7],
			head[8], head[9], head[10]);
	else
		fprintf(f, "%-*s %6s %-20s %17s %12s %16s %16s %14s %17s %6s  %s\n", wb, head[0],
			head[1], head[2], head[3], head[4], head[5], head[6], head[7], head[8],
			head[9], head[10]);
	for (i = 0; i < s->n_cells; i++) {
		row_text(&s->cells[i], b);
		if (!markdown) {
			al_text_pad(f, b[0], wb, false);
			fprintf(f, " %6s %-20s %17s %12s %16s %16s %14s %17s %6s  %s\n", b[1], b[2],
				b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10]);
			continue;
		}
		fputs("|", f);
		for (k = 0; k < 11; k++) {
			fputc(' ', f);
			for (const char *q = b[k]; *q; q++) {
				if (strchr("\\`*_[]<>|", *q))
					fputc('\\', f);
				fputc(*q, f);
			}
			fputs(" |", f);
		}
		fputc('\n', f);
	}
}

void
al_report_sweep_text(const struct al_sweep *s, bool markdown, bool ok, FILE *f)
{
	int i, runs = 0, n_ok = 0, safe_i = al_sweep_smallest_safe(s);
	char rep_s[48], name[200], sname[200];
	double xr = 0;

	if (s->repeat > 1)
		snprintf(rep_s, sizeof(rep_s), " x %d runs (min-max over the runs)", s->repeat);
	else
		snprintf(rep_s, sizeof(rep_s), ", one run each");
	fprintf(f, "%s%d configuration%s%s\n\n", markdown ? "" : "sweep: ", s->n_cells,
		s->n_cells == 1 ? "" : "s", rep_s);
	print_table(s, markdown, f);
	if (safe_i >= 0) {
		al_sweep_cell_name(&s->cells[safe_i], name, sizeof(name));
		al_text_term_safe(name, sname, sizeof(sname), sizeof(sname));
		fprintf(f, "\nsmallest buffer without xruns: %s frames (%.3f ms)\n", sname,
			(double)al_sweep_buffer_ns(&s->cells[safe_i]) / 1e6);
	} else {
		fprintf(f, "\nno configuration ran without xruns\n");
	}
	for (i = 0; i < s->n_cells; i++) {
		runs += s->cells[i].n_runs;
		n_ok += s->cells[i].n_runs && !al_sweep_runs_with_xruns(&s->cells[i]);
		xr += al_sweep_range(&s->cells[i], AL_SWEEP_XRUNS).sum;
	}
	fprintf(f, "summary: sweep configurations=%d runs=%d xruns=%.0f "
		   "configurations_without_xruns=%d smallest_safe_buffer_ns=%" PRId64 " result=%s\n",
		s->n_cells, runs, xr, n_ok,
		safe_i >= 0 ? al_sweep_buffer_ns(&s->cells[safe_i]) : (int64_t)-1,
		ok ? "DONE" : "ERROR");
}

/* The grid as given: each dimension's values, read off the cells (core/sweep.h's order). */
static json_t *
grid_json(const struct al_sweep *s)
{
	int per_rate = s->n_period_frames * s->n_periods, per_be = s->n_rates * per_rate, i;
	json_t *be = json_array(), *rate = json_array(), *pf = json_array(), *np = json_array();

	for (i = 0; i < s->n_backends; i++) {
		const struct al_sweep_cell *c = &s->cells[i * per_be];
		char name[160];

		snprintf(name, sizeof(name), "%s%s%s", c->backend, c->device[0] ? ":" : "",
			 c->device);
		json_array_append_new(be, al_json_text(name));
	}
	for (i = 0; i < s->n_rates; i++)
		json_array_append_new(rate, json_integer(s->cells[i * per_rate].rate_hz));
	for (i = 0; i < s->n_period_frames; i++)
		json_array_append_new(pf, json_integer(s->cells[i * s->n_periods].period_frames));
	for (i = 0; i < s->n_periods; i++)
		json_array_append_new(np, json_integer(s->cells[i].periods));
	return json_pack("{s:o, s:o, s:o, s:o}", "backend", be, "rate", rate, "period_frames", pf,
			 "periods", np);
}

static json_t *
cell_json(const struct al_sweep_cell *c, json_t *runs)
{
	json_t *summary = json_object();
	char v[64];

	for (int f = 0; f < AL_SWEEP_FIGURES; f++) {
		struct al_sweep_range r = al_sweep_range(c, (enum al_sweep_fig)f);

		json_object_set_new(summary, figures[f].name,
				    r.n ? json_pack("{s:f, s:f, s:f}", "min", r.min, "max", r.max,
						    "mean", r.sum / r.n)
					: json_null());
	}
	json_object_set_new(summary, "xruns_total",
			    json_integer((json_int_t)al_sweep_range(c, AL_SWEEP_XRUNS).sum));
	json_object_set_new(summary, "runs_with_xruns", json_integer(al_sweep_runs_with_xruns(c)));
	al_sweep_verdict(c, v, sizeof(v));
	return json_pack("{s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:s, s:o, s:O}", "backend",
			 al_json_text(c->backend), "device",
			 al_json_text(c->device[0] ? c->device : NULL), "rate", (json_int_t)c->rate_hz,
			 "period_frames", (json_int_t)c->period_frames, "periods",
			 (json_int_t)c->periods, "period_ns",
			 (json_int_t)al_frames_to_ns(c->period_frames, c->rate_hz), "buffer_ns",
			 (json_int_t)al_sweep_buffer_ns(c), "runs_done", (json_int_t)c->n_runs,
			 "verdict", v, "summary", summary, "runs", runs);
}

json_t *
al_report_sweep_json(const struct al_sweep *s, json_t *const *runs)
{
	json_t *confs = json_array();

	for (int i = 0; i < s->n_cells; i++)
		json_array_append_new(confs, cell_json(&s->cells[i], runs[i]));
	return json_pack("{s:s, s:s, s:o, s:o, s:i, s:b, s:o}", "schema", AL_SCHEMA_SWEEP,
			 "tool_version", AL_VERSION, "cmdline", al_json_text(s->cmdline), "grid",
			 grid_json(s), "repeat", s->repeat, "interrupted", s->interrupted,
			 "configurations", confs);
}

struct al_report_doc *
al_report_sweep_docs(const struct al_sweep *s, json_t *const *runs, size_t *n)
{
	size_t total = 0, k = 0, j;
	struct al_report_doc *in;
	char(*src)[200];
	int i;

	for (i = 0; i < s->n_cells; i++)
		total += json_array_size(runs[i]);
	/* the entries, then their sources, in one block */
	in = calloc(1, (total ? total : 1) * (sizeof(*in) + sizeof(*src)));
	if (!in)
		return NULL;
	src = (char(*)[200])(in + (total ? total : 1));
	for (i = 0; i < s->n_cells; i++) {
		json_t *d;

		json_array_foreach(runs[i], j, d) {
			char name[160];

			al_sweep_cell_name(&s->cells[i], name, sizeof(name));
			snprintf(src[k], sizeof(src[k]), "%s, run %zu", name, j + 1);
			in[k] = (struct al_report_doc){ d, src[k] };
			k++;
		}
	}
	*n = total;
	return in;
}

void
al_report_sweep_progress(const struct al_sweep *s, int idx, int rep, const struct al_result *r,
			 FILE *f)
{
	char name[200], sname[256], mx[32], p99[32];

	al_format_duration(r->total.wake_ns.count ? r->total.wake_ns.max_ns : 0, mx, sizeof(mx));
	al_format_duration(al_hist_quantile(&r->total.wake_ns, 0.99), p99, sizeof(p99));
	al_sweep_cell_name(&s->cells[idx], name, sizeof(name));
	al_text_term_safe(name, sname, sizeof(sname), sizeof(sname));
	fprintf(f, "sweep [%d/%d] %s, run %d of %d: max latency %s, p99 wake %s, xruns %llu%s\n",
		idx + 1, s->n_cells, sname, rep + 1, s->repeat, mx, p99,
		(unsigned long long)r->total.xruns, r->interrupted ? " (interrupted)" : "");
}

int
al_sweep_runs_init(struct al_sweep_runs *x, const struct al_sweep *s)
{
	x->n = 0;
	x->runs = calloc(s->n_cells > 0 ? (size_t)s->n_cells : 1, sizeof(*x->runs));
	if (!x->runs)
		return -ENOMEM;
	for (; x->n < s->n_cells; x->n++)
		if (!(x->runs[x->n] = json_array()))
			return -ENOMEM;
	return 0;
}

void
al_sweep_runs_free(struct al_sweep_runs *x)
{
	for (int i = 0; x->runs && i < x->n; i++)
		json_decref(x->runs[i]);
	free(x->runs);
	x->runs = NULL;
	x->n = 0;
}

const json_t *
al_sweep_runs_add(struct al_sweep_runs *x, int idx, const struct al_result *r,
		  double fig[AL_SWEEP_FIGURES])
{
	json_t *doc = al_doc_run_json(r);

	if (!doc)
		return NULL;
	al_report_sweep_figures(doc, fig);
	if (json_array_append_new(x->runs[idx], doc))
		return NULL;
	return doc;
}
