/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KCIDB v5 (KernelCI's common report format): one test per figure of a
 * run. Checked against the published schema in tests/report (transcribed
 * as data: kcidb-v5.schema.json). The schema allows no null anywhere, so a
 * field the document does not have is left out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "export.h"
#include "doc/doc.h"
#include "doc/view.h"

#define KCIDB_MAJOR 5
#define KCIDB_MINOR 0

static bool
origin_ok(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/*
 * A KCIDB build id (--build-id): ORIGIN:ID, the origin of the CI system that built the
 * kernel ([a-z0-9_]+, the schema's pattern; it need not be ours) and its
 * own id for the build (not empty, printable, at most 200 bytes).
 */
static bool
build_id_ok(const char *s)
{
	const char *colon = s ? strchr(s, ':') : NULL;
	const char *p;

	if (!colon || colon == s || !colon[1] || strlen(s) > 200)
		return false;
	for (p = s; p < colon; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	for (p = colon + 1; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

/* o[key] = the document's value at path, when it is there and not null */
static void
copy(json_t *o, const char *key, const json_t *doc, const char *path)
{
	json_t *v = al_doc_get(doc, path);

	if (v && !json_is_null(v))
		json_object_set(o, key, v);
}

static json_t *
environment(const json_t *doc)
{
	json_t *misc = json_object();
	const char *host = al_doc_str(doc, "system.hostname", NULL);
	json_t *env = json_object();

	copy(misc, "hostname", doc, "system.hostname");
	copy(misc, "kernel_release", doc, "system.kernel_release");
	copy(misc, "kernel_version", doc, "system.kernel_version");
	copy(misc, "preempt", doc, "system.preempt");
	copy(misc, "cpu_model", doc, "system.cpu_model");
	copy(misc, "cpus", doc, "system.cpus");
	if (host)
		json_object_set_new(env, "comment", json_string(host));
	json_object_set_new(env, "misc", misc);
	return env;
}

/* the configuration of the run: what makes two figures comparable */
static json_t *
test_misc(const json_t *doc)
{
	json_t *misc = json_object();

	copy(misc, "uuid", doc, "uuid");
	copy(misc, "label", doc, "label");
	copy(misc, "tool_version", doc, "tool_version");
	copy(misc, "schema", doc, "schema");
	copy(misc, "backend", doc, "config.backend");
	copy(misc, "rate", doc, "config.rate");
	copy(misc, "period_frames", doc, "config.period_frames");
	copy(misc, "periods", doc, "config.periods");
	copy(misc, "load", doc, "config.load");
	copy(misc, "max_latency_ns", doc, "config.max_latency_ns");
	copy(misc, "realtime", doc, "realtime");
	copy(misc, "priority", doc, "priority");
	return misc;
}

int
al_ci_kcidb(json_t *const *docs, size_t n, const struct al_ci_opts *o, json_t **out,
	    char *err, size_t err_size)
{
	const char *origin = o && o->origin ? o->origin : "audiolat";
	struct al_ci_figure fig[AL_CI_FIGURES_MAX];
	json_t *root, *tests;
	size_t d, i, nf;
	char id[256], build[256];

	*out = NULL;
	if (!origin_ok(origin)) {
		snprintf(err, err_size, "KCIDB origin '%.40s' is not [a-z0-9_]+", origin);
		return -EINVAL;
	}
	if (o && o->build_id && !build_id_ok(o->build_id)) {
		char shown[256];

		/* on one line: control characters become '?' */
		al_text_term_safe(o->build_id, shown, sizeof(shown), 60);
		snprintf(err, err_size,
			 "KCIDB build id '%s' is not ORIGIN:ID (ORIGIN [a-z0-9_]+, ID not empty)",
			 shown);
		return -EINVAL;
	}
	tests = json_array();
	for (d = 0; d < n; d++) {
		const json_t *doc = docs[d];
		const char *uuid = al_doc_str(doc, "uuid", NULL);
		const char *started = al_doc_str(doc, "started_at", NULL);
		int64_t dur_ns = al_doc_int(doc, "duration_ns", -1);

		if (!al_doc_is_run(doc)) {
			json_decref(tests);
			snprintf(err, err_size, "result %zu is not an audiolat.run document", d + 1);
			return -EINVAL;
		}
		if (o && o->build_id)
			snprintf(build, sizeof(build), "%s", o->build_id);
		else
			snprintf(build, sizeof(build), "%s:%s", origin,
				 al_doc_str(doc, "system.kernel_release", "unknown"));
		nf = al_ci_run_figures(doc, fig, AL_CI_FIGURES_MAX);
		for (i = 0; i < nf; i++) {
			json_t *t = json_object();
			const char *status;

			/* stable and unique: the run's UUID and the figure */
			if (uuid)
				snprintf(id, sizeof(id), "%s:%s.%s", origin, uuid, fig[i].path + 9);
			else
				snprintf(id, sizeof(id), "%s:%s.%zu.%s", origin,
					 started ? started : "run", d, fig[i].path + 9);
			json_object_set_new(t, "id", json_string(id));
			json_object_set_new(t, "origin", json_string(origin));
			json_object_set_new(t, "build_id", json_string(build));
			json_object_set_new(t, "path", json_string(fig[i].path));
			if (!fig[i].measured)
				status = "SKIP";
			else if (fig[i].has_limit)
				status = fig[i].pass ? "PASS" : "FAIL";
			else
				status = "DONE";
			json_object_set_new(t, "status", json_string(status));
			if (fig[i].measured) {
				json_t *num = json_pack("{s:f}", "value", fig[i].value);

				if (fig[i].unit[0])
					json_object_set_new(num, "unit", json_string(fig[i].unit));
				if (!strcmp(fig[i].unit, "s"))
					json_object_set_new(num, "prefix", json_string("metric"));
				json_object_set_new(t, "number", num);
			} else {
				json_object_set_new(t, "comment", json_string("not measured"));
			}
			if (started)
				json_object_set_new(t, "start_time", json_string(started));
			if (dur_ns >= 0)
				json_object_set_new(t, "duration", json_real((double)dur_ns / 1e9));
			json_object_set_new(t, "environment", environment(doc));
			json_object_set_new(t, "misc", test_misc(doc));
			json_array_append_new(tests, t);
		}
	}
	root = json_pack("{s:{s:i, s:i}, s:o}", "version", "major", KCIDB_MAJOR, "minor",
			 KCIDB_MINOR, "tests", tests);
	if (!root)
		return -ENOMEM;
	*out = root;
	return 0;
}

int
al_ci_format(const char *format, json_t *const *docs, size_t n, const struct al_ci_opts *o,
	     char **out, char *err, size_t err_size)
{
	json_t *kcidb = NULL;
	int rc;

	*out = NULL;
	if (!strcmp(format, "junit"))
		return al_ci_junit(docs, n, o, out, err, err_size);
	if (!strcmp(format, "lava"))
		return al_ci_lava(docs, n, o, out, err, err_size);
	if (strcmp(format, "kcidb"))
		return al_text_err(err, err_size, -EINVAL, "unknown format '%s'", format);
	rc = al_ci_kcidb(docs, n, o, &kcidb, err, err_size);
	if (!rc) {
		*out = al_doc_text(kcidb, 0);
		rc = *out ? 0 : -ENOMEM;
	}
	json_decref(kcidb);
	return rc;
}
