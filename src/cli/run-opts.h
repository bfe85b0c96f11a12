/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `audiolat run` options: a pure parser (no printing, no exit), unit-tested. */
#ifndef AL_CLI_RUN_OPTS_H
#define AL_CLI_RUN_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"
#include "load/load.h"

struct al_backend_ops;
struct al_run_opts;

struct al_run_cli {
	struct al_config cfg;
	const struct al_backend_ops *backend; /* -b, resolved once (cfg.backend is its name) */
	const char *json_path;  /* NULL, a file, or "-" */
	bool trace;             /* --trace */
	int64_t trace_threshold_ns; /* --trace-threshold, 0: half the buffer */
	const char *html_path;  /* --html: the HTML report, NULL or a file */
	const char *db_path;    /* --db, NULL: the default results database */
	bool no_db;             /* --no-db: save nothing */
	bool quiet;
	bool verbose;
	bool no_histogram;
	bool help;
	bool duration_given;    /* -d was on the command line */
	const char *load_spec;  /* --load, NULL when none */
	struct al_load_opts load_opts; /* --load-policy, --groups, ... */
	/*
	 * Who measures (not an option): NULL al_run(); audiolat monitor sets
	 * its al_monitor_run() wrapper (cmd-monitor.c).
	 */
	int (*measure)(const struct al_run_opts *o, struct al_result *r, void *ud);
	void *measure_ud;
};

/*
 * Parse `run` arguments (argv[0] is "run"). Returns 0, or -EINVAL with one
 * line in err naming the option ("-P/--period: '0' is not in 1..1048576").
 */
int al_run_parse_args(int argc, char **argv, struct al_run_cli *p, char *err, size_t err_size);

/* The --help text. */
extern const char al_run_help[];

#endif
