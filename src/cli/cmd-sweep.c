/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat sweep: a grid of configurations, each run --repeat times, side by side. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/clock.h"
#include "core/text.h"
#include "core/units.h"
#include "core/url.h"
#include "report/doc.h"
#include "report/report.h"
#include "cli-store.h"
#include "cli.h"
#include "commands.h"
#include "doc-io.h"
#include "run-common.h"
#include "run-opts.h"
#include "sweep-opts.h"

/* One configuration of the grid and what its runs gave. */
struct cell {
	const struct al_sweep_backend *be;
	long rate_hz;
	long period_frames;
	long periods;
	json_t *runs;	 /* the audiolat.run/2 documents */
	int failed_code; /* a run that measured nothing: its exit code */
};

/* The figures the table shows, over the runs of a cell. */
static const struct {
	const char *name; /* in the sweep document */
	const char *path; /* in a run document */
} figures[] = {
    /* the latencytest figures; "max latency" is the per-period wake latency */
    {"max_latency_ns", "total.wake_latency_ns.max"},
    {"max_latency_pct_of_buffer", "total.max_latency_pct_of_buffer"},
    {"within_1ms_pct", "total.within_1ms_pct"},
    {"within_2ms_pct", "total.within_2ms_pct"},
    {"wake_p99_ns", "total.wake_latency_ns.p99"},
    {"max_interval_ns", "total.interval_ns.max"},
    {"xruns", "total.xruns"},
    {"missed_periods", "total.missed_periods"},
    {"wake_max_ns", "total.wake_latency_ns.max"},
    {"max_interval_pct_of_buffer", "total.max_interval_pct_of_buffer"},
};

#define N_FIGURES (sizeof(figures) / sizeof(figures[0]))

struct range {
	double min, max, sum;
	int n;
};

static struct range
range_of(const json_t *runs, const char *path)
{
	struct range r = {INFINITY, -INFINITY, 0, 0};
	const json_t *d;
	size_t i;

	json_array_foreach(runs, i, d)
	{
		double v = al_doc_real(d, path, NAN);

		if (isnan(v))
			continue;
		r.min = fmin(r.min, v);
		r.max = fmax(r.max, v);
		r.sum += v;
		r.n++;
	}
	return r;
}

static int
runs_with_xruns(const json_t *runs)
{
	const json_t *d;
	size_t i;
	int n = 0;

	json_array_foreach(runs, i, d) n += al_doc_int(d, "total.xruns", 0) > 0;
	return n;
}

/* "1.352" or "1.352-1.401" (the min and max over the runs) at scale div. */
static void
fmt_range(char *buf, size_t size, struct range r, double div, int decimals)
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

static void
cell_name(const struct cell *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s %ld Hz %ld x %ld", c->be->name, c->be->device[0] ? ":" : "",
		 c->be->device, c->rate_hz, c->periods, c->period_frames);
}

static void
verdict_of(const struct cell *c, char *buf, size_t size)
{
	size_t n = json_array_size(c->runs);
	int x = runs_with_xruns(c->runs);

	if (!n)
		snprintf(buf, size, "did not run (exit %d)", c->failed_code);
	else if (!x)
		snprintf(buf, size, "ok");
	else
		snprintf(buf, size, "xruns in %d/%zu", x, n);
}

/* Terminal-safe text of a backend or device name (they came from the command line). */
static void
safe(const char *in, char *out, size_t size)
{
	al_text_term_safe(in, out, size, size);
}

/* "alsa:plug:jack": the backend column's text. */
static void
backend_text(const struct cell *c, char *out, size_t size)
{
	char be[160];

	snprintf(be, sizeof(be), "%s%s%s", c->be->name, c->be->device[0] ? ":" : "",
		 c->be->device);
	safe(be, out, size);
}

