/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat bisect's sequential test (src/compare/sequential.c) and its
 * driver (bisect.c): the stopping rule on cases worked by hand, its error
 * rates by simulation (a wrong verdict at most alpha whatever the truth,
 * the gap gate closed at the threshold), and the driver on made-up
 * documents.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare/bisect.h"
#include "compare/ci.h"
#include "compare/sequential.h"
#include "assert-near.h"

static const double g3[] = { 0, 0.1, -0.1 };   /* mean 0, sum of squares 0.02 */
static const double b3[] = { 1, 1.1, 0.9 };    /* mean 1 */

/* t(0.05, 4), from a table */
#define T05_4 2.131847

/* One look worked by hand: the boundary, the pooled spread, the interval. */
static void
look_by_hand(void **state)
{
	struct al_seq_design d = { .alpha = 0.05, .n_min = 3, .n_max = 3, .threshold = exp(0.5) };
	struct al_seq_base b = { g3, 3, NULL, 0 };
	const double y[] = { 1.0, 1.1, 0.9 };
	struct al_seq_look l;

	(void)state;
	assert_int_equal(al_seq_look(&d, &b, y, 3, &l), 0);
	assert_near(l.boundary, 0.5, 1e-12);
	assert_near(l.contrast, 0.5, 1e-12);
	assert_near(l.df, 4, 0);
	/* s^2 = 0.04 / 4, var = s^2 (1/3 + 1/3) */
	assert_near(l.se, sqrt(0.01 * 2 / 3), 1e-12);
	assert_near(l.level, 0.05, 1e-15);
	assert_near(l.t, T05_4, 1e-5);
	assert_near(l.lo, 0.5 - T05_4 * sqrt(0.01 * 2 / 3), 1e-5);
	assert_int_equal(l.verdict, AL_SEQ_BAD);
	/* with the bad baseline: the midpoint 0.5, var s^2 (1/12 + 1/12 + 1/3) */
	b = (struct al_seq_base){ g3, 3, b3, 3 };
	assert_int_equal(al_seq_look(&d, &b, y, 3, &l), 0);
	assert_near(l.boundary, 0.5, 1e-12);
	assert_near(l.df, 6, 0);
	assert_near(l.se, sqrt(0.06 / 6 * 0.5), 1e-12);
	assert_int_equal(l.verdict, AL_SEQ_BAD);
}

/* The trials y (n of them): mean m, spread as g3's. */
static void
trials_at(double m, double *y, size_t n)
{
	for (size_t i = 0; i < n; i++)
		y[i] = m + (i % 3 == 1 ? 0.1 : i % 3 == 2 ? -0.1 : 0);
}

/* The rule at its edges: before n_min, just inside and outside the bound, at n_max. */
static void
stopping_rule(void **state)
{
	struct al_seq_design d = { .alpha = 0.05, .n_min = 3, .n_max = 6, .threshold = exp(0.5) };
	struct al_seq_base b = { g3, 3, NULL, 0 };
	struct al_seq_look l;
	double y[6], bound;

	(void)state;
	/* far above, but 2 trials: go on */
	trials_at(5, y, 2);
	assert_int_equal(al_seq_look(&d, &b, y, 2, &l), 0);
	assert_int_equal(l.verdict, AL_SEQ_CONTINUE);
	/* 3 trials: the level is alpha over 4 looks; the bound t se above the boundary */
	trials_at(0.5, y, 3);
	assert_int_equal(al_seq_look(&d, &b, y, 3, &l), 0);
	assert_near(l.level, 0.05 / 4, 1e-15);
	assert_int_equal(l.verdict, AL_SEQ_CONTINUE);
	bound = l.t * l.se;
	trials_at(0.5 + bound * 1.001, y, 3);
	assert_int_equal(al_seq_look(&d, &b, y, 3, &l), 0);
	assert_int_equal(l.verdict, AL_SEQ_BAD);
	trials_at(0.5 + bound * 0.999, y, 3);
	assert_int_equal(al_seq_look(&d, &b, y, 3, &l), 0);
	assert_int_equal(l.verdict, AL_SEQ_CONTINUE);
	trials_at(0.5 - bound * 1.001, y, 3);
	assert_int_equal(al_seq_look(&d, &b, y, 3, &l), 0);
	assert_int_equal(l.verdict, AL_SEQ_GOOD);
	trials_at(0.5 - bound * 0.999, y, 3);
	assert_int_equal(al_seq_look(&d, &b, y, 3, &l), 0);
	assert_int_equal(l.verdict, AL_SEQ_CONTINUE);
	/* on the boundary: on to n_max, then inconclusive */
	trials_at(0.5, y, 6);
	assert_int_equal(al_seq_look(&d, &b, y, 5, &l), 0);
	assert_int_equal(l.verdict, AL_SEQ_CONTINUE);
	assert_int_equal(al_seq_look(&d, &b, y, 6, &l), 0);
	assert_int_equal(l.verdict, AL_SEQ_INCONCLUSIVE);
	/* more than n_max, a design out of range, a figure not finite */
	assert_int_equal(al_seq_look(&d, &b, y, 7, &l), -EINVAL);
	y[0] = NAN;
	assert_int_equal(al_seq_look(&d, &b, y, 3, &l), -EINVAL);
	d.alpha = 0.5;
	assert_int_equal(al_seq_look(&d, &b, y + 1, 2, &l), -EINVAL);
}

