/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The option machinery (src/core/opts.c): one table, one parse loop that
 * checks by type, stores where the table says and hands every option to
 * the setter, the --help option list from the same table, the structural
 * result of a parse that stopped short.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/clock.h"
#include "core/opts.h"

enum { O_TIME = 256, O_COUNT, O_FILE, O_FORMAT, O_FLAG, O_SPEC, O_FAIL, O_STOP };
enum { S_QUIET = 'q', S_HELP = 'h', S_LABEL = 0x1000, S_NO_DB };

/* another table to pick from (as src/cli picks its shared options) */
static const struct al_optdef shared[] = {
	{ .id = S_QUIET, .name = "quiet", .short_name = 'q', .type = AL_OPT_FLAG,
	  .help = "no status line, only the summary line" },
	{ .id = S_LABEL, .name = "label", .type = AL_OPT_TEXT, .arg = "TEXT", .help = "name it",
	  .max_len = 127 },
	{ .id = S_NO_DB, .name = "no-db", .type = AL_OPT_FLAG, .help = "do not save" },
	{ .id = S_HELP, .name = "help", .short_name = 'h', .type = AL_OPT_FLAG, .help = "this text",
	  .stop = true },
	AL_OPT_END,
};

static const struct al_optdef table[] = {
	AL_OPT_TEXT("things:\n"),
	{ .id = 't', .name = "time", .short_name = 't', .type = AL_OPT_TIME, .arg = "TIME",
	  .unit_ns = AL_NS_PER_US, .help = "how long (bare = us)" },
	{ .id = O_COUNT, .name = "count", .type = AL_OPT_INT, .arg = "N", .min = 1, .max = 10,
	  .help = "how many, 1..10;\nthe second line" },
	{ .id = O_FILE, .name = "html", .type = AL_OPT_FILE, .arg = "FILE", .help = "a file" },
	{ .id = O_FORMAT, .name = "format", .type = AL_OPT_CHOICE, .arg = "FORMAT",
	  .choices = "kcidb|junit|lava", .help = "kcidb, junit or lava" },
	{ .id = 'v', .name = "verbose", .short_name = 'v', .type = AL_OPT_FLAG, .help = "more" },
	{ .id = O_SPEC, .name = "a-very-long-option-name", .type = AL_OPT_SPEC, .arg = "SPEC",
	  .help = "one space after it" },
	{ .id = O_FAIL, .name = "fail", .type = AL_OPT_FLAG }, /* not in --help */
	{ .id = O_STOP, .name = "stop", .type = AL_OPT_FLAG }, /* the setter stops the parse */
	AL_OPT_PICK(shared, S_QUIET),
	AL_OPT_PICK(shared, S_LABEL, .arg = "NAME", .help = "worded here"),
	AL_OPT_PICK(shared, S_NO_DB, .help = ""), /* taken, not in --help */
	AL_OPT_PICK(shared, S_HELP),
	AL_OPT_END,
};

struct seen {
	int n;
	int id[16];
	int64_t value[16];
	const char *arg[16];
	char tok[16][2][32];
	bool included[16];
};

static struct seen s;
static struct al_opts_result res;
static char err[256];

static int
record(void *ctx, const struct al_opt_hit *h, char *e, size_t size)
{
	struct seen *x = ctx;

	if (h->id == O_FAIL)
		return -EINVAL; /* and says nothing: the loop names the option */
	if (x->n < 16) {
		x->id[x->n] = h->id;
		x->value[x->n] = h->value;
		x->arg[x->n] = h->arg;
		x->included[x->n] = h->included;
		for (int i = 0; i < h->n_tok && i < 2; i++)
			snprintf(x->tok[x->n][i], sizeof(x->tok[x->n][i]), "%s", h->tok[i]);
		x->n++;
	}
	(void)e;
	(void)size;
	return h->id == O_STOP ? AL_OPTS_STOP : 0; /* -h stops by its .stop */
}

#define ARGS(...) (char *[]){ "cmd", __VA_ARGS__, NULL }
#define NARGS(...) ((int)(sizeof((char *[]){ "cmd", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE_T(t, first, ...)                                                              \
	(memset(&s, 0, sizeof(s)),                                                          \
	 al_opts_parse(t, NARGS(__VA_ARGS__), ARGS(__VA_ARGS__), record, &s, first, &res, err, \
			sizeof(err)))
