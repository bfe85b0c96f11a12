/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run in the formats of the kernel CI systems (docs/store.md, "CI
 * formats"): KCIDB v5 JSON (KernelCI), JUnit XML (one testcase per
 * result, the histogram as properties, as CI-RT reads it) and the
 * lava-test-case lines a LAVA test definition prints. Pure functions of
 * the documents: no clock, no environment.
 *
 * Every run gives the same figures under the same stable names
 * (al_ci_run_figures()): "audiolat.run.wake_latency.p99" and so on, in
 * seconds (KCIDB, JUnit) or microseconds (LAVA). A figure that was not
 * measured is no number: KCIDB says SKIP, LAVA "skip", JUnit a skipped
 * testcase.
 */
#ifndef AL_REPORT_CI_FORMATS_H
#define AL_REPORT_CI_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define AL_CI_FIGURES_MAX 16

/* One figure of a run. */
struct al_ci_figure {
	const char *path;       /* "audiolat.run.wake_latency.p99" */
	const char *unit;       /* "s", "%" or "" (a count) */
	double value;           /* in unit; meaningless when !measured */
	bool measured;          /* false: null in the document */
	bool has_limit;         /* a threshold applies: --max-latency of the run */
	bool pass;              /* value within it (has_limit only) */
};

/* The figures of a run document, in a fixed order; returns how many. */
size_t al_ci_run_figures(const json_t *doc, struct al_ci_figure *out, size_t max);

/* What the formats need besides the documents. */
struct al_ci_opts {
	const char *origin;     /* KCIDB origin, [a-z0-9_]+ (default "audiolat") */
	const char *build_id;   /* KCIDB build id "ORIGIN:ID" of the CI system that built the
				 * kernel (ORIGIN [a-z0-9_]+, may differ from origin), every
				 * test's build_id; NULL: origin:KERNEL_RELEASE */
};

/*
 * A KCIDB v5 report of the runs docs[0..n): one test per figure, ids
 * "ORIGIN:UUID.PATH". 0 with *out set (json_decref it), or -EINVAL
 * (an origin that is not [a-z0-9_]+, a build id that is not ORIGIN:ID, a
 * document that is not a run) with
 * one line in err.
 */
int al_ci_kcidb(json_t *const *docs, size_t n, const struct al_ci_opts *o, json_t **out,
		char *err, size_t err_size);

/*
 * JUnit XML: a <testsuites> with one <testsuite> of one <testcase> per
 * run, its figures and histogram as <property> elements. *out is
 * malloc'd text. 0, -EINVAL (err) or -ENOMEM.
 */
int al_ci_junit(json_t *const *docs, size_t n, const struct al_ci_opts *o, char **out,
		char *err, size_t err_size);

/*
 * The lava-test-case lines: one per figure, "lava-test-case NAME --result
 * pass|fail|skip [--measurement N --units UNIT]", NAME the figure's path
 * (prefixed by the run's label when there are several runs). *out is
 * malloc'd text. 0, -EINVAL (err) or -ENOMEM.
 */
int al_ci_lava(json_t *const *docs, size_t n, const struct al_ci_opts *o, char **out,
	       char *err, size_t err_size);

/*
 * The runs docs[0..n) as format ("kcidb": al_ci_kcidb()'s document as
 * text; "junit", "lava") in *out (malloc'd text). 0, -EINVAL (err) or
 * -ENOMEM.
 */
int al_ci_format(const char *format, json_t *const *docs, size_t n, const struct al_ci_opts *o,
		 char **out, char *err, size_t err_size);

#endif
