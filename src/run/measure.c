/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One measurement as `audiolat run` makes it, and a sweep's grid of them (measure.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "check/check.h"
#include "core/text.h"
#include "core/url.h"
#include "measure.h"
#include "why-sampler.h"

/* The options against this machine, and --load's phases into o; 0 or -EINVAL. */
static int
plan(struct al_measure *m, struct al_phase_spec **phases)
{
	size_t n_phases = 0;
	char err[256];
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int cpu = m->o.cfg.affinity_cpu;

	m->fail = AL_MEASURE_OPTIONS;
	if (cpu >= 0 && ncpu > 0 && cpu >= ncpu)
		return al_text_err(m->err, sizeof(m->err), -EINVAL,
				   "-a/--affinity: CPU %d does not exist (CPUs 0..%ld)", cpu,
				   ncpu - 1);
	/* untimed phases share -d; when every phase is timed, they make the run */
	if (m->load_spec && al_load_spec_parse(m->load_spec, m->o.cfg.duration_ns, phases,
					       &n_phases, err, sizeof(err)))
		return al_text_err(m->err, sizeof(m->err), -EINVAL, "--load: %s", err);
	if (m->load_spec && al_load_check_opts(m->load_opts, *phases, n_phases, err, sizeof(err)))
		return al_text_err(m->err, sizeof(m->err), -EINVAL, "%s", err);
	m->fail = AL_MEASURE_OK;
	if (!m->load_spec)
		return 0;
	m->o.cfg.duration_ns = al_load_spec_total_ns(*phases, n_phases);
	m->o.phases = *phases;
	m->o.n_phases = n_phases;
	m->o.load_opts = m->load_opts;
	return 0;
}

/* Nothing was measured: which kind of failure rc is, and its line. */
static int
not_started(struct al_measure *m, const struct al_result *r, int rc)
{
	const struct al_backend_ops *b = m->o.backend;
	const struct al_config *c = &m->o.cfg;

	m->fail = AL_MEASURE_REFUSED;
	if (b && b->unavailable)
		return al_text_err(m->err, sizeof(m->err), -ENOTSUP, "backend %s: %s", b->name,
				   b->unavailable);
	if (rc == -EINVAL && b && !al_backend_can(b, AL_CAP_DEVICE) && c->device[0])
		return al_text_err(m->err, sizeof(m->err), rc,
				   "-D/--device: the %s backend has no devices", c->backend);
	if (rc == -ERANGE) /* the option that asked for it */
		return al_text_err(m->err, sizeof(m->err), rc, "-r/-P/-n: %s",
				   r->backend.error[0] ? r->backend.error : strerror(-rc));
	m->fail = AL_MEASURE_START;
	if (r->backend.error[0])
		snprintf(m->what, sizeof(m->what), "%s", c->backend);
	else
		snprintf(m->what, sizeof(m->what), "backend %s%s%s", c->backend,
			 c->device[0] ? " device " : "", c->device);
	return rc;
}

/* It failed during the run: how, in one line (what was measured is reported). */
static void
failed_during(struct al_measure *m, const struct al_result *r, int rc)
{
	const struct al_backend_ops *b = m->o.backend;

	m->fail = AL_MEASURE_DURING;
	if (rc == -ECONNRESET && b && b->server_name)
		snprintf(m->err, sizeof(m->err),
			 "the %s server went away during the run; reporting what was measured",
			 b->server_name);
	else if (rc == -ECONNRESET)
		snprintf(m->err, sizeof(m->err),
			 "the JACK server '%s' went away during the run; reporting what was measured",
			 r->cfg.device);
	else if (rc == -ETIMEDOUT)
		snprintf(m->err, sizeof(m->err),
			 "%s stopped delivering periods (the device, or the server behind it, "
			 "stopped); reporting what was measured", r->cfg.device);
	else
		snprintf(m->err, sizeof(m->err),
			 "the %s backend failed during the run: %s; reporting what was measured",
			 m->o.cfg.backend, strerror(-rc));
}