static void
print_table(const struct cell *cells, int n, bool markdown, FILE *f)
{
	static const char *const head[] = {
	    "backend",	     "rate",	   "buffer",	 "max latency [ms]",
	    "% of buffer",   "1MS factor", "2MS factor", "p99 wake [us]",
	    "max interval [ms]", "xruns",	   "verdict"};
	char b[11][64];
	int i, k, wb = 14;

	/* the backend column as wide as its longest entry (a device path can be long) */
	for (i = 0; i < n; i++) {
		backend_text(&cells[i], b[0], sizeof(b[0]));
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
	for (i = 0; i < n; i++) {
		const struct cell *c = &cells[i];

		backend_text(c, b[0], sizeof(b[0]));
		snprintf(b[1], sizeof(b[1]), "%ld", c->rate_hz);
		snprintf(b[2], sizeof(b[2]), "%ld x %ld = %.3f ms", c->periods, c->period_frames,
			 (double)al_frames_to_ns(c->periods * c->period_frames, c->rate_hz) / 1e6);
		fmt_range(b[3], sizeof(b[3]), range_of(c->runs, figures[0].path), 1e6, 3);
		fmt_range(b[4], sizeof(b[4]), range_of(c->runs, figures[1].path), 1, 1);
		fmt_range(b[5], sizeof(b[5]), range_of(c->runs, figures[2].path), 1, 3);
		fmt_range(b[6], sizeof(b[6]), range_of(c->runs, figures[3].path), 1, 3);
		fmt_range(b[7], sizeof(b[7]), range_of(c->runs, figures[4].path), 1e3, 1);
		fmt_range(b[8], sizeof(b[8]), range_of(c->runs, figures[5].path), 1e6, 3);
		snprintf(b[9], sizeof(b[9]), "%.0f", range_of(c->runs, figures[6].path).sum);
		verdict_of(c, b[10], sizeof(b[10]));
		if (markdown) {
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
		} else {
			al_text_pad(f, b[0], wb, false);
			fprintf(f, " %6s %-20s %17s %12s %16s %16s %14s %17s %6s  %s\n", b[1], b[2],
				b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10]);
		}
	}
}

/* The smallest buffer (in time) whose runs all went without an xrun; -1: none. */
static int
smallest_safe(const struct cell *cells, int n)
{
	int64_t best_ns = INT64_MAX;
	int i, best = -1;

	for (i = 0; i < n; i++) {
		int64_t ns =
		    al_frames_to_ns(cells[i].periods * cells[i].period_frames, cells[i].rate_hz);

		if (json_array_size(cells[i].runs) && !runs_with_xruns(cells[i].runs) &&
		    ns < best_ns) {
			best_ns = ns;
			best = i;
		}
	}
	return best;
}

static json_t *
sweep_json(const struct al_sweep_cli *sp, const struct cell *cells, int n, bool interrupted,
	   const char *cmdline)
{
	json_t *grid =
	    json_pack("{s:[], s:[], s:[], s:[]}", "backend", "rate", "period_frames", "periods");
	json_t *confs = json_array(), *root;
	int i;
	size_t f;

	for (i = 0; i < sp->n_backends; i++) {
		char be[160];

		snprintf(be, sizeof(be), "%s%s%s", sp->backends[i].name,
			 sp->backends[i].device[0] ? ":" : "", sp->backends[i].device);
		json_array_append_new(json_object_get(grid, "backend"), al_json_text(be));
	}
	for (i = 0; i < sp->n_rates; i++)
		json_array_append_new(json_object_get(grid, "rate"), json_integer(sp->rates[i]));
	for (i = 0; i < sp->n_period_frames; i++)
		json_array_append_new(json_object_get(grid, "period_frames"),
				      json_integer(sp->period_frames[i]));
	for (i = 0; i < sp->n_periods; i++)
		json_array_append_new(json_object_get(grid, "periods"),
				      json_integer(sp->periods[i]));
	for (i = 0; i < n; i++) {
		const struct cell *c = &cells[i];
		json_t *summary = json_object();
		char v[64];

		for (f = 0; f < N_FIGURES; f++) {
			struct range r = range_of(c->runs, figures[f].path);

			json_object_set_new(summary, figures[f].name,
					    r.n ? json_pack("{s:f, s:f, s:f}", "min", r.min, "max",
							    r.max, "mean", r.sum / r.n)
						: json_null());
		}
		json_object_set_new(summary, "xruns_total",
				    json_integer((json_int_t)range_of(c->runs, "total.xruns").sum));
		json_object_set_new(summary, "runs_with_xruns",
				    json_integer(runs_with_xruns(c->runs)));
		verdict_of(c, v, sizeof(v));
		json_array_append_new(
		    confs,
		    json_pack(
			"{s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:s, s:o, s:O}", "backend",
			al_json_text(c->be->name), "device",
			al_json_text(c->be->device[0] ? c->be->device : NULL), "rate",
			(json_int_t)c->rate_hz, "period_frames", (json_int_t)c->period_frames,
			"periods", (json_int_t)c->periods, "period_ns",
			(json_int_t)al_frames_to_ns(c->period_frames, c->rate_hz), "buffer_ns",
			(json_int_t)al_frames_to_ns(c->periods * c->period_frames, c->rate_hz),
			"runs_done", (json_int_t)json_array_size(c->runs), "verdict", v, "summary",
			summary, "runs", c->runs));
	}
	root =
	    json_pack("{s:s, s:s, s:o, s:o, s:i, s:b, s:o}", "schema", AL_SCHEMA_SWEEP,
		      "tool_version", AL_VERSION, "cmdline", al_json_text(cmdline), "grid", grid,
		      "repeat", sp->repeat, "interrupted", interrupted, "configurations", confs);
	return root;
}

