/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat: the command dispatcher. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "backend/backend.h"
#include "core/opts.h"
#include "store/store.h"
#include "cli.h"
#include "commands.h"

const struct al_command al_commands[] = {
	{ "run", cmd_run, "measure period wake-up latency and xruns of an audio stream" },
	{ "check", cmd_check, "is this system set up for low-latency audio?" },
	{ "load", cmd_load, "run one built-in load on its own" },
	{ "history", cmd_history, "list the results saved in the results database" },
	{ "show", cmd_show, "summarize one saved result" },
	{ "export", cmd_export, "write a saved result's JSON document" },
	{ "import", cmd_import, "save JSON result files in the results database" },
	{ "push", cmd_push, "copy saved results to a shared (PostgreSQL) results database" },
	{ "devices", cmd_devices, "list the ALSA PCMs and JACK servers and ports within reach" },
	{ "roundtrip", cmd_roundtrip, "measure the delay of an audio loop to a fraction of a frame" },
	{ "report", cmd_report, "write an HTML report with plots of one or more results" },
	{ "compare", cmd_compare, "compare results: is the difference real?" },
	{ "bisect", cmd_bisect, "good or bad against stored runs, for git bisect run" },
	{ "sweep", cmd_sweep, "run a grid of buffer sizes and backends, side by side" },
	{ "monitor", cmd_monitor, "measure for days at a constant cost: windows, Prometheus, actions" },
	{ "midi", cmd_midi, "MIDI timing: analyze a MIDI file, send, record, loop" },
	{ NULL, NULL, NULL },
};

static void
usage(FILE *f)
{
	const struct al_command *c;

	fprintf(f, "usage: audiolat <command> [options]\n"
		   "       audiolat <command> --help\n"
		   "       audiolat --version\n\n"
		   "Does this machine keep real-time audio and MIDI on time, and by how much?\n\n"
		   "commands:\n");
	for (c = al_commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\nexit status: 0 done, 1 runtime error, 2 usage error, "
		   "3 threshold exceeded, 4 backend or device unavailable\n");
}

/* the version, the backends built in, the libraries loaded (a module's table each) */
static void
version(void)
{
	static const struct al_lib_version cli_libs[] = {
		{ "jansson", jansson_version_str },
		{ NULL, NULL },
	};
	const struct al_lib_version *const tables[] = { al_backend_libs, al_store_libs, cli_libs };
	const struct al_lib_version *l;
	size_t i;

	printf("audiolat %s\n", AL_VERSION);
	printf("backends:");
	for (i = 0; al_backends[i]; i++)
		if (!al_backends[i]->unavailable)
			printf(" %s", al_backends[i]->name);
	printf("\n");
	for (i = 0; al_backends[i]; i++)
		if (al_backends[i]->unavailable)
			printf("not built in: %s (%s)\n", al_backends[i]->name, al_backends[i]->unavailable);
	printf("libraries:\n");
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		for (l = tables[i]; l->name; l++)
			printf("  %-12s %s\n", l->name, l->version());
}

int
main(int argc, char **argv)
{
	const struct al_command *c;
	char help[] = "--help";
	char *names_args[4] = { NULL };

	if (argc < 2) {
		usage(stderr);
		return AL_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return AL_EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		version();
		return AL_EXIT_OK;
	}
	/*
	 * audiolat --option-names CMD [SUB]: the options CMD [SUB] --help names,
	 * one "option --NAME" a line, from its table (not in --help: what
	 * tests/lint/man-options.sh holds the man pages to)
	 */
	if (!strcmp(argv[1], "--option-names") && argc >= 3 && argc <= 4) {
		names_args[0] = argv[2];
		names_args[1] = argc == 4 ? argv[3] : help;
		names_args[2] = argc == 4 ? help : NULL;
		al_opts_help_names(true);
		argc -= 1;
		argv = names_args;
	} else if (!strcmp(argv[1], "--option-names")) {
		return cli_usage_error(NULL, "--option-names CMD [SUBCOMMAND]");
	} else {
		argc -= 1;
		argv += 1;
	}
	for (c = al_commands; c->name; c++)
		if (!strcmp(c->name, argv[0]))
			return c->fn(argc, argv);
	return cli_usage_error(NULL, "unknown command '%s' (see 'audiolat --help')", argv[0]);
}
