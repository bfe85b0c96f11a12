/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which format a file is in, and the one way in and out for each (interchange.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "cyclictest.h"
#include "interchange.h"
#include "pwprofiler.h"

static const char *const names[] = {
	[AL_IX_AUTO] = "auto",
	[AL_IX_AUDIOLAT] = "audiolat",
	[AL_IX_CYCLICTEST_HIST] = "cyclictest-hist",
	[AL_IX_CYCLICTEST_JSON] = "cyclictest-json",
	[AL_IX_PW_PROFILER] = "pw-profiler",
};

int
al_ix_format_of(const char *name, enum al_ix_format *f)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (name && !strcmp(name, names[i])) {
			*f = (enum al_ix_format)i;
			return 0;
		}
	return -EINVAL;
}

const char *
al_ix_format_name(enum al_ix_format f)
{
	return (size_t)f < sizeof(names) / sizeof(names[0]) ? names[f] : "?";
}

/* Does [s, s + len) hold needle? */
static bool
has(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

enum al_ix_format
al_ix_detect(const char *text, size_t len)
{
	size_t i = 0;

	while (i < len && strchr(" \t\r\n", text[i]) && text[i])
		i++;
	if (i < len && text[i] == '{')
		return has(text, len, "\"num_threads\"") && has(text, len, "\"thread\"") &&
				       !has(text, len, "\"schema\"")
			       ? AL_IX_CYCLICTEST_JSON
			       : AL_IX_AUDIOLAT;
	/* the header line cyclictest -h writes before its buckets */
	if ((len >= 12 && !memcmp(text, "# Histogram\n", 12)) || has(text, len, "\n# Histogram\n") ||
	    has(text, len, "\n# Histogram\r\n"))
		return AL_IX_CYCLICTEST_HIST;
	/* a line of pw-profiler's log: 4 tab-separated integers first */
	if (al_pwp_looks_like(text, len))
		return AL_IX_PW_PROFILER;
	return AL_IX_AUDIOLAT;
}

/* pw-profiler's log as a document: 0, or -EINVAL/-ENOMEM with err. */
static int
import_pwp(const char *text, size_t len, const char *name, json_t **doc, char *err,
	   size_t err_size)
{
	struct al_pwp_run r;
	int rc = al_pwp_parse(text, len, &r, err, err_size);

	if (rc)
		return rc;
	*doc = al_pwp_doc(&r, name);
	al_pwp_run_free(&r);
	return 0;
}

int
al_ix_import(const char *text, size_t len, const char *name, enum al_ix_format f, char **out,
	     size_t *out_len, char *err, size_t err_size)
{
	struct al_ct_run r;
	json_t *doc = NULL;
	int rc;

	*out = NULL;
	*out_len = 0;
	if (f == AL_IX_AUTO)
		f = al_ix_detect(text, len);
	switch (f) {
	case AL_IX_CYCLICTEST_HIST:
		rc = al_ct_hist_parse(text, len, &r, err, err_size);
		break;
	case AL_IX_CYCLICTEST_JSON:
		rc = al_ct_json_parse(text, len, &r, err, err_size);
		break;
	case AL_IX_PW_PROFILER:
		rc = import_pwp(text, len, name, &doc, err, err_size);
		if (rc)
			return rc;
		goto text;
	default: /* ours: the store checks it */
		*out = malloc(len + 1);
		if (!*out)
			return al_text_err(err, err_size, -ENOMEM, ": out of memory");
		memcpy(*out, text, len);
		(*out)[len] = '\0';
		*out_len = len;
		return 0;
	}
	if (rc)
		return rc;
	doc = al_ct_doc(&r, al_ix_format_name(f), name);
	al_ct_run_free(&r);
text:
	*out = doc ? al_doc_text(doc, 0) : NULL;
	json_decref(doc);
	if (!*out)
		return al_text_err(err, err_size, -ENOMEM, ": out of memory");
	*out_len = strlen(*out);
	return 0;
}

int
al_ix_convert(void *ud, const char *file, const char *text, size_t len, char **out,
	      size_t *out_len, char *err, size_t err_size)
{
	const enum al_ix_format *f = ud;

	return al_ix_import(text, len, strcmp(file, "-") ? file : "stdin", f ? *f : AL_IX_AUTO,
			    out, out_len, err, err_size);
}

int
al_ix_export_cyclictest(const json_t *doc, char **text, char *err, size_t err_size)
{
	struct al_ct_run r;
	int rc;

	*text = NULL;
	rc = al_ct_from_doc(doc, &r, err, err_size);
	if (rc)
		return rc;
	rc = al_ct_hist_write(&r, text);
	al_ct_run_free(&r);
	if (rc)
		return al_text_err(err, err_size, rc, "out of memory");
	return 0;
}
