/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one errno -> exit status table (src/cli/fault.c, audiolat(1) EXIT
 * STATUS), every row of it, and the one line cli_fault() makes: what
 * failed, why, and the table's kind. The line's output (cli.c) and the
 * device list (cli-devices.c) are stood in for here: what they were
 * given is what is checked.
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_row_of_the_table),
		cmocka_unit_test(one_line_with_the_kind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
