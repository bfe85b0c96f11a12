/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Outside text (labels, kernel names, file names) for a terminal table. */
#ifndef AL_CORE_TEXT_H
#define AL_CORE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Copy in to out for a terminal: control characters (which could steer
 * it) become '?', at most max_chars characters, UTF-8 aware (a character
 * is never cut short). in may be NULL (""). size >= 1.
 */
void al_text_term_safe(const char *in, char *out, size_t size, size_t max_chars);

/* Display width of UTF-8 text: one column per character. */
int al_text_width(const char *s);

/* printf("%-*s") (or "%*s" when right) for UTF-8 text: pads by characters, not bytes. */
void al_text_pad(FILE *f, const char *s, int width, bool right);

#endif
