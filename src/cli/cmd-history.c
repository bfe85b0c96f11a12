/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat history: the results saved in the database, newest first. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/result.h"
#include "doc/doc.h"
#include "core/text.h"
#include "core/units.h"
#include "store/store.h"
#include "cli.h"
#include "cli-store.h"
#include "commands.h"

#define DEFAULT_LIMIT 50
#define COL_MAX 32   /* label and kernel columns are cut here */

static const char help[] =
	"usage: audiolat history [options]\n"
	"\n"
	"List the results saved in the results database, newest first: id, start date\n"
	"(UTC), label, kernel, backend, configuration (period frames x periods @ rate),\n"
	"periods, xruns, max and p99 wake latency, host.\n"
	"\n"
	"  -k, --kernel PATTERN   kernel releases matching a glob (6.6*-rt*), or containing\n"
	"                         PATTERN when it has no * ? [\n"
	"  -l, --label LABEL      this label (a glob when it has * ? [)\n"
	"      --host HOST        this host name (a glob when it has * ? [)\n"
	"      --since TIME       started at or after TIME (2026-11-30, 2026-11-30T06:00Z)\n"
	"                         or within an age (30m, 12h, 7d)\n"
	"  -b, --backend NAME     this backend\n"
	"      --schema SCHEMA    this kind of document (audiolat.run/2, ...)\n"
	"  -n, --limit N          the newest N (default 50; 0 = all)\n"
	"      --json FILE|-      write the audiolat.history/1 JSON listing (- = stdout,\n"
	"                         and then no table)\n"
	"      --db PATH|URL      the database (default $AUDIOLAT_DB, else\n"
	"                         $XDG_DATA_HOME/audiolat/results.db; postgresql://...)\n"
	"  -h, --help             this text\n"
	"\n"
	"exit status: 0 done, 1 runtime error, 2 usage error, 4 the server cannot be\n"
	"reached\n";

enum { OPT_JSON = 256, OPT_SCHEMA, OPT_HOST, OPT_SINCE };

static const struct option long_opts[] = {
	{ "kernel", required_argument, NULL, 'k' },
	{ "label", required_argument, NULL, 'l' },
	{ "backend", required_argument, NULL, 'b' },
	{ "schema", required_argument, NULL, OPT_SCHEMA },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "limit", required_argument, NULL, 'n' },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "db", required_argument, NULL, CLI_OPT_DB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* One row of the table, its strings copied out of the listing. */
struct row {
	int64_t id;
	char date[20];
	char label[COL_MAX + 1];
	char kernel[COL_MAX + 1];
	char backend[16];
	char config[64];
	char periods[24], xruns[24], max[24], p99[24];
	char host[COL_MAX + 1];
};

struct rows {
	struct row *v;
	size_t n, cap;
	json_t *json;  /* the JSON listing, when asked for */
};

/*
 * Terminal-safe text (control characters become '?') of at most
 * COL_MAX - 1 bytes, cut on a UTF-8 boundary, a "~" marking a cut.
 */
static void
cut(char *dst, const char *src)
{
	size_t n;

	al_text_term_safe(src, dst, COL_MAX, COL_MAX - 1);
	n = strlen(dst);
	if (n < strlen(src)) {
		dst[n] = '~';
		dst[n + 1] = '\0';
	}
}

