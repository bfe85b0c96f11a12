/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi's options (midi-opts.c), a pure parser: each subcommand's
 * table (core/opts.h) with its usage and prose, parsed into the
 * configuration al_midi_run() takes (midi/measure.h).
 */
#ifndef AL_ARGS_MIDI_OPTS_H
#define AL_ARGS_MIDI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/midi-result.h"
#include "load/load.h"

enum al_midi_sub {
	AL_MIDI_SUB_ANALYZE,
	AL_MIDI_SUB_SEND,
	AL_MIDI_SUB_RECORD,
	AL_MIDI_SUB_LOOP,
	AL_MIDI_SUB_THRU,
	AL_MIDI_N_SUBS
};

/* What the command line asks: the measurement's configuration, and how to report it. */
struct al_midi_cli {
	struct al_midi_config cfg;  /* al_midi_run()'s; cfg.cmdline is the caller's to fill */
	const char *sub;            /* analyze, send, record, loop, thru */
	struct al_load_opts load_opts;
	const char *json_path;
	const char *db_path;
	bool no_db;
	bool quiet;
	bool no_histogram;
	bool help;
};

/* `audiolat midi --help`: the subcommands, the APIs, the exit status */
extern const char al_midi_help[];

/* The subcommand of that name, or -1. */
int al_midi_sub_find(const char *name);

/* The subcommand's whole --help (al_opts_help()). */
void al_midi_sub_help(FILE *f, enum al_midi_sub sub);

/*
 * Pure: argv (argv[0] the subcommand sub) into o (zeroed first): 0, or
 * -EINVAL with one line in err (an option of another subcommand says so:
 * "--port: not an option of midi analyze").
 */
int al_midi_parse_args(enum al_midi_sub sub, int argc, char **argv, struct al_midi_cli *o,
		       char *err, size_t err_size);

#endif
