/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/units.h"
#include "cli.h"

const char *cli_progname = "audiolat";
volatile sig_atomic_t cli_stop_requested;

static void
on_stop_signal(int sig)
{
	(void)sig;
	cli_stop_requested = 1;
}

void
cli_catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: sleeps must end */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* One line on stderr: "audiolat[ CMD]: KIND<message>" */
static void
say(const char *cmd, const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s%s%s: %s", cli_progname, cmd ? " " : "", cmd ? cmd : "", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int
cli_cmd_error(int code, const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(cmd, "", fmt, ap);
	va_end(ap);
	return code;
}

void
cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(NULL, "warning: ", fmt, ap);
	va_end(ap);
}

int
cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(cmd, "", fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "Try '%s %s --help'.\n", cli_progname, cmd);
	return AL_EXIT_USAGE;
}

int
cli_parse(const char *cmd, const struct al_optdef *table, int help_col, int argc, char **argv,
	  al_opt_set_fn set, void *ctx, const bool *help, int max_args, int *first)
{
	char err[512];

	if (al_opts_parse(table, argc, argv, set, ctx, first, NULL, err, sizeof(err)))
		return cli_usage_error(cmd, "%s", err);
	if (*help) {
		al_opts_help(stdout, table, help_col);
		return AL_EXIT_OK;
	}
	if (max_args >= 0 && argc - *first > max_args)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[*first + max_args]);
	return -1;
}

bool
cli_status_wanted(bool quiet)
{
	return !quiet && isatty(STDERR_FILENO);
}
