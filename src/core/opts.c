/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One option table: the parse loop, the value checks, --help (opts.h). */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "core/opts.h"
#include "core/units.h"

/* a letter of a cluster ("-qv") handed on alone: "-v" */
#define T(c) [c] = { '-', c, '\0' }
static const char short_tok[128][3] = {
	T('0'), T('1'), T('2'), T('3'), T('4'), T('5'), T('6'), T('7'), T('8'), T('9'), T('A'),
	T('B'), T('C'), T('D'), T('E'), T('F'), T('G'), T('H'), T('I'), T('J'), T('K'), T('L'),
	T('M'), T('N'), T('O'), T('P'), T('Q'), T('R'), T('S'), T('T'), T('U'), T('V'), T('W'),
	T('X'), T('Y'), T('Z'), T('a'), T('b'), T('c'), T('d'), T('e'), T('f'), T('g'), T('h'),
	T('i'), T('j'), T('k'), T('l'), T('m'), T('n'), T('o'), T('p'), T('q'), T('r'), T('s'),
	T('t'), T('u'), T('v'), T('w'), T('x'), T('y'), T('z'),
};
#undef T

const char *
al_opt_label(const struct al_optdef *d, char *buf, size_t size)
{
	if (d->short_name)
		snprintf(buf, size, "-%c/--%s", d->short_name, d->name);
	else
		snprintf(buf, size, "--%s", d->name);
	return buf;
}

/* "'x' is not a, b or c" from "a|b|c" */
static int
bad_choice(const char *label, const char *choices, const char *arg, char *err, size_t size)
{
	size_t used = (size_t)snprintf(err, size, "%s: '%s' is not ", label, arg);
	const char *p = choices;

	while (*p && used < size) {
		size_t len = strcspn(p, "|");
		const char *next = p[len] ? p + len + 1 : p + len;
		const char *sep = !*next ? "" : strchr(next, '|') ? ", " : " or ";

		used += (size_t)snprintf(err + used, size - used, "%.*s%s", (int)len, p, sep);
		p = next;
	}
	return -EINVAL;
}

/* the index of arg in "a|b|c", or -1 */
static int
choice_index(const char *choices, const char *arg)
{
	const char *p = choices;
	int i = 0;

	while (*p) {
		size_t len = strcspn(p, "|");

		if (strlen(arg) == len && !strncmp(p, arg, len))
			return i;
		p += len + (p[len] == '|');
		i++;
	}
	return -1;
}

static int
check_text(const struct al_optdef *d, const char *label, const char *arg, char *err, size_t size)
{
	if (d->max_len && strlen(arg) > d->max_len) {
		if (d->type == AL_OPT_TEXT)
			snprintf(err, size, "%s: '%.40s...' is too long (at most %zu bytes)", label,
				 arg, d->max_len);
		else
			snprintf(err, size, "%s: '%.40s...' is too long", label, arg);
		return -EINVAL;
	}
	for (const char *q = arg; d->type == AL_OPT_TEXT && *q; q++)
		if ((unsigned char)*q < 0x20 || *q == 0x7f) {
			snprintf(err, size, "%s: '%s' has a control character", label, arg);
			return -EINVAL;
		}
	return 0;
}

