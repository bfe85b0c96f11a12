/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat load: run one built-in load on its own and report its throughput. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/clock.h"
#include "core/units.h"
#include "doc/doc.h"
#include "load/load.h"
#include "load/phases.h"
#include "cli.h"
#include "commands.h"

#define POLL_NS (50 * AL_NS_PER_MS)

enum {
	OPT_JSON = 1000,
	OPT_LOAD_BASE = 1100, /* + index into al_load_optdefs */
};

struct load_params {
	struct al_load_opts opts;
	const char *name;
	const char *command;       /* the positional COMMAND of `load cmd COMMAND` */
	int64_t duration_ns;       /* 0: not given */
	bool quiet;
	bool help;
	const char *json_path;
};

static void
help(FILE *f)
{
	const struct al_load_optdef *d;
	const struct al_load_ops *ops;
	char opt[48];
	size_t i;

	fprintf(f, "usage: audiolat load NAME [options]\n"
		   "       audiolat load cmd 'COMMAND' [options]\n\n"
		   "Run one built-in load on its own, for --duration or until interrupted\n"
		   "(hackbench without --duration does one run and prints its Time, like\n"
		   "rt-tests hackbench), then print its throughput. NAME may combine loads\n"
		   "with '+' (cpu+disk-write). audiolat run --load runs them in phases.\n\n"
		   "loads:\n");
	for (i = 0; (ops = al_load_get(i)); i++)
		fprintf(f, "  %-11s %s\n", al_load_name(ops), al_load_summary(ops));
	fprintf(f, "\noptions:\n"
		   "  -d, --duration TIME        run for TIME (30s, 500ms; a bare number is seconds)\n"
		   "  -q, --quiet                print only the result lines\n"
		   "      --json FILE            write the throughput as JSON (- for stdout)\n"
		   "  -h, --help                 this help\n");
	for (d = al_load_optdefs; d->name; d++) {
		if (d->short_name)
			snprintf(opt, sizeof(opt), "-%c, --%s%s%s", d->short_name, d->name,
				 d->has_arg ? " " : "", d->has_arg ? d->arg_name : "");
		else
			snprintf(opt, sizeof(opt), "    --%s%s%s", d->name, d->has_arg ? " " : "",
				 d->has_arg ? d->arg_name : "");
		fprintf(f, "  %-26s %s\n", opt, d->help);
	}
	fprintf(f, "\nexit status: 0 done, 1 a load failed or died, 2 usage error, "
		   "4 load unavailable\n");
}

static int
bad(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int
bad(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return AL_EXIT_USAGE;
}

/* Pure: argv -> params, or AL_EXIT_USAGE with one line in err. */
static int
parse_args(int argc, char **argv, struct load_params *p, char *err, size_t err_size)
{
	struct option long_opts[40];
	char shorts[64] = ":hqd:", msg[256];
	const struct al_load_optdef *d;
	int opt, n = 0, i, rc;

	memset(p, 0, sizeof(*p));
	al_load_opts_init(&p->opts);
	err[0] = 0;
	long_opts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	long_opts[n++] = (struct option){ "quiet", no_argument, NULL, 'q' };
	long_opts[n++] = (struct option){ "duration", required_argument, NULL, 'd' };
	long_opts[n++] = (struct option){ "json", required_argument, NULL, OPT_JSON };
	for (d = al_load_optdefs, i = 0; d->name && n < 39; d++, i++) {
		long_opts[n++] = (struct option){ d->name,
						  d->has_arg ? required_argument : no_argument,
						  NULL, OPT_LOAD_BASE + i };
		if (d->short_name) {
			size_t len = strlen(shorts);

			shorts[len] = d->short_name;
			shorts[len + 1] = d->has_arg ? ':' : 0;
			shorts[len + 2] = 0;
		}
	}
	long_opts[n] = (struct option){ NULL, 0, NULL, 0 };

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, shorts, long_opts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			p->help = true;
			return 0;
		case 'q':
			p->quiet = true;
			continue;
		case 'd':
			rc = al_parse_duration_ns(optarg, AL_NS_PER_SEC, &p->duration_ns);
			if (rc == -ERANGE)
				return bad(err, err_size, "-d/--duration: '%s' is too large", optarg);
			if (rc)
				return bad(err, err_size,
					   "-d/--duration: '%s' is not a duration (a number with ns, us, ms, s, m or h)",
					   optarg);
			if (p->duration_ns <= 0)
				return bad(err, err_size, "-d/--duration: '%s' must be longer than zero",
					   optarg);
			continue;
		case OPT_JSON:
			p->json_path = optarg;
			continue;
		case ':':
			return bad(err, err_size, "option %s: needs a value", argv[optind - 1]);
		case '?':
			if (optopt)
				return bad(err, err_size, "unknown option '-%c'", optopt);
			return bad(err, err_size, "unknown option '%s'", argv[optind - 1]);
		default:
			break;
		}
		/* a load option, long or short */
		if (opt >= OPT_LOAD_BASE) {
			d = &al_load_optdefs[opt - OPT_LOAD_BASE];
		} else {
			for (d = al_load_optdefs; d->name && d->short_name != opt; d++)
				;
			if (!d->name)
				return bad(err, err_size, "unknown option '-%c'", opt);
		}
		if (al_load_opt_set(&p->opts, d->name, d->has_arg ? optarg : NULL, msg,
				    sizeof(msg))) {
			/* name the short form too: "-g/--groups: ..." */
			if (d->short_name)
				return bad(err, err_size, "-%c/%s", d->short_name, msg);
			return bad(err, err_size, "%s", msg);
		}
	}
	if (optind < argc)
		p->name = argv[optind++];
	if (p->name && !strcmp(p->name, "cmd") && optind < argc)
		p->command = argv[optind++];
	if (optind < argc)
		return bad(err, err_size, "unexpected argument '%s'", argv[optind]);
	if (!p->name)
		return bad(err, err_size, "a load name is needed (see --help)");
	return 0;
}

