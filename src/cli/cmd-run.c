/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat run: one measurement, reported as text and JSON. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "check/check.h"
#include "core/units.h"
#include "report/report.h"
#include "run/run.h"
#include "cli.h"
#include "commands.h"
#include "run-opts.h"

struct status_ctx {
	int64_t total_ns;
};

static void
status_line(void *ud, const struct al_result *r, int64_t elapsed_ns)
{
	const struct status_ctx *s = ud;
	char max[32];

	al_format_duration(atomic_load(&r->live.max_wake_ns), max, sizeof(max));
	fprintf(stderr, "\r\033[K[%6.1f/%.1f s] periods=%llu max wake latency=%s xruns=%llu",
		(double)elapsed_ns / AL_NS_PER_SEC, (double)s->total_ns / AL_NS_PER_SEC,
		(unsigned long long)atomic_load(&r->live.periods), max,
		(unsigned long long)atomic_load(&r->live.xruns));
	fflush(stderr);
}

static void
join_cmdline(int argc, char **argv, char *buf, size_t size)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	used += (size_t)snprintf(buf, size, "audiolat");
	for (i = 0; i < argc && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, " %s", argv[i]);
}

static int
map_run_error(const struct al_run_cli *p, int rc)
{
	switch (rc) {
	case -ENODEV:
	case -ENOENT:
	case -ENOTSUP:
	case -EBUSY:
	case -EACCES:
		return cli_cmd_error(AL_EXIT_UNAVAILABLE, "run", "backend %s%s%s: %s", p->cfg.backend,
				 p->cfg.device[0] ? " device " : "", p->cfg.device, strerror(-rc));
	case -EINVAL:
		if (!strcmp(p->cfg.backend, "sim") && p->cfg.device[0])
			return cli_cmd_error(AL_EXIT_USAGE, "run", "-D/--device: the sim backend has no "
							"devices");
		return cli_cmd_error(AL_EXIT_USAGE, "run", "backend %s refused the configuration: %s",
				 p->cfg.backend, strerror(-rc));
	default:
		return cli_cmd_error(AL_EXIT_RUNTIME, "run", "%s", strerror(-rc));
	}
}

/* Thresholds: exit 3 with one line naming what was exceeded. */
static int
verdict(const struct al_result *r, const char **word)
{
	const struct al_config *c = &r->cfg;
	const struct al_period_stats *st = &r->total;

	*word = "PASS";
	if (c->max_latency_ns && st->wake_ns.count && st->wake_ns.max_ns > c->max_latency_ns) {
		*word = "FAIL";
		return 1;
	}
	if (c->fail_on_xrun && st->xruns) {
		*word = "FAIL";
		return 2;
	}
	return 0;
}

int
cmd_run(int argc, char **argv)
{
	struct status_ctx sctx;
	struct al_run_opts o;
	struct al_phase_spec *phases = NULL;
	size_t n_phases = 0;
	struct al_run_cli p;
	struct al_result r;
	const char *word;
	char err[256], buf[32], lim[32];
	int rc, v, exit_code = AL_EXIT_OK;
	long ncpu;

	if (al_run_parse_args(argc, argv, &p, err, sizeof(err)))
		return cli_usage_error("run", "%s", err);
	if (p.help) {
		fputs(al_run_help, stdout);
		return AL_EXIT_OK;
	}
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (p.cfg.affinity_cpu >= 0 && ncpu > 0 && p.cfg.affinity_cpu >= ncpu)
		return cli_usage_error("run", "-a/--affinity: CPU %d does not exist (CPUs 0..%ld)",
				       p.cfg.affinity_cpu, ncpu - 1);

	memset(&o, 0, sizeof(o));
	if (p.load_spec) {
		/* untimed phases share -d; when every phase is timed, they make the run */
		if (al_load_spec_parse(p.load_spec, p.cfg.duration_ns, &phases, &n_phases, err,
				       sizeof(err)))
			return cli_usage_error("run", "--load: %s", err);
		if (al_load_check_opts(&p.load_opts, phases, n_phases, err, sizeof(err))) {
			al_load_spec_free(phases);
			return cli_usage_error("run", "%s", err);
		}
		p.cfg.duration_ns = al_load_spec_total_ns(phases, n_phases);
		o.phases = phases;
		o.n_phases = n_phases;
		o.load_opts = &p.load_opts;
	}
	o.cfg = p.cfg;
	o.stop_requested = &cli_stop_requested;
	sctx.total_ns = o.cfg.duration_ns;
	if (cli_status_wanted(p.quiet)) {
		o.status = status_line;
		o.status_ud = &sctx;
		o.status_interval_ns = 200 * AL_NS_PER_MS;
	}
	cli_catch_stop_signals();
	rc = al_run(&o, &r);
	al_load_spec_free(phases);
	if (o.status)
		fprintf(stderr, "\r\033[K");
	if (rc && !r.n_phases)
		return map_run_error(&p, rc);
	if (rc) {
		cli_cmd_error(AL_EXIT_RUNTIME, "run", "the %s backend failed during the run: %s; "
					   "reporting what was measured", p.cfg.backend, strerror(-rc));
		exit_code = AL_EXIT_RUNTIME;
	}
	join_cmdline(argc, argv, r.cmdline, sizeof(r.cmdline));
	/* the system checks go with every result; run after the measurement */
	rc = al_check_run(&(struct al_check_opts){ .root = "/" }, r.checks, AL_SYSCHECKS_MAX);
	r.n_checks = rc > 0 ? rc : 0;

	for (int i = 0; i < r.n_warnings; i++)
		if (p.quiet || (p.json_path && !strcmp(p.json_path, "-")))
			cli_warn("%s", r.warnings[i]);
	v = verdict(&r, &word);
	if (!p.quiet && !(p.json_path && !strcmp(p.json_path, "-"))) {
		struct al_text_opts to = { .verbose = p.verbose, .no_histogram = p.no_histogram };

		al_report_text(&r, &to, stdout);
		fputc('\n', stdout);
	}
	if (!(p.json_path && !strcmp(p.json_path, "-")))
		al_report_summary_line(&r, word, stdout);
	fflush(stdout);

	if (p.json_path) {
		json_t *doc = al_report_json(&r);
		char *text = doc ? json_dumps(doc, JSON_INDENT(2)) : NULL;
		int wrc = text ? 0 : -ENOMEM;

		if (text) {
			size_t len = strlen(text);
			char *nl = realloc(text, len + 2);

			if (nl) {
				text = nl;
				strcpy(text + len, "\n");
			}
			wrc = cli_write_text_file(p.json_path, text);
		}
		free(text);
		json_decref(doc);
		if (wrc) {
			cli_cmd_error(AL_EXIT_RUNTIME, "run", "--json %s: %s", p.json_path,
				  strerror(-wrc));
			exit_code = AL_EXIT_RUNTIME;
		}
	}
	if (v == 1 && exit_code == AL_EXIT_OK) {
		al_format_duration(r.total.wake_ns.max_ns, buf, sizeof(buf));
		al_format_duration(r.cfg.max_latency_ns, lim, sizeof(lim));
		cli_cmd_error(AL_EXIT_THRESHOLD, "run", "max wake latency %s exceeded --max-latency %s",
			  buf, lim);
		exit_code = AL_EXIT_THRESHOLD;
	} else if (v == 2 && exit_code == AL_EXIT_OK) {
		cli_cmd_error(AL_EXIT_THRESHOLD, "run", "%llu xrun(s) with --fail-on-xrun",
			  (unsigned long long)r.total.xruns);
		exit_code = AL_EXIT_THRESHOLD;
	}
	al_result_free(&r);
	return exit_code;
}
