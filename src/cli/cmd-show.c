/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat show ID: a concise summary of one saved result, from its JSON. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/clock.h"
#include "core/text.h"
#include "core/units.h"
#include "report/doc.h"
#include "report/report.h"
#include "store/store.h"
#include "cli.h"
#include "cli-store.h"
#include "commands.h"

static const char help[] =
	"usage: audiolat show [options] ID\n"
	"\n"
	"Print a summary of the result saved under ID (audiolat history lists them):\n"
	"label, system, configuration, the latencytest line, the percentile table,\n"
	"phases, xruns and warnings. audiolat export ID prints the whole document.\n"
	"\n"
	"      --db PATH          the database (default $XDG_DATA_HOME/audiolat/results.db)\n"
	"  -h, --help             this text\n"
	"\n"
	"exit status: 0 done, 1 runtime error (no such id, a database error),\n"
	"2 usage error\n";

static const struct option long_opts[] = {
	{ "db", required_argument, NULL, CLI_OPT_DB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/*
 * Text from a saved document (which may have been imported from anywhere)
 * made safe for the terminal: control characters become '?'.
 */
static const char *
safe(const char *s, char *buf, size_t size)
{
	al_text_term_safe(s, buf, size, size);
	return buf;
}

/* Where the run's text leaves off: when and where it ran, and how it was started. */
static void
show_run(const json_t *doc)
{
	const struct al_report_doc rd = { doc, NULL };
	const struct al_report_input in = { .docs = &rd, .n = 1, .no_histogram = true };
	char a[128], b[128], c[1024];

	printf("started:   %s\n", safe(al_doc_str(doc, "started_at", "-"), a, sizeof(a)));
	printf("system:    %s  %s  %" PRId64 " CPUs  %s\n",
	       safe(al_doc_str(doc, "system.hostname", "-"), a, sizeof(a)),
	       safe(al_doc_str(doc, "system.machine", "-"), b, sizeof(b)),
	       al_doc_int(doc, "system.cpus", 0), safe(al_doc_str(doc, "system.cpu_model", ""), c,
						       sizeof(c)));
	printf("load:      %s\n", safe(al_doc_str(doc, "config.load", "none"), a, sizeof(a)));
	printf("command:   %s\n", safe(al_doc_str(doc, "cmdline", "-"), c, sizeof(c)));
	printf("\n");
	al_reporter_text.write(&in, stdout);
}

static int
show_entry(const struct al_store_entry *e, void *ud)
{
	char a[128], b[64], c[256], d[256];

	(void)ud;
	printf("result %lld: %s, saved %s (%s)\n", (long long)e->id, safe(e->schema, a, sizeof(a)),
	       safe(e->saved_at, b, sizeof(b)), safe(e->source, c, sizeof(c)));
	if (e->label[0])
		printf("label:     %s\n", safe(e->label, d, sizeof(d)));
	return 1;
}

int
cmd_show(int argc, char **argv)
{
	struct al_store_filter f = { 0 };
	struct al_store *db = NULL;
	const char *db_opt = NULL;
	char path[PATH_MAX], *text = NULL;
	json_error_t jerr;
	json_t *doc;
	int64_t id;
	int opt, rc, ret;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		switch (opt) {
		default:
			rc = cli_store_opt("show", opt, help, argv, &db_opt);
			if (rc != CLI_OPT_NEXT)
				return rc;
			break;
		}
	}
	ret = cli_store_fetch_arg("show", db_opt, argc, argv, optind, &text, &db, &id, path,
				  sizeof(path));
	if (ret)
		goto out;
	doc = json_loads(text, 0, &jerr);
	if (!doc) { /* saved documents were checked: the file was changed behind our back */
		ret = cli_cmd_error(AL_EXIT_RUNTIME, "show", "%s: result %lld: %d:%d: invalid JSON: %s",
				    path, (long long)id, jerr.line, jerr.column, jerr.text);
		goto out;
	}
	f.id = id;
	rc = al_store_list(db, &f, show_entry, NULL);
	if (rc < 0) {
		ret = cli_cmd_error(AL_EXIT_RUNTIME, "show", "%s: %s", path, al_store_error(db));
		json_decref(doc);
		goto out;
	}
	if (al_doc_is_run(doc)) {
		show_run(doc);
	} else {
		char a[128], b[128], c[128];

		if (json_is_string(al_doc_get(doc, "started_at")))
			printf("started:   %s\n", safe(al_doc_str(doc, "started_at", "-"), a, sizeof(a)));
		if (json_is_object(al_doc_get(doc, "system")))
			printf("system:    %s  %s (preempt: %s)\n",
			       safe(al_doc_str(doc, "system.hostname", "-"), a, sizeof(a)),
			       safe(al_doc_str(doc, "system.kernel_release", "-"), b, sizeof(b)),
			       safe(al_doc_str(doc, "system.preempt", "-"), c, sizeof(c)));
		printf("%zu bytes of JSON; audiolat export %lld prints it\n", strlen(text),
		       (long long)id);
	}
	json_decref(doc);
	ret = AL_EXIT_OK;
out:
	free(text);
	al_store_close(db);
	return ret;
}
