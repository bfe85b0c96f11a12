/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stddef.h>

#include "pcmtime.h"

/* on the clock whose "now" is clk_ns: not after it (but for tolerance), not an hour before */
static bool
near_clock(int64_t stamp_ns, int64_t clk_ns)
{
	return stamp_ns <= clk_ns + AL_STAMP_NOW_TOLERANCE_NS &&
	       stamp_ns >= clk_ns - AL_XRUN_MAX_NS - AL_STAMP_NOW_TOLERANCE_NS;
}

enum al_stamp_base
al_stamp_classify(int64_t stamp_ns, int64_t mono_ns, int64_t real_ns)
{
	if (stamp_ns == 0)
		return AL_STAMP_NONE;
	if (near_clock(stamp_ns, mono_ns))
		return AL_STAMP_MONOTONIC;
	if (near_clock(stamp_ns, real_ns))
		return AL_STAMP_REALTIME;
	return AL_STAMP_UNKNOWN;
}

const char *
al_stamp_base_name(enum al_stamp_base base)
{
	switch (base) {
	case AL_STAMP_NONE:
		return "none";
	case AL_STAMP_MONOTONIC:
		return "monotonic";
	case AL_STAMP_REALTIME:
		return "realtime";
	default:
		return "unknown";
	}
}

int64_t
al_stamp_to_mono(int64_t stamp_ns, enum al_stamp_base base, int64_t mono_ns, int64_t real_ns)
{
	switch (base) {
	case AL_STAMP_MONOTONIC:
		return stamp_ns;
	case AL_STAMP_REALTIME:
		return stamp_ns - (real_ns - mono_ns);
	default:
		return 0;
	}
}

static int64_t
lost_periods(int64_t duration_ns, int64_t period_ns)
{
	int64_t n;

	if (period_ns <= 0)
		return 1;
	n = (duration_ns + period_ns - 1) / period_ns;
	return n < 1 ? 1 : n;
}

/* NULL when the stamps give a believable duration (then *start, *dur are set). */
static const char *
check_stamps(const struct al_xrun_stamps *s, int64_t *start_ns, int64_t *dur_ns)
{
	enum al_stamp_base sb, tb;
	int64_t trig_ns, d_ns;

	if (s->trigger_ns == 0)
		return "zero trigger stamp";
	sb = al_stamp_classify(s->status_ns, s->now_mono_ns, s->now_real_ns);
	tb = al_stamp_classify(s->trigger_ns, s->now_mono_ns, s->now_real_ns);
	if (tb == AL_STAMP_UNKNOWN)
		return "trigger stamp on no clock of ours (garbage, or over an hour old)";
	if (sb == AL_STAMP_UNKNOWN)
		return "status stamp on no clock of ours";
	if (sb != AL_STAMP_NONE && sb != tb)
		return "trigger and status stamps on different clocks";
	trig_ns = al_stamp_to_mono(s->trigger_ns, tb, s->now_mono_ns, s->now_real_ns);
	d_ns = s->now_mono_ns - trig_ns;
	if (d_ns < 0)
		return "trigger stamp after now (negative duration)";
	if (d_ns == 0)
		return "zero duration";
	if (d_ns >= AL_XRUN_MAX_NS)
		return "duration over an hour";
	if (trig_ns < s->last_ok_ns)
		return "trigger stamp older than the last write (not updated at the xrun)";
	*start_ns = trig_ns;
	*dur_ns = d_ns;
	return NULL;
}

void
al_xrun_duration(const struct al_xrun_stamps *s, struct al_xrun_duration *out)
{
	int64_t start_ns = 0, dur_ns = 0;

	out->reject = check_stamps(s, &start_ns, &dur_ns);
	out->from_stamps = !out->reject;
	if (out->reject) {
		/* the pointers: the audio queued at the last write lasted until empty_ns */
		start_ns = s->empty_ns > s->last_ok_ns ? s->empty_ns : s->last_ok_ns;
		/*
		 * ... unless by that account audio was still queued: the device
		 * ran it out sooner (pcm_jack under hackbench, its server's
		 * cycles bunched): from the last write that went through, the
		 * one bound known, not a duration of 0 (1 xrun in 7 runs of
		 * backend-xrun-load read 0); no write yet: now, below
		 */
		if (start_ns > s->now_mono_ns)
			start_ns = s->last_ok_ns;
		if (start_ns > s->now_mono_ns || start_ns <= 0)
			start_ns = s->now_mono_ns;
		dur_ns = s->now_mono_ns - start_ns;
	}
	out->start_ns = start_ns;
	out->duration_ns = dur_ns;
	out->lost_periods = lost_periods(dur_ns, s->period_ns);
}
