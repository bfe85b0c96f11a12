/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * al_midi_parse_args(): the input's first byte picks the subcommand
 * (analyze, send, record, loop, thru: its value mod 5), the rest split on
 * NUL and newline bytes is the argument list after it. Checks: 0 or
 * -EINVAL; on failure err is one non-empty line; on success the
 * configuration is of that subcommand's kind and passes
 * al_midi_config_check(), the channel is 0..16, the rate 0.01..1000 Hz,
 * analyze has its FILE, the times are not negative; parsing twice gives
 * the same result.
 */
#include <errno.h>

#include "args/midi-opts.h"
#include "fuzz.h"

#define MAX_ARGS 256
#define ERR_SIZE 512

static void
check_ok(enum al_midi_sub sub, const struct al_midi_cli *o)
{
	static const int kinds[AL_MIDI_N_SUBS] = {
		AL_MIDI_ANALYZE, AL_MIDI_SEND, AL_MIDI_RECORD, AL_MIDI_LOOP, AL_MIDI_THRU,
	};
	const struct al_midi_config *c = &o->cfg;
	char err[ERR_SIZE];

	FUZZ_CHECK(c->kind == kinds[sub], "kind %d for subcommand %d", c->kind, (int)sub);
	FUZZ_CHECK(!al_midi_config_check(c, err, sizeof(err)), "a configuration its check refuses: %s",
		   err);
	FUZZ_CHECK(c->filter.channel >= 0 && c->filter.channel <= 16, "channel %d",
		   c->filter.channel);
	FUZZ_CHECK(c->rate_hz >= 0.01 && c->rate_hz <= 1000.0, "rate %g", c->rate_hz);
	FUZZ_CHECK(sub != AL_MIDI_SUB_ANALYZE || c->file, "%s", "analyze without its FILE");
	FUZZ_CHECK(c->duration_ns >= 0 && c->interval_ns >= 0 && c->max_jitter_ns >= 0 &&
			   c->max_latency_ns >= 0 && c->timeout_ns >= 0 && c->gap_ns >= 0,
		   "%s", "a negative time");
	FUZZ_CHECK(c->prio >= 0 && c->prio <= 99, "priority %d", c->prio);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[AL_MIDI_N_SUBS] = { "analyze", "send", "record", "loop",
							   "thru" };
	enum al_midi_sub sub = size ? (enum al_midi_sub)(data[0] % AL_MIDI_N_SUBS) : 0;
	size_t n = size ? size - 1 : 0;
	char *s = fuzz_strndup(size ? data + 1 : data, n), *argv[MAX_ARGS + 1];
	char err[ERR_SIZE];
	struct al_midi_cli o, again;
	int argc = fuzz_split_args(names[sub], s, n, argv, MAX_ARGS), r1, r2;

	argv[argc] = NULL;
	FUZZ_CHECK(al_midi_sub_find(names[sub]) == (int)sub, "%s is not found", names[sub]);
	r1 = al_midi_parse_args(sub, argc, argv, &o, err, sizeof(err));
	FUZZ_CHECK(r1 == 0 || r1 == -EINVAL, "returned %d", r1);
	if (r1) {
		fuzz_check_err(err, sizeof(err), memchr(data, '\n', size) != NULL);
	} else if (!o.help) {
		check_ok(sub, &o);
		r2 = al_midi_parse_args(sub, argc, argv, &again, err, sizeof(err));
		FUZZ_CHECK(r2 == 0 && !memcmp(&again.cfg, &o.cfg, sizeof(o.cfg)) &&
			       !memcmp(&again.load_opts, &o.load_opts, sizeof(o.load_opts)),
			   "%s", "a second parse differs");
	}
	free(s);
	return 0;
}