int
al_opt_check(const struct al_optdef *d, const char *arg, int64_t *v, char *err, size_t size)
{
	char label[64];
	long n;
	int rc;

	*v = 0;
	al_opt_label(d, label, sizeof(label));
	switch (d->type) {
	case AL_OPT_FLAG:
		return 0;
	case AL_OPT_TIME:
		rc = al_parse_duration_ns(arg, d->unit_ns, v);
		if (rc == -ERANGE)
			snprintf(err, size, "%s: '%s' is too large", label, arg);
		else if (rc)
			snprintf(err, size,
				 "%s: '%s' is not a duration (a number with ns, us, ms, s, m or h)",
				 label, arg);
		else if (*v < (d->zero ? 0 : 1))
			snprintf(err, size, "%s: '%s' must be longer than zero", label, arg);
		return rc || *v < (d->zero ? 0 : 1) ? -EINVAL : 0;
	case AL_OPT_INT:
		rc = al_parse_long(arg, d->min, d->max, &n);
		if (rc == -EINVAL)
			snprintf(err, size, "%s: '%s' is not a whole number", label, arg);
		else if (rc)
			snprintf(err, size, "%s: '%s' is not in %ld..%ld", label, arg, d->min, d->max);
		*v = rc ? 0 : n;
		return rc ? -EINVAL : 0;
	case AL_OPT_TEXT:
	case AL_OPT_SPEC:
		return check_text(d, label, arg, err, size);
	case AL_OPT_PATH:
		if (!arg[0]) {
			snprintf(err, size, "%s: '%s' is not a path", label, arg);
			return -EINVAL;
		}
		return 0;
	case AL_OPT_OUT:
	case AL_OPT_FILE:
		if (!arg[0] || (d->type == AL_OPT_FILE && !strcmp(arg, "-"))) {
			snprintf(err, size, "%s: '%s' is not a file name", label, arg);
			return -EINVAL;
		}
		return 0;
	case AL_OPT_CHOICE:
		rc = choice_index(d->choices ? d->choices : "", arg);
		if (rc < 0)
			return bad_choice(label, d->choices ? d->choices : "", arg, err, size);
		*v = rc;
		return 0;
	}
	return 0;
}

/* ---- the table, flattened: what getopt_long gets ---- */

struct flat {
	struct al_optdef d[AL_OPTS_MAX];
	bool included[AL_OPTS_MAX];
	size_t base[AL_OPTS_MAX]; /* where the option's store is relative to: ctx + base */
	size_t n;
};

static bool
is_end(const struct al_optdef *e)
{
	return !e->name && e->kind == AL_OPT_K_OPT;
}

static int
clashes(const struct flat *f, const struct al_optdef *d)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->d[i].name, d->name) ||
		    (d->short_name && f->d[i].short_name == d->short_name))
			return 1;
	return 0;
}

static int
table_error(char *err, size_t size, const char *what, const struct al_optdef *d)
{
	snprintf(err, size, "option table: --%s %s", d && d->name ? d->name : "?", what);
	return -EINVAL;
}

static int
add(struct flat *f, const struct al_optdef *d, bool included, size_t base, char *err,
    size_t size)
{
	if (!d->name || !d->name[0])
		return table_error(err, size, "has no name", d);
	if (d->short_name && (d->short_name < 0 || !isalnum((unsigned char)d->short_name)))
		return table_error(err, size, "has a short name that is not a letter", d);
	if (clashes(f, d))
		return table_error(err, size, "is declared twice (by name or letter)", d);
	if (f->n == AL_OPTS_MAX)
		return table_error(err, size, "is one too many", d);
	f->included[f->n] = included;
	f->base[f->n] = base;
	f->d[f->n++] = *d;
	return 0;
}

/* A picked entry as it parses and prints: the other table's option, worded and stored here. */
static int
resolve_pick(const struct al_optdef *e, struct al_optdef *out)
{
	const struct al_optdef *base;

	for (base = e->from; base && !is_end(base); base++)
		if (base->kind == AL_OPT_K_OPT && base->id == e->id)
			break;
	if (!base || is_end(base))
		return -ENOENT;
	*out = *base;
	if (e->arg)
		out->arg = e->arg;
	if (e->help)
		out->help = e->help;
	if (e->store) {
		out->store = e->store;
		out->off = e->off;
		out->size = e->size;
	}
	if (e->also) {
		out->also = true;
		out->also_off = e->also_off;
	}
	return 0;
}

static int flatten(const struct al_optdef *table, struct flat *f, char *err, size_t size);

/* a merged table's options as this one's own (MERGE), or an included one's not shadowed */
static int
add_all(struct flat *f, const struct al_optdef *e, char *err, size_t size)
{
	struct flat inc;
	int rc = flatten(e->from, &inc, err, size);
	bool included = e->kind == AL_OPT_K_INCLUDE;

	for (size_t i = 0; !rc && i < inc.n; i++) {
		struct al_optdef d = inc.d[i];

		if (!included) {
			if (e->id)
				d.id = e->id;
			if (e->long_only)
				d.short_name = 0;
			rc = add(f, &d, inc.included[i], inc.base[i], err, size);
		} else if (!clashes(f, &d)) {
			rc = add(f, &d, true, e->off + inc.base[i], err, size);
		}
	}
	return rc;
}

