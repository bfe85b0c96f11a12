/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `audiolat run` options: a pure parser (no printing, no exit), unit-tested. */
#ifndef AL_ARGS_RUN_OPTS_H
#define AL_ARGS_RUN_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"
#include "load/load.h"
#include "common-opts.h"

struct al_backend_ops;
struct al_run_opts;


struct al_run_cli {
	struct al_config cfg;
	const struct al_backend_ops *backend; /* -b, resolved once (cfg.backend is its name) */
	const char *json_path;  /* NULL, a file, or "-" */
	bool trace;             /* --trace */
	int64_t trace_threshold_ns; /* --trace-threshold, 0: half the buffer */
	bool no_why;            /* --no-why: no evidence of causes collected */
	int64_t why_threshold_ns; /* --why-threshold, 0: one period */
	int fault_pages;        /* --fault-pages: fresh pages touched every 100 ms, 0: none */
	const char *html_path;  /* --html: the HTML report, NULL or a file */
	const char *db_path;    /* --db, NULL: the default results database */
	bool no_db;             /* --no-db: save nothing */
	bool quiet;
	bool verbose;
	bool why;               /* --why: every event's line of why it dropped out */
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

/*
 * Its first half: the options one by one; the second is what they ask of
 * the backend together, al_backend_check_config() (backend/backend.h),
 * which sweep and monitor call too, for every configuration.
 */
int al_run_parse_opts(int argc, char **argv, struct al_run_cli *p, char *err, size_t err_size);

/*
 * run's options (core/opts.h), most stored into struct al_run_cli by the
 * table itself: parsed by al_opts_parse(); with its usage and prose, the
 * whole --help (al_opts_help() at column 25); sweep and monitor include
 * them (AL_OPT_INCLUDE at their al_run_cli).
 */
extern const struct al_optdef al_run_optdefs[];

/*
 * The pieces of al_run_parse_opts(), for a subcommand that includes run's
 * options (sweep, monitor): al_run_cli_init(), the defaults; their tokens
 * as given, for the runs' command lines: al_run_argv_new() makes the room
 * (argv[0] "run", then at most one token per byte of argv: a letter of a
 * cluster comes alone, "-vvd5s" is four), NULL-terminated, or NULL (no
 * memory; free() it); al_run_take() adds h's tokens at
 * run_argv[*run_argc] and does to p what one option of al_run_optdefs
 * (checked by its type and stored already) still does.
 */
void al_run_cli_init(struct al_run_cli *p);

/*
 * The measurement p asks for into m (cleared first): its configuration,
 * backend, trace, --load and who measures; the stop flag and the status
 * line are the caller's.
 */
struct al_measure;
void al_run_cli_measure(const struct al_run_cli *p, struct al_measure *m);
char **al_run_argv_new(int argc, char **argv, int *run_argc);
int al_run_take(struct al_run_cli *p, char **run_argv, int *run_argc, const struct al_opt_hit *h,
		char *err, size_t err_size);

#endif
