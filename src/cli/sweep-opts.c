/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "sweep-opts.h"

const char al_sweep_help[] =
    "usage: audiolat sweep [--backend LIST] [--rate LIST] [--period LIST]\n"
    "                      [--periods LIST] [--repeat N] [run options]\n"
    "                      [--json FILE|-] [--markdown] [--html FILE] [-q]\n"
    "\n"
    "Run every configuration of a grid the same way (same duration, same load)\n"
    "and print them side by side with the run-to-run variance (min-max over the\n"
    "repeats): which buffer size is safe on this machine, in one command.\n"
    "\n"
    "grid (comma-separated lists):\n"
    "  -b, --backend LIST     backends, NAME or NAME:DEVICE (default sim);\n"
    "                         e.g. sim,alsa:plug:jack\n"
    "  -r, --rate LIST        sample rates in Hz (default 48000)\n"
    "  -P, --period LIST      frames per period (default 64)\n"
    "  -n, --periods LIST     periods in the buffer (default 3)\n"
    "      --repeat N         runs of each configuration, 1..100 (default 1)\n"
    "run options:\n"
    "  anything `audiolat run` takes: -d TIME, --load SPEC, -L, -p, -a, --label,\n"
    "  --no-db, ... (see audiolat run --help); they apply to every run\n"
    "  (not --fragments: give -n and -P lists)\n"
    "output:\n"
    "      --json FILE|-      write the audiolat.sweep/1 document with every run's\n"
    "                         result (- = stdout, and then no table)\n"
    "      --markdown         a Markdown table instead of text\n"
    "      --html FILE        the report of every run as HTML\n"
    "  -q, --quiet            no progress lines\n"
    "  -h, --help             this text\n"
    "\n"
    "exit status: 0 done, 1 runtime error, 2 usage error, 4 backend or device\n"
    "unavailable\n";

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

int
al_sweep_cells(const struct al_sweep_cli *p)
{
	return p->n_backends * p->n_rates * p->n_period_frames * p->n_periods;
}

/* "--name=value" or "--name value": the value, advancing *i; NULL when missing. */
static const char *
value_of(int argc, char **argv, int *i, const char *eq)
{
	if (eq)
		return eq + 1;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

int
al_sweep_parse_args(int argc, char **argv, struct al_sweep_cli *p, char *err, size_t err_size)
{
	int i, rc = 0;

	memset(p, 0, sizeof(*p));
	snprintf(p->backends[0].name, sizeof(p->backends[0].name), "sim");
	p->n_backends = 1;
	p->rates[0] = 48000;
	p->n_rates = 1;
	p->period_frames[0] = 64;
	p->n_period_frames = 1;
	p->periods[0] = 3;
	p->n_periods = 1;
	p->repeat = 1;
	err[0] = '\0';
	p->run_argv = calloc((size_t)argc + 2, sizeof(*p->run_argv));
	if (!p->run_argv) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	p->run_argv[p->run_argc++] = "run";
	for (i = 1; i < argc && !rc; i++) {
		const char *a = argv[i], *eq = NULL, *v;
		char name[32];
		long n;

		/* the long form, with or without "=value" */
		if (!strncmp(a, "--", 2) && a[2]) {
			eq = strchr(a, '=');
			snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - a) : (int)strlen(a),
				 a);
		} else if (a[0] == '-' && a[1] && a[1] != '-') {
			/* short options of ours: -P 64, -P64; -q, -h alone */
			snprintf(name, sizeof(name), "-%c", a[1]);
			if (a[2] && strchr("brPn", a[1]))
				eq = a + 1; /* value_of() skips one character: the option letter */
			else if (a[2])
				name[0] = '\0'; /* -qv and the like: run's business */
		} else {
			name[0] = '\0';
		}
#define IS(s, l) (!strcmp(name, s) || !strcmp(name, l))
		if (IS("-b", "--backend") || IS("-r", "--rate") || IS("-P", "--period") ||
		    IS("-n", "--periods") || !strcmp(name, "--repeat") || !strcmp(name, "--json") ||
		    !strcmp(name, "--html")) {
			v = value_of(argc, argv, &i, eq);
			if (!v) {
				snprintf(err, err_size, "option %s: needs a value", name);
				return -EINVAL;
			}
			if (IS("-b", "--backend"))
				rc = al_sweep_parse_backends(v, p->backends, AL_SWEEP_VALUES_MAX,
							     &p->n_backends, err, err_size);
			else if (IS("-r", "--rate"))
				rc = al_sweep_parse_list("-r/--rate", v, 1000, 768000, p->rates,
							 AL_SWEEP_VALUES_MAX, &p->n_rates, err,
							 err_size);
			else if (IS("-P", "--period"))
				rc = al_sweep_parse_list("-P/--period", v, 1, 1048576,
							 p->period_frames, AL_SWEEP_VALUES_MAX,
							 &p->n_period_frames, err, err_size);
			else if (IS("-n", "--periods"))
				rc = al_sweep_parse_list("-n/--periods", v, 2, 1024, p->periods,
							 AL_SWEEP_VALUES_MAX, &p->n_periods, err,
							 err_size);
			else if (!strcmp(name, "--repeat")) {
				rc = al_sweep_parse_list("--repeat", v, 1, AL_SWEEP_REPEAT_MAX, &n,
							 1, &(int){0}, err, err_size);
				p->repeat = (int)n;
			} else if (!strcmp(name, "--json")) {
				p->json_path = v;
			} else {
				p->html_path = v;
			}
			continue;
		}
		if (!strcmp(name, "--fragments")) {
			/* run's -n/-P in one: the grid's lists would override it unseen */
			snprintf(err, err_size, "--fragments: a sweep takes -n and -P lists "
				 "(--fragments 3x256 is -n 3 -P 64)");
			return -EINVAL;
		}
		if (IS("-q", "--quiet") || !strcmp(name, "--markdown") || IS("-h", "--help")) {
			if (eq) {
				snprintf(err, err_size, "option %s takes no value", name);
				return -EINVAL;
			}
			if (name[1] == 'q' || name[2] == 'q')
				p->quiet = true;
			else if (name[1] == 'h' || name[2] == 'h')
				p->help = true;
			else
				p->markdown = true;
			continue;
		}
#undef IS
		p->run_argv[p->run_argc++] = argv[i];
	}
	if (rc)
		return rc;
	if (p->json_path && !p->json_path[0]) {
		snprintf(err, err_size, "--json: '' is not a file name");
		return -EINVAL;
	}
	if (p->html_path && !p->html_path[0]) {
		snprintf(err, err_size, "--html: '' is not a file name");
		return -EINVAL;
	}
	if (p->json_path && p->html_path && !strcmp(p->json_path, "-") &&
	    !strcmp(p->html_path, "-")) {
		snprintf(err, err_size, "--json - and --html -: only one can go to stdout");
		return -EINVAL;
	}
	if (al_sweep_cells(p) > AL_SWEEP_CELLS_MAX) {
		snprintf(err, err_size, "the grid has %d configurations, more than %d",
			 al_sweep_cells(p), AL_SWEEP_CELLS_MAX);
		return -EINVAL;
	}
	return 0;
}

void
al_sweep_cli_free(struct al_sweep_cli *p)
{
	free(p->run_argv);
	p->run_argv = NULL;
	p->run_argc = 0;
}
