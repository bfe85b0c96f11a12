/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli_roundtrip_parse(): the input split on NUL and newline bytes is the
 * argument list after "roundtrip". Checks: 0 or -EINVAL; on failure err
 * is one non-empty line; on success the backend is one with a duplex
 * stream (or one not built in), its ops are the run's, the run lasts at
 * least AL_ROUNDTRIP_MIN_NS, the ALSA-only values are within their
 * ranges, a server backend got none of them and a device one no ports
 * nor --self-loop; parsing twice gives the same result.
 */
#include <errno.h>

#include "args/roundtrip-opts.h"
#include "fuzz.h"

#define MAX_ARGS 256
#define ERR_SIZE 512

static void
check_ok(const struct cli_roundtrip_opts *o)
{
	const struct al_duplex_config *c = &o->ro.cfg;
	bool server;

	FUZZ_CHECK(o->be && (o->be->duplex || o->be->unavailable), "backend '%s'", o->backend);
	FUZZ_CHECK(o->ro.ops == o->be->duplex, "%s", "the run's ops are not the backend's");
	FUZZ_CHECK(o->ro.duration_ns >= AL_ROUNDTRIP_MIN_NS, "duration %lld",
		   (long long)o->ro.duration_ns);
	FUZZ_CHECK(c->rate_hz >= 8000 && c->rate_hz <= 768000, "rate %u", c->rate_hz);
	FUZZ_CHECK(c->period_frames >= 16 && c->period_frames <= 65536, "period %u",
		   c->period_frames);
	FUZZ_CHECK(c->periods >= 2 && c->periods <= 64, "periods %u", c->periods);
	FUZZ_CHECK(c->priority >= 0 && c->priority <= 99, "priority %d", c->priority);
	server = al_backend_can(o->be, AL_CAP_CALLBACK);
	FUZZ_CHECK(!server || !o->fixed_opt[0], "a server backend took %s", o->fixed_opt);
	FUZZ_CHECK(!server || !c->self_loop || (!c->in_port && !c->out_port), "%s",
		   "--self-loop with --in/--out");
	FUZZ_CHECK(server || o->be->unavailable || (!c->self_loop && !c->in_port && !c->out_port),
		   "%s", "a device backend took a port or --self-loop");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size), *argv[MAX_ARGS + 1];
	char err[ERR_SIZE];
	struct cli_roundtrip_opts o, again;
	int argc = fuzz_split_args("roundtrip", s, size, argv, MAX_ARGS), r1, r2;

	argv[argc] = NULL;
	r1 = cli_roundtrip_parse(argc, argv, &o, err, sizeof(err));
	FUZZ_CHECK(r1 == 0 || r1 == -EINVAL, "returned %d", r1);
	if (r1) {
		fuzz_check_err(err, sizeof(err), memchr(data, '\n', size) != NULL);
	} else if (!o.help) {
		check_ok(&o);
		r2 = cli_roundtrip_parse(argc, argv, &again, err, sizeof(err));
		FUZZ_CHECK(r2 == 0 && again.be == o.be && again.ro.duration_ns == o.ro.duration_ns &&
			       !memcmp(&again.ro.cfg, &o.ro.cfg, sizeof(o.ro.cfg)),
			   "%s", "a second parse differs");
	}
	free(s);
	return 0;
}
