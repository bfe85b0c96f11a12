/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The OSS backend's account of an underrun, without a device: oss.c is
 * compiled in for its write path, and the two calls a write makes on the
 * device are answered here for one fake descriptor (a definition in the
 * executable wins over libc's; every other descriptor goes to the
 * kernel): SNDCTL_DSP_GETOSPACE's free bytes, and write(). The buffer
 * found all free after the wait's fragment (stopped in the work, so the
 * driver restarts the stream with our top-up) is an underrun from a
 * fragment after the account's empty_ns (the wait's fragment played on
 * for a period) until the reading, every period begun in it lost.
 * oss-fake.sh meets this path only where its SIGSTOP happens to land.
 */
/* first: cmocka.h defines a fail() macro */
#include "../../src/backend/oss.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <cmocka.h>

#define FAKE_FD 1000
#define MS AL_NS_PER_MS
#define P 1333333LL /* a fragment of 256 bytes: 64 frames of S16_LE stereo at 48 kHz */

static int fake_free;
static int fake_written;

int
ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd != FAKE_FD)
		return (int)syscall(SYS_ioctl, fd, req, arg);
	if (req == SNDCTL_DSP_GETOSPACE) {
		audio_buf_info *bi = arg;

		memset(bi, 0, sizeof(*bi));
		bi->bytes = fake_free;
		bi->fragsize = 256;
		bi->fragstotal = 3;
		bi->fragments = fake_free / 256;
		return 0;
	}
	errno = EINVAL;
	return -1;
}

ssize_t
write(int fd, const void *buf, size_t n)
{
	if (fd != FAKE_FD)
		return syscall(SYS_write, fd, buf, n);
	fake_written += (int)n;
	return (ssize_t)n;
}

static struct oss o;
static char silence[3 * 256];

/* latencytest's 3x256 at 48 kHz, S16_LE stereo */
static int
setup(void **state)
{
	(void)state;
	memset(&o, 0, sizeof(o));
	o.fd = FAKE_FD;
	o.rate_hz = 48000;
	o.channels = 2;
	o.frame_bytes = 4;
	o.frag_bytes = 256;
	o.frags = 3;
	o.buffer_bytes = 768;
	o.period_ns = P;
	o.buffer_ns = 3 * P;
	o.buf = silence;
	fake_written = 0;
	return 0;
}

/* the account said the audio ran out 200 ms ago; the buffer is all free now */
static void
a_drained_buffer_is_an_underrun_from_a_period_after_empty(void **state)
{
	struct al_write_info wi;
	int64_t now = al_clock_now_ns();

	(void)state;
	o.empty_ns = now - 200 * MS;
	fake_free = 768;
	assert_int_equal(oss_write(&o, now, &wi), 0);
	assert_int_equal(wi.xrun_source, AL_XRUN_ACCOUNT);
	assert_int_equal(wi.xrun_start_ns, now - 200 * MS + P);
	/* until the reading, a moment after now */
	assert_true(wi.xrun_ns >= 200 * MS - P && wi.xrun_ns < 200 * MS - P + 100 * MS);
	/* every period begun in it is lost */
	assert_true((wi.lost_periods - 1) * P < wi.xrun_ns && wi.xrun_ns <= wi.lost_periods * P);
	assert_int_equal(wi.margin_ns, 0);
	assert_int_equal(fake_written, 768); /* topped up: the stream restarts */
	assert_int_equal(o.xrun_state, 1);
}

/* An underrun shorter than a period (ran dry half a period ago) still loses one. */
static void
a_short_underrun_loses_one_period(void **state)
{
	struct al_write_info wi;
	int64_t now = al_clock_now_ns();

	(void)state;
	o.empty_ns = now - P - P / 2; /* + the wait's fragment: dry since half a period ago */
	fake_free = 768;
	assert_int_equal(oss_write(&o, now, &wi), 0);
	assert_int_equal(wi.xrun_start_ns, now - P / 2);
	assert_true(wi.xrun_ns > 0);
	assert_true(wi.lost_periods >= 1);
	assert_true((wi.lost_periods - 1) * P < wi.xrun_ns && wi.xrun_ns <= wi.lost_periods * P);
}

/* on time: a fragment free, written; no underrun */
static void
on_time_is_no_underrun(void **state)
{
	struct al_write_info wi;
	int64_t now = al_clock_now_ns();

	(void)state;
	o.empty_ns = now + 2 * P;
	fake_free = 256;
	assert_int_equal(oss_write(&o, now, &wi), 0);
	assert_int_equal(wi.xrun_start_ns, 0);
	assert_int_equal(wi.lost_periods, 0);
	assert_int_equal(fake_written, 256);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(a_drained_buffer_is_an_underrun_from_a_period_after_empty, setup),
		cmocka_unit_test_setup(a_short_underrun_loses_one_period, setup),
		cmocka_unit_test_setup(on_time_is_no_underrun, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
