/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Time in audiolat: int64_t nanoseconds on CLOCK_MONOTONIC, and exact
 * conversions between frames and nanoseconds (no accumulated rounding).
 */
#ifndef AL_CORE_CLOCK_H
#define AL_CORE_CLOCK_H

#include <stdint.h>
#include <time.h>

#define AL_NS_PER_US 1000LL
#define AL_NS_PER_MS 1000000LL
#define AL_NS_PER_SEC 1000000000LL

static inline int64_t
al_clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * AL_NS_PER_SEC + ts.tv_nsec;
}

static inline struct timespec
al_ns_to_timespec(int64_t t_ns)
{
	struct timespec ts = {
		.tv_sec = t_ns / AL_NS_PER_SEC,
		.tv_nsec = t_ns % AL_NS_PER_SEC,
	};

	return ts;
}

/* Sleep until the absolute CLOCK_MONOTONIC time t_ns; 0, or -EINTR. */
int al_clock_sleep_until_ns(int64_t t_ns);

/* Wall-clock time now, nanoseconds since the epoch (for started_at). */
int64_t al_clock_realtime_ns(void);

/* ISO 8601 UTC ("2026-11-30T05:07:46.123Z") of an epoch time in ns. */
void al_clock_format_iso(int64_t epoch_ns, char *buf, int size);

/* frames -> ns, rounded down or up; exact for any frame count < 2^62. */
int64_t al_frames_to_ns(int64_t frames, int64_t rate_hz);
int64_t al_frames_to_ns_ceil(int64_t frames, int64_t rate_hz);
/* ns -> whole frames elapsed (rounded down); ns >= 0. */
int64_t al_ns_to_frames(int64_t t_ns, int64_t rate_hz);

#endif