#define PARSE(first, ...) PARSE_T(table, first, __VA_ARGS__)

static void
expect_error(int rc, const char *text)
{
	assert_int_equal(rc, -EINVAL);
	if (strcmp(err, text))
		fail_msg("error '%s', not '%s'", err, text);
}

static void
values_by_type_in_order(void **state)
{
	int first;

	(void)state;
	assert_int_equal(PARSE(&first, "-t", "250", "--count=3", "--format", "junit", "-vq",
			       "--label", "x y", "--html", "a.html", "file1"),
			 0);
	assert_int_equal(s.n, 7);
	assert_int_equal(s.id[0], 't');
	assert_int_equal(s.value[0], 250 * AL_NS_PER_US);
	assert_string_equal(s.tok[0][0], "-t");
	assert_string_equal(s.tok[0][1], "250");
	assert_int_equal(s.id[1], O_COUNT);
	assert_int_equal(s.value[1], 3);
	assert_string_equal(s.tok[1][0], "--count=3");
	assert_int_equal(s.id[2], O_FORMAT);
	assert_int_equal(s.value[2], 1); /* the index of junit */
	assert_int_equal(s.id[3], 'v');
	assert_null(s.arg[3]);
	assert_string_equal(s.tok[3][0], "-v"); /* a letter of the cluster alone */
	assert_int_equal(s.id[4], S_QUIET);
	assert_string_equal(s.tok[4][0], "-q");
	assert_int_equal(s.id[5], S_LABEL);
	assert_string_equal(s.arg[5], "x y");
	assert_int_equal(s.id[6], O_FILE);
	assert_false(s.included[6]);
	/* what is not an option is left at the end */
	assert_int_equal(first, NARGS("-t", "250", "--count=3", "--format", "junit", "-vq",
				      "--label", "x y", "--html", "a.html", "file1") - 1);
	/* the same again: getopt's state is reset */
	assert_int_equal(PARSE(&first, "-t5ms"), 0);
	assert_int_equal(s.value[0], 5 * AL_NS_PER_MS);
	assert_string_equal(s.tok[0][0], "-t5ms");
	/* given twice: the setter sees both, in order (the last wins) */
	assert_int_equal(PARSE(&first, "--count", "2", "--count", "7"), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.value[1], 7);
}

static void
missing_value(void **state)
{
	int first;

	(void)state;
	expect_error(PARSE(&first, "-t"), "option -t: needs a value");
	expect_error(PARSE(&first, "--count"), "option --count: needs a value");
	expect_error(PARSE(&first, "-v", "-vt"), "option -vt: needs a value");
}

static void
unknown_option(void **state)
{
	int first;

	(void)state;
	expect_error(PARSE(&first, "--nosuch"), "unknown option '--nosuch'");
	expect_error(PARSE(&first, "--nosuch=1"), "unknown option '--nosuch=1'");
	expect_error(PARSE(&first, "-X"), "unknown option '-X'");
	expect_error(PARSE(&first, "-vXq"), "unknown option '-X'");
	expect_error(PARSE(&first, "--verbose=yes"), "option --verbose takes no value");
	expect_error(PARSE(&first, "--help=1"), "option --help takes no value");
	assert_int_equal(s.n, 0);
}

static void
bad_values(void **state)
{
	char long_label[200];
	int first;

	(void)state;
	expect_error(PARSE(&first, "--count", "11"), "--count: '11' is not in 1..10");
	expect_error(PARSE(&first, "--count", "3x"), "--count: '3x' is not a whole number");
	expect_error(PARSE(&first, "-t", "0"), "-t/--time: '0' must be longer than zero");
	expect_error(PARSE(&first, "--time", "soon"),
		     "-t/--time: 'soon' is not a duration (a number with ns, us, ms, s, m or h)");
	expect_error(PARSE(&first, "--format", "xml"),
		     "--format: 'xml' is not kcidb, junit or lava");
	expect_error(PARSE(&first, "--html", "-"), "--html: '-' is not a file name");
	expect_error(PARSE(&first, "--html", ""), "--html: '' is not a file name");
	expect_error(PARSE(&first, "--label", "a\tb"), "--label: 'a\tb' has a control character");
	memset(long_label, 'x', sizeof(long_label) - 1);
	long_label[sizeof(long_label) - 1] = '\0';
	assert_int_equal(PARSE(&first, "--label", long_label), -EINVAL);
	assert_non_null(strstr(err, "is too long (at most 127 bytes)"));
	/* a setter that fails without a word: the loop names the option */
	expect_error(PARSE(&first, "--fail"), "--fail: bad value");
	assert_int_equal(s.n, 0);
}

