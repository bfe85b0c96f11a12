/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options every subcommand shares, declared once (-d -p -q --json
 * --label --db --no-db --load -h), validated the same way wherever they
 * appear. A subcommand's table (core/opts.h) takes one by id with
 * CLI_SHARED, optionally worded (CLI_SHARED_AS) and stored (AL_OPT_TO)
 * there; load's options come from load/load.h's al_load_optdefs
 * (AL_OPT_MERGE, AL_OPT_LONGS).
 */
#ifndef AL_ARGS_COMMON_OPTS_H
#define AL_ARGS_COMMON_OPTS_H

#include "core/opts.h"

/* the shared options' ids: the short letter where there is one */
enum cli_common_id {
	CLI_OPT_DURATION = 'd',
	CLI_OPT_PRIORITY = 'p',
	CLI_OPT_QUIET = 'q',
	CLI_OPT_HELP = 'h',
	CLI_OPT_JSON = 0x1000,
	CLI_OPT_LABEL,
	CLI_OPT_DB,
	CLI_OPT_NO_DB,
	CLI_OPT_LOAD,
};

/* The shared options, ended by AL_OPT_END. */
extern const struct al_optdef cli_common_opts[];

/* A shared option; after the id, designated initializers (AL_OPT_TO, ...) for it here. */
#define CLI_SHARED(id_, ...) AL_OPT_PICK(cli_common_opts, id_, __VA_ARGS__)
/* ... with its argument's name and help worded here (NULL: the shared wording) */
#define CLI_SHARED_AS(id_, arg_, help_, ...) \
	AL_OPT_PICK(cli_common_opts, id_, .arg = (arg_), .help = (help_), __VA_ARGS__)
/* a shared option taken but not listed (the prose around it names it) */
#define CLI_SHARED_HIDDEN(id_, ...) AL_OPT_PICK(cli_common_opts, id_, .help = "", __VA_ARGS__)


#endif
