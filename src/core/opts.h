/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command-line options declared once in a table, parsed by one loop that
 * also prints --help's option list.
 *
 * A table of struct al_optdef holds options (name, short letter, type,
 * range, unit, argument name, help), headings and prose (AL_OPT_TEXT), one
 * option of another table by id, worded and stored here (AL_OPT_PICK),
 * every option of another table as this one's own (AL_OPT_MERGE, or by
 * their long names only: AL_OPT_LONGS) and every option of another table
 * shadowed by this one's (AL_OPT_INCLUDE). al_opts_parse() checks every
 * value by its type, stores it where the table says (AL_OPT_TO) and hands
 * it to the setter; al_opts_help() prints the option list from the same
 * table; a subcommand's whole --help (usage, prose, exit status) is its
 * table's AL_OPT_TEXT entries around the options, and what only the
 * running program knows (load's list of loads) an AL_OPT_PRINT's function.
 * Pure: no printing but into the FILE * given, no exit.
 */
#ifndef AL_CORE_OPTS_H
#define AL_CORE_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum al_opt_type {
	AL_OPT_FLAG,   /* no value */
	AL_OPT_TIME,   /* a duration > 0 (>= 0 with zero): a number with ns, us, ms, s, m or h;
			* bare = unit_ns */
	AL_OPT_INT,    /* a whole number in min..max */
	AL_OPT_TEXT,   /* at most max_len bytes (0: any), no control characters */
	AL_OPT_PATH,   /* a file name or URL, not empty */
	AL_OPT_OUT,    /* a file name, or - for stdout; not empty */
	AL_OPT_FILE,   /* a file name: not empty, not - */
	AL_OPT_SPEC,   /* parsed by the setter, at most max_len bytes (0: any) */
	AL_OPT_CHOICE, /* one of choices ("kcidb|junit|lava"); the value is its index */
};

enum al_opt_kind {
	AL_OPT_K_OPT,     /* an option defined in this entry */
	AL_OPT_K_TEXT,    /* no option: help is printed as it is (a heading, a paragraph) */
	AL_OPT_K_PICK,    /* the option id of table from; arg, help and a store, when set,
			   * word and store it here */
	AL_OPT_K_MERGE,   /* every option of from as this table's own, id as their id when
			   * not 0; long_only: without their letters, help printed as it
			   * is; else each listed in --help */
	AL_OPT_K_INCLUDE, /* every option of from, not listed; an option of this table
			   * shadows one of the same name or letter; their stores land
			   * at ctx + off */
	AL_OPT_K_PRINT,   /* no option: print(f) writes this part of --help */
};

/* Where the loop stores a value itself (AL_OPT_TO picks it by the field's type). */
enum al_opt_store {
	AL_OPT_S_NONE,
	AL_OPT_S_BOOL,  /* a flag: true */
	AL_OPT_S_INT,   /* INT, CHOICE: the value */
	AL_OPT_S_I64,   /* TIME: ns; INT */
	AL_OPT_S_U32,
	AL_OPT_S_U64,
	AL_OPT_S_STR,   /* const char *: the argument itself */
	AL_OPT_S_CHARS, /* char[size]: a copy, cut to size - 1 bytes */
};

struct al_optdef {
	int id;                 /* the setter's: a short letter, an enum value */
	const char *name;       /* long name, without "--" */
	char short_name;        /* 0: none */
	enum al_opt_type type;
	const char *arg;        /* the value's name in --help: "TIME", "FILE|-" */
	const char *help;       /* lines separated by '\n'; NULL or "": not listed in --help */
	long min, max;          /* AL_OPT_INT */
	int64_t unit_ns;        /* AL_OPT_TIME: a bare number's unit */
	bool zero;              /* AL_OPT_TIME: 0 is a value too ("--checkpoint 0": none) */
	size_t max_len;         /* AL_OPT_TEXT, AL_OPT_SPEC: bytes, 0: no limit */
	const char *choices;    /* AL_OPT_CHOICE: "a|b|c" */
	enum al_opt_kind kind;
	const struct al_optdef *from; /* PICK, MERGE, INCLUDE */
	bool long_only;         /* MERGE */
	enum al_opt_store store; /* the value also into ctx + off (INCLUDE: the table's base) */
	size_t off, size;
	bool also;              /* and true into the bool at ctx + also_off ("-d was given") */
	size_t also_off;
	bool stop;              /* the parse ends after this option, with success (-h) */
	void (*print)(FILE *f); /* PRINT */
};

/* Store the value into field f of the setter's context, a T. */
#define AL_OPT_TO(T, f)                                                                   \
	.store = _Generic(((T *)0)->f, bool: AL_OPT_S_BOOL, int: AL_OPT_S_INT,            \
			  int64_t: AL_OPT_S_I64, uint32_t: AL_OPT_S_U32,                  \
			  uint64_t: AL_OPT_S_U64,                                         \
			  const char *: AL_OPT_S_STR, char *: AL_OPT_S_CHARS),            \
	.off = offsetof(T, f), .size = sizeof(((T *)0)->f)
/* ... and set the bool field f of T true */
#define AL_OPT_ALSO(T, f) .also = true, .also_off = offsetof(T, f)