static json_t *
jstr_or_null(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

static json_t *
jint_or_null(int64_t v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static json_t *
jreal_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *
entry_json(const struct al_store_entry *e)
{
	json_t *o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
			      "s:o, s:o, s:o, s:o}",
			      "id", (json_int_t)e->id, "schema", jstr_or_null(e->schema),
			      "source", jstr_or_null(e->source), "saved_at",
			      jstr_or_null(e->saved_at), "started_at", jstr_or_null(e->started_at),
			      "label", jstr_or_null(e->label), "hostname", jstr_or_null(e->hostname),
			      "kernel_release", jstr_or_null(e->kernel_release), "kernel_version",
			      jstr_or_null(e->kernel_version), "preempt", jstr_or_null(e->preempt),
			      "backend", jstr_or_null(e->backend), "load", jstr_or_null(e->load),
			      "rate", jint_or_null(e->rate_hz), "period_frames",
			      jint_or_null(e->period_frames), "buffer_periods",
			      jint_or_null(e->buffer_periods), "duration_ns",
			      jint_or_null(e->duration_ns));

	if (!o)
		return NULL;
	json_object_set_new(o, "uuid", jstr_or_null(e->uuid));
	if (e->has_stats) {
		json_object_set_new(o, "periods", json_integer(e->periods));
		json_object_set_new(o, "xruns", json_integer(e->xruns));
		json_object_set_new(o, "wake_max_ns", e->wake_max_ns == -1 ? json_null()
								 : json_integer(e->wake_max_ns));
		json_object_set_new(o, "wake_p99_ns", e->wake_p99_ns == -1 ? json_null()
								 : json_integer(e->wake_p99_ns));
		json_object_set_new(o, "max_interval_pct_of_buffer", jreal_or_null(e->max_interval_pct));
		json_object_set_new(o, "within_1ms_pct", jreal_or_null(e->within_1ms_pct));
		json_object_set_new(o, "within_2ms_pct", jreal_or_null(e->within_2ms_pct));
		json_object_set_new(o, "view", json_string(strcmp(e->schema, AL_SCHEMA_RUN_V1)
								   ? "per period" : "per wake-up"));
	} else {
		static const char *const keys[] = { "periods", "xruns", "wake_max_ns",
						    "wake_p99_ns", "max_interval_pct_of_buffer",
						    "within_1ms_pct", "within_2ms_pct" };

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			json_object_set_new(o, keys[i], json_null());
	}
	return o;
}

static int
collect(const struct al_store_entry *e, void *ud)
{
	struct rows *rs = ud;
	struct row *r;
	const char *date = e->started_at[0] ? e->started_at : e->saved_at;

	if (rs->json) {
		json_t *o = entry_json(e);

		if (!o || json_array_append_new(json_object_get(rs->json, "results"), o))
			return -ENOMEM;
	}
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 64;
		struct row *v = realloc(rs->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		rs->v = v;
		rs->cap = cap;
	}
	r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	r->id = e->id;
	/* "2026-11-30T05:07:46.123Z" -> "2026-11-30 05:07" */
	snprintf(r->date, sizeof(r->date), "%.16s", date);
	if (strlen(r->date) > 10 && r->date[10] == 'T')
		r->date[10] = ' ';
	cut(r->label, e->label[0] ? e->label : "-");
	cut(r->kernel, e->kernel_release[0] ? e->kernel_release : "-");
	cut(r->host, e->hostname[0] ? e->hostname : "-");
	snprintf(r->backend, sizeof(r->backend), "%s", e->backend[0] ? e->backend : "-");
	if (e->period_frames >= 0 && e->buffer_periods >= 0 && e->rate_hz >= 0)
		snprintf(r->config, sizeof(r->config), "%lldx%lld@%lld",
			 (long long)e->period_frames, (long long)e->buffer_periods,
			 (long long)e->rate_hz);
	else /* another kind of document: name it */
		snprintf(r->config, sizeof(r->config), "%s",
			 strncmp(e->schema, "audiolat.", 9) ? e->schema : e->schema + 9);
	if (e->has_stats) {
		/* -1: null, not measured; a run/1 result's figures are per wake-up: '*' */
		bool v1 = !strcmp(e->schema, AL_SCHEMA_RUN_V1);

		snprintf(r->periods, sizeof(r->periods), "%lld", (long long)e->periods);
		snprintf(r->xruns, sizeof(r->xruns), "%lld", (long long)e->xruns);
		if (e->wake_max_ns == -1)
			strcpy(r->max, "-");
		else
			al_format_duration(e->wake_max_ns, r->max, sizeof(r->max) - 2);
		if (e->wake_p99_ns == -1)
			strcpy(r->p99, "-");
		else
			al_format_duration(e->wake_p99_ns, r->p99, sizeof(r->p99) - 2);
		if (v1) {
			strcat(r->max, " *");
			strcat(r->p99, " *");
		}
	} else {
		strcpy(r->periods, "-");
		strcpy(r->xruns, "-");
		strcpy(r->max, "-");
		strcpy(r->p99, "-");
	}
	return 0;
}

static void
print_table(const struct rows *rs)
{
	int wl = 5, wk = 6, wb = 7, wc = 6;
	size_t i;

	for (i = 0; i < rs->n; i++) {
		const struct row *r = &rs->v[i];

#define WIDEN(w, s) (al_text_width(s) > (w) ? (w) = al_text_width(s) : 0)
		WIDEN(wl, r->label);
		WIDEN(wk, r->kernel);
		WIDEN(wb, r->backend);
		WIDEN(wc, r->config);
#undef WIDEN
	}
	printf("%6s  %-16s  %-*s  %-*s  %-*s  %-*s  %9s  %6s  %10s  %10s  %s\n", "id",
	       "date (UTC)", wl, "label", wk, "kernel", wb, "backend", wc, "config", "periods",
	       "xruns", "max wake", "p99 wake", "host");
	for (i = 0; i < rs->n; i++) {
		const struct row *r = &rs->v[i];

		/* labels and kernel names are UTF-8: padded by characters, not bytes */
		printf("%6lld  %-16s  ", (long long)r->id, r->date);
		al_text_pad(stdout, r->label, wl, false);
		fputs("  ", stdout);
		al_text_pad(stdout, r->kernel, wk, false);
		fputs("  ", stdout);
		al_text_pad(stdout, r->backend, wb, false);
		fputs("  ", stdout);
		al_text_pad(stdout, r->config, wc, false);
		printf("  %9s  %6s  %10s  %10s  %s\n", r->periods, r->xruns, r->max, r->p99,
		       r->host);
	}
	for (i = 0; i < rs->n; i++)
		if (strchr(rs->v[i].max, '*')) {
			printf("* per wake-up (an audiolat.run/1 result): the periods a stall swallowed "
			       "are not in it\n");
			break;
		}
}

int
cmd_history(int argc, char **argv)
{
	struct al_store_filter f = { .limit = DEFAULT_LIMIT };
	const char *json_path = NULL, *db_opt = NULL;
	struct al_store *db = NULL;
	struct rows rs = { 0 };
	char path[PATH_MAX], err[160];
	int64_t matching = 0;
	int opt, rc, n, ret = AL_EXIT_OK;
	long v;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":k:l:b:n:h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'k':
			f.kernel = optarg;
			break;
		case 'l':
			f.label = optarg;
			break;
		case 'b':
			f.backend = optarg;
			break;
		case OPT_SCHEMA:
			f.schema = optarg;
			break;
		case OPT_HOST:
			f.host = optarg;
			break;
		case OPT_SINCE:
			if (al_store_check_since(optarg, err, sizeof(err)))
				return cli_usage_error("history", "%s", err);
			f.since = optarg;
			break;
		case 'n':
			rc = cli_opt_long("-n/--limit", optarg, 0, LONG_MAX, &v);
			if (rc)
				return rc;
			f.limit = v;
			break;
		case OPT_JSON:
			json_path = optarg;
			break;
		default:
			rc = cli_store_opt("history", opt, help, argv, &db_opt);
			if (rc != CLI_OPT_NEXT)
				return rc;
			break;
		}
	}
	if (optind < argc)
		return cli_usage_error("history", "unexpected argument '%s'", argv[optind]);

	ret = cli_store_open("history", db_opt, CLI_STORE_READ, &db, path, sizeof(path));
	if (ret)
		return ret;
	if (json_path) {
		rs.json = json_pack("{s:s, s:s, s:I, s:[]}", "schema", AL_SCHEMA_HISTORY, "database",
				    path, "matching", (json_int_t)0, "results");
		if (!rs.json)
			return cli_cmd_error(AL_EXIT_RUNTIME, "history", "%s", strerror(ENOMEM));
	}
	if (db) {
		matching = al_store_count(db, &f);
		n = matching < 0 ? (int)matching : al_store_list(db, &f, collect, &rs);
		if (n < 0) {
			ret = cli_cmd_error(AL_EXIT_RUNTIME, "history", "%s: %s", path,
					    al_store_error(db)[0] ? al_store_error(db) : strerror(-n));
			goto out;
		}
	}
	if (rs.json) {
		json_object_set_new(rs.json, "matching", json_integer(matching));
		rc = al_doc_write(json_path, rs.json, 0);
		if (rc) {
			ret = cli_cmd_error(AL_EXIT_RUNTIME, "history", "--json %s: %s", json_path,
					    strerror(-rc));
			goto out;
		}
		if (!strcmp(json_path, "-"))
			goto out;
	}
	if (!db) {
		fprintf(stderr, "no results saved yet (no database at %s)\n", path);
		goto out;
	}
	if (!matching) {
		if (f.kernel || f.label || f.backend || f.schema)
			fprintf(stderr, "no saved result matches (%s)\n", path);
		else
			fprintf(stderr, "no results saved yet (%s)\n", path);
		goto out;
	}
	print_table(&rs);
	if ((int64_t)rs.n < matching)
		fprintf(stderr, "(the newest %zu of %lld; -n 0 lists all)\n", rs.n,
			(long long)matching);
out:
	free(rs.v);
	json_decref(rs.json);
	al_store_close(db);
	return ret;
}
