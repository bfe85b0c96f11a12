/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * src/run/measure.c on the sim backend: each kind of failure before the
 * run with its one line, a run with its command line and checks, --load
 * timing the run, and a sweep's cells (their command lines, a cell that
 * does not start tried once, the stop flag ending it after the run).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "backend/backend.h"
#include "core/clock.h"
#include "run/measure.h"

static struct al_load_opts load_opts;

static void
sim(struct al_measure *m, int64_t duration_ns)
{
	struct al_config *c = &m->o.cfg;

	memset(m, 0, sizeof(*m));
	snprintf(c->backend, sizeof(c->backend), "sim");
	m->o.backend = al_backend_find("sim");
	c->rate_hz = 48000;
	c->period_frames = 64;
	c->periods = 3;
	c->cpu_load_pct = 10;
	c->affinity_cpu = -1;
	c->dma_latency_us = -1;
	c->duration_ns = duration_ns;
	al_load_opts_init(&load_opts);
	m->load_opts = &load_opts;
}

static void
options_fail_before_the_run(void **state)
{
	struct al_measure m;
	struct al_result r;

	(void)state;
	sim(&m, 100 * AL_NS_PER_MS);
	m.o.cfg.affinity_cpu = 100000;
	assert_int_equal(al_run_measure(&m, &r), -EINVAL);
	assert_int_equal(m.fail, AL_MEASURE_OPTIONS);
	assert_non_null(strstr(m.err, "-a/--affinity: CPU 100000 does not exist"));
	assert_int_equal(r.n_phases, 0);
	al_result_free(&r);

	sim(&m, 100 * AL_NS_PER_MS);
	m.load_spec = "bogus";
	assert_int_equal(al_run_measure(&m, &r), -EINVAL);
	assert_int_equal(m.fail, AL_MEASURE_OPTIONS);
	assert_true(!strncmp(m.err, "--load: ", 8));
	al_result_free(&r);

	sim(&m, 100 * AL_NS_PER_MS);
	snprintf(m.o.cfg.device, sizeof(m.o.cfg.device), "x");
	assert_int_equal(al_run_measure(&m, &r), -EINVAL);
	assert_int_equal(m.fail, AL_MEASURE_REFUSED);
	assert_string_equal(m.err, "-D/--device: the sim backend has no devices");
	al_result_free(&r);
}

static void
a_run_records_its_cmdline_and_checks(void **state)
{
	struct al_measure m;
	struct al_result r;

	(void)state;
	sim(&m, 100 * AL_NS_PER_MS);
	m.cmdline = "audiolat run -d 100ms";
	m.load_spec = "idle:60ms,idle:90ms"; /* every phase timed: they make the run */
	assert_int_equal(al_run_measure(&m, &r), 0);
	assert_int_equal(m.fail, AL_MEASURE_OK);
	assert_int_equal(m.o.cfg.duration_ns, 150 * AL_NS_PER_MS);
	assert_int_equal(r.n_phases, 2);
	assert_string_equal(r.cmdline, "audiolat run -d 100ms");
	assert_true(r.n_checks > 0);
	assert_true(r.total.periods > 0);
	al_result_free(&r);
}

struct seen {
	int calls, measured;
	char cmdline[4][1024];
	volatile sig_atomic_t *stop;
	int stop_after;
};

static int
done(void *ud, const struct al_sweep *s, int idx, int rep, const struct al_measure *m, int rc,
     struct al_result *r, double fig[AL_SWEEP_FIGURES])
{
	struct seen *x = ud;

	(void)s;
	(void)idx;
	(void)rep;
	if (x->calls < 4)
		snprintf(x->cmdline[x->calls], sizeof(x->cmdline[0]), "%s", r->cmdline);
	x->calls++;
	if (!r->n_phases) {
		assert_int_equal(m->fail, AL_MEASURE_REFUSED);
		return rc == -EINVAL ? 2 : 1;
	}
	x->measured++;
	fig[AL_SWEEP_XRUNS] = (double)r->total.xruns;
	if (x->stop && x->measured == x->stop_after)
		*x->stop = 1;
	return 0;
}