/* Build the argv of one run: the pass-through options, then the grid's. */
static int
cell_argv(const struct al_sweep_cli *sp, const struct cell *c, char **argv, char nums[3][24])
{
	int n = 0, i;

	for (i = 0; i < sp->run_argc; i++)
		argv[n++] = sp->run_argv[i];
	snprintf(nums[0], 24, "%ld", c->rate_hz);
	snprintf(nums[1], 24, "%ld", c->period_frames);
	snprintf(nums[2], 24, "%ld", c->periods);
	argv[n++] = "-b";
	argv[n++] = (char *)c->be->name;
	if (c->be->device[0]) {
		argv[n++] = "-D";
		argv[n++] = (char *)c->be->device;
	}
	argv[n++] = "-r";
	argv[n++] = nums[0];
	argv[n++] = "-P";
	argv[n++] = nums[1];
	argv[n++] = "-n";
	argv[n++] = nums[2];
	argv[n] = NULL;
	return n;
}

static void
join(int argc, char **argv, char *buf, size_t size)
{
	size_t used = (size_t)snprintf(buf, size, "audiolat");

	for (int i = 0; i < argc && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, " %s", argv[i]);
	al_url_redact(buf, buf, size); /* a --db URL's password is never stored */
}

/* Measure one run of cell c; its document goes into c->runs. */
static int
run_once(const struct al_sweep_cli *sp, struct cell *c, int idx, int n_cells, int rep)
{
	char nums[3][24], name[200], err[256], mx[32], p99[32];
	char **argv = calloc((size_t)sp->run_argc + 12, sizeof(*argv));
	struct al_run_cli p;
	struct al_result r;
	json_t *doc;
	char *text;
	int argc, rc;

	if (!argv)
		return cli_cmd_error(AL_EXIT_RUNTIME, "sweep", "out of memory");
	argc = cell_argv(sp, c, argv, nums);
	/* checked before the first run: this cannot fail now, but be safe */
	if (al_run_parse_args(argc, argv, &p, err, sizeof(err))) {
		free(argv);
		return cli_usage_error("sweep", "%s", err);
	}
	/* getopt permuted argv: rebuild it for the command line of the result */
	argc = cell_argv(sp, c, argv, nums);
	rc = cli_run_measure("sweep", &p, argc, argv, cli_status_wanted(sp->quiet), &r);
	free(argv);
	if (!r.n_phases) {
		al_result_free(&r);
		c->failed_code = rc;
		return rc;
	}
	doc = al_report_json(&r);
	cell_name(c, name, sizeof(name));
	if (!sp->quiet) {
		al_format_duration(r.total.wake_ns.count ? r.total.wake_ns.max_ns : 0, mx, sizeof(mx));
		al_format_duration(al_hist_quantile(&r.total.wake_ns, 0.99), p99, sizeof(p99));
		safe(name, err, sizeof(err));
		fprintf(stderr,
			"sweep [%d/%d] %s, run %d of %d: max latency %s, p99 wake %s, "
			"xruns %llu%s\n",
			idx + 1, n_cells, err, rep + 1, sp->repeat, mx, p99,
			(unsigned long long)r.total.xruns, r.interrupted ? " (interrupted)" : "");
	}
	al_result_free(&r);
	if (!doc)
		return cli_cmd_error(AL_EXIT_RUNTIME, "sweep", "out of memory");
	if (!p.no_db) {
		text = al_doc_text(doc, 0);
		if (!text || cli_store_save_result(p.db_path, text, sp->quiet))
			rc = rc ? rc : AL_EXIT_RUNTIME;
		free(text);
	}
	json_array_append_new(c->runs, doc);
	return rc;
}