static void
double_dash_and_stop(void **state)
{
	int first;

	(void)state;
	assert_int_equal(PARSE(&first, "-v", "--", "-q", "--count"), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(first, 3); /* argv[3] is "-q": an argument, not an option */
	/* -h ends the parse there, with success: what follows is not looked at */
	assert_int_equal(PARSE(&first, "-h", "--count", "99", "--nosuch"), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.id[0], S_HELP);
	/* as a setter can */
	assert_int_equal(PARSE(&first, "-v", "--stop", "--nosuch"), 0);
	assert_int_equal(s.n, 2);
}

static const struct al_optdef twice_by_name[] = {
	{ .id = 1, .name = "x", .type = AL_OPT_FLAG },
	{ .id = 2, .name = "x", .type = AL_OPT_FLAG },
	AL_OPT_END,
};
static const struct al_optdef twice_by_letter[] = {
	{ .id = 'q', .name = "quick", .short_name = 'q', .type = AL_OPT_FLAG },
	AL_OPT_PICK(shared, S_QUIET),
	AL_OPT_END,
};
static const struct al_optdef not_shared[] = {
	AL_OPT_PICK(shared, 12345),
	AL_OPT_END,
};
/* an including table shadows what it declares itself: -q and --count are its own */
static const struct al_optdef including[] = {
	{ .id = 'q', .name = "quick", .short_name = 'q', .type = AL_OPT_FLAG },
	{ .id = 900, .name = "count", .type = AL_OPT_SPEC, .arg = "LIST" },
	AL_OPT_INCLUDE(table, struct seen, n),
	AL_OPT_END,
};

static void
duplicates_in_the_table(void **state)
{
	int first;

	(void)state;
	expect_error(PARSE_T(twice_by_name, &first, "--x"),
		     "option table: --x is declared twice (by name or letter)");
	expect_error(PARSE_T(twice_by_letter, &first, "-q"),
		     "option table: --quiet is declared twice (by name or letter)");
	expect_error(PARSE_T(not_shared, &first, "-q"), "option table: --? is not in the table picked from");
	assert_int_equal(PARSE_T(including, &first, "-q", "--count", "1,2", "-v"), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.id[0], 'q');
	assert_false(s.included[0]);
	assert_int_equal(s.id[1], 900);
	assert_int_equal(s.id[2], 'v');
	assert_true(s.included[2]);
	/* --quiet was the included table's -q: shadowed by -q/--quick, so unknown */
	expect_error(PARSE_T(including, &first, "--quiet"), "unknown option '--quiet'");
}

/* al_opts_help()'s text of t (free it) */
static char *
help_of(const struct al_optdef *t, int col)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	assert_non_null(f);
	al_opts_help(f, t, col);
	fclose(f);
	return text;
}

static void
help_list(void **state)
{
	int first;
	static const char want[] =
		"things:\n"
		"  -t, --time TIME        how long (bare = us)\n"
		"      --count N          how many, 1..10;\n"
		"                         the second line\n"
		"      --html FILE        a file\n"
		"      --format FORMAT    kcidb, junit or lava\n"
		"  -v, --verbose          more\n"
		"      --a-very-long-option-name SPEC one space after it\n"
		"  -q, --quiet            no status line, only the summary line\n"
		"      --label NAME       worded here\n"
		"  -h, --help             this text\n";
	char *text;

	(void)state;
	text = help_of(table, 25);
	assert_string_equal(text, want);
	free(text);
	/* an included table's options are not listed */
	text = help_of(including, 25);
	assert_string_equal(text, "");
	free(text);
	/* a hidden shared option is taken all the same */
	assert_int_equal(PARSE(&first, "--no-db"), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.id[0], S_NO_DB);
}

