/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the fuzz targets: the libFuzzer entry point, turning an input
 * into a C string, and invariant checks that abort() (so both libFuzzer
 * and standalone-main.c report the input that broke them).
 */
#ifndef AL_TESTS_FUZZ_H
#define AL_TESTS_FUZZ_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (it ends at its first NUL byte). */
static inline char *
fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#define FUZZ_CHECK(cond, fmt, ...)                                                          \
	do {                                                                                 \
		if (!(cond)) {                                                               \
			fprintf(stderr, "%s:%d: invariant failed: %s: " fmt "\n", __FILE__,  \
				__LINE__, #cond, __VA_ARGS__);                               \
			abort();                                                             \
		}                                                                            \
	} while (0)

/* err is NUL-terminated within size, non-empty, and (when the input had none) has no '\n'. */
static inline void
fuzz_check_err(const char *err, size_t size, int input_has_newline)
{
	FUZZ_CHECK(memchr(err, '\0', size), "error text not NUL-terminated in %zu bytes", size);
	FUZZ_CHECK(err[0], "%s", "empty error text on failure");
	FUZZ_CHECK(input_has_newline || !strchr(err, '\n'), "error text is not one line: '%s'",
		   err);
}

/*
 * A line parser's answer (cyclictest's text, pw-profiler's log): 0, or
 * -EINVAL with one line ":LINE: expected ..." naming a line of the input.
 * Returns whether it failed.
 */
static inline int
fuzz_line_failed(int rc, const char *err, size_t size)
{
	int line = 0;

	FUZZ_CHECK(rc == 0 || rc == -EINVAL, "returned %d", rc);
	if (!rc)
		return 0;
	fuzz_check_err(err, size, 0);
	FUZZ_CHECK(sscanf(err, ":%d: expected", &line) == 1 && line >= 1,
		   "no ':LINE: expected' in '%s'", err);
	return 1;
}

/*
 * Split s (size bytes, with room for a NUL at s[size]) on newline or NUL
 * into argv after argv0, at most max entries: how the argument-parser
 * targets turn an input into a command line.
 */
static inline int
fuzz_split_args(const char *argv0, char *s, size_t size, char **argv, int max)
{
	int argc = 0;
	size_t i, start = 0;

	argv[argc++] = (char *)argv0;
	if (size && (s[size - 1] == '\n' || s[size - 1] == '\0'))
		size--;
	if (!size)
		return argc;
	for (i = 0; i <= size && argc < max; i++) {
		if (i == size || s[i] == '\n' || s[i] == '\0') {
			s[i] = '\0';
			argv[argc++] = s + start;
			start = i + 1;
		}
	}
	return argc;
}

/*
 * fuzz_split_args() into argv (NULL-terminated) and its copy given: the
 * order as given (getopt_long permutes argv). Returns argc.
 */
static inline int
fuzz_args(const char *argv0, char *s, size_t size, char **argv, char **given, int max)
{
	int argc = fuzz_split_args(argv0, s, size, argv, max);

	argv[argc] = NULL;
	memcpy(given, argv, ((size_t)argc + 1) * sizeof(*argv));
	return argc;
}

/*
 * What a subcommand that takes run's options (sweep, monitor) hands run's
 * parser: run_argv[0] "run", NULL-terminated, at most one argument per
 * byte given (a cluster gives one per letter and its value), each an
 * argument as given (or a value inside one, "-qd5s") in order, or a
 * cluster's letter alone ("-v").
 */
static inline void
fuzz_check_run_argv(char *const *run_argv, int run_argc, char *const *given, int argc)
{
	int i, j, last, room;

	for (i = 1, room = 1; i < argc; i++)
		room += (int)strlen(given[i]);
	FUZZ_CHECK(run_argc >= 1 && run_argc <= room && !strcmp(run_argv[0], "run") &&
			   !run_argv[run_argc],
		   "run_argc %d", run_argc);
	for (j = 1, last = 1; j < run_argc; j++) {
		const char *a = run_argv[j];
		int k = -1;

		for (i = 1; i < argc && k < 0; i++)
			if (a >= given[i] && a <= given[i] + strlen(given[i]))
				k = i;
		if (k < 0) {
			FUZZ_CHECK(a[0] == '-' && a[1] && !a[2], "'%s' was not given", a);
			continue;
		}
		FUZZ_CHECK(k >= last, "%s", "run's arguments are not in order");
		last = k;
	}
}

#endif
