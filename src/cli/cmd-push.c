/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat push --to URL: copy the results of one database (the local one)
 * into another (a shared PostgreSQL store), oldest first, one transaction
 * per result. Idempotent by the results' UUIDs: what the target holds
 * already is not sent again, so a push cut short (the server went away)
 * leaves whole results only, and the next push sends the rest.
 */
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

enum { OPT_TO = 0x310, OPT_SINCE, OPT_LABEL };

static const char help[] =
	"usage: audiolat push --to URL|PATH [options]\n"
	"\n"
	"Copy the results saved in the results database (--db, default\n"
	"$AUDIOLAT_DB or $XDG_DATA_HOME/audiolat/results.db) to another one, usually a\n"
	"shared PostgreSQL store (postgresql://USER@HOST/DB; the password from\n"
	"~/.pgpass or PGPASSWORD, never printed). Every result is known by its UUID:\n"
	"one already there is not sent again, so pushing twice adds nothing and a push\n"
	"cut short is finished by the next one. Prints one line: pushed N results to\n"
	"URL (M already there).\n"
	"\n"
	"      --to URL|PATH      where to copy to (required)\n"
	"      --db URL|PATH      where to copy from\n"
	"      --since TIME       results started at or after TIME (2026-11-30,\n"
	"                         2026-11-30T06:00:00Z) or within an age (12h, 7d)\n"
	"      --label L          results with this label (a * ? [ pattern matches)\n"
	"  -q, --quiet            no summary line\n"
	"  -h, --help             this text\n"
	"\n"
	"exit status: 0 every matching result is in the target, 1 a result was refused\n"
	"(another result under the same UUID) or a database error, 2 usage error,\n"
	"4 the server cannot be reached or went away (what was sent stays, whole)\n";

static const struct option long_opts[] = {
	{ "to", required_argument, NULL, OPT_TO },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "quiet", no_argument, NULL, 'q' },
	{ "db", required_argument, NULL, CLI_OPT_DB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int
cmd_push(int argc, char **argv)
{
	struct al_store_filter f = { 0 };
	const char *db_opt = NULL, *to = NULL;
	struct al_store *src = NULL, *dst = NULL;
	char src_path[PATH_MAX], dst_path[PATH_MAX], err[256];
	int64_t *ids = NULL;
	size_t i, n_ids = 0, added = 0, there = 0;
	bool quiet = false;
	int opt, rc, ret;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":qh", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'q':
			quiet = true;
			break;
		case OPT_TO:
			if (!optarg[0])
				return cli_usage_error("push", "--to: '' is not a URL or path");
			to = optarg;
			break;
		case OPT_SINCE:
			if (al_store_check_since(optarg, err, sizeof(err)))
				return cli_usage_error("push", "%s", err);
			f.since = optarg;
			break;
		case OPT_LABEL:
			f.label = optarg;
			break;
		default:
			rc = cli_store_opt("push", opt, help, argv, &db_opt);
			if (rc != CLI_OPT_NEXT)
				return rc;
			break;
		}
	}
	if (optind < argc)
		return cli_usage_error("push", "unexpected argument '%s'", argv[optind]);
	if (!to)
		return cli_usage_error("push", "where to? (--to postgresql://USER@HOST/DB)");

	/* the target first: a push with nothing to send still makes its schema */
	ret = cli_store_open("push", to, CLI_STORE_WRITE, &dst, dst_path, sizeof(dst_path));
	if (ret)
		return ret;
	ret = cli_store_open("push", db_opt, CLI_STORE_READ, &src, src_path, sizeof(src_path));
	if (ret)
		goto out;
	if (!src) {
		if (!quiet)
			fprintf(stderr, "no results saved yet (no database at %s): nothing to push\n",
				src_path);
		goto out;
	}
	rc = al_store_ids(src, &f, NULL, &ids, &n_ids);
	if (rc < 0) {
		ret = cli_cmd_error(AL_EXIT_RUNTIME, "push", "%s: %s", src_path,
				    al_store_error(src));
		goto out;
	}
	/* oldest first: the target's ids follow the order they were measured in */
	for (i = n_ids; i-- > 0;) {
		char *text;
		size_t len;
		int64_t id;

		rc = al_store_get(src, ids[i], &text, &len);
		if (rc) {
			ret = cli_cmd_error(AL_EXIT_RUNTIME, "push", "%s: %s", src_path,
					    al_store_error(src));
			break;
		}
		rc = al_store_save(dst, text, len, "push", &id);
		free(text);
		if (rc == 1) {
			there++;
		} else if (rc == 0) {
			added++;
		} else if (rc == -EEXIST || rc == -EINVAL || rc == -EFBIG) {
			/* this one only: the others are still pushed */
			ret = cli_cmd_error(AL_EXIT_RUNTIME, "push", "result %lld: %s: %s",
					    (long long)ids[i], dst_path, al_store_error(dst));
		} else {
			ret = cli_fault("push", rc, dst_path, al_store_error(dst), NULL);
			fprintf(stderr, "audiolat push: %zu of %zu results pushed before it (%zu "
					"already there); push again to send the rest\n",
				added, n_ids, there);
			goto out;
		}
	}
	if (!quiet)
		printf("pushed %zu result%s to %s (%zu already there)\n", added,
		       added == 1 ? "" : "s", dst_path, there);
out:
	free(ids);
	al_store_close(dst);
	al_store_close(src);
	return ret;
}