/* what only the program knows when --help is asked (load's list of loads) */
static void
print_names(FILE *f)
{
	fputs("names:\n  one\n  two\n", f);
}

/* a subcommand's whole --help from its table: usage, prose, a printed part, the options */
static void
help_whole(void **state)
{
	static const struct al_optdef whole[] = {
		AL_OPT_TEXT("usage: prog [options]\n\nWhat it does.\n\n"),
		AL_OPT_PRINT(print_names),
		AL_OPT_TEXT("\n"),
		{ .id = 'v', .name = "verbose", .short_name = 'v', .type = AL_OPT_FLAG,
		  .help = "more" },
		AL_OPT_PRINT(NULL), /* nothing */
		AL_OPT_TEXT("\nexit status: 0 done\n"),
		AL_OPT_END,
	};
	static const char want[] = "usage: prog [options]\n\nWhat it does.\n\n"
				   "names:\n  one\n  two\n\n"
				   "  -v, --verbose          more\n"
				   "\nexit status: 0 done\n";
	char *text = help_of(whole, 25);
	int first;

	(void)state;
	assert_string_equal(text, want);
	free(text);
	/* the text and printed entries are no options */
	assert_int_equal(PARSE_T(whole, &first, "-v", "x"), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.id[0], 'v');
	assert_int_equal(first, 2);
}

/* a duration that may be 0 (monitor's --checkpoint 0: none before the end) */
static void
time_zero(void **state)
{
	static const struct al_optdef zeros[] = {
		{ .id = 'c', .name = "checkpoint", .type = AL_OPT_TIME, .unit_ns = AL_NS_PER_SEC,
		  .zero = true },
		{ .id = 't', .name = "time", .type = AL_OPT_TIME, .unit_ns = AL_NS_PER_SEC },
		AL_OPT_END,
	};
	int first;

	(void)state;
	assert_int_equal(PARSE_T(zeros, &first, "--checkpoint", "0"), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.value[0], 0);
	assert_int_equal(PARSE_T(zeros, &first, "--checkpoint=2m"), 0);
	assert_int_equal(s.value[0], 120 * AL_NS_PER_SEC);
	expect_error(PARSE_T(zeros, &first, "--checkpoint", "-1"),
		     "--checkpoint: '-1' is not a duration (a number with ns, us, ms, s, m or h)");
	expect_error(PARSE_T(zeros, &first, "--time", "0"), "--time: '0' must be longer than zero");
}

/* ---- where the table stores values itself ---- */

struct inner {
	int level;
	char name[8];
};

struct target {
	bool flag, given;
	int i;
	int64_t t_ns;
	uint32_t u;
	uint64_t u64;
	const char *str;
	char chars[8];
	int label_picked;
	struct inner in;
};

static const struct al_optdef inner_table[] = {
	{ .name = "level", .type = AL_OPT_INT, .min = 0, .max = 9, AL_OPT_TO(struct inner, level) },
	{ .name = "name", .type = AL_OPT_SPEC, AL_OPT_TO(struct inner, name) },
	{ .name = "flag", .type = AL_OPT_FLAG }, /* shadowed by the including table's */
	AL_OPT_END,
};

#define TO(f_) AL_OPT_TO(struct target, f_)
static const struct al_optdef storing[] = {
	{ .name = "flag", .short_name = 'f', .type = AL_OPT_FLAG, TO(flag) },
	{ .name = "int", .type = AL_OPT_INT, .min = -5, .max = 5, TO(i) },
	{ .name = "time", .short_name = 't', .type = AL_OPT_TIME, .unit_ns = AL_NS_PER_MS, TO(t_ns),
	  AL_OPT_ALSO(struct target, given) },
	{ .name = "u32", .type = AL_OPT_INT, .min = 0, .max = 100000, TO(u) },
	{ .name = "u64", .type = AL_OPT_INT, .min = 0, .max = 2147483647, TO(u64) },
	{ .name = "str", .type = AL_OPT_OUT, TO(str) },
	{ .name = "chars", .type = AL_OPT_SPEC, TO(chars) },
	AL_OPT_PICK(shared, S_LABEL, TO(str)), /* stored here, not where shared would say */
	AL_OPT_INCLUDE(inner_table, struct target, in),
	AL_OPT_END,
};

