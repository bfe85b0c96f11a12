/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Phase specs, presets, --load-policy, --load-cpus and the other load options. */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/clock.h"
#include "load/load.h"

#define S AL_NS_PER_SEC

static struct al_phase_spec *ph;
static size_t n;
static char err[512];

static int
teardown(void **state)
{
	(void)state;
	al_load_spec_free(ph);
	ph = NULL;
	n = 0;
	return 0;
}

static void
parse_ok(const char *spec, int64_t total_ns)
{
	al_load_spec_free(ph);
	ph = NULL;
	err[0] = 0;
	if (al_load_spec_parse(spec, total_ns, &ph, &n, err, sizeof(err)) != 0)
		fail_msg("'%s' refused: %s", spec, err);
}

/* The spec is refused with -EINVAL and err contains want. */
static void
parse_bad(const char *spec, int64_t total_ns, const char *want)
{
	struct al_phase_spec *p = NULL;
	size_t k = 99;
	int r;

	err[0] = 0;
	r = al_load_spec_parse(spec, total_ns, &p, &k, err, sizeof(err));
	if (r != -EINVAL)
		fail_msg("'%s': got %d, expected -EINVAL (%s)", spec, r, err);
	assert_null(p);
	assert_int_equal(k, 0);
	if (!strstr(err, want))
		fail_msg("'%s': error '%s' does not contain '%s'", spec, err, want);
	assert_null(strchr(err, '\n'));
}

static const char *
load_name(size_t i, int j)
{
	return al_load_name(ph[i].loads[j].ops);
}

static void
phases_in_order_with_times(void **state)
{
	(void)state;
	parse_ok("idle:10s,hackbench:30s,disk-write:20s", 0);
	assert_int_equal(n, 3);
	assert_string_equal(ph[0].name, "idle");
	assert_int_equal(ph[0].n_loads, 0);
	assert_int_equal(ph[0].duration_ns, 10 * S);
	assert_true(ph[0].duration_given);
	assert_string_equal(ph[1].name, "hackbench");
	assert_int_equal(ph[1].n_loads, 1);
	assert_string_equal(load_name(1, 0), "hackbench");
	assert_int_equal(ph[1].duration_ns, 30 * S);
	assert_string_equal(ph[2].name, "disk-write");
	assert_int_equal(ph[2].duration_ns, 20 * S);
	assert_int_equal(al_load_spec_total_ns(ph, n), 60 * S);
}

static void
units_and_bare_seconds(void **state)
{
	(void)state;
	parse_ok("cpu:500ms,mem:2,fork:1.5s,procfs:1m", 0);
	assert_int_equal(n, 4);
	assert_int_equal(ph[0].duration_ns, 500 * AL_NS_PER_MS);
	assert_int_equal(ph[1].duration_ns, 2 * S);
	assert_int_equal(ph[2].duration_ns, 1500 * AL_NS_PER_MS);
	assert_int_equal(ph[3].duration_ns, 60 * S);
}

static void
untimed_phases_share_the_total(void **state)
{
	(void)state;
	parse_ok("idle,cpu,fork", 30 * S);
	assert_int_equal(n, 3);
	assert_int_equal(ph[0].duration_ns, 10 * S);
	assert_int_equal(ph[1].duration_ns, 10 * S);
	assert_int_equal(ph[2].duration_ns, 10 * S);
	assert_false(ph[0].duration_given);

	/* timed phases first, the rest split what is left */
	parse_ok("idle:10s,cpu,fork", 30 * S);
	assert_int_equal(ph[0].duration_ns, 10 * S);
	assert_int_equal(ph[1].duration_ns, 10 * S);
	assert_int_equal(ph[2].duration_ns, 10 * S);
	parse_ok("idle:20s,cpu,fork", 30 * S);
	assert_int_equal(ph[1].duration_ns, 5 * S);
	assert_int_equal(ph[2].duration_ns, 5 * S);

	/* a remainder is spread, the sum is exact */
	parse_ok("idle,cpu,fork", 10 * S);
	assert_int_equal(al_load_spec_total_ns(ph, n), 10 * S);
	assert_true(ph[0].duration_ns >= 3333333333LL && ph[0].duration_ns <= 3333333334LL);

	/* no total: untimed phases keep 0 for the caller to decide */
	parse_ok("idle,cpu:5s", 0);
	assert_int_equal(ph[0].duration_ns, 0);
	assert_int_equal(ph[1].duration_ns, 5 * S);

	/* all timed: the total is not used */
	parse_ok("idle:1s,cpu:2s", 60 * S);
	assert_int_equal(al_load_spec_total_ns(ph, n), 3 * S);
}

