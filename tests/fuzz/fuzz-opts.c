/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * al_opts_parse() (src/core/opts.c) on a table of every kind (options of
 * every type, a pick, a merge by long names, an include with its own
 * stores): the input split on NUL and newline bytes is the argument list.
 * Checks: 0 or -EINVAL; the structural result agrees with the return and
 * the message (OK on success; on failure an index inside argv, the token
 * quoted, the option named for everything but UNKNOWN, and al_opts_find()
 * knows the named option and not the unknown one); stored values are in
 * their ranges and strings terminated; a second parse gives the same.
 */
#include <errno.h>
#include <inttypes.h>

#include "core/opts.h"
#include "fuzz.h"

#define MAX_ARGS 256
#define ERR_SIZE 512

enum { F_SPEC = 256, F_MERGED, F_FAIL };

struct inner {
	int level;
	char name[8];
};

struct target {
	bool flag, given;
	int i;
	int64_t t_ns;
	uint32_t u;
	const char *out;
	char text[16];
	int choice;
	struct inner in;
};

static const struct al_optdef other[] = {
	{ .id = 1, .name = "quiet", .short_name = 'q', .type = AL_OPT_FLAG, .help = "x" },
	{ .id = 2, .name = "label", .type = AL_OPT_TEXT, .max_len = 12, .help = "x" },
	AL_OPT_END,
};
static const struct al_optdef merged[] = {
	{ .name = "groups", .short_name = 'g', .type = AL_OPT_SPEC },
	{ .name = "pipe", .short_name = 'p', .type = AL_OPT_FLAG },
	AL_OPT_END,
};
static const struct al_optdef inner_table[] = {
	{ .name = "level", .short_name = 'l', .type = AL_OPT_INT, .min = 0, .max = 9,
	  AL_OPT_TO(struct inner, level) },
	{ .name = "name", .type = AL_OPT_SPEC, AL_OPT_TO(struct inner, name) },
	{ .name = "flag", .type = AL_OPT_FLAG }, /* shadowed */
	AL_OPT_END,
};

#define TO(f_) AL_OPT_TO(struct target, f_)
static const struct al_optdef table[] = {
	AL_OPT_TEXT("options:\n"),
	{ .name = "flag", .short_name = 'f', .type = AL_OPT_FLAG, TO(flag) },
	{ .name = "int", .short_name = 'i', .type = AL_OPT_INT, .min = -5, .max = 5, TO(i) },
	{ .name = "time", .short_name = 't', .type = AL_OPT_TIME, .unit_ns = 1000, TO(t_ns),
	  AL_OPT_ALSO(struct target, given) },
	{ .name = "u32", .type = AL_OPT_INT, .min = 0, .max = 100000, TO(u) },
	{ .name = "out", .short_name = 'o', .type = AL_OPT_OUT, TO(out) },
	{ .name = "file", .type = AL_OPT_FILE },
	{ .name = "path", .type = AL_OPT_PATH },
	{ .name = "text", .type = AL_OPT_SPEC, .max_len = 40, TO(text) },
	{ .name = "choice", .type = AL_OPT_CHOICE, .choices = "a|bb|ccc", TO(choice) },
	{ .id = F_SPEC, .name = "spec", .short_name = 's', .type = AL_OPT_SPEC },
	{ .id = F_FAIL, .name = "fail", .type = AL_OPT_FLAG },
	AL_OPT_PICK(other, 1),
	AL_OPT_PICK(other, 2, .arg = "NAME"),
	AL_OPT_LONGS(F_MERGED, merged, "      --groups, --pipe\n"),
	AL_OPT_INCLUDE(inner_table, struct target, in),
	AL_OPT_END,
};

static int
setter(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size)
{
	(void)ctx;
	FUZZ_CHECK(h->def && h->n_tok >= 1 && h->n_tok <= 2, "hit of %d tokens", h->n_tok);
	FUZZ_CHECK(h->tok[0][0] == '-', "option token '%s'", h->tok[0]);
	FUZZ_CHECK((h->def->type == AL_OPT_FLAG) == !h->arg, "--%s: flag and value disagree",
		   h->def->name);
	if (h->id == F_FAIL)
		return -EINVAL; /* the loop words it */
	if (h->id == F_SPEC && h->arg[0] == 'x')
		return snprintf(err, err_size, "--spec: no x"), -EINVAL;
	return 0;
}

