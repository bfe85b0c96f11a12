/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat history: the saved results, newest first (the table: store/history-table.c). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "args/common-opts.h"
#include "store/history-table.h"
#include "store/store.h"
#include "cli.h"
#include "cli-store.h"
#include "doc-io.h"
#include "commands.h"

#define DEFAULT_LIMIT 50

enum { OPT_SINCE = 256 };

struct history_cli {
	struct al_store_filter f;
	const char *json_path, *db_opt;
	bool help;
};

#define TO(f_) AL_OPT_TO(struct history_cli, f_)
static const struct al_optdef history_opts[] = {
	AL_OPT_TEXT("usage: audiolat history [options]\n"
		    "\n"
		    "List the results saved in the results database, newest first: id, start date\n"
		    "(UTC), label, kernel, backend, configuration (period frames x periods @ rate),\n"
		    "periods, xruns, max and p99 wake latency, host.\n"
		    "\n"),
	{ .name = "kernel", .short_name = 'k', .type = AL_OPT_SPEC, .arg = "PATTERN", TO(f.kernel),
	  .help = "kernel releases matching a glob (6.6*-rt*), or containing\n"
		  "PATTERN when it has no * ? [" },
	{ .name = "label", .short_name = 'l', .type = AL_OPT_SPEC, .arg = "LABEL", TO(f.label),
	  .help = "this label (a glob when it has * ? [)" },
	{ .name = "host", .type = AL_OPT_SPEC, .arg = "HOST", TO(f.host),
	  .help = "this host name (a glob when it has * ? [)" },
	{ .id = OPT_SINCE, .name = "since", .type = AL_OPT_SPEC, .arg = "TIME", TO(f.since),
	  .help = "started at or after TIME (2026-11-30, 2026-11-30T06:00Z)\n"
		  "or within an age (30m, 12h, 7d)" },
	{ .name = "backend", .short_name = 'b', .type = AL_OPT_SPEC, .arg = "NAME", TO(f.backend),
	  .help = "this backend" },
	{ .name = "schema", .type = AL_OPT_SPEC, .arg = "SCHEMA", TO(f.schema),
	  .help = "this kind of document (audiolat.run/2, ...)" },
	{ .name = "limit", .short_name = 'n', .type = AL_OPT_INT, .arg = "N",
	  .min = 0, .max = LONG_MAX, TO(f.limit), .help = "the newest N (default 50; 0 = all)" },
	CLI_SHARED_AS(CLI_OPT_JSON, NULL, "write the audiolat.history/1 JSON listing (- = stdout,\n"
					  "and then no table)", TO(json_path)),
	CLI_SHARED_AS(CLI_OPT_DB, "PATH|URL", "the database (default $AUDIOLAT_DB, else\n"
					      "$XDG_DATA_HOME/audiolat/results.db; postgresql://...)",
		      TO(db_opt)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 done, 1 runtime error, 2 usage error, 4 the server cannot be\n"
		    "reached\n"),
	AL_OPT_END,
};

/* What the table cannot store itself: --since checked. */
static int
history_set(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size)
{
	(void)ctx;
	return h->id == OPT_SINCE && al_store_check_since(h->arg, err, err_size) ? -EINVAL : 0;
}

int
cmd_history(int argc, char **argv)
{
	struct history_cli o = { .f = { .limit = DEFAULT_LIMIT } };
	struct al_history h;
	struct al_load_fail fail;
	int first, rc, ret = AL_EXIT_OK;

	rc = cli_parse("history", history_opts, 25, argc, argv, history_set, &o, &o.help, 0, &first);
	if (rc >= 0)
		return rc;
	rc = al_history_list(o.db_opt, &o.f, o.json_path != NULL, &h, &fail);
	if (rc) {
		ret = cli_store_failed("history", rc, fail.name, fail.why, fail.server);
		goto out;
	}
	if (o.json_path && (ret = cli_write_doc("history", o.json_path, h.listing, 0)))
		goto out;
	if (!o.json_path || strcmp(o.json_path, "-"))
		al_history_print(&h, &o.f, stdout, stderr);
out:
	al_history_free(&h);
	return ret;
}
