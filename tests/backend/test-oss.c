/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The OSS backend without an OSS device: the SNDCTL_DSP_SETFRAGMENT
 * argument (latencytest's "3x256" is 3 fragments of 2^8 bytes), and the
 * refusals: no such file, a file that is not a character device, a
 * character device that is not OSS audio, options OSS cannot honour. Real
 * /dev/dsp runs are in the kernel tests (snd-pcm-oss in the qemu guest).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "backend/oss.h"

static void
fragment_arg_is_count_and_power_of_two(void **state)
{
	(void)state;
	/* latencytest 3x256: 3 fragments of 2^8 bytes */
	assert_int_equal(al_oss_fragment_arg(256, 3), (3 << 16) | 8);
	assert_int_equal(al_oss_fragment_arg(1024, 2), (2 << 16) | 10);
	/* the nearest power of two; a tie goes up */
	assert_int_equal(al_oss_fragment_arg(300, 3) & 0xffff, 8);
	assert_int_equal(al_oss_fragment_arg(400, 3) & 0xffff, 9);
	assert_int_equal(al_oss_fragment_arg(384, 3) & 0xffff, 9);
	assert_int_equal(al_oss_fragment_arg(4 * 48, 4) & 0xffff, 8);
	/* clamped: 16 bytes .. 16 MiB, 2 .. 0x7fff fragments */
	assert_int_equal(al_oss_fragment_arg(1, 3) & 0xffff, 4);
	assert_int_equal(al_oss_fragment_arg(0, 3) & 0xffff, 4);
	assert_int_equal(al_oss_fragment_arg((int64_t)1 << 40, 3) & 0xffff, 24);
	assert_int_equal(al_oss_fragment_arg(256, 1) >> 16, 2);
	assert_int_equal(al_oss_fragment_arg(256, 100000) >> 16, 0x7fff);
}

/* open on a fresh private area; the error text comes through info() */
static int
try_open(const char *device, char *why, size_t why_size)
{
	const struct al_backend_ops *b = &al_backend_oss;
	struct al_config cfg = {
		.rate_hz = 48000,
		.period_frames = 64,
		.periods = 3,
	};
	struct al_backend_info info;
	void *priv = calloc(1, b->priv_size);
	int rc;

	assert_non_null(priv);
	snprintf(cfg.device, sizeof(cfg.device), "%s", device);
	rc = b->open(priv, &cfg);
	memset(&info, 0, sizeof(info));
	b->info(priv, &info);
	snprintf(why, why_size, "%s", info.error);
	if (!rc) {
		b->stop(priv);
		b->close(priv);
	}
	free(priv);
	return rc;
}

static void
refuses_what_is_not_oss(void **state)
{
	char why[200];

	(void)state;
	assert_int_equal(try_open("/nonexistent/dsp", why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "/nonexistent/dsp"));
	/* a regular file is never opened for writing */
	assert_int_equal(try_open("/etc/hostname", why, sizeof(why)), -ENOTSUP);
	assert_non_null(strstr(why, "not a character device"));
	assert_int_equal(try_open("/dev/null", why, sizeof(why)), -ENOTSUP);
	assert_non_null(strstr(why, "not an OSS audio device"));
}

/* What OSS cannot do is in its caps: al_backend_refuses() names it (al_run() gives -EINVAL). */
static void
caps_refuse_what_oss_cannot_do(void **state)
{
	struct al_config cfg = { .rate_hz = 48000, .period_frames = 64, .periods = 3 };

	(void)state;
	assert_null(al_backend_refuses(&al_backend_oss, &cfg));
	cfg.nearest = true;
	assert_null(al_backend_refuses(&al_backend_oss, &cfg));
	cfg.nearest = false;
	cfg.capture = true;
	assert_string_equal(al_backend_refuses(&al_backend_oss, &cfg), "--capture");
	cfg.capture = false;
	cfg.tone_hz = 440;
	assert_string_equal(al_backend_refuses(&al_backend_oss, &cfg), "--tone");
	cfg.tone_hz = 0;
	cfg.mmap = true;
	assert_string_equal(al_backend_refuses(&al_backend_oss, &cfg), "--mmap");
	assert_true(al_backend_can(&al_backend_oss, AL_CAP_DEVICE));
}

static void
registered(void **state)
{
	(void)state;
	assert_ptr_equal(al_backend_find("oss"), &al_backend_oss);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fragment_arg_is_count_and_power_of_two),
		cmocka_unit_test(refuses_what_is_not_oss),
		cmocka_unit_test(caps_refuse_what_oss_cannot_do),
		cmocka_unit_test(registered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