/* Counts as integers, rates with one decimal, small values with 6 digits. */
static void
format_value(double v, char *buf, size_t size)
{
	if (v == (double)(long long)v && v < 1e15 && v > -1e15)
		snprintf(buf, size, "%lld", (long long)v);
	else if (v >= 100 || v <= -100)
		snprintf(buf, size, "%.1f", v);
	else
		snprintf(buf, size, "%.6g", v);
}

static void
print_metrics(FILE *f, const struct al_phase *ph)
{
	char v[64];
	int i;

	for (i = 0; i < ph->n_throughput; i++) {
		format_value(ph->throughput[i].value, v, sizeof(v));
		fprintf(f, "%-26s %s%s%s\n", ph->throughput[i].name, v,
			*ph->throughput[i].unit ? " " : "", ph->throughput[i].unit);
	}
}

static void
print_summary(const struct al_phase *ph, const char *name, int64_t elapsed_ns, bool interrupted)
{
	char v[64];
	int i;

	printf("summary: load=%s time_s=%.3f", name, (double)elapsed_ns / AL_NS_PER_SEC);
	for (i = 0; i < ph->n_throughput; i++) {
		format_value(ph->throughput[i].value, v, sizeof(v));
		printf(" %s=%s", ph->throughput[i].name, v);
	}
	printf(" interrupted=%s result=%s\n", interrupted ? "yes" : "no",
	       *ph->error ? "error" : "ok");
}

