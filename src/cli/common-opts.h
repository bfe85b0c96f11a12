/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options the measuring subcommands share (run, sweep, midi record and
 * loop, load, roundtrip), declared once: name, type, range, unit and
 * limits, and one setter that validates them the same way wherever they
 * appear. A subcommand puts the ones it takes into its getopt table with
 * these ids as values and hands them to cli_common_set(). (Each
 * subcommand's --help still words them for itself.)
 * Pure: no printing, no exit (the fuzz and unit tests link it).
 */
#ifndef AL_CLI_COMMON_OPTS_H
#define AL_CLI_COMMON_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* getopt values: the short letter where there is one */
enum cli_common_id {
	CLI_OPT_DURATION = 'd',
	CLI_OPT_PRIORITY = 'p',
	CLI_OPT_QUIET = 'q',
	CLI_OPT_JSON = 0x1000,
	CLI_OPT_LABEL,
	CLI_OPT_DB,
	CLI_OPT_NO_DB,
	CLI_OPT_LOAD,
};

enum cli_opt_type {
	CLI_OPT_FLAG,  /* no value */
	CLI_OPT_TIME,  /* a duration: a number with ns, us, ms, s, m or h; bare = unit_ns */
	CLI_OPT_INT,   /* a whole number in min..max */
	CLI_OPT_TEXT,  /* at most max_len bytes, no control characters */
	CLI_OPT_PATH,  /* a file name, not empty */
	CLI_OPT_OUT,   /* a file name, or - for stdout */
	CLI_OPT_SPEC,  /* a specification parsed later (--load), at most max_len bytes */
};

struct cli_optdef {
	int id;                 /* enum cli_common_id */
	const char *name;       /* long name, without "--" */
	char short_name;        /* 0: none */
	enum cli_opt_type type;
	const char *label;      /* for messages: "-d/--duration" */
	long min, max;          /* CLI_OPT_INT */
	int64_t unit_ns;        /* CLI_OPT_TIME: a bare number's unit */
	size_t max_len;         /* CLI_OPT_TEXT, CLI_OPT_SPEC: bytes, 0: no limit */
};

/* The shared options, ended by an entry with a NULL name. */
extern const struct cli_optdef cli_common_opts[];

/* Where the shared options land; zero it, then cli_common_set() per option. */
struct cli_common {
	int64_t duration_ns;    /* -d, > 0 */
	bool duration_given;
	int priority;           /* -p, 0..99 */
	bool priority_given;
	bool quiet;             /* -q */
	const char *json_path;  /* --json FILE|- */
	const char *label;      /* --label */
	const char *db_path;    /* --db */
	bool no_db;             /* --no-db */
	const char *load_spec;  /* --load */
};

/* The definition of option id, or NULL when it is not a shared one. */
const struct cli_optdef *cli_common_find(int id);

/*
 * Validate and set the shared option id from arg (NULL for a flag).
 * Returns 0; -EINVAL with one line in err naming the option
 * ("--label: 'x...' is too long (at most 127 bytes)"); -ENOENT when id is
 * not a shared option.
 */
int cli_common_set(struct cli_common *c, int id, const char *arg, char *err, size_t err_size);

#endif
