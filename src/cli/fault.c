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

static const struct {
	int err;
	int code;
	const char *what; /* the kind of failure, when the library said nothing better */
} faults[] = {
	/* no such device or server */
	{ ENOENT, AL_EXIT_UNAVAILABLE, "no such device or server" },
	{ ENODEV, AL_EXIT_UNAVAILABLE, "no such device or server" },
	{ ENXIO, AL_EXIT_UNAVAILABLE, "no such device or server" },
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

int
cli_exit_of(int err)
{
	size_t i;

	if (err < 0)
		err = -err;
	if (err == EOPNOTSUPP)
		err = ENOTSUP;
	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		if (faults[i].err == err)
			return faults[i].code;
	return err ? AL_EXIT_RUNTIME : AL_EXIT_OK;
}

int
cli_fault(const char *cmd, int err, const char *what, const char *why,
	  const struct al_backend_ops *b)
{
	int code = cli_exit_of(err);
	const char *kind = "a runtime error";
	size_t i;

	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		if (faults[i].err == (err < 0 ? -err : err))
			kind = faults[i].what;
	/* one shape: what failed, the library's own line, the kind */
	if (why && why[0])
		cli_cmd_error(code, cmd, "%s%s%s (%s)", what, what[0] ? ": " : "", why, kind);
	else
		cli_cmd_error(code, cmd, "%s: %s (%s)", what, strerror(err < 0 ? -err : err), kind);
	/* no such device: what there is */
	if (b && b->list && code == AL_EXIT_UNAVAILABLE &&
	    (err == -ENOENT || err == -ENODEV || err == -ENXIO)) {
		fprintf(stderr, "devices of the %s backend (audiolat devices):\n", b->name);
		cli_devices_print(stderr, b, "  ");
	}
	return code;
}
