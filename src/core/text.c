/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>

#include "text.h"

int
al_text_err(char *err, size_t size, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err && size) {
		va_start(ap, fmt);
		vsnprintf(err, size, fmt, ap);
		va_end(ap);
	}
	return rc;
}

void
al_text_discard(const char *file, int line, const char *function, int err, const char *fmt, ...)
{
	(void)file;
	(void)line;
	(void)function;
	(void)err;
	(void)fmt;
}

void
al_text_discard_line(const char *msg)
{
	(void)msg;
}

void
al_text_term_safe(const char *in, char *out, size_t size, size_t max_chars)
{
	size_t o = 0, chars = 0;

	for (; in && *in && o + 1 < size; in++) {
		unsigned char c = (unsigned char)*in;

		if ((c & 0xc0) != 0x80 && chars++ == max_chars)
			break;
		if (c < 0x20 || c == 0x7f) {
			out[o++] = '?';
			continue;
		}
		/* don't cut a multi-byte character short at the end of the buffer */
		if (c >= 0xc0) {
			size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;

			if (o + len >= size)
				break;
		}
		out[o++] = (char)c;
	}
	out[o] = '\0';
}

bool
al_text_ascii_safe(const char *in, char *out, size_t size)
{
	size_t i;
	bool all;

	for (i = 0; in && in[i] && i + 1 < size; i++) {
		unsigned char c = (unsigned char)in[i];

		out[i] = c < 0x20 || c > 0x7e ? '?' : (char)c;
	}
	all = !in || !in[i];
	out[i] = '\0';
	return all;
}

int
al_text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

void
al_text_pad(FILE *f, const char *s, int width, bool right)
{
	int w = al_text_width(s);

	if (right)
		fprintf(f, "%*s%s", w < width ? width - w : 0, "", s);
	else
		fprintf(f, "%s%*s", s, w < width ? width - w : 0, "");
}
