/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JUnit XML: one testcase per run, its figures and its wake-latency
 * histogram as properties (CI-RT keeps cyclictest's histogram rows the
 * same way: one name, one count). A run over its --max-latency is a
 * failure; a run with no measured wake latency is skipped.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "doc/view.h"
#include "doc/escape.h"

static void
attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, " %s=\"", name);
	al_html_escape(f, value);
	fputc('"', f);
}

static void
property(FILE *f, const char *name, const char *value)
{
	fputs("        <property", f);
	attr(f, "name", name);
	attr(f, "value", value);
	fputs("/>\n", f);
}

static void
testcase(FILE *f, const json_t *doc, size_t k)
{
	struct al_ci_figure fig[AL_CI_FIGURES_MAX];
	struct al_dhist h = { 0 };
	const char *limit_fail = NULL;
	bool any = false;
	char name[320], v[64], cls[96];
	size_t i, nf;

	snprintf(name, sizeof(name), "%s", al_doc_label(doc));
	if (!strcmp(name, "?"))
		snprintf(name, sizeof(name), "run %zu", k + 1);
	snprintf(cls, sizeof(cls), "audiolat.run.%s", al_doc_str(doc, "config.backend", "unknown"));
	fputs("    <testcase", f);
	attr(f, "classname", cls);
	attr(f, "name", name);
	snprintf(v, sizeof(v), "%.3f", (double)al_doc_int(doc, "duration_ns", 0) / 1e9);
	attr(f, "time", v);
	fputs(">\n      <properties>\n", f);
	property(f, "uuid", al_doc_str(doc, "uuid", ""));
	property(f, "hostname", al_doc_str(doc, "system.hostname", ""));
	property(f, "kernel_release", al_doc_str(doc, "system.kernel_release", ""));
	nf = al_ci_run_figures(doc, fig, AL_CI_FIGURES_MAX);
	for (i = 0; i < nf; i++) {
		if (fig[i].measured)
			snprintf(v, sizeof(v), "%.9g", fig[i].value);
		else
			snprintf(v, sizeof(v), "null");
		property(f, fig[i].path, v);
		if (fig[i].measured && !strcmp(fig[i].path, "audiolat.run.wake_latency.max"))
			any = true;
		if (fig[i].has_limit && !fig[i].pass)
			limit_fail = fig[i].path;
	}
	/* the histogram: one property per bucket, "histogram.wake_latency_ns.LOW-HIGH" */
	if (!al_dhist_from_json(al_doc_get(doc, "total.histogram.wake_latency_ns"),
				al_doc_get(doc, "total.wake_latency_ns"), &h)) {
		for (i = 0; i < h.n; i++) {
			snprintf(name, sizeof(name), "histogram.wake_latency_ns.%" PRId64 "-%" PRId64,
				 h.b[i].low_ns, h.b[i].high_ns);
			snprintf(v, sizeof(v), "%" PRIu64, h.b[i].count);
			property(f, name, v);
		}
		if (h.overflow) {
			snprintf(v, sizeof(v), "%" PRIu64, h.overflow);
			property(f, "histogram.wake_latency_ns.overflow", v);
		}
		al_dhist_free(&h);
	}
	fputs("      </properties>\n", f);
	if (limit_fail) {
		snprintf(v, sizeof(v), "%.0f", al_doc_real(doc, "config.max_latency_ns", 0));
		fputs("      <failure", f);
		attr(f, "message", "max wake latency above --max-latency");
		attr(f, "type", limit_fail);
		fprintf(f, ">max_latency_ns %s</failure>\n", v);
	} else if (!any) {
		fputs("      <skipped message=\"no wake latency measured\"/>\n", f);
	}
	fputs("    </testcase>\n", f);
}

int
al_ci_junit(json_t *const *docs, size_t n, const struct al_ci_opts *o, char **out,
	    char *err, size_t err_size)
{
	struct al_ci_figure fig[AL_CI_FIGURES_MAX];
	size_t d, i, nf, failures = 0, skipped = 0, size = 0;
	char *buf = NULL;
	FILE *f;

	(void)o;
	*out = NULL;
	for (d = 0; d < n; d++) {
		bool fail = false, measured = false;

		if (!al_doc_is_run(docs[d])) {
			snprintf(err, err_size, "result %zu is not an audiolat.run document", d + 1);
			return -EINVAL;
		}
		nf = al_ci_run_figures(docs[d], fig, AL_CI_FIGURES_MAX);
		for (i = 0; i < nf; i++) {
			fail |= fig[i].has_limit && !fig[i].pass;
			measured |= fig[i].measured &&
				    !strcmp(fig[i].path, "audiolat.run.wake_latency.max");
		}
		failures += fail;
		skipped += !fail && !measured;
	}
	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"audiolat\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n",
		n, failures, skipped);
	fprintf(f, "  <testsuite name=\"audiolat.run\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		   "skipped=\"%zu\"",
		n, failures, skipped);
	if (n)
		attr(f, "timestamp", al_doc_str(docs[0], "started_at", ""));
	if (n)
		attr(f, "hostname", al_doc_str(docs[0], "system.hostname", ""));
	fputs(">\n", f);
	for (d = 0; d < n; d++)
		testcase(f, docs[d], d);
	fputs("  </testsuite>\n</testsuites>\n", f);
	if (fclose(f)) {
		free(buf);
		return -ENOMEM;
	}
	*out = buf;
	return 0;
}
