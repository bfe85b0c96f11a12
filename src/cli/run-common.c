/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "check/check.h"
#include "core/clock.h"
#include "core/units.h"
#include "core/url.h"
#include "load/load.h"
#include "run/run.h"
#include "cli.h"
#include "run-common.h"

struct status_ctx {
	int64_t total_ns;
};

static void
status_line(void *ud, const struct al_result *r, int64_t elapsed_ns)
{
	const struct status_ctx *s = ud;
	char max[32], total[32] = "";

	al_format_duration(atomic_load(&r->live.max_wake_ns), max, sizeof(max));
	/* audiolat monitor, until stopped: no total */
	if (s->total_ns < AL_RUN_FOREVER_NS)
		snprintf(total, sizeof(total), "/%.1f", (double)s->total_ns / AL_NS_PER_SEC);
	fprintf(stderr, "\r\033[K[%6.1f%s s] periods=%llu max wake latency=%s xruns=%llu",
		(double)elapsed_ns / AL_NS_PER_SEC, total,
		(unsigned long long)atomic_load(&r->live.periods), max,
		(unsigned long long)atomic_load(&r->live.xruns));
	fflush(stderr);
}

static void
join_cmdline(int argc, char **argv, char *buf, size_t size)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	used += (size_t)snprintf(buf, size, "audiolat");
	for (i = 0; i < argc && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, " %s", argv[i]);
	al_url_redact(buf, buf, size); /* a --db URL's password is never stored */
}

static int
map_run_error(const char *cmd, const struct al_run_cli *p, const struct al_result *r, int rc)
{
	const struct al_backend_ops *b = p->backend;
	char what[160];

	if (b && b->unavailable)
		return cli_cmd_error(AL_EXIT_UNAVAILABLE, cmd, "backend %s: %s", b->name,
				     b->unavailable);
	if (rc == -EINVAL && b && !al_backend_can(b, AL_CAP_DEVICE) && p->cfg.device[0])
		return cli_cmd_error(AL_EXIT_USAGE, cmd, "-D/--device: the %s backend has no devices",
				     p->cfg.backend);
	if (rc == -ERANGE) /* the option that asked for it */
		return cli_cmd_error(cli_exit_of(rc), cmd, "-r/-P/-n: %s",
				     r->backend.error[0] ? r->backend.error : strerror(-rc));
	if (r->backend.error[0])
		snprintf(what, sizeof(what), "%s", p->cfg.backend);
	else
		snprintf(what, sizeof(what), "backend %s%s%s", p->cfg.backend,
			 p->cfg.device[0] ? " device " : "", p->cfg.device);
	return cli_fault(cmd, rc, what, r->backend.error, b);
}

int
cli_run_measure(const char *cmd, struct al_run_cli *p, int argc, char **argv, bool status,
		struct al_result *r)
{
	struct al_phase_spec *phases = NULL;
	struct status_ctx sctx;
	struct al_run_opts o;
	size_t n_phases = 0;
	int rc, exit_code = AL_EXIT_OK;
	char err[256];
	long ncpu;

	memset(r, 0, sizeof(*r));
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (p->cfg.affinity_cpu >= 0 && ncpu > 0 && p->cfg.affinity_cpu >= ncpu)
		return cli_usage_error(cmd, "-a/--affinity: CPU %d does not exist (CPUs 0..%ld)",
				       p->cfg.affinity_cpu, ncpu - 1);

	memset(&o, 0, sizeof(o));
	if (p->load_spec) {
		/* untimed phases share -d; when every phase is timed, they make the run */
		if (al_load_spec_parse(p->load_spec, p->cfg.duration_ns, &phases, &n_phases, err,
				       sizeof(err)))
			return cli_usage_error(cmd, "--load: %s", err);
		if (al_load_check_opts(&p->load_opts, phases, n_phases, err, sizeof(err))) {
			al_load_spec_free(phases);
			return cli_usage_error(cmd, "%s", err);
		}
		p->cfg.duration_ns = al_load_spec_total_ns(phases, n_phases);
		o.phases = phases;
		o.n_phases = n_phases;
		o.load_opts = &p->load_opts;
	}
	o.cfg = p->cfg;
	o.backend = p->backend;
	o.stop_requested = &cli_stop_requested;
	o.trace = p->trace;
	o.trace_threshold_ns = p->trace_threshold_ns;
	sctx.total_ns = o.cfg.duration_ns;
	if (status) {
		o.status = status_line;
		o.status_ud = &sctx;
		o.status_interval_ns = 200 * AL_NS_PER_MS;
	}
	cli_catch_stop_signals();
	rc = p->measure ? p->measure(&o, r, p->measure_ud) : al_run(&o, r);
	al_load_spec_free(phases);
	if (o.status)
		fprintf(stderr, "\r\033[K");
	if (rc && !r->n_phases)
		return map_run_error(cmd, p, r, rc);
	if (rc == -ECONNRESET && !strcmp(r->cfg.backend, "pipewire")) {
		cli_cmd_error(AL_EXIT_RUNTIME, cmd,
			      "the PipeWire server went away during the run; "
			      "reporting what was measured");
		exit_code = AL_EXIT_RUNTIME;
	} else if (rc == -ECONNRESET) {
		cli_cmd_error(AL_EXIT_RUNTIME, cmd,
			      "the JACK server '%s' went away during the run; "
			      "reporting what was measured",
			      r->cfg.device);
		exit_code = AL_EXIT_RUNTIME;
	} else if (rc == -ETIMEDOUT) {
		cli_cmd_error(AL_EXIT_RUNTIME, cmd,
			      "%s stopped delivering periods (the device, "
			      "or the server behind it, stopped); reporting what was measured",
			      r->cfg.device);
		exit_code = AL_EXIT_RUNTIME;
	} else if (rc) {
		cli_cmd_error(AL_EXIT_RUNTIME, cmd,
			      "the %s backend failed during the run: %s; "
			      "reporting what was measured",
			      p->cfg.backend, strerror(-rc));
		exit_code = AL_EXIT_RUNTIME;
	}
	join_cmdline(argc, argv, r->cmdline, sizeof(r->cmdline));
	/* the system checks go with every result; run after the measurement */
	rc = al_check_run(&(struct al_check_opts){.root = "/"}, r->checks, AL_SYSCHECKS_MAX);
	r->n_checks = rc > 0 ? rc : 0;
	return exit_code;
}
