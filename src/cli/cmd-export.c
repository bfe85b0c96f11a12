/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat export ID: the saved JSON document, byte for byte. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/doc.h"
#include "store/store.h"
#include "cli.h"
#include "cli-store.h"
#include "commands.h"

static const char help[] =
	"usage: audiolat export [options] ID\n"
	"\n"
	"Write the JSON document saved under ID (audiolat history lists them) exactly as\n"
	"it was saved: for a run, the same bytes audiolat run --json wrote.\n"
	"\n"
	"  -o, --output FILE|-    write it to FILE (default -, standard output)\n"
	"      --db PATH          the database (default $XDG_DATA_HOME/audiolat/results.db)\n"
	"  -h, --help             this text\n"
	"\n"
	"exit status: 0 done, 1 runtime error (no such id, a database error, the file\n"
	"cannot be written), 2 usage error\n";

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "db", required_argument, NULL, CLI_OPT_DB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int
cmd_export(int argc, char **argv)
{
	const char *db_opt = NULL, *out_path = "-";
	char path[PATH_MAX], *text = NULL;
	int opt, rc, ret;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			if (!optarg[0])
				return cli_usage_error("export", "-o/--output: '' is not a path");
			out_path = optarg;
			break;
		default:
			rc = cli_store_opt("export", opt, help, argv, &db_opt);
			if (rc != CLI_OPT_NEXT)
				return rc;
			break;
		}
	}
	ret = cli_store_fetch_arg("export", db_opt, argc, argv, optind, &text, NULL, NULL, path,
				  sizeof(path));
	if (ret)
		return ret;
	/* saved documents are checked JSON: no NUL byte inside */
	rc = al_doc_write_text(out_path, text);
	if (rc) {
		ret = cli_cmd_error(AL_EXIT_RUNTIME, "export", "%s: %s",
				    strcmp(out_path, "-") ? out_path : "standard output",
				    strerror(-rc));
		goto out;
	}
	ret = AL_EXIT_OK;
out:
	free(text);
	return ret;
}
