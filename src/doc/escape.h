/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text in markup: the one escaping function of the HTML report and its
 * SVG plots. Every string that comes from a document goes through it.
 */
#ifndef AL_REPORT_ESCAPE_H
#define AL_REPORT_ESCAPE_H

#include <stdio.h>

/*
 * Write s as text that is safe in element content and in quoted
 * attribute values of both HTML and XML: & < > " ' become entities;
 * bytes that are not UTF-8 (overlong forms, surrogates and code points
 * above U+10FFFF included), control characters other than tab and
 * newline, DEL, the C1 controls and the non-characters (U+FDD0..U+FDEF,
 * U+xFFFE, U+xFFFF) become U+FFFD. NULL writes nothing.
 */
void al_html_escape(FILE *f, const char *s);

#endif
