/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one reader: a document from a file or stdin, as JSON or as its bytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/text.h"
#include "doc.h"

int
al_doc_read(const char *path, json_t **out, char *err, size_t err_size)
{
	bool in = !strcmp(path, "-");
	json_error_t jerr;
	struct stat st;
	char why[200];

	*out = NULL;
	if (!in && stat(path, &st))
		return al_text_err(err, err_size, -errno, "%s", strerror(errno));
	if (!in && S_ISDIR(st.st_mode))
		return al_text_err(err, err_size, -EISDIR, "is a directory");
	*out = in ? json_loadf(stdin, JSON_REJECT_DUPLICATES, &jerr)
		  : json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (*out)
		return 0;
	/* jansson quotes the input near the error: keep it printable */
	al_text_term_safe(jerr.text, why, sizeof(why), sizeof(why));
	if (jerr.line < 0) /* could not read the file at all */
		return al_text_err(err, err_size, -EIO, "%s", why);
	return al_text_err(err, err_size, -EBADMSG, "line %d, column %d: %s", jerr.line,
			   jerr.column, why);
}

int
al_doc_read_text(const char *path, size_t max_bytes, char **text, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
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
		if (cap > max_bytes)
			break; /* too large: the reader says so with the size */
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
al_doc_check(const json_t *doc, char *err, size_t err_size)
{
	const char *schema;

	if (!json_is_object(doc)) {
		snprintf(err, err_size, "not a JSON object");
		return -EINVAL;
	}
	schema = al_doc_str(doc, "schema", NULL);
	if (!schema) {
		snprintf(err, err_size, "no \"schema\" string: not an audiolat document");
		return -EINVAL;
	}
	if (!strcmp(schema, AL_SCHEMA_MIDI) || !strcmp(schema, AL_SCHEMA_MIDI_LOOP))
		return 0;
	if (strcmp(schema, AL_SCHEMA_RUN) && strcmp(schema, AL_SCHEMA_RUN_V1)) {
		/* the schema string came from outside: show only a printable prefix */
		char shown[48];
		bool whole = al_text_ascii_safe(schema, shown, sizeof(shown));

		snprintf(err, err_size, "schema '%s%s' is not %s, %s, %s or %s", shown,
			 whole ? "" : "...", AL_SCHEMA_RUN, AL_SCHEMA_RUN_V1, AL_SCHEMA_MIDI,
			 AL_SCHEMA_MIDI_LOOP);
		return -EINVAL;
	}
	if (!json_is_object(al_doc_get(doc, "total"))) {
		snprintf(err, err_size, "%s document without a \"total\" object", schema);
		return -EINVAL;
	}
	return 0;
}
