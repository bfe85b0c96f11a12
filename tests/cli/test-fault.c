/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one errno -> exit status table (src/cli/fault.c, audiolat(1) EXIT
 * STATUS), every row of it, and the one line cli_fault() makes: what
 * failed, why, and the table's kind; cli_fail()'s, without the kind. The
 * line's output (cli.c) and the device list (cli-devices.c) are stood in
 * for here: what they were given is what is checked.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "cli-devices.h"

static char line[512];
static int line_code = -1, listed;

int
cli_cmd_error(int code, const char *cmd, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(line, sizeof(line), "audiolat %s: ", cmd);

	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	line_code = code;
	return code;
}

int
cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(line, sizeof(line), "audiolat %s: ", cmd);

	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	snprintf(line + strlen(line), sizeof(line) - strlen(line), " + Try");
	line_code = AL_EXIT_USAGE;
	return AL_EXIT_USAGE;
}

int
cli_devices_print(FILE *f, const struct al_backend_ops *b, const char *indent)
{
	(void)f;
	(void)b;
	(void)indent;
	listed++;
	return 0;
}

static void
every_row_of_the_table(void **state)
{
	static const struct {
		int err, code;
	} rows[] = {
		{ 0, AL_EXIT_OK },
		{ ENOENT, AL_EXIT_UNAVAILABLE },
		{ ENODEV, AL_EXIT_UNAVAILABLE },
		{ ENXIO, AL_EXIT_UNAVAILABLE },
		{ ECONNREFUSED, AL_EXIT_UNAVAILABLE },
		{ ECONNRESET, AL_EXIT_UNAVAILABLE }, /* a database server that went away */
		{ EBUSY, AL_EXIT_UNAVAILABLE },
		{ EPERM, AL_EXIT_UNAVAILABLE },
		{ EACCES, AL_EXIT_UNAVAILABLE },
		{ ENOTSUP, AL_EXIT_UNAVAILABLE },
		{ EOPNOTSUPP, AL_EXIT_UNAVAILABLE },
		{ ERANGE, AL_EXIT_USAGE },
		{ EINVAL, AL_EXIT_USAGE },
		/* anything else: a runtime error */
		{ EIO, AL_EXIT_RUNTIME },
		{ ENOMEM, AL_EXIT_RUNTIME },
		{ ETIMEDOUT, AL_EXIT_RUNTIME },
		{ EPIPE, AL_EXIT_RUNTIME },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		/* -errno as the libraries return it, and errno */
		if (cli_exit_of(-rows[i].err) != rows[i].code)
			fail_msg("-%s: exit %d, not %d", strerror(rows[i].err),
				 cli_exit_of(-rows[i].err), rows[i].code);
		assert_int_equal(cli_exit_of(rows[i].err), rows[i].code);
	}
}

static void
one_line_with_the_kind(void **state)
{
	(void)state;
	listed = 0;
	assert_int_equal(cli_fault("run", -EBUSY, "alsa", "hw:0: cannot open for playback", NULL),
			 AL_EXIT_UNAVAILABLE);
	assert_int_equal(line_code, AL_EXIT_UNAVAILABLE);
	assert_string_equal(line, "audiolat run: alsa: hw:0: cannot open for playback "
				  "(in use by another program)");
	/* the library said nothing: strerror */
	assert_int_equal(cli_fault("midi", -EINVAL, "record", NULL, NULL), AL_EXIT_USAGE);
	assert_string_equal(line, "audiolat midi: record: Invalid argument "
				  "(the configuration was refused)");
	/* not in the table: a runtime error, said so */
	assert_int_equal(cli_fault("run", -EIO, "", "the device went away", NULL),
			 AL_EXIT_RUNTIME);
	assert_string_equal(line, "audiolat run: the device went away (a runtime error)");
	assert_int_equal(cli_fault("check", -EACCES, "tracefs", "cannot read", NULL),
			 AL_EXIT_UNAVAILABLE);
	assert_string_equal(line, "audiolat check: tracefs: cannot read (not permitted)");
	assert_int_equal(listed, 0); /* no backend given: nothing listed */
}

/* cli_fail(): the library's line as it is, the table's exit, "Try" after a usage error if asked */
static void
one_line_as_the_library_said(void **state)
{
	(void)state;
	listed = 0;
	assert_int_equal(cli_fail("compare", -EINVAL, "", "no runs to group", false), AL_EXIT_USAGE);
	assert_int_equal(line_code, AL_EXIT_USAGE);
	assert_string_equal(line, "audiolat compare: no runs to group");
	assert_int_equal(cli_fail("sweep", -EINVAL, NULL, "-b/--backend: unknown backend 'x'", true),
			 AL_EXIT_USAGE);
	assert_string_equal(line, "audiolat sweep: -b/--backend: unknown backend 'x' + Try");
	/* Try only after a usage error */
	assert_int_equal(cli_fail("sweep", -ENOTSUP, "", "backend alsa: built without libasound",
				  true), AL_EXIT_UNAVAILABLE);
	assert_string_equal(line, "audiolat sweep: backend alsa: built without libasound");
	/* the library said nothing: strerror, after what */
	assert_int_equal(cli_fail("monitor", -ENOMEM, "", "", false), AL_EXIT_RUNTIME);
	assert_string_equal(line, "audiolat monitor: Cannot allocate memory");
	assert_int_equal(cli_fail("check", -ENAMETOOLONG, "/x", NULL, false), AL_EXIT_RUNTIME);
	assert_string_equal(line, "audiolat check: /x: File name too long");
	assert_int_equal(cli_fail("monitor", -EADDRINUSE, "--listen", "127.0.0.1:80: Address "
				  "already in use", false), AL_EXIT_RUNTIME);
	assert_string_equal(line, "audiolat monitor: --listen: 127.0.0.1:80: Address already in use");
	/* cli_fault's line without what nor why: strerror and the kind */
	assert_int_equal(cli_fault("load", -EPERM, "", NULL, NULL), AL_EXIT_UNAVAILABLE);
	assert_string_equal(line, "audiolat load: Operation not permitted (not permitted)");
	assert_int_equal(listed, 0);
}

static int
no_devices(al_device_emit_fn emit, void *ud)
{
	(void)emit;
	(void)ud;
	return 0;
}

/* after a missing device, what the backend can reach; after another fault, nothing */
static void
the_device_list_after_no_such_device(void **state)
{
	static const struct al_backend_ops b = { .name = "fake", .list = no_devices };
	static const int listed_after[] = { ENOENT, ENODEV, ENXIO };
	static const int not_after[] = { ECONNREFUSED, EBUSY, EINVAL, EIO, EPERM };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(listed_after) / sizeof(listed_after[0]); i++) {
		listed = 0;
		assert_int_equal(cli_fault("run", -listed_after[i], "fake", "x", &b),
				 AL_EXIT_UNAVAILABLE);
		assert_int_equal(listed, 1);
	}
	for (i = 0; i < sizeof(not_after) / sizeof(not_after[0]); i++) {
		listed = 0;
		cli_fault("run", -not_after[i], "fake", "x", &b);
		assert_int_equal(listed, 0);
	}
	/* a backend without a list() */
	listed = 0;
	cli_fault("run", -ENODEV, "fake", "x",
		  &(const struct al_backend_ops){ .name = "fake" });
	assert_int_equal(listed, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_row_of_the_table),
		cmocka_unit_test(one_line_with_the_kind),
		cmocka_unit_test(one_line_as_the_library_said),
		cmocka_unit_test(the_device_list_after_no_such_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
