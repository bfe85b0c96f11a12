/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdarg.h>
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

int
cli_error(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cli_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

int
cli_cmd_error(int code, const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", cli_progname, cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

void
cli_warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: warning: ", cli_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int
cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	if (cmd)
		fprintf(stderr, "%s %s: ", cli_progname, cmd);
	else
		fprintf(stderr, "%s: ", cli_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (cmd)
		fprintf(stderr, "Try '%s %s --help'.\n", cli_progname, cmd);
	return AL_EXIT_USAGE;
}

int
cli_opt_long(const char *opt, const char *arg, long min, long max, long *out)
{
	int rc = al_parse_long(arg, min, max, out);

	if (rc == -EINVAL)
		return cli_error(AL_EXIT_USAGE, "%s: '%s' is not a whole number", opt, arg);
	if (rc)
		return cli_error(AL_EXIT_USAGE, "%s: '%s' is not in %ld..%ld", opt, arg, min, max);
	return 0;
}

int
cli_opt_duration(const char *opt, const char *arg, int64_t default_unit_ns, int64_t *out_ns)
{
	int rc = al_parse_duration_ns(arg, default_unit_ns, out_ns);

	if (rc == -ERANGE)
		return cli_error(AL_EXIT_USAGE, "%s: '%s' is too large", opt, arg);
	if (rc)
		return cli_error(AL_EXIT_USAGE,
				 "%s: '%s' is not a duration (a number with ns, us, ms, s, m or h)",
				 opt, arg);
	return 0;
}

bool
cli_status_wanted(bool quiet)
{
	return !quiet && isatty(STDERR_FILENO);
}
