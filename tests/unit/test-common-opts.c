/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CLI's shared options (src/args/common-opts.c) checked the same way
 * in every table that picks them, and load's options merged from
 * src/load (al_load_optdefs).
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

#include "args/common-opts.h"
#include "core/clock.h"
#include "load/load.h"

enum { O_LOAD = 256 };

struct got {
	int64_t duration_ns;
	bool duration_given;
	const char *db, *json, *label;
	int n, id[8];
	const char *arg[8], *tok[8];
};

#define TO(f_) AL_OPT_TO(struct got, f_)
static const struct al_optdef table[] = {
	CLI_SHARED(CLI_OPT_DURATION, TO(duration_ns), AL_OPT_ALSO(struct got, duration_given)),
	CLI_SHARED(CLI_OPT_DB, TO(db)),
	CLI_SHARED(CLI_OPT_JSON, TO(json)),
	CLI_SHARED_AS(CLI_OPT_LABEL, "NAME", "worded here", TO(label)),
	CLI_SHARED_HIDDEN(CLI_OPT_NO_DB),
	AL_OPT_MERGE(O_LOAD, al_load_optdefs),
	AL_OPT_END,
};

static int
record(void *ctx, const struct al_opt_hit *h, char *e, size_t size)
{
	struct got *g = ctx;

	(void)e;
	(void)size;
	if (g->n < 8) {
		g->id[g->n] = h->id;
		g->arg[g->n] = h->arg;
		g->tok[g->n++] = h->tok[0];
	}
	return 0;
}

#define ARGS(...) (char *[]){ "cmd", __VA_ARGS__, NULL }
#define NARGS(...) ((int)(sizeof((char *[]){ "cmd", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(g, ...)                                                                     \
	(memset(g, 0, sizeof(*g)), al_opts_parse(table, NARGS(__VA_ARGS__), ARGS(__VA_ARGS__), \
						  record, g, &first, NULL, err, sizeof(err)))

static char err[256];

static void
shared_validation(void **state)
{
	struct got g;
	int first;

	(void)state;
	assert_int_equal(PARSE(&g, "--label", "a\tb"), -EINVAL);
	assert_string_equal(err, "--label: 'a\tb' has a control character");
	assert_int_equal(PARSE(&g, "--label", "a\x7f" "b"), -EINVAL); /* DEL too */
	assert_non_null(strstr(err, "has a control character"));
	assert_int_equal(PARSE(&g, "--db", ""), -EINVAL);
	assert_string_equal(err, "--db: '' is not a path");
	assert_int_equal(PARSE(&g, "--json", ""), -EINVAL);
	assert_string_equal(err, "--json: '' is not a file name");
	assert_int_equal(PARSE(&g, "-d", "2", "--db", "x.db", "--label", "l", "--no-db"), 0);
	assert_int_equal(g.duration_ns, 2 * AL_NS_PER_SEC); /* bare = s */
	assert_true(g.duration_given);
	assert_string_equal(g.db, "x.db");
	assert_string_equal(g.label, "l");
	assert_int_equal(g.id[3], CLI_OPT_NO_DB);
}

/* every load option with its letter: parsed by both names, each listed with its help */
static void
load_opts_listed(void **state)
{
	static const struct al_optdef loads[] = { AL_OPT_MERGE(O_LOAD, al_load_optdefs),
						  AL_OPT_END };
	char *text = NULL;
	size_t size = 0;
	struct got g;
	FILE *f;
	int first;

	(void)state;
	assert_int_equal(PARSE(&g, "-g", "5", "--fds", "3", "-p"), 0);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.id[0], O_LOAD);
	assert_string_equal(g.arg[0], "5");
	assert_string_equal(g.tok[0], "-g");
	assert_string_equal(g.arg[1], "3");
	assert_null(g.arg[2]); /* --pipe is a flag */
	f = open_memstream(&text, &size);
	assert_non_null(f);
	al_opts_help(f, loads, 25);
	al_opts_help(f, table, 25);
	fclose(f);
	assert_non_null(strstr(text, "  -g, --groups N         hackbench groups (default 10)\n"));
	assert_non_null(strstr(text, "      --load-nice N      nice value of the loads"));
	assert_non_null(strstr(text, "      --label NAME       worded here\n"));
	assert_null(strstr(text, "--no-db"));
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shared_validation),
		cmocka_unit_test(load_opts_listed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