static int
flatten(const struct al_optdef *table, struct flat *f, char *err, size_t size)
{
	const struct al_optdef *e;
	struct al_optdef d;
	int rc = 0;

	f->n = 0;
	if (!table)
		return table_error(err, size, "from a table that is not there", NULL);
	for (e = table; !rc && !is_end(e); e++) {
		switch (e->kind) {
		case AL_OPT_K_OPT:
			rc = add(f, e, false, 0, err, size);
			break;
		case AL_OPT_K_PICK:
			if (resolve_pick(e, &d))
				return table_error(err, size, "is not in the table picked from", NULL);
			rc = add(f, &d, false, 0, err, size);
			break;
		case AL_OPT_K_MERGE:
			rc = add_all(f, e, err, size);
			break;
		case AL_OPT_K_TEXT:
		case AL_OPT_K_INCLUDE:
		case AL_OPT_K_PRINT:
			break;
		}
	}
	/* then the included tables: what this one declares shadows theirs */
	for (e = table; !rc && !is_end(e); e++)
		if (e->kind == AL_OPT_K_INCLUDE)
			rc = add_all(f, e, err, size);
	return rc;
}

int
al_opts_find(const struct al_optdef *table, const char *tok, struct al_optdef *out)
{
	bool is_long = tok[0] == '-' && tok[1] == '-';
	char err[128];
	struct flat f;

	if (flatten(table, &f, err, sizeof(err)))
		return -EINVAL;
	for (size_t i = 0; i < f.n; i++) {
		const struct al_optdef *d = &f.d[i];

		if ((is_long && !strcmp(tok + 2, d->name)) ||
		    (!is_long && tok[0] == '-' && d->short_name && tok[1] == d->short_name &&
		     !tok[2])) {
			*out = *d;
			return 0;
		}
	}
	return -ENOENT;
}

/* ---- the loop ---- */

static int
val_of(const struct flat *f, size_t i)
{
	return f->d[i].short_name ? f->d[i].short_name : 256 + (int)i;
}

static const struct al_optdef *
def_of_val(const struct flat *f, int val)
{
	for (size_t i = 0; i < f->n; i++)
		if (val_of(f, i) == val)
			return &f->d[i];
	return NULL;
}

static void
set_fault(struct al_opts_result *res, enum al_opts_fault fault, int index, const char *tok,
	  const struct al_optdef *d)
{
	if (!res)
		return;
	res->fault = fault;
	res->index = index;
	snprintf(res->tok, sizeof(res->tok), "%s", tok);
	res->def = d ? *d : (struct al_optdef){ .name = NULL };
}

/*
 * The argv element the option getopt_long just returned came from: the
 * last one it stepped past, or, in the middle of a cluster ("-qv" after
 * -q), the one it is still in.
 */
static int
elem_of(int before, char **argv)
{
	if (optind > before && argv[optind - 1][0] == '-' && argv[optind - 1][1])
		return optind - 1;
	return optind;
}

/* the unknown option getopt_long returned '?' for, in one line */
static int
unknown(const struct flat *f, int before, int argc, char **argv, struct al_opts_result *res,
	char *err, size_t size)
{
	const char *tok = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	const struct al_optdef *d = optopt ? def_of_val(f, optopt) : NULL;
	int letter = optopt < 0 ? optopt + 256 : optopt; /* getopt's char: a byte >= 0x80 */
	char name[64];

	if (d && !strncmp(tok, "--", 2)) { /* "--quiet=x" */
		snprintf(err, size, "option --%s takes no value", d->name);
		snprintf(name, sizeof(name), "--%s", d->name);
		set_fault(res, AL_OPTS_EXTRA_VALUE, optind - 1, name, d);
	} else if (letter > 0 && letter < 256 && !d) {
		snprintf(err, size, "unknown option '-%c'", letter);
		snprintf(name, sizeof(name), "-%c", letter);
		set_fault(res, AL_OPTS_UNKNOWN, elem_of(before, argv), name, NULL);
	} else {
		snprintf(err, size, "unknown option '%s'", tok);
		set_fault(res, AL_OPTS_UNKNOWN, optind - 1, tok, NULL);
	}
	return -EINVAL;
}

