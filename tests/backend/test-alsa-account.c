/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ALSA backend's own account of an xrun, without a device: alsa.c is
 * compiled in for its write path, and the two alsa-lib calls a playback
 * write makes are answered here (a definition in the executable wins over
 * libasound's): the free space, and the write itself. A plugin that plays
 * silence when starved (pcm_jack, PipeWire's) reports no xrun: the account
 * finds one when the buffer drained and stayed dry, or when the device
 * stood still longer than the buffer lasts, and every period begun in it
 * is lost. On capture, such a plugin drops what it has no room for: the
 * account finds an overrun when the buffer stayed full over a period, or
 * when the device delivered less than the time passed, by more than the
 * buffer lasts.
 */
/* first: cmocka.h defines a fail() macro */
#include "../../src/backend/alsa.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define MS AL_NS_PER_MS
#define T0 (7200 * AL_NS_PER_SEC)
#define P 5333333LL /* 256 frames at 48 kHz */

static snd_pcm_sframes_t fake_avail;
static snd_pcm_uframes_t fake_written, fake_read;

snd_pcm_sframes_t
snd_pcm_avail(snd_pcm_t *pcm)
{
	(void)pcm;
	return fake_avail;
}

snd_pcm_sframes_t
snd_pcm_writei(snd_pcm_t *pcm, const void *buffer, snd_pcm_uframes_t size)
{
	(void)pcm;
	(void)buffer;
	fake_written += size;
	return (snd_pcm_sframes_t)size;
}

snd_pcm_sframes_t
snd_pcm_readi(snd_pcm_t *pcm, void *buffer, snd_pcm_uframes_t size)
{
	(void)pcm;
	(void)buffer;
	fake_read += size;
	return (snd_pcm_sframes_t)size;
}

int
snd_pcm_start(snd_pcm_t *pcm)
{
	(void)pcm;
	return 0;
}

static struct alsa a;
static char silence[2 * 256 * 4];

/* plug:jack as audiolat opens it: 2 x 256 frames of S16_LE stereo at 48 kHz */
static int
setup(void **state)
{
	(void)state;
	memset(&a, 0, sizeof(a));
	a.play = (snd_pcm_t *)&a; /* never looked into: the calls are ours */
	a.rate_hz = 48000;
	a.period_frames = 256;
	a.buffer_frames = 512;
	a.period_ns = P;
	a.buffer_ns = 2 * P;
	a.frame_bytes = 4;
	a.buf = silence;
	fake_written = fake_read = 0;
	return 0;
}

/* the same, capturing: the last read, at t_ns, emptied the buffer */
static int
setup_capture(void **state)
{
	setup(state);
	a.cap = a.play;
	a.play = NULL;
	a.last_ok_ns = a.last_write_ns = T0;
	a.queued_frames = 0;
	a.empty_ns = T0 + 2 * P;
	return 0;
}

/* the last write, at t_ns, filled the buffer of a device that consumes */
static void
written_full_at(int64_t t_ns)
{
	a.last_write_ns = t_ns;
	a.queued_frames = 512;
	a.consuming = true;
	a.empty_ns = t_ns + 2 * P;
}

/* Drained at T0 and dry for 200 ms: one xrun from T0, 200 ms, 38 periods (37.5 begun). */
static void
a_drained_buffer_is_an_xrun_from_when_it_ran_out(void **state)
{
	struct al_write_info wi = { 0 };

	(void)state;
	a.empty_ns = T0;
	a.last_write_ns = T0 - 2 * P;
	fake_avail = 512;
	assert_int_equal(alsa_write(&a, T0 + 200 * MS, &wi), 0);
	assert_int_equal(wi.xrun_source, AL_XRUN_ACCOUNT);
	assert_int_equal(wi.xrun_start_ns, T0);
	assert_int_equal(wi.xrun_ns, 200 * MS);
	assert_int_equal(wi.lost_periods, 38);
	assert_int_equal(wi.margin_ns, 0);
	assert_int_equal(fake_written, 512); /* refilled */
	assert_int_equal(a.xrun_account, 1);
	/* the driver's wi lives on: the next write's source is the device's again */
	fake_avail = 256;
	assert_int_equal(alsa_write(&a, T0 + 200 * MS + P, &wi), 0);
	assert_int_equal(wi.xrun_start_ns, 0);
	assert_int_equal(wi.xrun_source, AL_XRUN_DEVICE);
}

/*
 * Written at T0 with the buffer full; 150 ms later the device consumed one
 * period only (pcm_jack's thread was stopped with ours): it stood still
 * from T0 + 1 period for 150 ms - 1 period, 27.1 periods begun: 28 lost.
 */
static void
a_device_that_stood_still_is_an_xrun(void **state)
{
	struct al_write_info wi;

	(void)state;
	written_full_at(T0);
	fake_avail = 256;
	assert_int_equal(alsa_write(&a, T0 + 150 * MS, &wi), 0);
	assert_int_equal(wi.xrun_source, AL_XRUN_ACCOUNT);
	assert_int_equal(wi.xrun_start_ns, T0 + P);
	assert_int_equal(wi.xrun_ns, 150 * MS - P);
	assert_int_equal(wi.lost_periods, 28);
}

/* On time: a period consumed in a period, no xrun, nothing lost. */
static void
on_time_is_no_xrun(void **state)
{
	struct al_write_info wi;

	(void)state;
	written_full_at(T0);
	fake_avail = 256;
	assert_int_equal(alsa_write(&a, T0 + P + 20000, &wi), 0);
	assert_int_equal(wi.xrun_start_ns, 0);
	assert_int_equal(wi.lost_periods, 0);
	assert_int_equal(wi.missed, 0);
	assert_true(wi.missed_known);
}

/*
 * Read empty at T0; 200 ms later the buffer is full (pcm_jack dropped what
 * came after it filled, at T0 + 2 periods): one overrun from then, 200 ms
 * less 2 periods; every boundary passed is the driver's to count.
 */
static void
a_full_capture_buffer_is_an_overrun_from_when_it_filled(void **state)
{
	struct al_write_info wi;

	(void)state;
	fake_avail = 512;
	assert_int_equal(alsa_write(&a, T0 + 200 * MS, &wi), 0);
	assert_int_equal(wi.xrun_source, AL_XRUN_ACCOUNT);
	assert_int_equal(wi.xrun_start_ns, T0 + 2 * P);
	assert_int_equal(wi.xrun_ns, 200 * MS - 2 * P);
	assert_int_equal(wi.lost_periods, 36);
	assert_false(wi.missed_known);
	assert_int_equal(fake_read, 512); /* read out */
	assert_int_equal(a.xrun_account, 1);
}

/*
 * Full, but within a period of filling (a cycle after that would have
 * found no room): late, not an overrun; the period read beyond the one
 * waited for is a missed one.
 */
static void
a_capture_buffer_just_full_is_no_overrun(void **state)
{
	struct al_write_info wi;

	(void)state;
	fake_avail = 512;
	assert_int_equal(alsa_write(&a, T0 + 3 * P - 1000, &wi), 0);
	assert_int_equal(wi.xrun_start_ns, 0);
	assert_int_equal(wi.lost_periods, 0);
	assert_true(wi.missed_known);
	assert_int_equal(wi.missed, 1);
	assert_int_equal(a.xrun_account, 0);
}

/*
 * Read empty at T0; 200 ms later one period came (pcm_jack's thread was
 * stopped with ours): the device stood still from T0 + 1 period for
 * 200 ms - 1 period, 36.5 periods begun: 37 lost.
 */
static void
a_capture_device_that_stood_still_is_an_xrun(void **state)
{
	struct al_write_info wi;

	(void)state;
	fake_avail = 256;
	assert_int_equal(alsa_write(&a, T0 + 200 * MS, &wi), 0);
	assert_int_equal(wi.xrun_source, AL_XRUN_ACCOUNT);
	assert_int_equal(wi.xrun_start_ns, T0 + P);
	assert_int_equal(wi.xrun_ns, 200 * MS - P);
	assert_int_equal(wi.lost_periods, 37);
	assert_int_equal(wi.margin_ns, 0);
	assert_false(wi.missed_known);
}

/* Capturing on time: a period in a period, no xrun; the next read's account starts here. */
static void
capturing_on_time_is_no_xrun(void **state)
{
	struct al_write_info wi;

	(void)state;
	fake_avail = 256;
	assert_int_equal(alsa_write(&a, T0 + P + 20000, &wi), 0);
	assert_int_equal(wi.xrun_start_ns, 0);
	assert_int_equal(wi.missed, 0);
	assert_true(wi.missed_known);
	assert_int_equal(a.last_write_ns, T0 + P + 20000);
	assert_int_equal(a.queued_frames, 0);
}

/*
 * A stream that was playing, restarted after an xrun (start_stream: refill
 * and start), then still for 150 ms: the same dropout going on, an xrun
 * (until 145d1de the restart disarmed the check until the device consumed
 * again: PipeWire's plugin restarted 10 ms before a 171 ms stall read no
 * xrun at all). Only the first start waits for a device to consume.
 */
static void
a_device_still_after_a_restart_is_an_xrun(void **state)
{
	struct al_write_info wi = { 0 };
	int64_t t_ns;

	(void)state;
	written_full_at(T0);
	assert_int_equal(start_stream(&a), 0);
	assert_int_equal(fake_written, 512); /* refilled */
	t_ns = a.last_write_ns + 150 * MS;
	fake_avail = 0; /* nothing consumed since */
	assert_int_equal(alsa_write(&a, t_ns, &wi), 0);
	assert_int_equal(wi.xrun_source, AL_XRUN_ACCOUNT);
	assert_int_equal(wi.xrun_start_ns, a.last_write_ns - 150 * MS);
	assert_int_equal(a.xrun_account, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(a_drained_buffer_is_an_xrun_from_when_it_ran_out, setup),
		cmocka_unit_test_setup(a_device_that_stood_still_is_an_xrun, setup),
		cmocka_unit_test_setup(on_time_is_no_xrun, setup),
		cmocka_unit_test_setup(a_device_still_after_a_restart_is_an_xrun, setup),
		cmocka_unit_test_setup(a_full_capture_buffer_is_an_overrun_from_when_it_filled, setup_capture),
		cmocka_unit_test_setup(a_capture_buffer_just_full_is_no_overrun, setup_capture),
		cmocka_unit_test_setup(a_capture_device_that_stood_still_is_an_xrun, setup_capture),
		cmocka_unit_test_setup(capturing_on_time_is_no_xrun, setup_capture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
