/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat import FILE...: save JSON documents written elsewhere. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "cli.h"
#include "cli-store.h"
#include "commands.h"

static const char help[] =
	"usage: audiolat import [options] FILE.json|-...\n"
	"\n"
	"Check and save audiolat JSON documents (audiolat run --json, and any other\n"
	"audiolat.KIND/VERSION document) in the results database, byte for byte. A\n"
	"document that is already saved is not saved twice. Prints one line per file:\n"
	"FILE: saved as result ID.\n"
	"\n"
	"  -q, --quiet            no line per saved file\n"
	"      --db PATH          the database (default $XDG_DATA_HOME/audiolat/results.db)\n"
	"  -h, --help             this text\n"
	"\n"
	"exit status: 0 every file saved, 1 a file could not be read, is not valid JSON\n"
	"(FILE:LINE:COLUMN: ...), not an audiolat document, or a database error (the\n"
	"other files are still saved), 2 usage error\n";

static const struct option long_opts[] = {
	{ "quiet", no_argument, NULL, 'q' },
	{ "db", required_argument, NULL, CLI_OPT_DB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The whole file ("-": standard input), at most AL_STORE_DOC_MAX_BYTES + 1 bytes. */
static int
read_all(const char *file, char **text, size_t *len)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "re") : stdin;
	size_t cap = 1 << 16, n = 0, got;
	char *buf = NULL, *nb;
	int rc = 0;

	*text = NULL;
	if (!f)
		return -errno;
	for (;;) {
		nb = realloc(buf, cap + 1);
		if (!nb) {
			rc = -ENOMEM;
			break;
		}
		buf = nb;
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap) {
			if (ferror(f))
				rc = -EIO;
			break;
		}
		if (cap > AL_STORE_DOC_MAX_BYTES)
			break; /* too large: the store says so with the size */
		cap *= 2;
	}
	if (f != stdin)
		fclose(f);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

int
cmd_import(int argc, char **argv)
{
	const char *db_opt = NULL;
	struct al_store *db = NULL;
	char path[PATH_MAX], err[512];
	bool quiet = false;
	int opt, rc, ret = AL_EXIT_OK, i;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":qh", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'q':
			quiet = true;
			break;
		default:
			rc = cli_store_opt("import", opt, help, argv, &db_opt);
			if (rc != CLI_OPT_NEXT)
				return rc;
			break;
		}
	}
	if (optind >= argc)
		return cli_usage_error("import", "which files? (FILE.json, - for standard input)");

	ret = cli_store_open("import", db_opt, CLI_STORE_WRITE, &db, path, sizeof(path));
	if (ret)
		return ret;
	for (i = optind; i < argc; i++) {
		const char *file = argv[i], *name = strcmp(file, "-") ? file : "<stdin>";
		char *text;
		size_t len = 0;
		int64_t id;

		rc = read_all(file, &text, &len);
		if (rc) {
			ret = cli_cmd_error(AL_EXIT_RUNTIME, "import", "%s: %s", name, strerror(-rc));
			continue;
		}
		rc = al_store_save(db, text, len, "import", &id);
		free(text);
		if (rc == -EINVAL || rc == -EFBIG) {
			/* "LINE:COLUMN: invalid JSON: ..." reads as FILE:LINE:COLUMN: */
			snprintf(err, sizeof(err), "%s", al_store_error(db));
			ret = cli_cmd_error(AL_EXIT_RUNTIME, "import", "%s%s%s", name,
					    err[0] >= '0' && err[0] <= '9' ? ":" : ": ", err);
		} else if (rc < 0) {
			ret = cli_cmd_error(AL_EXIT_RUNTIME, "import", "%s: %s: %s", name, path,
					    al_store_error(db));
		} else if (!quiet) {
			printf("%s: %s as result %lld\n", name, rc == 1 ? "already saved" : "saved",
			       (long long)id);
		}
	}
	al_store_close(db);
	return ret;
}