/* How the option was given: its own tokens where they are its alone, else "-v" */
static int
tokens_of(struct al_opt_hit *h, bool is_long, int before, char **argv)
{
	const char *last = argv[optind - 1];
	char c = h->def->short_name;

	h->n_tok = 0;
	if (h->arg && h->arg == last && optind >= 2) { /* "-d 5s", "--duration 5s" */
		const char *o = argv[optind - 2];

		h->tok[h->n_tok++] = is_long || (o[0] == '-' && o[1] == c && !o[2])
					     ? o : short_tok[(int)c];
		h->tok[h->n_tok++] = last;
		return optind - 2;
	}
	if (is_long || (h->arg && last[0] == '-' && last[1] == c && h->arg == last + 2)) {
		h->tok[h->n_tok++] = last; /* "--duration=5s", "-d5s" */
		return optind - 1;
	}
	/* a flag, or the last letter of a cluster with its value ("-qd5s") */
	h->tok[h->n_tok++] = short_tok[(int)c];
	if (h->arg)
		h->tok[h->n_tok++] = h->arg;
	return elem_of(before, argv);
}

/* The value into ctx where the table says. */
static void
store(const struct al_optdef *d, void *ctx, size_t base, const struct al_opt_hit *h)
{
	char *p = (char *)ctx + base + d->off;

	if (!ctx)
		return;
	switch (d->store) {
	case AL_OPT_S_NONE:
		break;
	case AL_OPT_S_BOOL:
		*(bool *)p = true;
		break;
	case AL_OPT_S_INT:
		*(int *)p = (int)h->value;
		break;
	case AL_OPT_S_I64:
		*(int64_t *)p = h->value;
		break;
	case AL_OPT_S_U32:
		*(uint32_t *)p = (uint32_t)h->value;
		break;
	case AL_OPT_S_U64:
		*(uint64_t *)p = (uint64_t)h->value;
		break;
	case AL_OPT_S_STR:
		*(const char **)p = h->arg;
		break;
	case AL_OPT_S_CHARS:
		snprintf(p, d->size, "%s", h->arg ? h->arg : "");
		break;
	}
	if (d->also)
		*(bool *)((char *)ctx + base + d->also_off) = true;
}

/* getopt_long's tables from the flattened one */
static void
getopt_tables(const struct flat *f, struct option *longs, char *shorts)
{
	size_t i, ns = 0;

	shorts[ns++] = ':'; /* a missing value is ':', not '?' */
	for (i = 0; i < f->n; i++) {
		bool has_arg = f->d[i].type != AL_OPT_FLAG;

		longs[i] = (struct option){ f->d[i].name, has_arg ? required_argument : no_argument,
					    NULL, val_of(f, i) };
		if (f->d[i].short_name) {
			shorts[ns++] = f->d[i].short_name;
			if (has_arg)
				shorts[ns++] = ':';
		}
	}
	longs[f->n] = (struct option){ NULL, 0, NULL, 0 };
	shorts[ns] = '\0';
}