/* A sweep of two sim cells at rates r0, r1, repeat 2. */
static void
two_cells(struct al_sweep *s, long r0, long r1)
{
	char err[256];

	assert_int_equal(al_sweep_init(s, 1, 2, 1, 1, 2), 0);
	for (int i = 0; i < 2; i++) {
		snprintf(s->cells[i].backend, sizeof(s->cells[i].backend), "sim");
		s->cells[i].rate_hz = i ? r1 : r0;
		s->cells[i].period_frames = 64;
		s->cells[i].periods = 3;
	}
	/* the backends resolved once, as audiolat sweep does before the first run */
	assert_int_equal(al_sweep_check_backends(s, err, sizeof(err)), 0);
}

static void
a_sweep_runs_every_cell(void **state)
{
	volatile sig_atomic_t stop = 0;
	struct seen x = { 0 };
	struct al_sweep s = { 0 };
	struct al_measure base;
	int n_done;

	(void)state;
	sim(&base, 60 * AL_NS_PER_MS);
	base.cmdline = "audiolat run -d 60ms";
	two_cells(&s, 44100, 48000);
	/* the first cell cannot start (sim has no devices): tried once, its code kept */
	snprintf(s.cells[0].device, sizeof(s.cells[0].device), "x");
	assert_int_equal(al_sweep_run(&s, &base, &stop, &(struct al_sweep_hooks){ done, &x },
				      &n_done), 2);
	assert_int_equal(x.calls, 3);
	assert_int_equal(n_done, 2);
	assert_int_equal(s.cells[0].n_runs, 0);
	assert_int_equal(s.cells[0].failed_code, 2);
	assert_int_equal(s.cells[1].n_runs, 2);
	assert_string_equal(x.cmdline[1], "audiolat run -d 60ms -b sim -r 48000 -P 64 -n 3");
	assert_false(s.interrupted);
	al_sweep_free(&s);

	/* the stop flag ends it after the run it is in */
	memset(&x, 0, sizeof(x));
	x.stop = &stop;
	x.stop_after = 1;
	two_cells(&s, 48000, 48000);
	assert_int_equal(al_sweep_run(&s, &base, &stop, &(struct al_sweep_hooks){ done, &x },
				      &n_done), 0);
	assert_int_equal(n_done, 1);
	assert_true(s.interrupted);
	assert_int_equal(s.cells[1].n_runs, 0);
	al_sweep_free(&s);
}

/* Every cell is checked before the first run: its backend, then its configuration. */
static void
a_sweep_is_checked_cell_by_cell(void **state)
{
	struct al_sweep s = { 0 };
	struct al_config base;
	char err[256];

	(void)state;
	memset(&base, 0, sizeof(base));
	two_cells(&s, 44100, 48000);
	assert_int_equal(al_sweep_check_backends(&s, err, sizeof(err)), 0);
	assert_int_equal(al_sweep_check_cells(&s, &base, err, sizeof(err)), 0);
	/* the base's options go with every cell: sim plays no tone */
	base.tone_hz = 21000;
	assert_int_equal(al_sweep_check_cells(&s, &base, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--tone: not with the sim backend");
	base.tone_hz = 0;
	base.nearest = true;
	assert_int_equal(al_sweep_check_cells(&s, &base, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--nearest: not with the sim backend");
	snprintf(s.cells[1].backend, sizeof(s.cells[1].backend), "nosuch");
	assert_int_equal(al_sweep_check_backends(&s, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-b/--backend: unknown backend 'nosuch'");
	for (int i = 0; al_backends[i]; i++)
		if (al_backends[i]->unavailable) { /* one this build has not */
			snprintf(s.cells[0].backend, sizeof(s.cells[0].backend), "%s",
				 al_backends[i]->name);
			assert_int_equal(al_sweep_check_backends(&s, err, sizeof(err)), -ENOTSUP);
			assert_non_null(strstr(err, al_backends[i]->unavailable));
		}
	al_sweep_free(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(options_fail_before_the_run),
		cmocka_unit_test(a_run_records_its_cmdline_and_checks),
		cmocka_unit_test(a_sweep_runs_every_cell),
		cmocka_unit_test(a_sweep_is_checked_cell_by_cell),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