static void
stores(void **state)
{
	struct target t = { 0 };
	int first;

	(void)state;
	assert_int_equal(al_opts_parse(storing, NARGS("-f", "--int", "-3", "-t", "20", "--u32",
						     "70000", "--chars", "abcdefghij", "--level",
						     "7", "--name", "x", "--str", "-"),
				       ARGS("-f", "--int", "-3", "-t", "20", "--u32", "70000",
					    "--chars", "abcdefghij", "--level", "7", "--name", "x",
					    "--str", "-"),
				       NULL, &t, &first, &res, err, sizeof(err)),
			 0);
	assert_true(t.flag);
	assert_int_equal(t.i, -3);
	assert_int_equal(t.t_ns, 20 * AL_NS_PER_MS);
	assert_true(t.given);
	assert_int_equal(t.u, 70000);
	assert_int_equal(t.u64, 0);
	assert_string_equal(t.str, "-");
	assert_string_equal(t.chars, "abcdefg"); /* cut to the field */
	assert_int_equal(t.in.level, 7);         /* an included table stores at its base */
	assert_string_equal(t.in.name, "x");
	assert_int_equal(res.fault, AL_OPTS_OK);
	assert_int_equal(al_opts_parse(storing, NARGS("--u64", "2147483647"),
				       ARGS("--u64", "2147483647"), NULL, &t, &first, &res, err,
				       sizeof(err)),
			 0);
	assert_true(t.u64 == 2147483647);
	/* a picked option stores where the picking entry says */
	assert_int_equal(al_opts_parse(storing, NARGS("--label", "lbl"), ARGS("--label", "lbl"),
				       NULL, &t, &first, &res, err, sizeof(err)),
			 0);
	assert_string_equal(t.str, "lbl");
	/* a refused value stores nothing */
	t.i = 1;
	expect_error(al_opts_parse(storing, NARGS("--int", "6"), ARGS("--int", "6"), NULL, &t,
				   &first, &res, err, sizeof(err)),
		     "--int: '6' is not in -5..5");
	assert_int_equal(t.i, 1);
}

/* ---- why a parse stopped: structurally, beside the message ---- */

static void
expect_fault(enum al_opts_fault fault, int index, const char *tok, const char *name)
{
	assert_int_equal(res.fault, fault);
	assert_int_equal(res.index, index);
	assert_string_equal(res.tok, tok);
	if (name)
		assert_string_equal(res.def.name, name);
	else
		assert_null(res.def.name);
}

static void
structural_result(void **state)
{
	int first;

	(void)state;
	expect_error(PARSE(&first, "-v", "--nosuch"), "unknown option '--nosuch'");
	expect_fault(AL_OPTS_UNKNOWN, 2, "--nosuch", NULL);
	expect_error(PARSE(&first, "-vXq"), "unknown option '-X'");
	expect_fault(AL_OPTS_UNKNOWN, 1, "-X", NULL);
	expect_error(PARSE(&first, "-v", "-qX"), "unknown option '-X'"); /* last of a cluster */
	expect_fault(AL_OPTS_UNKNOWN, 2, "-X", NULL);
	expect_error(PARSE(&first, "file", "-Xv"), "unknown option '-X'"); /* after an argument */
	expect_fault(AL_OPTS_UNKNOWN, 2, "-X", NULL);
	expect_error(PARSE(&first, "-v\xe9"), "unknown option '-\xe9'"); /* a byte >= 0x80 */
	expect_fault(AL_OPTS_UNKNOWN, 1, "-\xe9", NULL);
	expect_error(PARSE(&first, "--count", "2", "--verbose=yes"),
		     "option --verbose takes no value");
	expect_fault(AL_OPTS_EXTRA_VALUE, 3, "--verbose", "verbose");
	expect_error(PARSE(&first, "-v", "--count"), "option --count: needs a value");
	expect_fault(AL_OPTS_NO_VALUE, 2, "--count", "count");
	expect_error(PARSE(&first, "-v", "-t", "99999999999999999999h"),
		     "-t/--time: '99999999999999999999h' is too large");
	expect_fault(AL_OPTS_BAD_VALUE, 2, "-t", "time");
	expect_error(PARSE(&first, "-vt0"), "-t/--time: '0' must be longer than zero");
	expect_fault(AL_OPTS_BAD_VALUE, 1, "-t", "time");
	expect_error(PARSE(&first, "-v", "--fail"), "--fail: bad value");
	expect_fault(AL_OPTS_REFUSED, 2, "--fail", "fail");
	assert_int_equal(PARSE(&first, "-v"), 0);
	expect_fault(AL_OPTS_OK, -1, "", NULL);
	expect_error(PARSE_T(twice_by_name, &first, "--x"),
		     "option table: --x is declared twice (by name or letter)");
	expect_fault(AL_OPTS_TABLE, -1, "", NULL);
}

