/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command-line layer: subcommands, exit codes, shared option helpers. */
#ifndef AL_CLI_CLI_H
#define AL_CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "core/opts.h"

enum al_exit {
	AL_EXIT_OK = 0,
	AL_EXIT_RUNTIME = 1,
	AL_EXIT_USAGE = 2,
	AL_EXIT_THRESHOLD = 3,
	AL_EXIT_UNAVAILABLE = 4,
	AL_EXIT_INSUFFICIENT = 5, /* a gate without enough data to decide (compare --fail-on-worse) */
};
/*
 * audiolat bisect alone exits with git bisect run's codes instead: 0 good,
 * 1 bad, 125 skip this commit, 128 stop the bisection (cmd-bisect.c;
 * docs/bisect.md).
 */

/* One subcommand: argv[0] is the subcommand name; returns an enum al_exit. */
struct al_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

extern const struct al_command al_commands[];

/* "audiolat CMD: <message>" ("audiolat: " when cmd is NULL) on stderr; returns code. */
int cli_cmd_error(int code, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "audiolat: warning: <message>" on stderr unless quiet. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The one errno -> exit status table of every subcommand (audiolat(1)):
 * no such device or server, in use, not permitted, not supported here: 4
 * (AL_EXIT_UNAVAILABLE); a configuration the device cannot come close to
 * or refuses: 2; 0: 0; anything else: 1. err is -errno (or errno).
 */
int cli_exit_of(int err);

/*
 * A failure to start, in one line, the same shape for every subcommand:
 * "audiolat CMD: WHAT: WHY (KIND)" (WHAT the backend, load or MIDI
 * subcommand, may be ""; WHY the library's own one line, such as "hw:0:
 * cannot open for playback: ...", or strerror when it said nothing; KIND
 * the table's: "no such device or server", "in use by another program",
 * ...); exit by
 * cli_exit_of(); for no such device, the devices backend b (may be NULL)
 * can reach, one a line, after it. Returns the exit status.
 */
struct al_backend_ops;
int cli_fault(const char *cmd, int err, const char *what, const char *why,
	      const struct al_backend_ops *b);

/*
 * A refusal to start (a spec, an option or the device): a usage error
 * (exit 2, "audiolat CMD: WHAT: WHY" and "Try 'audiolat CMD --help'.")
 * when cli_exit_of(err) says so, else cli_fault()'s line and devices.
 * Returns the exit status.
 */
int cli_fault_or_usage(const char *cmd, int err, const char *what, const char *why,
		       const struct al_backend_ops *b);

/*
 * A failure whose library line says it all ("--baseline 'x': no kernel
 * of that name among the runs", "backend alsa: built without libasound"):
 * "audiolat CMD: WHAT: WHY" (WHAT may be "" or NULL; WHY strerror when the
 * library said nothing: "" or NULL), no kind; a usage error then says
 * "Try 'audiolat CMD --help'." when try_help. Exit by cli_exit_of(), which
 * it returns.
 */
int cli_fail(const char *cmd, int err, const char *what, const char *why, bool try_help);

/*
 * cmd's options: al_opts_parse() of table (set and ctx as it takes them).
 * -1 to go on, *first the first argument after them (a usage error names
 * the first beyond max_args; max_args < 0: any number); else the exit
 * status: 2 after the usage line, 0 after --help (al_opts_help() of table
 * at help_col) when the table set *help.
 */
int cli_parse(const char *cmd, const struct al_optdef *table, int help_col, int argc, char **argv,
	      al_opt_set_fn set, void *ctx, const bool *help, int max_args, int *first);

/* Usage error for an unknown option or missing argument (from getopt). */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The program name used in messages ("audiolat"). */
extern const char *cli_progname;

/* True when stdout/stderr is a terminal and a live status line is wanted. */
bool cli_status_wanted(bool quiet);

/*
 * SIGINT, SIGTERM and SIGHUP set cli_stop_requested (no SA_RESTART, so a
 * sleeping controller wakes up): long commands end cleanly on them.
 */
#include <signal.h>
extern volatile sig_atomic_t cli_stop_requested;
void cli_catch_stop_signals(void);

#endif