/* The gap gate by hand: gap 1, se sqrt(0.01 2/3), t(0.05, 4). */
static void
gap_by_hand(void **state)
{
	struct al_seq_design d = { .alpha = 0.05, .n_min = 3, .n_max = 10, .threshold = 2 };
	struct al_seq_base b = { g3, 3, b3, 3 };
	struct al_seq_gap gp;
	double lo = 1 - T05_4 * sqrt(0.01 * 2 / 3);

	(void)state;
	assert_int_equal(al_seq_gap(&d, &b, &gp), 0);
	assert_near(gp.gap, 1, 1e-12);
	assert_near(gp.lo, lo, 1e-5);
	assert_true(gp.open); /* 0.826 > log 2 */
	d.threshold = 2.5;    /* log 2.5 = 0.916 */
	assert_int_equal(al_seq_gap(&d, &b, &gp), 0);
	assert_false(gp.open);
	b.n_bad = 0;
	assert_int_equal(al_seq_gap(&d, &b, &gp), -EINVAL);
}

/* What a simulated sequence ended with. */
struct tally {
	int good, bad, inconclusive, closed;
	double trials; /* mean trials of those decided */
};

/*
 * reps sequences: m_g good runs N(0, 1), m_b bad runs N(gap, 1) (none
 * when m_b is 0), trials N(mu, 1) until the test decides.
 */
static struct tally
simulate(const struct al_seq_design *d, size_t m_g, size_t m_b, double gap, double mu, int reps,
	 uint64_t seed)
{
	double g[16], b[16], y[AL_SEQ_N_MAX];
	struct tally t = { 0 };
	struct al_seq_look l;
	struct al_seq_gap gp;
	struct al_rng r;
	int decided = 0;

	al_rng_seed(&r, seed);
	for (int k = 0; k < reps; k++) {
		struct al_seq_base base = { g, m_g, m_b ? b : NULL, m_b };
		size_t n = 0;

		for (size_t i = 0; i < m_g; i++)
			g[i] = al_rng_normal(&r);
		for (size_t i = 0; i < m_b; i++)
			b[i] = gap + al_rng_normal(&r);
		if (m_b) {
			assert_int_equal(al_seq_gap(d, &base, &gp), 0);
			if (!gp.open) {
				t.closed++;
				continue;
			}
		}
		do {
			y[n] = mu + al_rng_normal(&r);
			n++;
			assert_int_equal(al_seq_look(d, &base, y, n, &l), 0);
		} while (l.verdict == AL_SEQ_CONTINUE);
		t.good += l.verdict == AL_SEQ_GOOD;
		t.bad += l.verdict == AL_SEQ_BAD;
		t.inconclusive += l.verdict == AL_SEQ_INCONCLUSIVE;
		if (l.verdict != AL_SEQ_INCONCLUSIVE)
			t.trials += (double)n, decided++;
	}
	t.trials = decided ? t.trials / decided : NAN;
	return t;
}

#define REPS 4000
/* alpha plus three standard errors of a share near it over REPS */
#define AT_MOST_ALPHA (0.05 + 3 * sqrt(0.05 * 0.95 / REPS))

/*
 * On the boundary itself, the worst case for both errors: bad and good
 * each at most alpha (Bonferroni over the looks: a rule that spent alpha
 * at every look would be wrong far more often).
 */