int
al_run_measure(struct al_measure *m, struct al_result *r)
{
	struct al_phase_spec *phases = NULL;
	int rc;

	memset(r, 0, sizeof(*r));
	m->fail = AL_MEASURE_OK;
	m->what[0] = m->err[0] = '\0';
	rc = plan(m, &phases);
	if (rc) {
		al_load_spec_free(phases);
		return rc;
	}
	rc = m->measure ? m->measure(&m->o, r, m->measure_ud) : al_run(&m->o, r);
	al_load_spec_free(phases);
	m->o.phases = NULL;
	m->o.n_phases = 0;
	if (rc && !r->n_phases)
		return not_started(m, r, rc);
	if (rc)
		failed_during(m, r, rc);
	snprintf(r->cmdline, sizeof(r->cmdline), "%s", m->cmdline ? m->cmdline : "");
	/* the system checks go with every result; run after the measurement */
	int n = al_check_run(&(struct al_check_opts){ .root = "/" }, r->checks, AL_SYSCHECKS_MAX);
	r->n_checks = n > 0 ? n : 0;
	al_why_run_verdict(r);
	return rc;
}

int
al_sweep_check_backends(struct al_sweep *s, char *err, size_t err_size)
{
	char name[256];

	for (int i = 0; i < s->n_cells; i++) {
		const struct al_backend_ops *ops = al_backend_find(s->cells[i].backend);

		s->cells[i].ops = ops;
		al_text_term_safe(s->cells[i].backend, name, sizeof(name), sizeof(name));
		if (!ops)
			return al_text_err(err, err_size, -EINVAL,
					   "-b/--backend: unknown backend '%s'", name);
		if (ops->unavailable)
			return al_text_err(err, err_size, -ENOTSUP, "backend %s: %s", ops->name,
					   ops->unavailable);
	}
	return 0;
}

int
al_sweep_check_cells(const struct al_sweep *s, const struct al_config *base, char *err,
		     size_t err_size)
{
	for (int i = 0; i < s->n_cells; i++) {
		const struct al_backend_ops *ops = s->cells[i].ops;
		struct al_config cfg = *base;
		int rc;

		al_sweep_cell_apply(&s->cells[i], &cfg);
		if (!ops)
			return al_text_err(err, err_size, -EINVAL,
					   "-b/--backend: unknown backend '%s'", s->cells[i].backend);
		if ((rc = al_backend_check_config(ops, &cfg, err, err_size)))
			return rc;
	}
	return 0;
}

int
al_sweep_run(struct al_sweep *s, const struct al_measure *base,
	     const volatile sig_atomic_t *stop, const struct al_sweep_hooks *h, int *n_done)
{
	int i, rep, code, ret = 0;

	*n_done = 0;
	for (i = 0; i < s->n_cells && !s->interrupted; i++) {
		struct al_sweep_cell *c = &s->cells[i];
		struct al_measure m = *base;
		char cmdline[sizeof(((struct al_result *)0)->cmdline)];

		/* the cell patched in (every cell was checked before the first run) */
		m.o.backend = c->ops;
		al_sweep_cell_apply(c, &m.o.cfg);
		/* the command line of the result: as if audiolat run had been given it */
		snprintf(cmdline, sizeof(cmdline), "%s -b %s%s%s -r %ld -P %ld -n %ld",
			 base->cmdline ? base->cmdline : "audiolat", c->backend,
			 c->device[0] ? " -D " : "", c->device, c->rate_hz, c->period_frames,
			 c->periods);
		al_url_redact(cmdline, cmdline, sizeof(cmdline));
		m.cmdline = cmdline;
		for (rep = 0; rep < s->repeat; rep++) {
			struct al_measure one = m;
			struct al_result r;
			int rc = al_run_measure(&one, &r);

			code = h->done(h->ud, s, i, rep, &one, rc, &r, c->fig[c->n_runs]);
			if (r.n_phases)
				c->n_runs++, (*n_done)++;
			else
				c->failed_code = code;
			al_result_free(&r);
			if (code && !ret)
				ret = code;
			if (*stop) {
				s->interrupted = true;
				break;
			}
			if (!c->n_runs)
				break; /* it did not start: the next repeat would not either */
		}
	}
	return ret;
}
