/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ranges and units of the monitor, roundtrip and midi parsers
 * (src/args): each bound taken, one past it refused with the option named.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "args/midi-opts.h"
#include "args/monitor-opts.h"
#include "args/roundtrip-opts.h"
#include "core/clock.h"

static char err[256];

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))

static struct al_monitor_cli mc;

#define MONITOR(...)                                                                           \
	({                                                                                     \
		int rc_ = al_monitor_parse_args(ARGC("monitor", __VA_ARGS__),                  \
						ARGV("monitor", __VA_ARGS__), &mc, err,        \
						sizeof(err));                                  \
		al_monitor_cli_free(&mc);                                                      \
		rc_;                                                                           \
	})

static void
refused(int rc, const char *needle)
{
	assert_int_equal(rc, -EINVAL);
	if (!strstr(err, needle))
		fail_msg("'%s' not in '%s'", needle, err);
}

static void
monitor_window_and_threshold(void **state)
{
	(void)state;
	assert_int_equal(MONITOR("--window", "100ms"), 0);
	assert_int_equal(mc.window_ns, 100 * AL_NS_PER_MS);
	refused(MONITOR("--window", "99ms"), "--window: '99ms' is shorter than 100ms");
	assert_int_equal(MONITOR("--window", "2", "--threshold", "500", "--on-threshold", "signal:USR1"),
			 0);
	assert_int_equal(mc.window_ns, 2 * AL_NS_PER_SEC);    /* bare = s */
	assert_int_equal(mc.threshold_ns, 500 * AL_NS_PER_US); /* bare = us */
}

static struct cli_roundtrip_opts ro;

#define ROUNDTRIP(...)                                                                         \
	cli_roundtrip_parse(ARGC("roundtrip", __VA_ARGS__), ARGV("roundtrip", __VA_ARGS__), &ro, \
			    err, sizeof(err))

static void
roundtrip_duration_and_period(void **state)
{
	(void)state;
	assert_int_equal(ROUNDTRIP("-d", "2s"), 0); /* the floor itself */
	assert_int_equal(ro.ro.duration_ns, 2 * AL_NS_PER_SEC);
	refused(ROUNDTRIP("-d", "1999ms"), "-d/--duration: '1999ms' is too short");
	assert_int_equal(ROUNDTRIP("-b", "alsa", "-P", "16", "-n", "64"), 0);
	assert_int_equal(ro.ro.cfg.period_frames, 16);
	assert_int_equal(ro.ro.cfg.periods, 64);
	refused(ROUNDTRIP("-b", "alsa", "-P", "15"), "-P/--period: '15' is not in 16..65536");
	refused(ROUNDTRIP("-b", "alsa", "-n", "65"), "-n/--periods: '65' is not in 2..64");
	refused(ROUNDTRIP("-b", "alsa", "-r", "7999"), "-r/--rate: '7999' is not in 8000..768000");
}

static struct al_midi_cli mo;

#define MIDI(sub, ...)                                                                         \
	al_midi_parse_args(sub, ARGC(#sub, __VA_ARGS__), ARGV(#sub, __VA_ARGS__), &mo, err,   \
			   sizeof(err))

static void
midi_channel_and_count(void **state)
{
	(void)state;
	assert_int_equal(MIDI(AL_MIDI_SUB_ANALYZE, "x.mid", "--channel", "16"), 0);
	assert_int_equal(mo.cfg.filter.channel, 16);
	assert_int_equal(MIDI(AL_MIDI_SUB_ANALYZE, "x.mid", "--channel", "1"), 0);
	assert_int_equal(mo.cfg.filter.channel, 1);
	refused(MIDI(AL_MIDI_SUB_ANALYZE, "x.mid", "--channel", "17"),
		"--channel: '17' is not in 1..16");
	refused(MIDI(AL_MIDI_SUB_ANALYZE, "x.mid", "--channel", "0"),
		"--channel: '0' is not in 1..16");
	assert_int_equal(MIDI(AL_MIDI_SUB_LOOP, "-n", "1", "--timeout", "250"), 0);
	assert_int_equal(mo.cfg.count, 1);
	assert_int_equal(mo.cfg.timeout_ns, 250 * AL_NS_PER_MS); /* bare = ms */
	refused(MIDI(AL_MIDI_SUB_LOOP, "-n", "0"), "-n/--count: '0' is not in 1..100000000");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(monitor_window_and_threshold),
		cmocka_unit_test(roundtrip_duration_and_period),
		cmocka_unit_test(midi_channel_and_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
