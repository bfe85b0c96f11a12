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

/*
 * Copy in to out as one line of printable ASCII: every byte outside
 * 0x20..0x7e becomes '?', at most size - 1 bytes (size >= 1). in may be
 * NULL ("") and may be out (in place). true when all of in fit.
 */
bool al_text_ascii_safe(const char *in, char *out, size_t size);

/* Display width of UTF-8 text: one column per character. */
int al_text_width(const char *s);

/* printf("%-*s") (or "%*s" when right) for UTF-8 text: pads by characters, not bytes. */
void al_text_pad(FILE *f, const char *s, int width, bool right);

/*
 * A library's one-line reason (printf-style) into err (NULL or size 0:
 * none), returning rc: `return al_text_err(err, size, -EPERM, "...");`.
 */
int al_text_err(char *err, size_t size, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * A log callback that drops its message, in alsa-lib's error-handler shape
 * (snd_lib_error_set_handler()): library code never prints, and the
 * caller's own error line says why.
 */
void al_text_discard(const char *file, int line, const char *function, int err,
		     const char *fmt, ...);
/* The same in libjack's shape (jack_set_error_function(), jack_set_info_function()). */
void al_text_discard_line(const char *msg);

#endif