int
cmd_sweep(int argc, char **argv)
{
	struct al_sweep_cli sp;
	struct cell *cells = NULL;
	char err[256], cmdline[1024];
	int n_cells, i, b, rr, pf, np, rep, rc, exit_code = AL_EXIT_OK, done = 0;
	bool interrupted = false;
	json_t *doc = NULL;

	rc = al_sweep_parse_args(argc, argv, &sp, err, sizeof(err));
	if (rc) {
		al_sweep_cli_free(&sp);
		if (rc == -ENOMEM)
			return cli_cmd_error(AL_EXIT_RUNTIME, "sweep", "out of memory");
		return cli_usage_error("sweep", "%s", err);
	}
	if (sp.help) {
		fputs(al_sweep_help, stdout);
		al_sweep_cli_free(&sp);
		return AL_EXIT_OK;
	}
	for (i = 0; i < sp.n_backends; i++) {
		const struct al_backend_ops *ops = al_backend_find(sp.backends[i].name);

		safe(sp.backends[i].name, err, sizeof(err));
		if (!ops) {
			al_sweep_cli_free(&sp);
			return cli_usage_error("sweep", "-b/--backend: unknown backend '%s'", err);
		}
		if (ops->unavailable) {
			al_sweep_cli_free(&sp);
			return cli_cmd_error(AL_EXIT_UNAVAILABLE, "sweep", "backend %s: %s",
					     ops->name, ops->unavailable);
		}
	}
	n_cells = al_sweep_cells(&sp);
	cells = calloc((size_t)n_cells, sizeof(*cells));
	if (!cells) {
		al_sweep_cli_free(&sp);
		return cli_cmd_error(AL_EXIT_RUNTIME, "sweep", "out of memory");
	}
	i = 0;
	for (b = 0; b < sp.n_backends; b++)
		for (rr = 0; rr < sp.n_rates; rr++)
			for (pf = 0; pf < sp.n_period_frames; pf++)
				for (np = 0; np < sp.n_periods; np++)
					cells[i++] = (struct cell){
					    &sp.backends[b], sp.rates[rr], sp.period_frames[pf],
					    sp.periods[np],  json_array(), 0};
	/* every run's options are checked before the first one starts */
	for (i = 0; i < n_cells; i++) {
		char nums[3][24], **rargv = calloc((size_t)sp.run_argc + 12, sizeof(*rargv));
		struct al_run_cli p;
		int rargc;

		if (!rargv) {
			exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "sweep", "out of memory");
			goto out;
		}
		rargc = cell_argv(&sp, &cells[i], rargv, nums);
		rc = al_run_parse_args(rargc, rargv, &p, err, sizeof(err));
		if (!rc && p.help)
			snprintf(err, sizeof(err), "-h/--help: see 'audiolat sweep --help'"),
			    rc = 1;
		if (!rc && p.json_path)
			snprintf(err, sizeof(err), "--json is the sweep's (one document)"), rc = 1;
		free(rargv);
		if (rc) {
			exit_code = cli_usage_error("sweep", "%s", err);
			goto out;
		}
	}
	join(argc, argv, cmdline, sizeof(cmdline));
	for (i = 0; i < n_cells && !interrupted; i++) {
		for (rep = 0; rep < sp.repeat; rep++) {
			rc = run_once(&sp, &cells[i], i, n_cells, rep);
			if (rc && exit_code == AL_EXIT_OK)
				exit_code = rc;
			done += json_array_size(cells[i].runs) > (size_t)rep;
			if (cli_stop_requested) {
				interrupted = true;
				break;
			}
			if (!json_array_size(cells[i].runs))
				break; /* it did not start: the next repeat would not either */
		}
	}
	if (interrupted)
		cli_cmd_error(AL_EXIT_OK, "sweep", "interrupted after %d of %d runs", done,
			      n_cells * sp.repeat);
	if (!(sp.json_path && !strcmp(sp.json_path, "-")) &&
	    !(sp.html_path && !strcmp(sp.html_path, "-"))) {
		char rep_s[48], d[32];
		int safe_i = smallest_safe(cells, n_cells);

		if (sp.repeat > 1)
			snprintf(rep_s, sizeof(rep_s), " x %d runs (min-max over the runs)",
				 sp.repeat);
		else
			snprintf(rep_s, sizeof(rep_s), ", one run each");
		printf("%s%d configuration%s%s\n\n", sp.markdown ? "" : "sweep: ", n_cells,
		       n_cells == 1 ? "" : "s", rep_s);
		print_table(cells, n_cells, sp.markdown, stdout);
		if (safe_i >= 0) {
			char name[200], sname[200];

			cell_name(&cells[safe_i], name, sizeof(name));
			safe(name, sname, sizeof(sname));
			snprintf(d, sizeof(d), "%.3f ms",
				 (double)al_frames_to_ns(cells[safe_i].periods *
							     cells[safe_i].period_frames,
							 cells[safe_i].rate_hz) /
				     1e6);
			printf("\nsmallest buffer without xruns: %s frames (%s)\n", sname, d);
		} else {
			printf("\nno configuration ran without xruns\n");
		}
		{
			int ok = 0, runs = 0;
			double xr = 0;

			for (i = 0; i < n_cells; i++) {
				runs += (int)json_array_size(cells[i].runs);
				ok += json_array_size(cells[i].runs) &&
				      !runs_with_xruns(cells[i].runs);
				xr += range_of(cells[i].runs, "total.xruns").sum;
			}
			printf("summary: sweep configurations=%d runs=%d xruns=%.0f "
			       "configurations_without_xruns=%d smallest_safe_buffer_ns=%" PRId64
			       " result=%s\n",
			       n_cells, runs, xr, ok,
			       safe_i >= 0 ? al_frames_to_ns(cells[safe_i].periods *
								 cells[safe_i].period_frames,
							     cells[safe_i].rate_hz)
					   : (int64_t)-1,
			       exit_code == AL_EXIT_OK ? "DONE" : "ERROR");
		}
		fflush(stdout);
	}
	doc = sweep_json(&sp, cells, n_cells, interrupted, cmdline);
	if (!doc) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "sweep", "out of memory");
		goto out;
	}
	if (sp.json_path) {
		int wrc = al_doc_write(sp.json_path, doc, 0);

		if (wrc)
			exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "sweep", "--json %s: %s",
						  sp.json_path, strerror(-wrc));
	}
	if (sp.html_path) {
		size_t total = 0, k = 0, j;
		struct al_report_doc *in;
		char(*src)[200];

		for (i = 0; i < n_cells; i++)
			total += json_array_size(cells[i].runs);
		in = calloc(total ? total : 1, sizeof(*in));
		src = calloc(total ? total : 1, sizeof(*src));
		if (!in || !src) {
			exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "sweep", "out of memory");
		} else {
			for (i = 0; i < n_cells; i++) {
				json_t *d;

				json_array_foreach(cells[i].runs, j, d)
				{
					char name[160];

					cell_name(&cells[i], name, sizeof(name));
					snprintf(src[k], sizeof(src[k]), "%s, run %zu", name,
						 j + 1);
					in[k] = (struct al_report_doc){d, src[k]};
					k++;
				}
			}
			rc = cli_write_html("sweep", "--html", sp.html_path, in, total, NULL,
					    "audiolat sweep");
			if (rc && exit_code == AL_EXIT_OK)
				exit_code = rc;
		}
		free(in);
		free(src);
	}
out:
	json_decref(doc);
	for (i = 0; i < n_cells; i++)
		json_decref(cells[i].runs);
	free(cells);
	al_sweep_cli_free(&sp);
	return exit_code;
}
