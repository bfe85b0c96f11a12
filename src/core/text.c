/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "text.h"

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