/* Table entries besides plain options; a table ends with AL_OPT_END. */
#define AL_OPT_TEXT(text_) { .help = (text_), .kind = AL_OPT_K_TEXT }
#define AL_OPT_PRINT(fn_) { .print = (fn_), .kind = AL_OPT_K_PRINT }
#define AL_OPT_PICK(table_, id_, ...) \
	{ .id = (id_), .kind = AL_OPT_K_PICK, .from = (table_), __VA_ARGS__ }
#define AL_OPT_MERGE(id_, table_) { .id = (id_), .kind = AL_OPT_K_MERGE, .from = (table_) }
#define AL_OPT_LONGS(id_, table_, text_) \
	{ .id = (id_), .kind = AL_OPT_K_MERGE, .from = (table_), .long_only = true, .help = (text_) }
#define AL_OPT_INCLUDE(table_, T, f) \
	{ .kind = AL_OPT_K_INCLUDE, .from = (table_), .off = offsetof(T, f) }
#define AL_OPT_END { .name = NULL }

/* One option as the command line gave it, for the setter. */
struct al_opt_hit {
	const struct al_optdef *def; /* resolved: a picked one as worded here */
	int id;                 /* def->id */
	bool included;          /* declared by an AL_OPT_INCLUDE'd table (sweep: one of run's) */
	const char *arg;        /* the value; NULL for a flag */
	int64_t value;          /* TIME: ns; INT: the number; CHOICE: the index */
	const char *tok[2];     /* as given: "-d", "5s" (a letter of a cluster alone: "-v") */
	int n_tok;
};

/*
 * The setter: 0, or -errno with one line in err (empty: the loop says
 * "--NAME: bad value"), or AL_OPTS_STOP to end parsing there with success
 * (as an option with .stop does). It sees every option, stored ones too,
 * after the store.
 */
#define AL_OPTS_STOP 1
typedef int (*al_opt_set_fn)(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size);

/* The most options a table may flatten to (its own, the picked, the merged, an include) */
#define AL_OPTS_MAX 128

/* Why a parse stopped short. */
enum al_opts_fault {
	AL_OPTS_OK,
	AL_OPTS_UNKNOWN,     /* not an option of the table ("--nosuch", "-X" of a cluster) */
	AL_OPTS_NO_VALUE,    /* an option that takes a value got none */
	AL_OPTS_EXTRA_VALUE, /* a flag given a value ("--quiet=x") */
	AL_OPTS_BAD_VALUE,   /* the value failed its type's check */
	AL_OPTS_REFUSED,     /* the setter refused it */
	AL_OPTS_TABLE,       /* the table itself is wrong */
};

struct al_opts_result {
	enum al_opts_fault fault;
	int index;           /* argv[index]: the offending option's (first) token; -1: none */
	char tok[64];        /* the option as the message quotes it: "--nosuch", "-X" */
	struct al_optdef def; /* the option, but for UNKNOWN and TABLE (name NULL) */
};

/*
 * Parse argv[1..argc) against table: every option checked by its type,
 * stored where the table says and handed to set(ctx, ...) (set may be
 * NULL) in command-line order; the last of an option given twice wins.
 * The arguments that are not options are left in argv[*first_arg..argc)
 * (getopt_long moves them to the end; everything after "--" is one).
 * Returns 0, or -EINVAL with one line in err: "option -P: needs a value",
 * "unknown option '--nosuch'", "unknown option '-X'" (a letter in a
 * cluster), "option --trace takes no value", "-P/--period: '0' is not in
 * 1..1048576", or the setter's; the table itself wrong (an option twice,
 * too many): -EINVAL "option table: ...". res (may be NULL) says the same
 * structurally.
 */
int al_opts_parse(const struct al_optdef *table, int argc, char **argv, al_opt_set_fn set,
		  void *ctx, int *first_arg, struct al_opts_result *res, char *err,
		  size_t err_size);

/*
 * The option of table that tok names ("--rate", "-n": exactly, no
 * abbreviation) into *out: 0, or -ENOENT (-EINVAL: the table is wrong).
 */
int al_opts_find(const struct al_optdef *table, const char *tok, struct al_optdef *out);

/*
 * The option list of --help from table into f: "  -d, --duration TIME" (or
 * "      --json FILE|-") padded to column col (one space after a left side
 * that reaches it), then the help's first line, its other lines indented
 * to col; AL_OPT_TEXT and AL_OPT_LONGS help as it is, AL_OPT_PRINT's by its
 * function; included tables and entries without help are not listed.
 */
void al_opts_help(FILE *f, const struct al_optdef *table, int col);

/*
 * From now on al_opts_help() prints, instead of the list, one line
 * "option --NAME" for each option --help names: those it lists, and those
 * of an AL_OPT_LONGS table it names in prose; and "accepts --NAME" for
 * each of an included table, taken but not listed (audiolat
 * --option-names: what tests/lint/man-options.sh holds the man pages to).
 */
void al_opts_help_names(bool on);

/* The name in messages: "-d/--duration", "--json" (buf: at least 48 bytes). */
const char *al_opt_label(const struct al_optdef *d, char *buf, size_t size);

/*
 * Check the value arg (NULL for a flag) of option d by its type: 0 with
 * *value set (TIME, INT, CHOICE), or -EINVAL with one line in err naming
 * the option ("--label: 'x...' is too long (at most 127 bytes)").
 */
int al_opt_check(const struct al_optdef *d, const char *arg, int64_t *value, char *err,
		 size_t err_size);

#endif