static void
error_rates_on_the_boundary(void **state)
{
	const struct al_seq_design d = AL_SEQ_DESIGN_DEFAULT;
	struct tally t;

	(void)state;
	/* with a bad baseline 4 sd above the good one: the midpoint */
	t = simulate(&d, 5, 5, 4, 2, REPS, 11);
	print_message("# on the midpoint: %d good, %d bad, %d inconclusive, gate closed %d of %d\n",
		      t.good, t.bad, t.inconclusive, t.closed, REPS);
	assert_true(t.closed < REPS / 100);
	assert_true(t.bad <= AT_MOST_ALPHA * REPS);
	assert_true(t.good <= AT_MOST_ALPHA * REPS);
	/* without: the good baseline times the threshold */
	t = simulate(&d, 5, 0, 0, log(d.threshold), REPS, 12);
	print_message("# on good x threshold: %d good, %d bad, %d inconclusive of %d\n", t.good,
		      t.bad, t.inconclusive, REPS);
	assert_true(t.bad <= AT_MOST_ALPHA * REPS);
	assert_true(t.good <= AT_MOST_ALPHA * REPS);
}

/* Known cases: the good tree good, the bad tree bad, quickly and almost never the other way. */
static void
known_cases(void **state)
{
	const struct al_seq_design d = AL_SEQ_DESIGN_DEFAULT;
	struct tally t;

	(void)state;
	/* identical to the good baseline, the bad one 4 sd above */
	t = simulate(&d, 5, 5, 4, 0, REPS, 21);
	print_message("# as good: %d good, %d bad, %d inconclusive, %.2f trials\n", t.good, t.bad,
		      t.inconclusive, t.trials);
	assert_true(t.bad <= REPS / 1000);
	assert_true(t.good >= REPS * 9 / 10);
	/* as bad */
	t = simulate(&d, 5, 5, 4, 4, REPS, 22);
	print_message("# as bad: %d good, %d bad, %d inconclusive, %.2f trials\n", t.good, t.bad,
		      t.inconclusive, t.trials);
	assert_true(t.good <= REPS / 1000);
	assert_true(t.bad >= REPS * 9 / 10);
	/* 2x slower at a spread of 0.05 (log 2 = 14 sd): decided at the first look */
	t = simulate(&d, 5, 5, log(2) / 0.05, log(2) / 0.05, REPS, 23);
	assert_int_equal(t.bad, REPS);
	assert_near(t.trials, d.n_min, 0);
	t = simulate(&d, 5, 0, 0, log(2) / 0.05, REPS, 24);
	assert_int_equal(t.bad, REPS);
	assert_near(t.trials, d.n_min, 0);
}

/*
 * The gap gate: a bad baseline worse by exactly the threshold opens it at
 * most alpha of the time; one worse by half a spread (below the noise)
 * almost never; one 2x worse always.
 */
static void
gap_gate(void **state)
{
	const struct al_seq_design d = AL_SEQ_DESIGN_DEFAULT;
	struct tally t;

	(void)state;
	/* spread 0.05 on the log scale, as 1 here: the threshold is log(1.2) / 0.05 sd */
	struct al_seq_design ds = d;

	ds.threshold = exp(log(d.threshold) / 0.05);
	t = simulate(&ds, 5, 5, log(d.threshold) / 0.05, 0, REPS, 31);
	print_message("# a gap of the threshold: the gate open %d of %d\n", REPS - t.closed, REPS);
	assert_true(REPS - t.closed <= AT_MOST_ALPHA * REPS);
	t = simulate(&ds, 5, 5, 0.5, 0, REPS, 32);
	assert_int_equal(t.closed, REPS);
	t = simulate(&ds, 5, 5, log(2) / 0.05, 0, REPS, 33);
	assert_int_equal(t.closed, 0);
}

/* A run document with this p99 (ns; <= 0: null, not measured). */
static json_t *
run_doc(double p99)
{
	return json_pack("{s:s, s:{s:{s:f, s:o}}}", "schema", "audiolat.run/2", "total",
			 "wake_latency_ns", "p50", 10000.0, "p99",
			 p99 > 0 ? json_real(p99) : json_null());
}

struct fake {
	const double *p99; /* each trial's figure; <= 0: null; NAN: the trial fails */
	size_t n, calls;
};

