/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Registry conformance: every backend has a name, a summary and its methods. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "backend/backend.h"
#include "backend/duplex.h"

static void
every_backend_is_complete(void **state)
{
	size_t i, j;

	(void)state;
	assert_non_null(al_backends[0]);
	for (i = 0; al_backends[i]; i++) {
		const struct al_backend_ops *b = al_backends[i];

		assert_non_null(b->name);
		assert_true(strlen(b->name) > 0);
		assert_non_null(b->summary);
		if (b->unavailable)
			continue;
		/* probe is optional; the caps say what it can do, and match the ops */
		assert_non_null(b->open);
		/* a roundtrip stream only where --duplex runs */
		if (b->duplex)
			assert_true(al_backend_can(b, AL_CAP_DUPLEX));
		assert_int_equal(al_backend_can(b, AL_CAP_CALLBACK), b->start_cb != NULL);
		if (b->list)
			assert_true(al_backend_can(b, AL_CAP_DEVICE));
		/* driven through wait/write, or a callback backend (JACK) */
		if (!b->start_cb) {
			assert_non_null(b->start);
			assert_non_null(b->wait);
			assert_non_null(b->write);
		}
		assert_non_null(b->stop);
		assert_non_null(b->close);
		assert_ptr_equal(al_backend_find(b->name), b);
		for (j = 0; j < i; j++)
			assert_string_not_equal(al_backends[j]->name, b->name);
	}
	assert_null(al_backend_find("nosuch"));
	assert_non_null(al_backend_find("sim"));
	/* alsa and jack are always listed: built in, or saying why not */
	assert_non_null(al_backend_find("alsa"));
	assert_non_null(al_backend_find("jack"));
	if (al_backend_find("alsa")->unavailable)
		assert_string_equal(al_backend_find("alsa")->unavailable, "built without libasound");
}

/* Options a backend cannot honour are named from its caps, in run's order. */
static void
test_refuses(void **state)
{
	const struct al_backend_ops *sim = al_backend_find("sim");
	const struct al_backend_ops *alsa = al_backend_find("alsa");
	struct al_config c;

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_null(al_backend_refuses(sim, &c));
	c.nearest = true;
	assert_string_equal(al_backend_refuses(sim, &c), "--nearest");
	c.tone_hz = 440;
	assert_string_equal(al_backend_refuses(sim, &c), "--tone");
	c.capture = true;
	assert_string_equal(al_backend_refuses(sim, &c), "--capture");
	memset(&c, 0, sizeof(c));
	c.mmap = true;
	if (!alsa->unavailable)
		assert_null(al_backend_refuses(alsa, &c));
	assert_string_equal(al_backend_refuses(sim, &c), "--mmap");
	/* -D is al_run()'s to refuse */
	memset(&c, 0, sizeof(c));
	snprintf(c.device, sizeof(c.device), "hw:0");
	assert_null(al_backend_refuses(sim, &c));
	assert_false(al_backend_can(sim, AL_CAP_DEVICE));
}

/* A configuration checked together against what the backend declares. */
static void
test_check_config(void **state)
{
	const struct al_backend_ops *sim = al_backend_find("sim");
	const struct al_backend_ops *jack = al_backend_find("jack");
	struct al_config c;
	char err[128];

	(void)state;
	memset(&c, 0, sizeof(c));
	snprintf(c.backend, sizeof(c.backend), "sim");
	c.rate_hz = 48000;
	assert_int_equal(al_backend_check_config(sim, &c, err, sizeof(err)), 0);
	c.mmap = true;
	assert_int_equal(al_backend_check_config(sim, &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--mmap: not with the sim backend");
	c.mmap = false;
	c.blame = 1;
	assert_int_equal(al_backend_check_config(sim, &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--blame: not with the sim backend");
	c.blame = -1; /* --no-blame */
	assert_int_equal(al_backend_check_config(sim, &c, err, sizeof(err)), 0);
	if (jack->unavailable)
		return;
	/* what no backend does */
	memset(&c, 0, sizeof(c));
	snprintf(c.backend, sizeof(c.backend), "jack");
	c.rate_hz = 48000;
	c.capture = c.duplex = true;
	assert_int_equal(al_backend_check_config(jack, &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--capture: not with --duplex");
	c.duplex = false;
	c.tone_hz = 440;
	assert_int_equal(al_backend_check_config(jack, &c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--tone: not with --capture (nothing is played)");
	/* a callback backend's rate is its server's: a high tone is checked later */
	c.capture = false;
	c.tone_hz = 30000;
	assert_int_equal(al_backend_check_config(jack, &c, err, sizeof(err)), 0);
}

/* audiolat roundtrip's checks by the caps: a duplex stream; ports and the self loop are a server's */
static void
test_check_duplex(void **state)
{
	const struct al_backend_ops *be, *jack = al_backend_find("jack"),
				       *alsa = al_backend_find("alsa");
	struct al_duplex_config c = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(al_backend_check_duplex("sim", &c, NULL, &be, err, sizeof(err)), -EINVAL);
	assert_ptr_equal(be, al_backend_find("sim"));
	assert_non_null(strstr(err, "-b/--backend: 'sim' is not "));
	assert_int_equal(al_backend_check_duplex("nosuch", &c, NULL, &be, err, sizeof(err)), -EINVAL);
	assert_null(be);
	if (!alsa->unavailable) {
		assert_int_equal(al_backend_check_duplex("alsa", &c, "-r/--rate", &be, err,
							 sizeof(err)), 0);
		assert_ptr_equal(be, alsa);
		c.out_port = "system:playback_1";
		assert_int_equal(al_backend_check_duplex("alsa", &c, NULL, &be, err, sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, "--out: only with -b "));
		assert_non_null(strstr(err, "jack")); /* named by the caps: a server's duplex */
		assert_null(strstr(err, "alsa"));
		c.self_loop = true;
		assert_int_equal(al_backend_check_duplex("alsa", &c, NULL, &be, err, sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, "--self-loop: only with -b "));
	}
	if (jack->unavailable || alsa->unavailable)
		return;
	c = (struct al_duplex_config){ 0 };
	assert_int_equal(al_backend_check_duplex("jack", &c, NULL, &be, err, sizeof(err)), 0);
	assert_int_equal(al_backend_check_duplex("jack", &c, "-p/--priority", &be, err,
						 sizeof(err)), -EINVAL);
	assert_string_equal(err, "-p/--priority: only with -b alsa (JACK and PipeWire run at the "
				 "server's rate and period)");
	c.self_loop = true;
	assert_int_equal(al_backend_check_duplex("jack", &c, NULL, &be, err, sizeof(err)), 0);
	c.in_port = "x:y";
	assert_int_equal(al_backend_check_duplex("jack", &c, NULL, &be, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--self-loop: not with --in/--out (the loop is inside the client)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_backend_is_complete),
		cmocka_unit_test(test_refuses),
		cmocka_unit_test(test_check_config),
		cmocka_unit_test(test_check_duplex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