static void
check_stored(const struct target *t)
{
	FUZZ_CHECK(t->i >= -5 && t->i <= 5, "int %d", t->i);
	FUZZ_CHECK(!t->given || t->t_ns > 0, "time %" PRId64, t->t_ns);
	FUZZ_CHECK(t->u <= 100000, "u32 %" PRIu32, t->u);
	FUZZ_CHECK(!t->out || t->out[0], "%s", "empty --out stored");
	FUZZ_CHECK(memchr(t->text, '\0', sizeof(t->text)), "%s", "text unterminated");
	FUZZ_CHECK(t->choice >= 0 && t->choice <= 2, "choice %d", t->choice);
	FUZZ_CHECK(t->in.level >= 0 && t->in.level <= 9, "level %d", t->in.level);
	FUZZ_CHECK(memchr(t->in.name, '\0', sizeof(t->in.name)), "%s", "name unterminated");
}

static void
check_result(int r, const struct al_opts_result *res, int argc, const char *err)
{
	struct al_optdef d;
	char tok[96];

	if (!r) {
		FUZZ_CHECK(res->fault == AL_OPTS_OK && res->index == -1, "success with fault %d",
			   (int)res->fault);
		return;
	}
	FUZZ_CHECK(res->fault > AL_OPTS_OK && res->fault < AL_OPTS_TABLE, "fault %d",
		   (int)res->fault);
	FUZZ_CHECK(res->index >= 1 && res->index < argc, "index %d of %d", res->index, argc);
	FUZZ_CHECK(res->tok[0] == '-', "token '%s'", res->tok);
	if (res->fault == AL_OPTS_UNKNOWN) {
		FUZZ_CHECK(!res->def.name, "unknown '%s' names --%s", res->tok, res->def.name);
		snprintf(tok, sizeof(tok), "unknown option '%s'", res->tok);
		FUZZ_CHECK(!strcmp(err, tok) || strlen(res->tok) == sizeof(res->tok) - 1,
			   "'%s' for the unknown '%s'", err, res->tok);
		FUZZ_CHECK(al_opts_find(table, res->tok, &d) == -ENOENT, "'%s' unknown and found",
			   res->tok);
		return;
	}
	FUZZ_CHECK(res->def.name, "fault %d names no option", (int)res->fault);
	snprintf(tok, sizeof(tok), "--%s", res->def.name);
	FUZZ_CHECK(!al_opts_find(table, tok, &d) && !strcmp(d.name, res->def.name),
		   "--%s named and not found", res->def.name);
}

static int
parse(char *const *args, int argc, struct target *t, struct al_opts_result *res, char *err,
      size_t err_size)
{
	char *argv[MAX_ARGS + 1];
	int first;

	/* getopt_long permutes argv: give it a fresh copy each time */
	memcpy(argv, args, (size_t)argc * sizeof(*argv));
	argv[argc] = NULL;
	memset(t, 0, sizeof(*t));
	return al_opts_parse(table, argc, argv, setter, t, &first, res, err, err_size);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size), *args[MAX_ARGS + 1];
	static struct al_opts_result res, res2;
	static struct target t, t2;
	char err[ERR_SIZE], err2[ERR_SIZE];
	int argc, r, r2;

	argc = fuzz_split_args("cmd", s, size, args, MAX_ARGS);
	memset(err, 'X', sizeof(err));
	r = parse(args, argc, &t, &res, err, sizeof(err));
	FUZZ_CHECK(r == 0 || r == -EINVAL, "returned %d", r);
	if (r)
		fuzz_check_err(err, sizeof(err), 0);
	else
		FUZZ_CHECK(err[0] == '\0', "success with error text '%.*s'", ERR_SIZE - 1, err);
	check_stored(&t);
	check_result(r, &res, argc, err);

	r2 = parse(args, argc, &t2, &res2, err2, sizeof(err2));
	FUZZ_CHECK(r2 == r && !strcmp(err, err2), "second parse: %d '%s', first %d '%s'", r2, err2,
		   r, err);
	FUZZ_CHECK(res2.fault == res.fault && res2.index == res.index && !strcmp(res2.tok, res.tok),
		   "%s", "second parse gave another result");
	FUZZ_CHECK(t2.i == t.i && t2.t_ns == t.t_ns && t2.u == t.u && !strcmp(t2.text, t.text) &&
			   t2.in.level == t.in.level,
		   "%s", "second parse stored other values");
	free(s);
	return 0;
}
