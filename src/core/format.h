/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Figures as text, shared by the reporters. */
#ifndef AL_REPORT_FORMAT_H
#define AL_REPORT_FORMAT_H

#include <stddef.h>

/*
 * A throughput figure with an SI prefix and its unit, for people (JSON
 * keeps the raw number): 2.33e9 "B/s" -> "2.33 GB/s", 354694 "1/s" ->
 * "355 k/s".
 */
void al_format_si(double v, const char *unit, char *buf, size_t size);

#endif
