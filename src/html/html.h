/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report: src/html's whole interface. */
#ifndef AL_HTML_HTML_H
#define AL_HTML_HTML_H

#include "doc/render.h"

/*
 * html: one self-contained page (html.c, docs/report.md) of the results
 * (documents al_doc_check() accepts) with an audiolat.compare/1
 * comparison first, when there is one; an -EINVAL leaves f untouched.
 */
extern const struct al_reporter al_reporter_html;

#endif