int
al_opts_parse(const struct al_optdef *table, int argc, char **argv, al_opt_set_fn set,
	      void *ctx, int *first_arg, struct al_opts_result *res, char *err, size_t err_size)
{
	struct option longs[AL_OPTS_MAX + 1];
	char shorts[2 + 2 * AL_OPTS_MAX];
	struct flat f;
	int opt, li, rc, before, at;

	err[0] = '\0';
	*first_arg = argc;
	set_fault(res, AL_OPTS_OK, -1, "", NULL);
	rc = flatten(table, &f, err, err_size);
	if (rc) {
		set_fault(res, AL_OPTS_TABLE, -1, "", NULL);
		return rc;
	}
	getopt_tables(&f, longs, shorts);
	optind = 0; /* a full reset: a parser may run more than once (tests, sweep) */
	opterr = 0;
	for (;;) {
		struct al_opt_hit h = { 0 };

		li = -1;
		before = optind;
		opt = getopt_long(argc, argv, shorts, longs, &li);
		if (opt == -1)
			break;
		if (opt == ':') {
			snprintf(err, err_size, "option %s: needs a value", argv[optind - 1]);
			set_fault(res, AL_OPTS_NO_VALUE, optind - 1, argv[optind - 1],
				  def_of_val(&f, optopt));
			return -EINVAL;
		}
		h.def = li >= 0 && (size_t)li < f.n ? &f.d[li] : def_of_val(&f, opt);
		if (opt == '?' || !h.def)
			return unknown(&f, before, argc, argv, res, err, err_size);
		h.id = h.def->id;
		h.included = f.included[h.def - f.d];
		h.arg = h.def->type == AL_OPT_FLAG ? NULL : optarg;
		at = tokens_of(&h, li >= 0, before, argv);
		rc = al_opt_check(h.def, h.arg, &h.value, err, err_size);
		if (rc) {
			set_fault(res, AL_OPTS_BAD_VALUE, at, h.tok[0], h.def);
			return rc;
		}
		store(h.def, ctx, f.base[h.def - f.d], &h);
		rc = set ? set(ctx, &h, err, err_size) : 0;
		if (rc == AL_OPTS_STOP || (!rc && h.def->stop))
			break;
		if (rc) {
			if (!err[0])
				snprintf(err, err_size, "--%s: bad value", h.def->name);
			set_fault(res, AL_OPTS_REFUSED, at, h.tok[0], h.def);
			return rc < 0 ? rc : -EINVAL;
		}
	}
	*first_arg = optind;
	return 0;
}

/* ---- --help ---- */

static void
print_opt(FILE *f, const struct al_optdef *d, int col)
{
	const char *p = d->help;
	int len;

	if (!d->help || !d->help[0])
		return;
	if (d->short_name)
		len = fprintf(f, "  -%c, --%s", d->short_name, d->name);
	else
		len = fprintf(f, "      --%s", d->name);
	if (d->arg)
		len += fprintf(f, " %s", d->arg);
	fprintf(f, "%*s", len < col ? col - len : 1, "");
	for (;;) {
		size_t n = strcspn(p, "\n");

		fprintf(f, "%.*s\n", (int)n, p);
		if (!p[n])
			break;
		p += n + 1;
		fprintf(f, "%*s", col, "");
	}
}

static bool help_names; /* al_opts_help_names(): set once, by main, before any help */

void
al_opts_help_names(bool on)
{
	help_names = on;
}

/*
 * al_opts_help() in names mode: "option --NAME" for each option --help
 * names (what (word) says), "accepts --NAME" for those of an included
 * table, taken but not listed
 */
static void
print_names(FILE *f, const struct al_optdef *table, const char *word)
{
	const struct al_optdef *e;
	struct al_optdef d;

	for (e = table; !is_end(e); e++) {
		/* (one without help: taken, not listed) */
		if (e->kind == AL_OPT_K_OPT && e->name)
			fprintf(f, "%s --%s\n", e->help && e->help[0] ? word : "accepts", e->name);
		else if (e->kind == AL_OPT_K_PICK && !resolve_pick(e, &d) && d.name)
			fprintf(f, "%s --%s\n", d.help && d.help[0] ? word : "accepts", d.name);
		else if (e->kind == AL_OPT_K_MERGE && e->from)
			print_names(f, e->from, !e->long_only || e->help ? word : "accepts");
		else if (e->kind == AL_OPT_K_INCLUDE && e->from)
			print_names(f, e->from, "accepts");
	}
}

void
al_opts_help(FILE *f, const struct al_optdef *table, int col)
{
	const struct al_optdef *e;
	struct al_optdef d;

	if (help_names) {
		print_names(f, table, "option");
		return;
	}
	for (e = table; !is_end(e); e++) {
		switch (e->kind) {
		case AL_OPT_K_OPT:
			print_opt(f, e, col);
			break;
		case AL_OPT_K_PICK:
			if (!resolve_pick(e, &d))
				print_opt(f, &d, col);
			break;
		case AL_OPT_K_TEXT:
			if (e->help)
				fputs(e->help, f);
			break;
		case AL_OPT_K_MERGE:
			if (e->long_only && e->help)
				fputs(e->help, f);
			else if (!e->long_only && e->from)
				al_opts_help(f, e->from, col);
			break;
		case AL_OPT_K_PRINT:
			if (e->print)
				e->print(f);
			break;
		case AL_OPT_K_INCLUDE:
			break;
		}
	}
}
