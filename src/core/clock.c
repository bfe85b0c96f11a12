/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "clock.h"

int
al_clock_sleep_until_ns(int64_t t_ns)
{
	struct timespec ts = al_ns_to_timespec(t_ns);
	int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

	return rc ? -rc : 0;
}

int64_t
al_clock_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * AL_NS_PER_SEC + ts.tv_nsec;
}

void
al_clock_format_iso(int64_t epoch_ns, char *buf, int size)
{
	time_t secs = (time_t)(epoch_ns / AL_NS_PER_SEC);
	struct tm tm;

	gmtime_r(&secs, &tm);
	snprintf(buf, (size_t)size, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (int)(epoch_ns % AL_NS_PER_SEC / AL_NS_PER_MS));
}

int64_t
al_frames_to_ns(int64_t frames, int64_t rate_hz)
{
	return frames / rate_hz * AL_NS_PER_SEC + frames % rate_hz * AL_NS_PER_SEC / rate_hz;
}

int64_t
al_frames_to_ns_ceil(int64_t frames, int64_t rate_hz)
{
	return frames / rate_hz * AL_NS_PER_SEC +
	       (frames % rate_hz * AL_NS_PER_SEC + rate_hz - 1) / rate_hz;
}

int64_t
al_ns_to_frames(int64_t t_ns, int64_t rate_hz)
{
	return t_ns / AL_NS_PER_SEC * rate_hz + t_ns % AL_NS_PER_SEC * rate_hz / AL_NS_PER_SEC;
}