static int
fake_trial(void *ud, unsigned i, json_t **doc, int64_t *id, char *err, size_t err_size)
{
	struct fake *f = ud;

	assert_int_equal(i, f->calls);
	f->calls++;
	assert_true(i < f->n);
	if (isnan(f->p99[i]))
		return snprintf(err, err_size, "the command exited with 2"), -ECHILD;
	*doc = run_doc(f->p99[i]);
	*id = 100 + i;
	return 0;
}

/* docs[0..n) of p99 base * (1 + small steps): a baseline */
static void
baseline(struct al_report_doc *in, json_t **docs, size_t n, double base)
{
	for (size_t i = 0; i < n; i++) {
		docs[i] = run_doc(base * (1 + 0.02 * (double)(i % 3) - 0.02));
		in[i] = (struct al_report_doc){ docs[i], "made up" };
	}
}

static void
driver(void **state)
{
	struct al_report_doc gin[5], bin[5];
	json_t *gdocs[5], *bdocs[5], *doc;
	const double slow[] = { 40000, 41000, 39000, 40500 };
	const double fast[] = { 20000, 20500, 19800, 20100 };
	const double fails[] = { 40000, NAN, 39000 };
	const double null[] = { 40000, 0 };
	struct al_bisect_req q = { gin, 5, bin, 5, AL_BISECT_P99, AL_SEQ_DESIGN_DEFAULT };
	struct al_bisect_out out;
	struct fake f;
	char err[256];

	(void)state;
	baseline(gin, gdocs, 5, 20000);
	baseline(bin, bdocs, 5, 40000);
	f = (struct fake){ slow, 4, 0 };
	assert_int_equal(al_bisect_decide(&q, fake_trial, &f, &out, err, sizeof(err)), 0);
	assert_int_equal(out.verdict, AL_SEQ_BAD);
	assert_int_equal(out.trials, 3);
	assert_int_equal(f.calls, 3);
	assert_true(out.gap.open);
	assert_near(out.value_ns[2], 39000, 0);
	doc = al_bisect_doc(&q, &out, "abc123", 1);
	assert_non_null(doc);
	assert_string_equal(al_doc_str(doc, "verdict", ""), "bad");
	assert_string_equal(al_doc_str(doc, "schema", ""), "audiolat.bisect/1");
	assert_int_equal(json_array_size(json_object_get(doc, "trials")), 3);
	assert_near(al_doc_real(doc, "boundary_ns", 0), sqrt(20000.0 * 40000.0), 200);
	json_decref(doc);
	f = (struct fake){ fast, 4, 0 };
	assert_int_equal(al_bisect_decide(&q, fake_trial, &f, &out, err, sizeof(err)), 0);
	assert_int_equal(out.verdict, AL_SEQ_GOOD);
	/* a trial that fails: its error, which trial */
	f = (struct fake){ fails, 3, 0 };
	assert_int_equal(al_bisect_decide(&q, fake_trial, &f, &out, err, sizeof(err)), -ECHILD);
	assert_true(out.trial_failed);
	assert_string_equal(err, "trial 2: the command exited with 2");
	f = (struct fake){ null, 2, 0 };
	assert_int_equal(al_bisect_decide(&q, fake_trial, &f, &out, err, sizeof(err)), -ENODATA);
	assert_string_equal(err, "trial 2: no p99 wake latency in its document");
	/* a bad baseline no worse than the good one: inconclusive, no trial run */
	q.bad = gin;
	f = (struct fake){ slow, 0, 0 };
	assert_int_equal(al_bisect_decide(&q, fake_trial, &f, &out, err, sizeof(err)), 0);
	assert_int_equal(out.verdict, AL_SEQ_INCONCLUSIVE);
	assert_true(out.gated);
	assert_int_equal(f.calls, 0);
	/* too few runs */
	q.bad = bin;
	q.n_good = 2;
	assert_int_equal(al_bisect_decide(&q, fake_trial, &f, &out, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "2 good runs, 3 needed");
	for (size_t i = 0; i < 5; i++)
		json_decref(gdocs[i]), json_decref(bdocs[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(look_by_hand),
		cmocka_unit_test(stopping_rule),
		cmocka_unit_test(gap_by_hand),
		cmocka_unit_test(error_rates_on_the_boundary),
		cmocka_unit_test(known_cases),
		cmocka_unit_test(gap_gate),
		cmocka_unit_test(driver),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
