/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat push --to URL: copy the results of one database (the local one)
 * into another (a shared PostgreSQL store), oldest first, one transaction
 * per result. Idempotent by the results' UUIDs: what the target holds
 * already is not sent again, so a push cut short (the server went away)
 * leaves whole results only, and the next push sends the rest.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "store/store.h"
#include "cli.h"
#include "cli-store.h"
#include "commands.h"

enum { OPT_TO = 0x310, OPT_SINCE };

struct push_cli {
	const char *db, *to;
	struct al_store_filter f;
	bool quiet, help;
};

#define TO(f_) AL_OPT_TO(struct push_cli, f_)
static const struct al_optdef push_opts[] = {
	AL_OPT_TEXT("usage: audiolat push --to URL|PATH [options]\n"
		    "\n"
		    "Copy the results saved in the results database (--db, default\n"
		    "$AUDIOLAT_DB or $XDG_DATA_HOME/audiolat/results.db) to another one, usually a\n"
		    "shared PostgreSQL store (postgresql://USER@HOST/DB; the password from\n"
		    "~/.pgpass or PGPASSWORD, never printed). Every result is known by its UUID:\n"
		    "one already there is not sent again, so pushing twice adds nothing and a push\n"
		    "cut short is finished by the next one. Prints one line: pushed N results to\n"
		    "URL (M already there).\n"
		    "\n"),
	{ .id = OPT_TO, .name = "to", .type = AL_OPT_SPEC, .arg = "URL|PATH", TO(to),
	  .help = "where to copy to (required)" },
	CLI_SHARED_AS(CLI_OPT_DB, "URL|PATH", "where to copy from", TO(db)),
	{ .id = OPT_SINCE, .name = "since", .type = AL_OPT_SPEC, .arg = "TIME", TO(f.since),
	  .help = "results started at or after TIME (2026-11-30,\n"
		  "2026-11-30T06:00:00Z) or within an age (12h, 7d)" },
	/* a filter (a pattern), not the shared --label that names a result */
	{ .name = "label", .type = AL_OPT_SPEC, .arg = "L", TO(f.label),
	  .help = "results with this label (a * ? [ pattern matches)" },
	CLI_SHARED_AS(CLI_OPT_QUIET, NULL, "no summary line", TO(quiet)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 every matching result is in the target, 1 a result was refused\n"
		    "(another result under the same UUID) or a database error, 2 usage error,\n"
		    "4 the server cannot be reached or went away (what was sent stays, whole)\n"),
	AL_OPT_END,
};

/* What the table cannot store itself: --to and --since checked. */
static int
push_set(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size)
{
	(void)ctx;
	if (h->id == OPT_TO && !h->arg[0]) {
		snprintf(err, err_size, "--to: '' is not a URL or path");
		return -EINVAL;
	}
	return h->id == OPT_SINCE && al_store_check_since(h->arg, err, err_size) ? -EINVAL : 0;
}

/* A result the target refused: this one only, the others are still pushed. */
struct skip_ctx {
	const char *dst_path;
	int ret;
};

static void
skipped(void *ud, int64_t id, int err, const char *why)
{
	struct skip_ctx *k = ud;

	(void)err;
	k->ret = cli_cmd_error(AL_EXIT_RUNTIME, "push", "result %lld: %s: %s", (long long)id,
			       k->dst_path, why);
}

int
cmd_push(int argc, char **argv)
{
	struct push_cli o = { 0 };
	struct al_store_pushed p;
	struct al_load_fail fail;
	struct skip_ctx k = { p.to, AL_EXIT_OK };
	int first, rc;

	rc = cli_parse("push", push_opts, 25, argc, argv, push_set, &o, &o.help, 0, &first);
	if (rc >= 0)
		return rc;
	if (!o.to)
		return cli_usage_error("push", "where to? (--to postgresql://USER@HOST/DB)");

	rc = al_store_push(o.to, o.db, &o.f, &p, skipped, &k, &fail);
	if (rc && p.c.dst_failed) {
		k.ret = cli_fault("push", rc, fail.name, fail.why, NULL);
		fprintf(stderr, "audiolat push: %zu of %zu results pushed before it (%zu "
				"already there); push again to send the rest\n",
			p.c.added, p.c.n, p.c.there);
		return k.ret;
	}
	if (rc)
		k.ret = cli_store_failed("push", rc, fail.name, fail.why, fail.server);
	if (p.from_none && !o.quiet)
		fprintf(stderr, "no results saved yet (no database at %s): nothing to push\n",
			p.from);
	else if ((!rc || p.c.listed) && !p.from_none && !o.quiet)
		printf("pushed %zu result%s to %s (%zu already there)\n", p.c.added,
		       p.c.added == 1 ? "" : "s", p.to, p.c.there);
	return k.ret;
}