static void
plus_combines_loads(void **state)
{
	(void)state;
	parse_ok("hackbench+disk-read:30s", 0);
	assert_int_equal(n, 1);
	assert_string_equal(ph[0].name, "hackbench+disk-read");
	assert_int_equal(ph[0].n_loads, 2);
	assert_string_equal(load_name(0, 0), "hackbench");
	assert_string_equal(load_name(0, 1), "disk-read");
	assert_int_equal(ph[0].duration_ns, 30 * S);

	parse_ok(" idle:1s , cpu + mem + fork : 2s ", 0);
	assert_int_equal(n, 2);
	assert_string_equal(ph[1].name, "cpu+mem+fork");
	assert_int_equal(ph[1].n_loads, 3);
	assert_int_equal(ph[1].duration_ns, 2 * S);
}

static void
cmd_commands(void **state)
{
	(void)state;
	parse_ok("cmd:'make -j4, then +more: yes':30s,cmd:\"sleep 1\",cmd:true+cpu", 60 * S);
	assert_int_equal(n, 3);
	assert_string_equal(ph[0].name, "cmd");
	assert_string_equal(load_name(0, 0), "cmd");
	assert_string_equal(ph[0].loads[0].arg, "make -j4, then +more: yes");
	assert_int_equal(ph[0].duration_ns, 30 * S);
	assert_string_equal(ph[1].loads[0].arg, "sleep 1");
	assert_int_equal(ph[1].duration_ns, 15 * S);
	assert_string_equal(ph[2].name, "cmd+cpu");
	assert_string_equal(ph[2].loads[0].arg, "true");
	assert_string_equal(load_name(2, 1), "cpu");
	assert_string_equal(ph[2].loads[1].arg, "");
}

static void
presets(void **state)
{
	static const char *const lt[] = { "idle", "procfs", "disk-write", "disk-copy", "disk-read",
					  "hackbench" };
	size_t i;

	(void)state;
	parse_ok("latencytest", 60 * S);
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++) {
		assert_string_equal(ph[i].name, lt[i]);
		assert_int_equal(ph[i].duration_ns, 10 * S);
	}

	parse_ok("latencytest-short", 0);
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++) {
		assert_string_equal(ph[i].name, lt[i]);
		assert_true(ph[i].duration_given);
	}
	assert_true(al_load_spec_total_ns(ph, n) < 60 * S);
	assert_true(al_load_spec_total_ns(ph, n) >= 30 * S);

	/* a preset with its own time, inside a list */
	parse_ok("idle:5s,latencytest:60s,cpu", 75 * S);
	assert_int_equal(n, 8);
	assert_string_equal(ph[1].name, "idle");
	assert_int_equal(ph[1].duration_ns, 10 * S);
	assert_string_equal(ph[6].name, "hackbench");
	assert_int_equal(ph[6].duration_ns, 10 * S);
	assert_string_equal(ph[7].name, "cpu");
	assert_int_equal(ph[7].duration_ns, 10 * S);

	assert_string_equal(al_load_preset_name(0), "latencytest");
	assert_non_null(al_load_preset_spec(1));
	assert_null(al_load_preset_name(99));
}

