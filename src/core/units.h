/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checked parsing of numbers and durations with units, and formatting. */
#ifndef AL_CORE_UNITS_H
#define AL_CORE_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a duration: a non-negative decimal number with an optional
 * fraction and a unit: ns, us, ms, s, m, h ("500us", "1.5ms", "30s").
 * A bare number takes default_unit_ns; default_unit_ns == 0 makes the
 * unit mandatory. The conversion is exact (no floating point).
 * Returns 0, -EINVAL (malformed) or -ERANGE (too large).
 */
int al_parse_duration_ns(const char *s, int64_t default_unit_ns, int64_t *out_ns)
	__attribute__((warn_unused_result));

/* Parse a whole decimal integer in [min, max]; 0, -EINVAL or -ERANGE. */
int al_parse_long(const char *s, long min, long max, long *out)
	__attribute__((warn_unused_result));

/*
 * Parse latencytest's fragments, NxBYTES ("3x256"): N periods (2..1024) of
 * BYTES bytes (4..4194304) of 16-bit stereo, 4 bytes a frame. 0, or
 * -EINVAL with one line in err naming --fragments.
 */
int al_parse_fragments(const char *arg, int *periods, int64_t *period_frames, char *err,
		       size_t err_size);

/* "1.352 ms", "15.2 us", "812 ns", "3.100 s": a readable duration. */
void al_format_duration(int64_t t_ns, char *buf, size_t size);

#endif
