/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/clock.h"
#include "core/units.h"
#include "common-opts.h"
#include "monitor-opts.h"

enum { OPT_WINDOW = 0x2000, OPT_ON_THRESHOLD };

#define TO(f_) AL_OPT_TO(struct al_monitor_cli, f_)

const struct al_optdef al_monitor_optdefs[] = {
	AL_OPT_TEXT("usage: audiolat monitor [options]\n"
		    "\n"
		    "Measure as `audiolat run` does (the same audio thread, backends, loads and\n"
		    "per-period statistics) until stopped (SIGINT, SIGTERM) or -d, at a constant\n"
		    "memory cost: 1-minute and 5-minute windows (count, max, histogram, xruns, lost\n"
		    "periods), a cumulative histogram, checkpoints to the results database,\n"
		    "Prometheus metrics and actions on a threshold (docs/monitor.md).\n"
		    "\n"
		    "monitor:\n"),
	/* run's, given here to word it: into the run and run_argv */
	CLI_SHARED_AS(CLI_OPT_DURATION, NULL, "stop after TIME (default: run until stopped)",
		      TO(run.cfg.duration_ns), AL_OPT_ALSO(struct al_monitor_cli, run.duration_given)),
	{ .name = "checkpoint", .type = AL_OPT_TIME, .arg = "TIME", .unit_ns = AL_NS_PER_SEC,
	  .zero = true, TO(checkpoint_ns),
	  .help = "save the result so far every TIME (default 5m; 0: only\n"
		  "at the end); a crash loses at most TIME, SIGTERM nothing" },
	{ .id = OPT_WINDOW, .name = "window", .type = AL_OPT_TIME, .arg = "TIME",
	  .unit_ns = AL_NS_PER_SEC, TO(window_ns),
	  .help = "the short window (default 1m; the long one is 5 times\n"
		  "it; shorter windows are for tests)" },
	{ .name = "metrics-file", .type = AL_OPT_FILE, .arg = "PATH", TO(metrics_file),
	  .help = "write the metrics in node_exporter's textfile format,\n"
		  "atomically (PATH should end in .prom)" },
	{ .name = "listen", .type = AL_OPT_SPEC, .arg = "ADDR:PORT", TO(listen),
	  .help = "serve them on http://ADDR:PORT/metrics (127.0.0.1:PORT\n"
		  "for loopback; any other address only as given)" },
	{ .name = "metrics-interval", .type = AL_OPT_TIME, .arg = "TIME", .unit_ns = AL_NS_PER_SEC,
	  TO(metrics_interval_ns), .help = "how often the metrics are made (default 5s)" },
	{ .name = "threshold", .type = AL_OPT_TIME, .arg = "TIME", .unit_ns = AL_NS_PER_US,
	  TO(threshold_ns), .help = "a period later than TIME is an event (bare = us)" },
	{ .id = OPT_ON_THRESHOLD, .name = "on-threshold", .type = AL_OPT_SPEC, .arg = "ACTION",
	  .help = "on an event (a period past --threshold, an xrun):\n"
		  "exec:CMD   run CMD with sh -c, the event in its\n"
		  "           environment (AUDIOLAT_EVENT_*)\n"
		  "signal:SIG send SIG (USR1, 10, ...) to the parent\n"
		  "trace      with --trace: save the flight recorder's\n"
		  "           explanation at once (a checkpoint)" },
	{ .name = "action-interval", .type = AL_OPT_TIME, .arg = "TIME", .unit_ns = AL_NS_PER_SEC,
	  .zero = true, TO(action_interval_ns),
	  .help = "at most one action per TIME (default 60s)" },
	CLI_SHARED_HIDDEN(CLI_OPT_HELP, TO(help)), /* run's, unlisted; the prose says */
	AL_OPT_INCLUDE(al_run_optdefs, struct al_monitor_cli, run),
	AL_OPT_TEXT("\n"
		    "Every option of `audiolat run` (audiolat run --help) applies too: -b, -D, -r,\n"
		    "-P, -n, -L, -p, -a, --load, --trace, --json, --html, --db, --no-db, -q, ...;\n"
		    "run's thresholds (--max-latency, --max-interval, --fail-on-xrun) are judged\n"
		    "over the whole run, at its end.\n"
		    "\n"
		    "exit status: 0 done, 1 runtime error, 2 usage error, 3 a threshold of run's\n"
		    "was exceeded, 4 backend or device unavailable\n"),
	AL_OPT_END,
};

/* One line naming the option into err, and -EINVAL. */
#define BAD(...) (snprintf(err, err_size, __VA_ARGS__), -EINVAL)

/* One option: what the table cannot store; run's (and -d) into run_argv as given. */
static int
monitor_set(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size)
{
	struct al_monitor_cli *mc = ctx;
	const char *v = h->arg;

	if (h->included || h->id == CLI_OPT_DURATION)
		return al_run_take(&mc->run, mc->run_argv, &mc->run_argc, h, err, err_size);
	switch (h->id) {
	case OPT_WINDOW:
		return h->value < 100 * AL_NS_PER_MS ? BAD("--window: '%s' is shorter than 100ms", v) : 0;
	case OPT_ON_THRESHOLD:
		if (al_action_parse(&mc->action, v))
			return BAD("--on-threshold: '%s' is not trace, exec:CMD or signal:SIG", v);
		return 0;
	}
	return 0;
}

int
al_monitor_parse_args(int argc, char **argv, struct al_monitor_cli *mc, char *err,
		      size_t err_size)
{
	struct al_run_cli *p = &mc->run;
	int first, rc;

	*mc = (struct al_monitor_cli){
		.checkpoint_ns = 5 * 60 * AL_NS_PER_SEC,
		.window_ns = 60 * AL_NS_PER_SEC,
		.metrics_interval_ns = 5 * AL_NS_PER_SEC,
		.action_interval_ns = 60 * AL_NS_PER_SEC,
	};
	al_run_cli_init(p);
	err[0] = '\0';
	mc->run_argv = al_run_argv_new(argc, argv, &mc->run_argc);
	if (!mc->run_argv)
		return -ENOMEM;
	rc = al_opts_parse(al_monitor_optdefs, argc, argv, monitor_set, mc, &first, NULL, err,
			   err_size);
	if (rc || mc->help)
		return rc;
	if (first < argc)
		return BAD("unexpected argument '%s'", argv[first]);
	if (al_backend_check_config(p->backend, &p->cfg, err, err_size))
		return -EINVAL;
	if (al_action_check(&mc->action, mc->threshold_ns, p->trace, err, err_size))
		return -EINVAL;
	if (!p->duration_given)
		p->cfg.duration_ns = AL_RUN_FOREVER_NS;
	if (mc->action.kind == AL_ACTION_TRACE && mc->threshold_ns && !p->trace_threshold_ns)
		p->trace_threshold_ns = mc->threshold_ns;
	return 0;
}

void
al_monitor_cli_opts(struct al_monitor_cli *mc, struct al_monitor_opts *mo)
{
	bool act = mc->action.kind != AL_ACTION_NONE;

	*mo = (struct al_monitor_opts){
		.window_ns = mc->window_ns, .checkpoint_ns = mc->checkpoint_ns,
		.metrics_interval_ns = mc->metrics_interval_ns, .threshold_ns = mc->threshold_ns,
		.on_xrun = act, .action_interval_ns = mc->action_interval_ns,
		.action = act ? &mc->action : NULL,
	};
}

void
al_monitor_cli_free(struct al_monitor_cli *mc)
{
	free(mc->run_argv);
	mc->run_argv = NULL;
}
