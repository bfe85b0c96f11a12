/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The load library's lifecycle: every load starts, does measurable work
 * and stops leaving no file; failures are reported. Short phases, tiny
 * sizes: a second or two in all.
 */
#include <dirent.h>
#include <math.h>
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/clock.h"
#include "load/load.h"
#include "phase-metric.h"

static char dir[200];

static int
setup_dir(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(dir, sizeof(dir), "%s/audiolat-load-test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown_dir(void **state)
{
	(void)state;
	return rmdir(dir); /* fails if a file was left behind */
}

static int
entries(const char *path)
{
	struct dirent *de;
	int k = 0;
	DIR *d = opendir(path);

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			k++;
	closedir(d);
	return k;
}

static void
opts_small(struct al_load_opts *o)
{
	char e[256];

	al_load_opts_init(o);
	snprintf(o->dir, sizeof(o->dir), "%s", dir);
	assert_int_equal(al_load_opt_set(o, "file-size", "1M", e, sizeof(e)), 0);
	assert_int_equal(al_load_opt_set(o, "mem-size", "8M", e, sizeof(e)), 0);
	assert_int_equal(al_load_opt_set(o, "workers", "1", e, sizeof(e)), 0);
	o->hb_groups = 1;
	o->hb_fds = 2;
	o->hb_loops = 10;
}

static void
sleep_ns(int64_t t_ns)
{
	struct timespec ts = al_ns_to_timespec(t_ns);

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Run spec for t_ns with polls; returns the stop code; ph filled. */
static int
run_phase(const char *spec, const struct al_load_opts *o, int64_t t_ns, struct al_phase *ph,
	  int *poll_rc)
{
	struct al_phase_spec *phases;
	struct al_load_set *set;
	char err[256];
	size_t n;
	int64_t end_ns;
	int r;

	memset(ph, 0, sizeof(*ph));
	assert_int_equal(al_load_spec_parse(spec, 0, &phases, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(al_load_check_opts(o, phases, n, err, sizeof(err)), 0);
	r = al_load_phase_start(&phases[0], o, &set, err, sizeof(err));
	if (r)
		fail_msg("%s: start: %s", spec, err);
	*poll_rc = 0;
	end_ns = al_clock_now_ns() + t_ns;
	while (al_clock_now_ns() < end_ns) {
		r = al_load_phase_poll(set, err, sizeof(err));
		if (r) {
			*poll_rc = r;
			break;
		}
		sleep_ns(20 * AL_NS_PER_MS);
	}
	r = al_load_phase_stop(set, ph);
	al_load_spec_free(phases);
	return r;
}

/* A counter's value: a whole number, not negative. */
static bool
is_count(double v)
{
	return v >= 0 && v == (double)(long long)v;
}

static void
each_load_works(void **state)
{
	static const struct {
		const char *name, *metric;
	} loads[] = {
		{ "cpu", "loops_per_s" },	 { "mem", "bytes_per_s" },
		{ "hackbench", "messages_per_s" }, { "disk-write", "bytes_per_s" },
		{ "disk-copy", "bytes_per_s" },	 { "disk-read", "bytes_per_s" },
		{ "procfs", "reads_per_s" },	 { "fork", "forks_per_s" },
	};
	struct al_load_opts o;
	struct al_phase ph;
	size_t i;
	int pr;

	(void)state;
	opts_small(&o);
	for (i = 0; i < sizeof(loads) / sizeof(loads[0]); i++) {
		assert_int_equal(run_phase(loads[i].name, &o, 300 * AL_NS_PER_MS, &ph, &pr), 0);
		assert_int_equal(pr, 0);
		assert_string_equal(ph.error, "");
		if (strncmp(ph.load, loads[i].name, strlen(loads[i].name)))
			fail_msg("load '%s' for %s", ph.load, loads[i].name);
		assert_non_null(strstr(ph.load, "policy=other nice=0 cpus=all"));
		if (!(metric(&ph, loads[i].metric) > 0))
			fail_msg("%s: %s = %f", loads[i].name, loads[i].metric,
				 metric(&ph, loads[i].metric));
		assert_int_equal(entries(dir), 0);
	}
	assert_true(metric(&ph, "forks_per_s") > 0);
}

static void
idle_and_combined(void **state)
{
	struct al_load_opts o;
	struct al_phase ph;
	int pr;

	(void)state;
	opts_small(&o);
	assert_int_equal(run_phase("idle", &o, 50 * AL_NS_PER_MS, &ph, &pr), 0);
	assert_string_equal(ph.load, "none");
	assert_int_equal(ph.n_throughput, 0);

	assert_int_equal(run_phase("cpu+disk-write", &o, 300 * AL_NS_PER_MS, &ph, &pr), 0);
	assert_string_equal(ph.error, "");
	assert_non_null(strstr(ph.load, "cpu workers=1 + disk-write file_size_bytes=1048576"));
	assert_true(metric(&ph, "cpu.loops_per_s") > 0);
	assert_true(metric(&ph, "disk-write.bytes_per_s") > 0);
	assert_int_equal(entries(dir), 0);
}

static void
hackbench_runs_end_the_phase(void **state)
{
	struct al_load_opts o;
	struct al_phase ph;
	int pr;

	(void)state;
	opts_small(&o);
	o.hb_runs = 3;
	assert_int_equal(run_phase("hackbench", &o, 10 * AL_NS_PER_SEC, &ph, &pr), 0);
	assert_int_equal(pr, 1);
	assert_string_equal(ph.error, "");
	assert_true(metric(&ph, "runs") == 3);
	assert_true(metric(&ph, "s_per_run") > 0);
	assert_non_null(strstr(ph.load, "groups=1 fds=2 loops=10 datasize=100 mode=process ipc=socket"));

	o.hb_threads = true;
	o.hb_pipe = true;
	assert_int_equal(run_phase("hackbench", &o, 10 * AL_NS_PER_SEC, &ph, &pr), 0);
	assert_int_equal(pr, 1);
	assert_true(metric(&ph, "runs") == 3);
	assert_non_null(strstr(ph.load, "mode=thread ipc=pipe"));
}

/*
 * A phase that ends before hackbench's first run does: its rates are over
 * the completed runs' time, none, so not measured (NAN: null in the
 * documents), never 0; the count of runs is measured, 0.
 */
static void
hackbench_without_a_run_is_not_measured(void **state)
{
	struct al_load_opts o;
	struct al_phase ph;
	int pr;

	(void)state;
	opts_small(&o);
	o.hb_loops = 100000000;
	assert_int_equal(run_phase("hackbench", &o, 300 * AL_NS_PER_MS, &ph, &pr), 0);
	assert_string_equal(ph.error, "");
	assert_true(metric(&ph, "runs") == 0);
	assert_true(isnan(metric(&ph, "messages_per_s")));
	assert_true(isnan(metric(&ph, "s_per_run")));
}

/* May a process of ours run SCHED_FIFO at prio? (tried in a child) */
static bool
fifo_permitted(int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	pid_t pid = fork();
	int st;

	if (pid == 0)
		_exit(sched_setscheduler(0, SCHED_FIFO, &sp) ? 1 : 0);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return false;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void
rt_migrate_runs(void **state)
{
	struct al_load_opts o;
	struct al_phase ph;
	char e[256];
	int pr;

	(void)state;
	if (!fifo_permitted(4))
		skip(); /* not root, no CAP_SYS_NICE, no rtprio limit */
	opts_small(&o);
	o.workers = 3;
	/* --load-policy is for the waiting process; the threads stay SCHED_FIFO 2..4 */
	assert_int_equal(al_load_opt_set(&o, "load-policy", "batch", e, sizeof(e)), 0);
	assert_int_equal(run_phase("rt-migrate", &o, 300 * AL_NS_PER_MS, &ph, &pr), 0);
	assert_int_equal(pr, 0);
	assert_string_equal(ph.error, "");
	assert_string_equal(ph.load, "rt-migrate threads=3 prio=fifo:2..4 period_ns=20000000 "
				     "run_ns=4000000 policy=batch nice=0 cpus=all");
	assert_int_equal(ph.n_throughput, 5);
	assert_true(metric(&ph, "periods_per_s") > 0);
	/* what the kernel did on 2 CPUs: counts, so whole numbers (0 is fine) */
	assert_true(is_count(metric(&ph, "migrations")));
	assert_true(is_count(metric(&ph, "missed_periods")));
	assert_true(is_count(metric(&ph, "prio_inversions")));
	assert_true(metric(&ph, "top_wake_max_ns") > 0);

	/*
	 * Pinned to one CPU (--load-cpus 0, which the threads inherit): no thread
	 * can change CPU, and there the highest priority always runs first, so a
	 * lower thread never starts before a higher one: none of either, exactly.
	 */
	assert_int_equal(al_load_opt_set(&o, "load-cpus", "0", e, sizeof(e)), 0);
	assert_int_equal(run_phase("rt-migrate", &o, 300 * AL_NS_PER_MS, &ph, &pr), 0);
	assert_string_equal(ph.error, "");
	assert_true(metric(&ph, "periods_per_s") > 0);
	assert_true(metric(&ph, "migrations") == 0);
	assert_true(metric(&ph, "prio_inversions") == 0);
	assert_true(is_count(metric(&ph, "missed_periods")));
	assert_int_equal(al_load_opt_set(&o, "load-cpus", "all", e, sizeof(e)), 0);

	/* with hackbench: both loads' figures, named by load, all 8 kept */
	o.hb_groups = 1;
	assert_int_equal(run_phase("hackbench+rt-migrate", &o, 300 * AL_NS_PER_MS, &ph, &pr), 0);
	assert_string_equal(ph.error, "");
	assert_int_equal(ph.n_throughput, 8);
	assert_true(metric(&ph, "hackbench.messages_per_s") > 0);
	assert_true(metric(&ph, "rt-migrate.periods_per_s") > 0);
	assert_true(metric(&ph, "rt-migrate.top_wake_max_ns") > 0);
}

static void
cmd_is_restarted(void **state)
{
	struct al_load_opts o;
	struct al_phase ph;
	int pr;

	(void)state;
	opts_small(&o);
	assert_int_equal(run_phase("cmd:true", &o, 450 * AL_NS_PER_MS, &ph, &pr), 0);
	assert_string_equal(ph.error, "");
	assert_string_equal(ph.load, "cmd command='true' policy=other nice=0 cpus=all");
	/* at most 10 starts a second: 0.45 s gives 4 or 5 starts */
	assert_true(metric(&ph, "restarts") >= 2);
	assert_true(metric(&ph, "failed_runs") == 0);
	assert_int_equal(run_phase("cmd:false", &o, 250 * AL_NS_PER_MS, &ph, &pr), 0);
	assert_true(metric(&ph, "failed_runs") >= 1);
}

static void
failures_are_reported(void **state)
{
	struct al_load_opts o;
	struct al_phase ph;
	int pr;

	(void)state;
	opts_small(&o);
	/* a command that cannot run: poll says so, stop fills the error */
	assert_int_equal(run_phase("cmd:/nonexistent/audiolat-cmd 2>/dev/null", &o,
				   3 * AL_NS_PER_SEC, &ph, &pr),
			 -EIO);
	assert_true(pr < 0);
	assert_non_null(strstr(ph.error, "cmd: '/nonexistent/audiolat-cmd 2>/dev/null' could not be run"));

	/* a cmd that kills its own worker (the parent of sh) */
	assert_int_equal(run_phase("cmd:'kill -9 $PPID; sleep 1'", &o, 3 * AL_NS_PER_SEC, &ph, &pr),
			 -EIO);
	assert_true(pr < 0);
	assert_non_null(strstr(ph.error, "cmd: worker"));
	assert_non_null(strstr(ph.error, "killed by signal 9"));
}

static void
kill_all_is_a_clean_stop(void **state)
{
	struct al_phase_spec *phases;
	struct al_load_set *set;
	struct al_load_opts o;
	struct al_phase ph;
	char err[256];
	size_t n;

	(void)state;
	opts_small(&o);
	memset(&ph, 0, sizeof(ph));
	assert_int_equal(al_load_spec_parse("fork+disk-read", 0, &phases, &n, err, sizeof(err)), 0);
	assert_int_equal(al_load_phase_start(&phases[0], &o, &set, err, sizeof(err)), 0);
	sleep_ns(100 * AL_NS_PER_MS);
	al_load_kill_all();
	sleep_ns(50 * AL_NS_PER_MS);
	assert_int_equal(al_load_phase_poll(set, err, sizeof(err)), 0);
	assert_int_equal(al_load_phase_stop(set, &ph), 0);
	assert_string_equal(ph.error, "");
	assert_int_equal(entries(dir), 0);
	al_load_spec_free(phases);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_load_works),
		cmocka_unit_test(idle_and_combined),
		cmocka_unit_test(hackbench_runs_end_the_phase),
		cmocka_unit_test(hackbench_without_a_run_is_not_measured),
		cmocka_unit_test(rt_migrate_runs),
		cmocka_unit_test(cmd_is_restarted),
		cmocka_unit_test(failures_are_reported),
		cmocka_unit_test(kill_all_is_a_clean_stop),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
