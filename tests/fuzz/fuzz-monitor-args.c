/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * al_monitor_parse_args(): the input split on NUL and newline bytes is the
 * argument list after "monitor". Checks: 0, -EINVAL or -ENOMEM; on
 * -EINVAL err is one non-empty line; on success the times are >= 0, the
 * window at least 100 ms, a threshold comes with an action and a trace
 * action with --trace, and what is passed to run is run's options as
 * given (fuzz_check_run_argv(): within the room al_run_argv_new() made, a
 * cluster's letters each alone), which run's parser takes as the monitor
 * took them; parsing twice gives
 * the same result.
 */
#include <errno.h>

#include "args/monitor-opts.h"
#include "args/run-opts.h"
#include "core/clock.h"
#include "fuzz.h"

#define MAX_ARGS 256
#define ERR_SIZE 512

static void
check_ok(const struct al_monitor_cli *mc, int argc, char **given)
{
	char *argv[2 * MAX_ARGS + 2], err[ERR_SIZE];
	struct al_run_cli r;

	FUZZ_CHECK(mc->window_ns >= 100 * AL_NS_PER_MS, "window %lld", (long long)mc->window_ns);
	FUZZ_CHECK(mc->checkpoint_ns >= 0 && mc->metrics_interval_ns >= 0 &&
			   mc->threshold_ns >= 0 && mc->action_interval_ns >= 0,
		   "%s", "a negative time");
	FUZZ_CHECK(!mc->threshold_ns || mc->action.kind != AL_ACTION_NONE, "%s",
		   "a threshold without an action");
	FUZZ_CHECK(mc->action.kind != AL_ACTION_TRACE || mc->run.trace, "%s",
		   "a trace action without --trace");
	fuzz_check_run_argv(mc->run_argv, mc->run_argc, given, argc);
	/* run's parser takes what the monitor gave it, and makes the same of it */
	memcpy(argv, mc->run_argv, ((size_t)mc->run_argc + 1) * sizeof(*argv));
	FUZZ_CHECK(al_run_parse_opts(mc->run_argc, argv, &r, err, sizeof(err)) == 0,
		   "run's parser refuses what the monitor took: %s", err);
	FUZZ_CHECK(r.backend == mc->run.backend && r.cfg.rate_hz == mc->run.cfg.rate_hz &&
			   r.cfg.period_frames == mc->run.cfg.period_frames &&
			   r.cfg.periods == mc->run.cfg.periods && r.trace == mc->run.trace &&
			   r.no_db == mc->run.no_db && r.verbose == mc->run.verbose,
		   "%s", "run's parse of run_argv differs from the monitor's");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size), *argv[MAX_ARGS + 1], *given[MAX_ARGS + 1];
	char err[ERR_SIZE];
	struct al_monitor_cli mc, again;
	int argc = fuzz_args("monitor", s, size, argv, given, MAX_ARGS), r1, r2;

	r1 = al_monitor_parse_args(argc, argv, &mc, err, sizeof(err));
	FUZZ_CHECK(r1 == 0 || r1 == -EINVAL || r1 == -ENOMEM, "returned %d", r1);
	if (r1 == -EINVAL) {
		fuzz_check_err(err, sizeof(err), memchr(data, '\n', size) != NULL);
	} else if (!r1 && !mc.help) {
		check_ok(&mc, argc, given);
		r2 = al_monitor_parse_args(argc, argv, &again, err, sizeof(err));
		FUZZ_CHECK(r2 == 0 && again.run_argc == mc.run_argc &&
			       again.window_ns == mc.window_ns &&
			       again.checkpoint_ns == mc.checkpoint_ns &&
			       again.run.cfg.duration_ns == mc.run.cfg.duration_ns,
			   "%s", "a second parse differs");
		al_monitor_cli_free(&again);
	}
	al_monitor_cli_free(&mc);
	free(s);
	return 0;
}
