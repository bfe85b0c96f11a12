/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one table from a library's -errno to audiolat's exit status, for
 * every subcommand (audiolat(1), EXIT STATUS), and the one line that says
 * why.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli-devices.h"

static const struct fault_row {
	int err;
	int code;
	const char *what; /* the kind of failure, when the library said nothing better */
	bool list;        /* cli_fault() lists the backend's devices after the line */
} faults[] = {
	/* no such device or server */
	{ ENOENT, AL_EXIT_UNAVAILABLE, "no such device or server", true },
	{ ENODEV, AL_EXIT_UNAVAILABLE, "no such device or server", true },
	{ ENXIO, AL_EXIT_UNAVAILABLE, "no such device or server", true },
	{ ECONNREFUSED, AL_EXIT_UNAVAILABLE, "no such device or server" },
	{ ECONNRESET, AL_EXIT_UNAVAILABLE, "the server went away" },
	/* in use */
	{ EBUSY, AL_EXIT_UNAVAILABLE, "in use by another program" },
	/* permission: the library names the limit (rtprio, memlock, tracefs) */
	{ EPERM, AL_EXIT_UNAVAILABLE, "not permitted" },
	{ EACCES, AL_EXIT_UNAVAILABLE, "not permitted" },
	/* the backend or device cannot do it at all here */
	{ ENOTSUP, AL_EXIT_UNAVAILABLE, "not supported here" },
	/* a configuration the device cannot come close to, or refuses */
	{ ERANGE, AL_EXIT_USAGE, "the device cannot come close to the configuration" },
	{ EINVAL, AL_EXIT_USAGE, "the configuration was refused" },
};

/* err's row (err: -errno or errno), or NULL: a runtime error */
static const struct fault_row *
row_of(int err)
{
	size_t i;

	if (err < 0)
		err = -err;
	if (err == EOPNOTSUPP)
		err = ENOTSUP;
	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		if (faults[i].err == err)
			return &faults[i];
	return NULL;
}

int
cli_exit_of(int err)
{
	const struct fault_row *row = row_of(err);

	if (row)
		return row->code;
	return err ? AL_EXIT_RUNTIME : AL_EXIT_OK;
}

/* The line of both: "WHAT: WHY (KIND)", WHAT and KIND where there are; WHY: strerror's if empty. */
static int
fault_line(const char *cmd, int err, const char *what, const char *why, const char *kind,
	   bool try_help)
{
	int code = cli_exit_of(err);
	const char *sep = what && what[0] ? ": " : "";

	if (!what)
		what = "";
	if (!why || !why[0])
		why = strerror(err < 0 ? -err : err);
	if (try_help && code == AL_EXIT_USAGE)
		return cli_usage_error(cmd, "%s%s%s", what, sep, why);
	return cli_cmd_error(code, cmd, "%s%s%s%s%s%s", what, sep, why, kind ? " (" : "",
			     kind ? kind : "", kind ? ")" : "");
}

/* cli_fault(), and with try_help a usage error's "Try 'audiolat CMD --help'." instead of its kind */
static int
fault(const char *cmd, int err, const char *what, const char *why,
      const struct al_backend_ops *b, bool try_help)
{
	const struct fault_row *row = row_of(err);
	int code = fault_line(cmd, err, what, why, row ? row->what : "a runtime error", try_help);

	/* no such device: what there is */
	if (b && b->list && row && row->list) {
		fprintf(stderr, "devices of the %s backend (audiolat devices):\n", b->name);
		cli_devices_print(stderr, b, "  ");
	}
	return code;
}

int
cli_fault(const char *cmd, int err, const char *what, const char *why,
	  const struct al_backend_ops *b)
{
	return fault(cmd, err, what, why, b, false);
}

int
cli_fault_or_usage(const char *cmd, int err, const char *what, const char *why,
		   const struct al_backend_ops *b)
{
	return fault(cmd, err, what, why, b, true);
}

int
cli_fail(const char *cmd, int err, const char *what, const char *why, bool try_help)
{
	return fault_line(cmd, err, what, why, NULL, try_help);
}