static void
bad_specs(void **state)
{
	(void)state;
	parse_bad("nosuch:10s", 0, "unknown load 'nosuch'");
	parse_bad("idle:10s,hackbnch", 0, "unknown load 'hackbnch'");
	parse_bad("idle:10x", 0, "malformed time '10x'");
	parse_bad("idle:", 0, "malformed time ''");
	parse_bad("idle:-5s", 0, "malformed time '-5s'");
	parse_bad("idle:0s", 0, "must be more than 0");
	parse_bad("idle:99999999999999h", 0, "too large");
	parse_bad("", 0, "empty");
	parse_bad("   ", 0, "empty");
	parse_bad("idle,,cpu", 0, "empty phase");
	parse_bad("idle,", 0, "empty phase");
	parse_bad(",idle", 0, "empty phase");
	parse_bad("cpu+", 0, "load name is missing");
	parse_bad("+cpu", 0, "load name is missing");
	parse_bad("idle+cpu:5s", 0, "idle cannot be combined");
	parse_bad("cpu mem", 0, "unexpected 'mem'");
	parse_bad("cmd", 0, "cmd needs a command");
	parse_bad("cmd:", 0, "empty command");
	parse_bad("cmd:''", 0, "empty command");
	parse_bad("cmd:'sleep 1", 0, "unterminated '");
	parse_bad("cmd:\"sleep 1", 0, "unterminated \"");
	parse_bad("cpu+cpu+cpu+cpu+cpu+cpu+cpu+cpu+cpu", 0, "more than 8 loads");
	parse_bad("idle:20s,cpu:20s,fork", 30 * S, "leaving nothing for 'fork'");
	parse_bad("idle:30s,cpu", 30 * S, "leaving nothing for 'cpu'");
	parse_bad("latencytest-short:60s", 0, "own times");
	parse_bad("latencytest:1x", 0, "malformed time");
}

static void
too_many_phases(void **state)
{
	char spec[1024] = "";
	int i;

	(void)state;
	for (i = 0; i < AL_LOAD_PHASES_MAX; i++)
		strcat(spec, i ? ",idle:1s" : "idle:1s");
	parse_ok(spec, 0);
	assert_int_equal(n, AL_LOAD_PHASES_MAX);
	strcat(spec, ",idle:1s");
	parse_bad(spec, 0, "more than 64 phases");
}

static void
policies(void **state)
{
	struct al_load_opts o;

	(void)state;
	al_load_opts_init(&o);
	assert_int_equal(o.policy, SCHED_OTHER);
	assert_int_equal(o.nice, 0);
	assert_true(o.cpus_all);
	assert_int_equal(al_load_parse_policy("batch", &o), 0);
	assert_int_equal(o.policy, SCHED_BATCH);
	assert_int_equal(al_load_parse_policy("idle", &o), 0);
	assert_int_equal(o.policy, SCHED_IDLE);
	assert_int_equal(al_load_parse_policy("rr:10", &o), 0);
	assert_int_equal(o.policy, SCHED_RR);
	assert_int_equal(o.prio, 10);
	assert_int_equal(al_load_parse_policy("fifo:99", &o), 0);
	assert_int_equal(o.policy, SCHED_FIFO);
	assert_int_equal(o.prio, 99);
	assert_int_equal(al_load_parse_policy("other", &o), 0);
	assert_int_equal(o.policy, SCHED_OTHER);
	assert_int_equal(o.prio, 0);

	assert_int_equal(al_load_parse_policy("fifo", &o), -EINVAL);
	assert_int_equal(al_load_parse_policy("fifo:0", &o), -EINVAL);
	assert_int_equal(al_load_parse_policy("fifo:100", &o), -EINVAL);
	assert_int_equal(al_load_parse_policy("rr:-1", &o), -EINVAL);
	assert_int_equal(al_load_parse_policy("rr:x", &o), -EINVAL);
	assert_int_equal(al_load_parse_policy("other:5", &o), -EINVAL);
	assert_int_equal(al_load_parse_policy("deadline", &o), -EINVAL);
	assert_int_equal(al_load_parse_policy("", &o), -EINVAL);
	assert_int_equal(al_load_parse_policy("FIFO:10", &o), -EINVAL);
	assert_int_equal(o.policy, SCHED_OTHER); /* untouched by the failures */
}