/* the option a token names, through picks and includes; exactly, no abbreviation */
static void
find(void **state)
{
	struct al_optdef d;

	(void)state;
	assert_int_equal(al_opts_find(table, "--count", &d), 0);
	assert_int_equal(d.id, O_COUNT);
	assert_int_equal(al_opts_find(table, "-v", &d), 0);
	assert_string_equal(d.name, "verbose");
	assert_int_equal(al_opts_find(table, "--label", &d), 0);
	assert_string_equal(d.arg, "NAME"); /* as worded here */
	assert_int_equal(al_opts_find(including, "--time", &d), 0);
	assert_int_equal(al_opts_find(including, "--quiet", &d), -ENOENT); /* shadowed */
	assert_int_equal(al_opts_find(table, "--cou", &d), -ENOENT);
	assert_int_equal(al_opts_find(table, "-vq", &d), -ENOENT);
	assert_int_equal(al_opts_find(table, "count", &d), -ENOENT);
	assert_int_equal(al_opts_find(twice_by_name, "--x", &d), -EINVAL);
}

/* another table's options as this one's own: one id, with or without their letters */
static void
merged(void **state)
{
	static const struct al_optdef other[] = {
		{ .id = 1, .name = "groups", .short_name = 'g', .type = AL_OPT_SPEC, .arg = "N",
		  .help = "groups" },
		{ .id = 2, .name = "pipe", .short_name = 'p', .type = AL_OPT_FLAG, .help = "pipes" },
		AL_OPT_END,
	};
	static const struct al_optdef listed[] = { AL_OPT_MERGE(O_SPEC, other), AL_OPT_END };
	static const struct al_optdef longs[] = {
		AL_OPT_LONGS(O_SPEC, other, "      --groups, --pipe: the other's\n"),
		{ .id = 'p', .name = "print", .short_name = 'p', .type = AL_OPT_FLAG },
		AL_OPT_END,
	};
	char *text = NULL;
	size_t size = 0;
	FILE *f;
	int first;

	(void)state;
	assert_int_equal(PARSE_T(listed, &first, "-g", "5", "--pipe"), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.id[0], O_SPEC);
	assert_string_equal(s.arg[0], "5");
	assert_int_equal(s.id[1], O_SPEC);
	assert_null(s.arg[1]);
	/* long names only: -p is free for this table */
	assert_int_equal(PARSE_T(longs, &first, "--groups", "2", "-p"), 0);
	assert_int_equal(s.id[1], 'p');
	expect_error(PARSE_T(longs, &first, "-g", "2"), "unknown option '-g'");
	f = open_memstream(&text, &size);
	assert_non_null(f);
	al_opts_help(f, listed, 20);
	al_opts_help(f, longs, 20);
	fclose(f);
	assert_string_equal(text, "  -g, --groups N    groups\n"
				  "  -p, --pipe        pipes\n"
				  "      --groups, --pipe: the other's\n");
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values_by_type_in_order),
		cmocka_unit_test(missing_value),
		cmocka_unit_test(unknown_option),
		cmocka_unit_test(bad_values),
		cmocka_unit_test(double_dash_and_stop),
		cmocka_unit_test(duplicates_in_the_table),
		cmocka_unit_test(help_list),
		cmocka_unit_test(help_whole),
		cmocka_unit_test(time_zero),
		cmocka_unit_test(stores),
		cmocka_unit_test(structural_result),
		cmocka_unit_test(find),
		cmocka_unit_test(merged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