static int
write_json(const char *path, const struct al_phase *ph, const char *name, int64_t elapsed_ns,
	   bool interrupted)
{
	json_t *root, *tp;
	int i, rc;

	root = al_doc_new_plain(AL_SCHEMA_LOAD);
	tp = json_object();
	if (!root || !tp)
		return -ENOMEM;
	json_object_set_new(root, "name", json_string(name));
	json_object_set_new(root, "load", json_string(ph->load));
	json_object_set_new(root, "duration_ns", json_integer(elapsed_ns));
	json_object_set_new(root, "interrupted", json_boolean(interrupted));
	for (i = 0; i < ph->n_throughput; i++) {
		json_t *m = json_object();

		json_object_set_new(m, "value", json_real(ph->throughput[i].value));
		json_object_set_new(m, "unit", json_string(ph->throughput[i].unit));
		json_object_set_new(tp, ph->throughput[i].name, m);
	}
	json_object_set_new(root, "throughput", tp);
	json_object_set_new(root, "error", *ph->error ? json_string(ph->error) : json_null());
	rc = al_doc_write(path, root, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
	json_decref(root);
	return rc;
}

/* The NAME argument as a spec ("cmd" + COMMAND becomes cmd:'COMMAND'). */
static int
build_spec(const struct load_params *p, char *spec, size_t size, char *err, size_t err_size)
{
	if (!p->command) {
		snprintf(spec, size, "%s", p->name);
		return 0;
	}
	if (!strchr(p->command, '\''))
		snprintf(spec, size, "cmd:'%s'", p->command);
	else if (!strchr(p->command, '"'))
		snprintf(spec, size, "cmd:\"%s\"", p->command);
	else
		return bad(err, err_size, "cmd: COMMAND cannot hold both ' and \"");
	return 0;
}

int
cmd_load(int argc, char **argv)
{
	struct al_phase_spec *phases = NULL;
	struct al_phase *ph = NULL;
	struct al_phase_driver d;
	char err[512], spec[AL_LOAD_ARG_MAX + 64], desc[AL_LOAD_DESC_MAX];
	struct load_params p;
	int64_t duration_ns, elapsed_ns;
	bool classic, interrupted = false, text;
	size_t n_phases = 0;
	int rc, r, start_rc, exit_code = AL_EXIT_OK;

	rc = parse_args(argc, argv, &p, err, sizeof(err));
	if (rc)
		return cli_usage_error("load", "%s", err);
	if (p.help) {
		help(stdout);
		return AL_EXIT_OK;
	}
	rc = build_spec(&p, spec, sizeof(spec), err, sizeof(err));
	if (rc)
		return cli_usage_error("load", "%s", err);
	if (al_load_spec_parse(spec, p.duration_ns, &phases, &n_phases, err, sizeof(err)))
		return cli_usage_error("load", "%s", err);
	if (n_phases != 1) {
		al_load_spec_free(phases);
		return cli_usage_error("load",
				       "'%s' is %zu phases; audiolat load runs one (use audiolat run --load)",
				       spec, n_phases);
	}
	if (phases[0].duration_given && p.duration_ns) {
		al_load_spec_free(phases);
		return cli_usage_error("load", "'%s' has a time; drop it or -d/--duration", spec);
	}
	duration_ns = phases[0].duration_ns;
	/* hackbench on its own with no time: one run, printed like rt-tests hackbench */
	classic = !duration_ns && phases[0].n_loads == 1 &&
		  !strcmp(al_load_name(phases[0].loads[0].ops), "hackbench");
	if (classic)
		p.opts.hb_runs = 1;
	r = al_load_check_opts(&p.opts, phases, n_phases, err, sizeof(err));
	if (r) {
		al_load_spec_free(phases);
		if (r == -EOPNOTSUPP || r == -EPERM)
			return cli_fault("load", r, "", err, NULL);
		return cli_usage_error("load", "%s", err);
	}

	text = !(p.json_path && !strcmp(p.json_path, "-"));
	if (text && classic && !p.quiet) {
		printf("Running in %s mode with %d groups using %d file descriptors each (== %d tasks)\n",
		       p.opts.hb_threads ? "threaded" : "process", p.opts.hb_groups,
		       2 * p.opts.hb_fds, 2 * p.opts.hb_fds * p.opts.hb_groups);
		printf("Each sender will pass %d messages of %d bytes\n", p.opts.hb_loops,
		       p.opts.hb_datasize);
	} else if (text && !p.quiet) {
		al_load_phase_describe(&phases[0], &p.opts, desc, sizeof(desc));
		printf("load: %s\n", desc);
		if (duration_ns)
			printf("duration: %.3f s\n", (double)duration_ns / AL_NS_PER_SEC);
		else
			printf("duration: until interrupted (Ctrl-C)\n");
	}
	fflush(stdout);
	fflush(stderr);

	ph = calloc(1, sizeof(*ph));
	if (!ph) {
		al_load_spec_free(phases);
		return cli_cmd_error(AL_EXIT_RUNTIME, "load", "out of memory");
	}
	cli_catch_stop_signals();
	/* one phase until its time, the stop flag, or the loads' own end (hackbench's one run) */
	d = (struct al_phase_driver){
		.spec = phases, .n_spec = 1, .load_opts = &p.opts,
		.stop_requested = &cli_stop_requested, .tick_ns = POLL_NS,
		.end_with_loads = true, .phases = ph,
	};
	al_phase_driver_run(&d);
	elapsed_ns = d.stopped_ns - d.origin_ns;
	interrupted = d.interrupted;
	start_rc = d.start_err;
	/* a load that could not start is reported like a failed load: text, JSON, exit status */
	if (start_rc)
		exit_code = cli_exit_of(start_rc);
	if (*ph->error && !exit_code)
		exit_code = AL_EXIT_RUNTIME;

	if (text) {
		if (classic && !*ph->error && !interrupted && ph->n_throughput >= 2) {
			printf("Time: %.3f\n", ph->throughput[1].value);
		} else {
			if (!p.quiet) {
				printf("time: %.3f s%s\n", (double)elapsed_ns / AL_NS_PER_SEC,
				       interrupted ? " (interrupted)" : "");
				print_metrics(stdout, ph);
			}
			print_summary(ph, phases[0].name, elapsed_ns, interrupted);
		}
		fflush(stdout);
	}
	if (*ph->error && start_rc)
		cli_fault("load", start_rc, "", ph->error, NULL); /* it could not start */
	else if (*ph->error)
		cli_cmd_error(AL_EXIT_RUNTIME, "load", "%s", ph->error);
	if (p.json_path) {
		r = write_json(p.json_path, ph, phases[0].name, elapsed_ns, interrupted);
		if (r) {
			cli_cmd_error(AL_EXIT_RUNTIME, "load", "--json %s: %s", p.json_path,
				      strerror(-r));
			exit_code = AL_EXIT_RUNTIME;
		}
	}
	free(ph);
	al_load_spec_free(phases);
	return exit_code;
}