static void
cpu_lists(void **state)
{
	struct al_load_opts o;

	(void)state;
	al_load_opts_init(&o);
	assert_int_equal(al_load_parse_cpus("0,2-3", &o), 0);
	assert_false(o.cpus_all);
	assert_int_equal(CPU_COUNT(&o.cpus), 3);
	assert_true(CPU_ISSET(0, &o.cpus));
	assert_false(CPU_ISSET(1, &o.cpus));
	assert_true(CPU_ISSET(2, &o.cpus));
	assert_true(CPU_ISSET(3, &o.cpus));
	assert_string_equal(o.cpus_text, "0,2-3");
	assert_int_equal(al_load_parse_cpus("5", &o), 0);
	assert_int_equal(CPU_COUNT(&o.cpus), 1);
	assert_true(CPU_ISSET(5, &o.cpus));
	assert_int_equal(al_load_parse_cpus("all", &o), 0);
	assert_true(o.cpus_all);

	assert_int_equal(al_load_parse_cpus("", &o), -EINVAL);
	assert_int_equal(al_load_parse_cpus("3-1", &o), -EINVAL);
	assert_int_equal(al_load_parse_cpus("1,", &o), -EINVAL);
	assert_int_equal(al_load_parse_cpus(",1", &o), -EINVAL);
	assert_int_equal(al_load_parse_cpus("-1", &o), -EINVAL);
	assert_int_equal(al_load_parse_cpus("a", &o), -EINVAL);
	assert_int_equal(al_load_parse_cpus("1-", &o), -EINVAL);
	assert_int_equal(al_load_parse_cpus("99999", &o), -EINVAL);
	assert_true(o.cpus_all); /* untouched by the failures */
}

static void
option_setter(void **state)
{
	struct al_load_opts o;
	char e[256];

	(void)state;
	al_load_opts_init(&o);
	assert_int_equal(o.hb_groups, 10);
	assert_int_equal(o.hb_fds, 20);
	assert_int_equal(o.hb_loops, 100);
	assert_int_equal(o.hb_datasize, 100);
	assert_string_equal(o.dir, "/var/tmp");

	assert_int_equal(al_load_opt_set(&o, "groups", "3", e, sizeof(e)), 0);
	assert_int_equal(o.hb_groups, 3);
	assert_int_equal(al_load_opt_set(&o, "pipe", NULL, e, sizeof(e)), 0);
	assert_true(o.hb_pipe);
	assert_int_equal(al_load_opt_set(&o, "threads", NULL, e, sizeof(e)), 0);
	assert_true(o.hb_threads);
	assert_int_equal(al_load_opt_set(&o, "file-size", "4M", e, sizeof(e)), 0);
	assert_int_equal(o.file_size_bytes, 4 * 1024 * 1024);
	assert_int_equal(al_load_opt_set(&o, "file-size", "1GiB", e, sizeof(e)), 0);
	assert_int_equal(o.file_size_bytes, 1024LL * 1024 * 1024);
	assert_int_equal(al_load_opt_set(&o, "load-nice", "-5", e, sizeof(e)), 0);
	assert_int_equal(o.nice, -5);
	assert_int_equal(al_load_opt_set(&o, "load-policy", "rr:3", e, sizeof(e)), 0);
	assert_int_equal(o.policy, SCHED_RR);

	assert_int_equal(al_load_opt_set(&o, "groups", "-1", e, sizeof(e)), -ERANGE);
	assert_non_null(strstr(e, "--groups: '-1' is not in 1..1000"));
	assert_int_equal(al_load_opt_set(&o, "loops", "0", e, sizeof(e)), -ERANGE);
	assert_int_equal(al_load_opt_set(&o, "fds", "x", e, sizeof(e)), -EINVAL);
	assert_non_null(strstr(e, "--fds"));
	assert_int_equal(al_load_opt_set(&o, "workers", "-3", e, sizeof(e)), -ERANGE);
	assert_int_equal(al_load_opt_set(&o, "load-nice", "20", e, sizeof(e)), -ERANGE);
	assert_int_equal(al_load_opt_set(&o, "file-size", "-1M", e, sizeof(e)), -EINVAL);
	assert_non_null(strstr(e, "--file-size"));
	assert_int_equal(al_load_opt_set(&o, "file-size", "12X", e, sizeof(e)), -EINVAL);
	assert_int_equal(al_load_opt_set(&o, "load-policy", "fast", e, sizeof(e)), -EINVAL);
	assert_non_null(strstr(e, "--load-policy: 'fast'"));
	assert_int_equal(al_load_opt_set(&o, "load-cpus", "2-1", e, sizeof(e)), -EINVAL);
	assert_int_equal(al_load_opt_set(&o, "nosuch", "1", e, sizeof(e)), -ENOENT);
	assert_int_equal(al_load_opt_set(&o, "groups", NULL, e, sizeof(e)), -EINVAL);
	assert_int_equal(o.hb_groups, 3); /* untouched by the failures */
}

