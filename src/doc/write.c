/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one writer: a document dumped, a newline, to a file or stdout. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"

char *
al_doc_text(const json_t *doc, size_t flags)
{
	char *text = json_dumps(doc, JSON_INDENT(2) | flags), *nl;
	size_t len;

	if (!text)
		return NULL;
	len = strlen(text);
	nl = realloc(text, len + 2);
	if (!nl) {
		free(text);
		return NULL;
	}
	memcpy(nl + len, "\n", 2);
	return nl;
}

int
al_doc_write_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	FILE *f;
	int rc = 0;

	if (!strcmp(path, "-")) {
		if (fwrite(text, 1, len, stdout) != len || fflush(stdout))
			return -EIO;
		return 0;
	}
	f = fopen(path, "we");
	if (!f)
		return -errno;
	if (fwrite(text, 1, len, f) != len)
		rc = errno ? -errno : -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

int
al_doc_write(const char *path, const json_t *doc, size_t flags)
{
	char *text = al_doc_text(doc, flags);
	int rc;

	if (!text)
		return -ENOMEM;
	rc = al_doc_write_text(path, text);
	free(text);
	return rc;
}

int
al_doc_fwrite(FILE *f, const json_t *doc, size_t flags)
{
	char *text = al_doc_text(doc, flags);
	size_t len;

	if (!text)
		return -ENOMEM;
	len = strlen(text);
	if (fwrite(text, 1, len, f) != len) {
		free(text);
		return -EIO;
	}
	free(text);
	return ferror(f) ? -EIO : 0;
}