/* Expect al_load_opt_set(name, arg) to fail with code and a message containing want. */
static void
opt_bad(struct al_load_opts *o, const char *name, const char *arg, int code, const char *want)
{
	char e[256] = "";
	int r = al_load_opt_set(o, name, arg, e, sizeof(e));

	if (r != code)
		fail_msg("--%s %s: got %d, expected %d (%s)", name, arg, r, code, e);
	if (!strstr(e, want))
		fail_msg("--%s %s: error '%s' does not contain '%s'", name, arg, e, want);
	assert_null(strchr(e, '\n'));
}

static void
rt_migrate_options(void **state)
{
	struct al_load_opts o;
	char e[256];

	(void)state;
	al_load_opts_init(&o);
	assert_int_equal(o.rt_period_ns, 20 * AL_NS_PER_MS);
	assert_int_equal(o.rt_run_ns, 0);
	assert_int_equal(o.rt_run_pct, 20);
	assert_int_equal(o.rt_prio, 2);

	assert_int_equal(al_load_opt_set(&o, "rt-period", "500us", e, sizeof(e)), 0);
	assert_int_equal(o.rt_period_ns, 500 * AL_NS_PER_US);
	assert_int_equal(al_load_opt_set(&o, "rt-period", "1s", e, sizeof(e)), 0);
	assert_int_equal(o.rt_period_ns, AL_NS_PER_SEC);
	assert_int_equal(al_load_opt_set(&o, "rt-run", "1.5ms", e, sizeof(e)), 0);
	assert_int_equal(o.rt_run_ns, 1500 * AL_NS_PER_US);
	assert_int_equal(o.rt_run_pct, 0);
	assert_int_equal(al_load_opt_set(&o, "rt-run", "35%", e, sizeof(e)), 0);
	assert_int_equal(o.rt_run_pct, 35);
	assert_int_equal(o.rt_run_ns, 0); /* the last one given wins */
	assert_int_equal(al_load_opt_set(&o, "rt-prio", "10", e, sizeof(e)), 0);
	assert_int_equal(o.rt_prio, 10);

	opt_bad(&o, "rt-period", "20", -EINVAL, "--rt-period: '20' is not a time with a unit");
	opt_bad(&o, "rt-period", "fast", -EINVAL, "--rt-period: 'fast'");
	opt_bad(&o, "rt-period", "50us", -ERANGE, "--rt-period: '50us' is not in 100us..1s");
	opt_bad(&o, "rt-period", "2s", -ERANGE, "--rt-period: '2s' is not in 100us..1s");
	opt_bad(&o, "rt-run", "0%", -ERANGE, "--rt-run: '0%' is not a percentage");
	opt_bad(&o, "rt-run", "100%", -ERANGE, "--rt-run: '100%'");
	opt_bad(&o, "rt-run", "%", -EINVAL, "--rt-run: '%'");
	opt_bad(&o, "rt-run", "12.5%", -EINVAL, "--rt-run: '12.5%'");
	opt_bad(&o, "rt-run", "x", -EINVAL, "--rt-run: 'x' is not a time (e.g. 4ms) or a percentage");
	opt_bad(&o, "rt-run", "4", -EINVAL, "--rt-run: '4'");
	opt_bad(&o, "rt-run", "2s", -ERANGE, "--rt-run: '2s' is not in 1us..1s");
	opt_bad(&o, "rt-prio", "0", -ERANGE, "--rt-prio: '0' is not in 1..98");
	opt_bad(&o, "rt-prio", "99", -ERANGE, "--rt-prio: '99' is not in 1..98");
	opt_bad(&o, "rt-prio", "x", -EINVAL, "--rt-prio: 'x' is not a whole number");
	opt_bad(&o, "rt-prio", NULL, -EINVAL, "--rt-prio: needs a value");
	/* untouched by the failures */
	assert_int_equal(o.rt_period_ns, AL_NS_PER_SEC);
	assert_int_equal(o.rt_run_pct, 35);
	assert_int_equal(o.rt_prio, 10);
}

/* al_load_check_opts() on rt-migrate with one load CPU (CPU 0) and the options given. */
static int
rt_check(const char *period, const char *run, const char *prio, const char *workers, char *e,
	 size_t e_size)
{
	struct al_load_opts o;

	al_load_opts_init(&o);
	assert_int_equal(al_load_opt_set(&o, "load-cpus", "0", e, e_size), 0);
	if (period)
		assert_int_equal(al_load_opt_set(&o, "rt-period", period, e, e_size), 0);
	if (run)
		assert_int_equal(al_load_opt_set(&o, "rt-run", run, e, e_size), 0);
	if (prio)
		assert_int_equal(al_load_opt_set(&o, "rt-prio", prio, e, e_size), 0);
	if (workers)
		assert_int_equal(al_load_opt_set(&o, "workers", workers, e, e_size), 0);
	e[0] = 0;
	return al_load_check_opts(&o, ph, n, e, e_size);
}

static void
rt_migrate_checks(void **state)
{
	char e[256];

	(void)state;
	parse_ok("rt-migrate:1s", 0);
	/* one load CPU: two threads by default, 2 x 20 % of the period */
	assert_int_equal(rt_check(NULL, NULL, NULL, NULL, e, sizeof(e)), 0);
	assert_int_equal(rt_check("10ms", "9ms", NULL, "1", e, sizeof(e)), 0);
	assert_int_equal(rt_check(NULL, "49%", NULL, NULL, e, sizeof(e)), 0);
	assert_int_equal(rt_check(NULL, NULL, "98", "1", e, sizeof(e)), 0);
	assert_int_equal(rt_check(NULL, NULL, "97", NULL, e, sizeof(e)), 0);

	/* the run must be shorter than the period, whichever option came first */
	assert_int_equal(rt_check("10ms", "10ms", NULL, "1", e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "--rt-run: 10ms is not shorter than --rt-period 10ms");
	assert_int_equal(rt_check("1ms", "1500us", NULL, "1", e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "--rt-run: 1500us is not shorter than --rt-period 1ms");
	/* the highest thread's priority */
	assert_int_equal(rt_check(NULL, "10%", "98", "3", e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "--rt-prio: 3 threads from priority 98 go past 99 (lower --rt-prio or --workers)");
	assert_int_equal(rt_check(NULL, "1%", "60", "41", e, sizeof(e)), -EINVAL);
	assert_non_null(strstr(e, "--rt-prio: 41 threads from priority 60"));
	/* the threads together must leave the load CPUs time */
	assert_int_equal(rt_check(NULL, "50%", NULL, NULL, e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "--rt-run: 2 threads x 10ms every 20ms leave the 1 load CPU no time for other tasks (lower --rt-run or --workers)");
	assert_int_equal(rt_check("1ms", "300us", NULL, "4", e, sizeof(e)), -EINVAL);
	assert_non_null(strstr(e, "--rt-run: 4 threads x 300us every 1ms"));

	/* a spec without rt-migrate does not look at its options */
	parse_ok("cpu:1s", 0);
	assert_int_equal(rt_check("10ms", "10ms", "98", "4", e, sizeof(e)), 0);
}

static void
check_opts(void **state)
{
	struct al_load_opts o;
	char e[256];

	(void)state;
	al_load_opts_init(&o);
	parse_ok("disk-write:1s", 0);
	snprintf(o.dir, sizeof(o.dir), "/nonexistent/audiolat");
	assert_int_equal(al_load_check_opts(&o, ph, n, e, sizeof(e)), -ENOENT);
	assert_non_null(strstr(e, "--load-dir: /nonexistent/audiolat"));
	snprintf(o.dir, sizeof(o.dir), "/dev/null");
	assert_int_equal(al_load_check_opts(&o, ph, n, e, sizeof(e)), -ENOTDIR);
	/* no disk load: the directory does not matter */
	parse_ok("cpu:1s", 0);
	assert_int_equal(al_load_check_opts(&o, ph, n, e, sizeof(e)), 0);
	/* a directory we can write */
	snprintf(o.dir, sizeof(o.dir), "%s", P_tmpdir);
	parse_ok("disk-read:1s", 0);
	assert_int_equal(al_load_check_opts(&o, ph, n, e, sizeof(e)), 0);

	/* CPUs that do not exist */
	assert_int_equal(al_load_parse_cpus("1000", &o), 0);
	assert_int_equal(al_load_check_opts(&o, NULL, 0, e, sizeof(e)), -EINVAL);
	assert_non_null(strstr(e, "--load-cpus: CPU 1000"));

	/* too many hackbench tasks */
	al_load_opts_init(&o);
	o.hb_groups = 1000;
	o.hb_fds = 1000;
	parse_ok("hackbench:1s", 0);
	assert_int_equal(al_load_check_opts(&o, ph, n, e, sizeof(e)), -EINVAL);
	assert_non_null(strstr(e, "hackbench"));
}

static void
descriptions(void **state)
{
	struct al_load_opts o;
	char d[AL_LOAD_DESC_MAX];

	(void)state;
	al_load_opts_init(&o);
	parse_ok("hackbench:1s,cmd:'make -j4':1s", 0);
	al_load_describe(&ph[0].loads[0], &o, d, sizeof(d));
	assert_string_equal(d, "hackbench groups=10 fds=20 loops=100 datasize=100 mode=process ipc=socket");
	al_load_describe_sched(&o, d, sizeof(d));
	assert_string_equal(d, "policy=other nice=0 cpus=all");
	al_load_describe(&ph[1].loads[0], &o, d, sizeof(d));
	assert_string_equal(d, "cmd command='make -j4'");

	parse_ok("rt-migrate:1s", 0);
	assert_int_equal(al_load_parse_cpus("0", &o), 0);
	al_load_describe(&ph[0].loads[0], &o, d, sizeof(d));
	assert_string_equal(d, "rt-migrate threads=2 prio=fifo:2..3 period_ns=20000000 run_ns=4000000");
	o.workers = 4;
	o.rt_prio = 10;
	o.rt_period_ns = 10 * AL_NS_PER_MS;
	o.rt_run_ns = 1500 * AL_NS_PER_US;
	al_load_describe(&ph[0].loads[0], &o, d, sizeof(d));
	assert_string_equal(d, "rt-migrate threads=4 prio=fifo:10..13 period_ns=10000000 run_ns=1500000");
	al_load_opts_init(&o);
	assert_int_equal(al_load_parse_policy("fifo:20", &o), 0);
	assert_int_equal(al_load_parse_cpus("0-1", &o), 0);
	o.nice = 5;
	al_load_describe_sched(&o, d, sizeof(d));
	assert_string_equal(d, "policy=fifo:20 nice=5 cpus=0-1");
}

/* Registry conformance: every load has a name, a summary and a worker (idle none). */
static void
registry(void **state)
{
	const struct al_load_ops *ops;
	size_t i;

	(void)state;
	for (i = 0; (ops = al_load_get(i)); i++) {
		assert_non_null(al_load_name(ops));
		assert_true(strlen(al_load_name(ops)) <= 12); /* "al-" + name fits comm */
		assert_non_null(al_load_summary(ops));
		assert_ptr_equal(al_load_find(al_load_name(ops)), ops);
		if (strcmp(al_load_name(ops), "idle") && strcmp(al_load_name(ops), "cmd"))
			assert_true(strlen(al_load_metric_names(ops)) > 0);
	}
	assert_int_equal(i, 11);
	assert_null(al_load_find("nosuch"));
	/* rt-migrate: after fork, before cmd, with its options and figures */
	ops = al_load_find("rt-migrate");
	assert_non_null(ops);
	assert_ptr_equal(al_load_get(9), ops);
	assert_string_equal(al_load_option_names(ops), "workers rt-period rt-run rt-prio");
	assert_string_equal(al_load_metric_names(ops),
			    "periods_per_s migrations missed_periods prio_inversions top_wake_max_ns");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(phases_in_order_with_times, teardown),
		cmocka_unit_test_teardown(units_and_bare_seconds, teardown),
		cmocka_unit_test_teardown(untimed_phases_share_the_total, teardown),
		cmocka_unit_test_teardown(plus_combines_loads, teardown),
		cmocka_unit_test_teardown(cmd_commands, teardown),
		cmocka_unit_test_teardown(presets, teardown),
		cmocka_unit_test_teardown(bad_specs, teardown),
		cmocka_unit_test_teardown(too_many_phases, teardown),
		cmocka_unit_test(policies),
		cmocka_unit_test(cpu_lists),
		cmocka_unit_test(option_setter),
		cmocka_unit_test(rt_migrate_options),
		cmocka_unit_test_teardown(rt_migrate_checks, teardown),
		cmocka_unit_test_teardown(check_opts, teardown),
		cmocka_unit_test_teardown(descriptions, teardown),
		cmocka_unit_test(registry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
