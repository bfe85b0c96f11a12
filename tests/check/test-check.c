/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat check, driven through fixture trees built in a temporary
 * directory: ok, warn, fail and skip for every check, missing and garbage
 * files, and the live system (only that nothing crashes and SCHED_FIFO is
 * not left behind).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "check/check.h"

static const char *const all_ids[] = {
	"rtprio",      "memlock",       "audio_group", "sched_fifo",  "preempt",
	"hrtimers",    "nohz",          "threadirqs",  "governor",    "smt",
	"cstates",     "dma_latency",   "rt_throttling", "swappiness", "irqbalance",
	"irq_threads", "shared_irqs",   "usb_autosuspend", "timer_migration", "noatime",
	"mitigations", "clocksource",   "audio_servers", "kernel_tracing",
};
#define N_IDS ((int)(sizeof(all_ids) / sizeof(all_ids[0])))

static char root[512];
static struct al_syscheck results[AL_SYSCHECKS_MAX];
static int n_results;
static int fifo_max = -1; /* the fake SCHED_FIFO works up to this; -1: no fake */

/* --- fixture trees --- */

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
rm_root(void)
{
	if (root[0])
		nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void
new_root(void)
{
	rm_root();
	snprintf(root, sizeof(root), "%s/audiolat-check.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(root));
	fifo_max = -1;
}

static void
mkdirs_for(const char *full)
{
	char buf[PATH_MAX];
	char *p;

	snprintf(buf, sizeof(buf), "%s", full);
	for (p = buf + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
}

/* Write root/path (path starts with '/'); parent directories are created. */
static void
fx_raw(const char *path, const void *data, size_t len)
{
	char full[PATH_MAX];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	mkdirs_for(full);
	f = fopen(full, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void
fx(const char *path, const char *text)
{
	fx_raw(path, text, strlen(text));
}

__attribute__((format(printf, 2, 3))) static void
fxf(const char *text, const char *path_fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;

	va_start(ap, path_fmt);
	vsnprintf(path, sizeof(path), path_fmt, ap);
	va_end(ap);
	fx(path, text);
}

static void
fx_dir(const char *path)
{
	char full[PATH_MAX];

	snprintf(full, sizeof(full), "%s%s/x", root, path);
	mkdirs_for(full);
}

static void
fx_limits(const char *rtprio_soft, const char *rtprio_hard, const char *memlock_soft,
	  const char *memlock_hard)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "Limit                     Soft Limit           Hard Limit           Units     \n"
		 "Max cpu time              unlimited            unlimited            seconds   \n"
		 "Max locked memory         %-20s %-20s bytes     \n"
		 "Max realtime priority     %-20s %-20s \n"
		 "Max realtime timeout      unlimited            unlimited            us        \n",
		 memlock_soft, memlock_hard, rtprio_soft, rtprio_hard);
	fx("/proc/self/limits", buf);
}

static void
fx_status(long uid, long gid, const char *groups, const char *cap_eff)
{
	char buf[512];

	snprintf(buf, sizeof(buf),
		 "Name:\taudiolat\nUmask:\t0022\nState:\tR (running)\n"
		 "Uid:\t%ld\t%ld\t%ld\t%ld\nGid:\t%ld\t%ld\t%ld\t%ld\nGroups:\t%s\n"
		 "CapInh:\t0000000000000000\nCapPrm:\t%s\nCapEff:\t%s\n",
		 uid, uid, uid, uid, gid, gid, gid, gid, groups, cap_eff, cap_eff);
	fx("/proc/self/status", buf);
}

/* A process (or thread, when tid > 0) with comm, policy and rt_priority in its stat. */
static void
fx_task(long pid, long tid, const char *comm, int policy, int rt_priority)
{
	char stat[1024], path[128];
	size_t len;
	int field;

	len = (size_t)snprintf(stat, sizeof(stat), "%ld (%s) S", tid > 0 ? tid : pid, comm);
	for (field = 4; field <= 52; field++)
		len += (size_t)snprintf(stat + len, sizeof(stat) - len, " %d",
					field == 40 ? rt_priority : field == 41 ? policy : 0);
	snprintf(stat + len, sizeof(stat) - len, "\n");
	if (tid > 0) {
		snprintf(path, sizeof(path), "/proc/%ld/task/%ld/stat", pid, tid);
		fx(path, stat);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fx(path, stat);
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	snprintf(stat, sizeof(stat), "%s\n", comm);
	fx(path, stat);
}

/* --- running the checks --- */

static int
fake_fifo(int prio)
{
	return prio <= fifo_max ? 0 : -EPERM;
}

/* Properties every result of every run must have. */
static void
check_invariants(void)
{
	int i, j;

	assert_int_equal(n_results, N_IDS);
	for (i = 0; i < N_IDS; i++) {
		const struct al_syscheck *r = &results[i];
		const char *s = r->status;
		const unsigned char *p;

		for (j = 0; j < n_results; j++)
			if (!strcmp(results[j].id, all_ids[i]))
				break;
		if (j == n_results)
			fail_msg("no result for check '%s'", all_ids[i]);
		if (strcmp(s, "ok") && strcmp(s, "warn") && strcmp(s, "fail") && strcmp(s, "skip"))
			fail_msg("%s: bad status '%s'", r->id, s);
		if (!r->message[0])
			fail_msg("%s: empty message", r->id);
		if ((!strcmp(s, "warn") || !strcmp(s, "fail")) && !r->fix[0])
			fail_msg("%s: %s without a fix: %s", r->id, s, r->message);
		if ((!strcmp(s, "ok") || !strcmp(s, "skip")) && r->fix[0])
			fail_msg("%s: %s with a fix: %s", r->id, s, r->fix);
		for (p = (const unsigned char *)r->message; *p; p++)
			if (*p < 0x20 || *p > 0x7e)
				fail_msg("%s: message byte 0x%02x is not printable ASCII", r->id, *p);
		for (p = (const unsigned char *)r->fix; *p; p++)
			if (*p < 0x20 || *p > 0x7e)
				fail_msg("%s: fix byte 0x%02x is not printable ASCII", r->id, *p);
	}
}

static const struct al_syscheck *
run(const char *id)
{
	struct al_check_opts o = { .root = root, .try_fifo = fifo_max >= 0 ? fake_fifo : NULL };
	int i;

	memset(results, 0x5a, sizeof(results));
	n_results = al_check_run(&o, results, AL_SYSCHECKS_MAX);
	if (n_results < 0)
		fail_msg("al_check_run: %s", strerror(-n_results));
	check_invariants();
	for (i = 0; i < n_results; i++)
		if (!strcmp(results[i].id, id))
			return &results[i];
	fail_msg("no check '%s'", id);
	return NULL;
}

#define expect(id, status) expect_at(id, status, __LINE__)

static const struct al_syscheck *
expect_at(const char *id, const char *status, int line)
{
	const struct al_syscheck *r = run(id);

	if (strcmp(r->status, status))
		fail_msg("line %d: %s: expected %s, got %s: %s", line, id, status, r->status,
			 r->message);
	return r;
}

#define expect_text(haystack, needle)                                                           \
	do {                                                                                    \
		if (!strstr((haystack), (needle)))                                              \
			fail_msg("'%s' not in '%s'", (needle), (haystack));                     \
	} while (0)

/* --- the tests --- */

static int
setup(void **state)
{
	(void)state;
	root[0] = '\0';
	new_root();
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	rm_root();
	root[0] = '\0';
	return 0;
}

static void
test_api(void **state)
{
	struct al_check_opts o = { .root = root };
	struct al_syscheck small[4];
	char file[PATH_MAX];

	(void)state;
	assert_int_equal(al_check_run(&o, small, 4), -ENOSPC);
	assert_int_equal(al_check_run(&o, NULL, AL_SYSCHECKS_MAX), -ENOSPC);
	fx("/file", "x");
	snprintf(file, sizeof(file), "%s/file", root);
	o.root = file;
	assert_int_equal(al_check_run(&o, results, AL_SYSCHECKS_MAX), -ENOTDIR);
	snprintf(file, sizeof(file), "%s/missing", root);
	assert_int_equal(al_check_run(&o, results, AL_SYSCHECKS_MAX), -ENOENT);
}

static void
test_empty_root(void **state)
{
	struct al_check_tally t;
	int i;

	(void)state;
	run("rtprio");
	for (i = 0; i < n_results; i++)
		if (strcmp(results[i].status, "skip"))
			fail_msg("%s: %s on an empty root: %s", results[i].id, results[i].status,
				 results[i].message);
	al_check_tally(results, n_results, &t);
	assert_int_equal(t.skip, N_IDS);
	assert_int_equal(t.ok + t.warn + t.fail, 0);
	/* a trailing slash and a relative-looking path are the same tree */
	strcat(root, "/");
	run("rtprio");
	root[strlen(root) - 1] = '\0';
}

static void
test_tally(void **state)
{
	struct al_syscheck c[5] = {
		{ .status = "ok" }, { .status = "warn" }, { .status = "fail" },
		{ .status = "skip" }, { .status = "bogus" },
	};
	struct al_check_tally t;

	(void)state;
	al_check_tally(c, 5, &t);
	assert_int_equal(t.ok, 1);
	assert_int_equal(t.warn, 1);
	assert_int_equal(t.fail, 1);
	assert_int_equal(t.skip, 2);
}

static void
test_rtprio(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	fx_status(1000, 1000, "29", "0000000000000000");
	fx_limits("95", "95", "unlimited", "unlimited");
	r = expect("rtprio", "ok");
	expect_text(r->message, "95");
	fx_limits("unlimited", "unlimited", "unlimited", "unlimited");
	expect("rtprio", "ok");
	fx_limits("0", "99", "unlimited", "unlimited");
	r = expect("rtprio", "ok");
	expect_text(r->message, "soft 0");
	fx_limits("75", "75", "unlimited", "unlimited"); /* the floor itself is enough */
	r = expect("rtprio", "ok");
	expect_text(r->message, "75");
	fx_limits("74", "74", "unlimited", "unlimited");
	expect("rtprio", "warn");
	fx_limits("50", "50", "unlimited", "unlimited");
	r = expect("rtprio", "warn");
	expect_text(r->fix, "rtprio 95");
	fx_limits("0", "0", "unlimited", "unlimited");
	expect("rtprio", "fail");
	/* CAP_SYS_NICE (bit 23) makes the limit moot */
	fx_status(0, 0, "0", "0000000000800000");
	r = expect("rtprio", "ok");
	expect_text(r->message, "CAP_SYS_NICE");
	/* garbage values and a missing line */
	fx("/proc/self/limits", "Max realtime priority     lots                 many\n");
	expect("rtprio", "skip");
	fx("/proc/self/limits", "Max cpu time   unlimited   unlimited   seconds\n");
	r = expect("rtprio", "skip");
	expect_text(r->message, "Max realtime priority");
	new_root();
	r = expect("rtprio", "skip");
	expect_text(r->message, "/proc/self/limits");
}

static void
test_memlock(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	fx_status(1000, 1000, "29", "0000000000000000");
	fx_limits("95", "95", "unlimited", "unlimited");
	expect("memlock", "ok");
	fx_limits("95", "95", "4294967296", "4294967296");
	r = expect("memlock", "ok");
	expect_text(r->message, "4 GiB");
	fx_limits("95", "95", "1073741824", "1073741824"); /* exactly 1 GiB is enough */
	r = expect("memlock", "ok");
	expect_text(r->message, "1 GiB");
	fx_limits("95", "95", "1073741823", "1073741823");
	expect("memlock", "warn");
	fx_limits("95", "95", "8388608", "8388608");
	r = expect("memlock", "warn");
	expect_text(r->message, "8 MiB");
	expect_text(r->fix, "memlock unlimited");
	fx_status(1000, 1000, "29", "0000000000004000"); /* CAP_IPC_LOCK */
	expect("memlock", "ok");
	fx("/proc/self/limits", "Max locked memory  -5  x\n");
	expect("memlock", "skip");
}

static void
test_audio_group(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	fx("/etc/passwd", "root:x:0:0:root:/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/sh\n");
	fx("/etc/group", "root:x:0:\naudio:x:29:alice\nusers:x:100:\n");
	fx_status(1000, 1000, "29 100", "0000000000000000");
	r = expect("audio_group", "ok");
	expect_text(r->message, "gid 29");
	/* listed in /etc/group, but the session predates it */
	fx_status(1000, 1000, "100", "0000000000000000");
	r = expect("audio_group", "warn");
	expect_text(r->fix, "log out");
	/* not listed at all */
	fx("/etc/group", "root:x:0:\naudio:x:29:bob\n");
	r = expect("audio_group", "warn");
	expect_text(r->fix, "usermod -aG audio alice");
	/* no audio group */
	fx("/etc/group", "root:x:0:\n");
	r = expect("audio_group", "warn");
	expect_text(r->fix, "groupadd");
	/* garbage group lines are ignored */
	fx("/etc/group", "audio\naudio:x\naudio:x:abc:\n");
	expect("audio_group", "warn");
	fx_status(0, 0, "0", "000001ffffffffff");
	expect("audio_group", "skip");
	new_root();
	expect("audio_group", "skip");
}

static void
test_sched_fifo(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	fx_status(1000, 1000, "29", "0000000000000000");
	r = expect("sched_fifo", "skip"); /* no fake and not the live system */
	expect_text(r->message, "--root");
	fifo_max = 99;
	expect("sched_fifo", "ok");
	fifo_max = 40;
	r = expect("sched_fifo", "warn");
	expect_text(r->message, "80");
	fifo_max = 0;
	r = expect("sched_fifo", "fail");
	expect_text(r->fix, "rtprio");
	fx_status(0, 0, "0", "000001ffffffffff");
	fifo_max = 0;
	r = expect("sched_fifo", "fail");
	expect_text(r->message, "cgroup");
}

static void
test_live_system(void **state)
{
	struct al_check_opts o = { .root = "/" };
	struct sched_param before, after;
	int policy_before, policy_after, i;

	(void)state;
	assert_int_equal(pthread_getschedparam(pthread_self(), &policy_before, &before), 0);
	n_results = al_check_run(&o, results, AL_SYSCHECKS_MAX);
	assert_int_equal(n_results, N_IDS);
	check_invariants();
	assert_int_equal(pthread_getschedparam(pthread_self(), &policy_after, &after), 0);
	assert_int_equal(policy_after, policy_before);
	assert_int_equal(after.sched_priority, before.sched_priority);
	assert_int_equal(sched_getscheduler(0), policy_before);
	for (i = 0; i < n_results; i++) {
		print_message("# live: %-15s %-4s %s\n", results[i].id, results[i].status,
			      results[i].message);
		/* tried for real, and the live clock always tells */
		if (!strcmp(results[i].id, "sched_fifo") || !strcmp(results[i].id, "hrtimers"))
			assert_string_not_equal(results[i].status, "skip");
	}
}

static void
test_preempt(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	fx("/sys/kernel/realtime", "1\n");
	r = expect("preempt", "ok");
	expect_text(r->message, "PREEMPT_RT");
	new_root();
	fx("/proc/sys/kernel/version", "#1 SMP PREEMPT_RT Thu Jan 1 00:00:00 UTC 2025\n");
	expect("preempt", "ok");
	/* debugfs: the bracketed mode */
	new_root();
	fx("/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC\n");
	fx("/sys/kernel/debug/sched/preempt", "none voluntary (full) lazy\n");
	r = expect("preempt", "ok");
	expect_text(r->message, "not PREEMPT_RT");
	fx("/sys/kernel/debug/sched/preempt", "none (voluntary) full lazy\n");
	r = expect("preempt", "warn");
	expect_text(r->fix, "preempt=full");
	fx("/sys/kernel/debug/sched/preempt", "(none) voluntary full lazy\n");
	expect("preempt", "fail");
	fx("/sys/kernel/debug/sched/preempt", "none voluntary full (lazy)\n");
	expect("preempt", "ok");
	/* PREEMPT_DYNAMIC without debugfs: preempt= on the command line wins */
	new_root();
	fx("/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC\n");
	r = expect("preempt", "warn");
	expect_text(r->message, "unknown");
	expect_text(r->fix, "debugfs");
	fx("/proc/cmdline", "root=/dev/sda1 preempt=full quiet\n");
	expect("preempt", "ok");
	fx("/proc/cmdline", "root=/dev/sda1 preempt=full preempt=none\n");
	expect("preempt", "fail");
	fx("/proc/cmdline", "root=/dev/sda1 -- preempt=full\n"); /* after --: for init */
	expect("preempt", "warn");
	/* ... else the boot default of the config */
	fx("/proc/cmdline", "root=/dev/sda1\n");
	fx("/proc/sys/kernel/osrelease", "6.8.0-test\n");
	fx("/boot/config-6.8.0-test",
	   "CONFIG_PREEMPT_BUILD=y\n# CONFIG_PREEMPT_NONE is not set\nCONFIG_PREEMPT_VOLUNTARY=y\n"
	   "# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_DYNAMIC=y\n");
	r = expect("preempt", "warn");
	expect_text(r->message, "boot default");
	/* the config alone: a non-dynamic server kernel */
	new_root();
	fx("/proc/sys/kernel/osrelease", "6.1.0-srv\n");
	fx("/boot/config-6.1.0-srv", "CONFIG_PREEMPT_NONE=y\n# CONFIG_PREEMPT is not set\n");
	r = expect("preempt", "fail");
	expect_text(r->fix, "PREEMPT_RT");
}

static void
fx_timer_list(int hres0, int hres1, const char *nohz_key, int nohz0, int nohz1)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "Timer List Version: v0.10\nHRTIMER_MAX_CLOCK_BASES: 8\nnow at 1 nsecs\n\n"
		 "cpu: 0\n clock 0:\n  .base:       0\n  .hres_active    : %d\n  .%s           : %d\n"
		 "  .tick_stopped   : 0\n\ncpu: 1\n  .hres_active    : %d\n  .%s           : %d\n"
		 "  .idle_jiffies   : 4294978487\n",
		 hres0, nohz_key, nohz0, hres1, nohz_key, nohz1);
	fx("/proc/timer_list", buf);
}

static void
test_hrtimers(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	fx_timer_list(1, 1, "nohz", 1, 1);
	r = expect("hrtimers", "ok");
	expect_text(r->message, "2 CPUs");
	fx_timer_list(1, 0, "nohz", 1, 1);
	expect("hrtimers", "fail");
	fx("/proc/cmdline", "highres=off\n");
	fx_timer_list(1, 1, "nohz", 1, 1);
	expect("hrtimers", "fail");
	/* no timer_list: the kernel config */
	new_root();
	fx("/proc/sys/kernel/osrelease", "6.6.1\n");
	fx("/boot/config-6.6.1", "CONFIG_HZ=1000\nCONFIG_HIGH_RES_TIMERS=y\n");
	expect("hrtimers", "ok");
	fx("/boot/config-6.6.1", "# CONFIG_HIGH_RES_TIMERS is not set\n");
	expect("hrtimers", "fail");
	fx("/proc/timer_list", "garbage\n.hres_active: x\n");
	expect("hrtimers", "fail"); /* timer_list says nothing: the config does */
	new_root();
	fx("/proc/sys/kernel/osrelease", "6.6.1\n");
	r = expect("hrtimers", "skip");
	expect_text(r->message, "/boot/config-6.6.1");
}

static void
test_nohz(void **state)
{
	(void)state;
	fx_timer_list(1, 1, "nohz", 1, 1);
	expect("nohz", "ok");
	fx_timer_list(1, 1, "nohz_mode", 2, 2);
	expect("nohz", "ok");
	fx_timer_list(1, 1, "nohz", 0, 0);
	expect("nohz", "warn");
	fx("/proc/cmdline", "nohz=off\n");
	fx_timer_list(1, 1, "nohz", 1, 1);
	expect("nohz", "warn");
	new_root();
	fx("/proc/sys/kernel/osrelease", "6.6.1\n");
	fx("/boot/config-6.6.1", "CONFIG_NO_HZ_COMMON=y\nCONFIG_NO_HZ_IDLE=y\n");
	expect("nohz", "ok");
	fx("/boot/config-6.6.1", "CONFIG_HZ_PERIODIC=y\n# CONFIG_NO_HZ_IDLE is not set\n");
	expect("nohz", "warn");
	fx("/boot/config-6.6.1", "CONFIG_NO_HZ_FULL=y\n");
	expect("nohz", "ok");
	new_root();
	expect("nohz", "skip");
	fx_dir("/sys/devices/system/cpu/nohz_full");
	expect("nohz", "ok");
}

static void
test_threadirqs(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	expect("threadirqs", "skip");
	fx("/proc/cmdline", "root=/dev/sda1 quiet threadirqs\n");
	expect("threadirqs", "ok");
	fx("/proc/cmdline", "root=/dev/sda1 quiet threadirqsx\n");
	r = expect("threadirqs", "warn");
	expect_text(r->fix, "threadirqs");
	fx("/sys/kernel/realtime", "1\n");
	r = expect("threadirqs", "ok");
	expect_text(r->message, "PREEMPT_RT");
	new_root();
	fx("/proc/cmdline", "threadirqs\n");
	fx("/proc/sys/kernel/osrelease", "6.6.1\n");
	fx("/boot/config-6.6.1", "# CONFIG_IRQ_FORCED_THREADING is not set\n");
	expect("threadirqs", "warn");
}

static void
test_governor(void **state)
{
	const struct al_syscheck *r;
	int cpu;

	(void)state;
	expect("governor", "skip");
	fx_dir("/sys/devices/system/cpu/cpu0");
	r = expect("governor", "skip");
	expect_text(r->message, "cpufreq");
	for (cpu = 0; cpu < 12; cpu++)
		fxf("performance\n", "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
	r = expect("governor", "ok");
	expect_text(r->message, "12 CPUs");
	fx("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "powersave\n");
	fx("/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "powersave\n");
	fx("/sys/devices/system/cpu/cpu10/cpufreq/scaling_governor", "schedutil\n");
	fx("/sys/devices/system/cpu/cpu11/cpufreq/scaling_governor", "powersave\n");
	r = expect("governor", "warn");
	expect_text(r->message, "4 of 12");
	expect_text(r->message, "cpu 2-3,10-11");
	expect_text(r->message, "powersave/schedutil");
	expect_text(r->fix, "cpupower frequency-set -g performance");
}

static void
test_smt(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	expect("smt", "skip");
	fx("/sys/devices/system/cpu/smt/active", "1\n");
	fx("/sys/devices/system/cpu/smt/control", "on\n");
	r = expect("smt", "warn");
	expect_text(r->fix, "echo off");
	expect_text(r->fix, "/sys/devices/system/cpu/smt/control");
	/* "0" is a string that means off, whatever its truth value (rtcqs) */
	fx("/sys/devices/system/cpu/smt/active", "0\n");
	fx("/sys/devices/system/cpu/smt/control", "off\n");
	expect("smt", "ok");
	fx("/sys/devices/system/cpu/smt/control", "forceoff\n");
	expect("smt", "ok");
	fx("/sys/devices/system/cpu/smt/control", "notsupported\n");
	expect("smt", "ok");
	new_root();
	fx("/sys/devices/system/cpu/smt/control", "on\n");
	expect("smt", "warn");
	fx("/sys/devices/system/cpu/smt/control", "maybe\n");
	expect("smt", "skip");
}

static void
fx_cstate(int cpu, int state, const char *name, const char *latency, const char *disable)
{
	fxf(name, "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu, state);
	fxf(latency, "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency", cpu, state);
	fxf(disable, "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable", cpu, state);
}

static void
test_cstates(void **state)
{
	static const struct {
		const char *latency, *status, *text;
	} at_limit[] = { { "20\n", "ok", "20 us" }, { "21\n", "warn", "1 of 2" } };
	const struct al_syscheck *r;
	int cpu, i;

	(void)state;
	expect("cstates", "skip");
	for (cpu = 0; cpu < 2; cpu++) {
		fx_cstate(cpu, 0, "POLL\n", "0\n", "0\n");
		fx_cstate(cpu, 1, "C1\n", "2\n", "0\n");
		fx_cstate(cpu, 2, "C1E\n", "10\n", "0\n");
		fx_cstate(cpu, 3, "C6\n", "170\n", "0\n");
	}
	r = expect("cstates", "warn");
	expect_text(r->message, "C6");
	expect_text(r->message, "170 us");
	expect_text(r->message, "2 of 2");
	expect_text(r->fix, "cpupower idle-set -D 20");
	fx_cstate(0, 3, "C6\n", "170\n", "1\n");
	r = expect("cstates", "warn");
	expect_text(r->message, "1 of 2");
	fx_cstate(1, 3, "C6\n", "170\n", "1\n");
	r = expect("cstates", "ok");
	expect_text(r->message, "C1E");
	/* 20 us, the limit itself, is fine; 21 us is not */
	for (i = 0; i < 2; i++) {
		fx_cstate(1, 2, "C1E\n", at_limit[i].latency, "0\n");
		r = expect("cstates", at_limit[i].status);
		expect_text(r->message, at_limit[i].text);
	}
	fx_cstate(1, 2, "C1E\n", "10\n", "0\n");
	fx_cstate(1, 3, "C6\n", "lots\n", "0\n"); /* garbage state: ignored */
	expect("cstates", "ok");
	fx("/proc/cmdline", "idle=poll\n");
	fx_cstate(1, 3, "C6\n", "170\n", "0\n");
	expect("cstates", "ok");
	new_root();
	fx_dir("/sys/devices/system/cpu/cpu0");
	expect("cstates", "skip");
	fx("/sys/devices/system/cpu/cpuidle/current_driver", "none\n");
	expect("cstates", "ok");
}

static void
test_dma_latency(void **state)
{
	const struct al_syscheck *r;
	char full[PATH_MAX];
	int32_t v = 20;

	(void)state;
	expect("dma_latency", "skip");
	snprintf(full, sizeof(full), "%s/dev/cpu_dma_latency", root);
	fx_status(4242, 4242, "4242", "0000000000000000");
	fx_raw("/dev/cpu_dma_latency", &v, sizeof(v));
	assert_int_equal(chmod(full, 0666), 0);
	r = expect("dma_latency", "ok");
	expect_text(r->message, "20 us");
	assert_int_equal(chmod(full, 0600), 0);
	r = expect("dma_latency", "warn");
	expect_text(r->fix, "cpu_dma_latency");
	expect_text(r->message, "0600");
	v = 2000000000;
	fx_raw("/dev/cpu_dma_latency", &v, sizeof(v));
	fx_status(0, 0, "0", "000001ffffffffff");
	r = expect("dma_latency", "ok");
	expect_text(r->message, "no limit");
}

static void
test_rt_throttling(void **state)
{
	(void)state;
	expect("rt_throttling", "skip");
	fx("/proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	expect("rt_throttling", "ok");
	fx("/proc/sys/kernel/sched_rt_runtime_us", "950000\n");
	expect("rt_throttling", "warn");
	fx("/proc/sys/kernel/sched_rt_period_us", "950000\n");
	expect("rt_throttling", "ok");
	fx("/proc/sys/kernel/sched_rt_runtime_us", "0\n");
	expect("rt_throttling", "fail");
	fx("/proc/sys/kernel/sched_rt_runtime_us", "95O000\n");
	expect("rt_throttling", "skip");
}

static void
test_swappiness(void **state)
{
	static const char header[] = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n";
	char buf[256];

	(void)state;
	expect("swappiness", "skip");
	fx("/proc/swaps", header);
	expect("swappiness", "ok");
	snprintf(buf, sizeof(buf), "%s/dev/sda2  partition\t8388604\t0\t-2\n", header);
	fx("/proc/swaps", buf);
	expect("swappiness", "skip"); /* no vm/swappiness */
	fx("/proc/sys/vm/swappiness", "60\n");
	expect("swappiness", "warn");
	fx("/proc/sys/vm/swappiness", "10\n");
	expect("swappiness", "ok");
}

static void
test_irqbalance(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	expect("irqbalance", "skip");
	fx_task(1, 0, "init", 0, 0);
	fx_task(77, 0, "a) b (c", 0, 0); /* parentheses and spaces in comm */
	expect("irqbalance", "ok");
	fx_task(812, 0, "irqbalance", 0, 0);
	r = expect("irqbalance", "warn");
	expect_text(r->message, "812");
	expect_text(r->fix, "systemctl disable --now irqbalance");
}

static void
test_irq_threads(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	expect("irq_threads", "skip");
	fx_task(1, 0, "init", 0, 0);
	r = expect("irq_threads", "skip");
	expect_text(r->message, "threadirqs");
	fx_task(120, 0, "irq/9-acpi", SCHED_FIFO, 50);
	fx_task(121, 0, "irq/16-ahci", SCHED_FIFO, 50);
	r = expect("irq_threads", "skip");
	expect_text(r->message, "none for sound");
	fx_task(130, 0, "irq/30-snd_hda_", SCHED_FIFO, 50);
	r = expect("irq_threads", "warn");
	expect_text(r->fix, "chrt -f -p 90 130");
	fx_task(130, 0, "irq/30-snd_hda_", SCHED_FIFO, 90);
	fx_task(131, 0, "irq/31-xhci_hcd", SCHED_FIFO, 85);
	r = expect("irq_threads", "ok");
	expect_text(r->message, "irq/30-snd_hda_ FIFO 90");
	fx_task(131, 0, "irq/31-xhci_hcd", SCHED_OTHER, 0);
	r = expect("irq_threads", "warn");
	expect_text(r->fix, "131");
	/* a stat too short to have fields 40 and 41 */
	fx("/proc/131/stat", "131 (irq/31-xhci_hcd) S 2 0\n");
	expect("irq_threads", "warn");
}

static void
test_shared_irqs(void **state)
{
	const struct al_syscheck *r;
	char *big;

	(void)state;
	expect("shared_irqs", "skip");
	fx("/proc/interrupts", "garbage without a header\n");
	expect("shared_irqs", "skip");
	fx("/proc/interrupts",
	   "           CPU0       CPU1       \n"
	   "  0:         36          0   IO-APIC   2-edge      timer\n"
	   " 16:          0        120   IO-APIC  16-fasteoi   i801_smbus, i2c_designware.0\n"
	   "126:        900          0   PCI-MSI 327680-edge      xhci_hcd\n"
	   "NMI:          0          0   Non-maskable interrupts\n");
	r = expect("shared_irqs", "ok");
	expect_text(r->message, "IRQ lines: 3");
	fx("/proc/interrupts",
	   "           CPU0       CPU1       \n"
	   " 17:          5          0   IO-APIC  17-fasteoi   snd_hda_intel:card0, ehci_hcd:usb1\n"
	   " 18:          5          0   IO-APIC  18-fasteoi   nvme0q0, xhci_hcd, eth0\n"
	   "LOC:      11171      11415   Local timer interrupts\n");
	r = expect("shared_irqs", "warn");
	expect_text(r->message, "IRQ 17: snd_hda_intel:card0+ehci_hcd:usb1");
	expect_text(r->message, "IRQ 18: nvme0q0+xhci_hcd+eth0");
	expect_text(r->fix, "IRQ 17");
	/* an over-long line (no newline at the end) is dropped, not misparsed */
	big = malloc(100001);
	assert_non_null(big);
	memset(big, '7', 100000);
	big[100000] = '\0';
	memcpy(big, "CPU0\n 4: 1 timer\n 5: 1 snd_x, ", 30);
	fx("/proc/interrupts", big);
	free(big);
	r = expect("shared_irqs", "ok");
	expect_text(r->message, "IRQ lines: 1");
}

static void
test_usb_autosuspend(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	expect("usb_autosuspend", "skip");
	fx("/sys/bus/usb/devices/1-1:1.0/bInterfaceClass", "03\n");
	fx("/sys/bus/usb/devices/1-1/power/control", "auto\n");
	r = expect("usb_autosuspend", "ok");
	expect_text(r->message, "no USB audio");
	fx("/sys/bus/usb/devices/1-2:1.0/bInterfaceClass", "01\n");
	fx("/sys/bus/usb/devices/1-2:1.1/bInterfaceClass", "01\n");
	fx("/sys/bus/usb/devices/1-2/product", "Scarlett 2i2 USB\n");
	fx("/sys/bus/usb/devices/1-2/power/control", "auto\n");
	r = expect("usb_autosuspend", "warn");
	expect_text(r->message, "1-2 (Scarlett 2i2 USB)");
	expect_text(r->fix, "echo on | sudo tee /sys/bus/usb/devices/1-2/power/control");
	fx("/sys/bus/usb/devices/1-2/power/control", "on\n");
	r = expect("usb_autosuspend", "ok");
	expect_text(r->message, "Scarlett");
}

static void
test_kernel_tracing(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	expect("kernel_tracing", "skip"); /* no tracefs to read, no config */
	fx("/proc/sys/kernel/osrelease", "6.1.0-kt\n");
	fx("/boot/config-6.1.0-kt", "CONFIG_HIST_TRIGGERS=y\nCONFIG_SYNTH_EVENTS=y\n"
				    "CONFIG_TIMERLAT_TRACER=y\nCONFIG_OSNOISE_TRACER=y\n");
	r = expect("kernel_tracing", "ok");
	expect_text(r->message, "from /boot/config");
	fx("/boot/config-6.1.0-kt", "# CONFIG_HIST_TRIGGERS is not set\nCONFIG_SYNTH_EVENTS=y\n"
				    "CONFIG_OSNOISE_TRACER=y\n");
	r = expect("kernel_tracing", "warn");
	expect_text(r->message, "lacks hist triggers, timerlat (from /boot/config)");
	expect_text(r->fix, "a kernel with CONFIG_HIST_TRIGGERS=y, CONFIG_TIMERLAT_TRACER=y");
	/* tracefs readable (root): it decides, not the config */
	fx("/sys/kernel/tracing/available_tracers", "timerlat osnoise nop\n");
	fx("/sys/kernel/tracing/events/sched/sched_switch/hist", "");
	fx("/sys/kernel/tracing/synthetic_events", "");
	r = expect("kernel_tracing", "ok");
	expect_text(r->message, "read from tracefs");
	/* a tracer's name inside another's is not it */
	fx("/sys/kernel/tracing/available_tracers", "function nop timerlatx xosnoise\n");
	r = expect("kernel_tracing", "warn");
	expect_text(r->message, "lacks timerlat, osnoise (read from tracefs)");
	fx("/proc/filesystems", "nodev\tsysfs\nnodev\tproc\n");
	r = expect("kernel_tracing", "warn");
	expect_text(r->message, "no tracefs");
}

static void
test_timer_migration(void **state)
{
	(void)state;
	expect("timer_migration", "skip");
	fx("/proc/sys/kernel/timer_migration", "1\n");
	expect("timer_migration", "warn");
	fx("/proc/sys/kernel/timer_migration", "0\n");
	expect("timer_migration", "ok");
	fx("/proc/sys/kernel/timer_migration", "\n");
	expect("timer_migration", "skip");
}

static void
test_noatime(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	expect("noatime", "skip");
	fx("/proc/mounts", "proc /proc proc rw,relatime 0 0\ntmpfs /tmp tmpfs rw 0 0\n");
	expect("noatime", "skip");
	fx("/proc/mounts", "/dev/sda1 / ext4 rw,relatime 0 0\n/dev/sda2 /home xfs rw,noatime 0 0\n"
			   "server:/x /mnt nfs rw 0 0\n");
	r = expect("noatime", "ok");
	expect_text(r->message, "filesystems (2)");
	fx("/proc/mounts", "/dev/sda1 / ext4 rw,relatime 0 0\n/dev/sda2 /home ext4 rw,nodiratime 0 0\n"
			   "broken line\n");
	r = expect("noatime", "warn");
	expect_text(r->message, "/home (ext4)");
	expect_text(r->fix, "remount,noatime /home");
}

static void
test_mitigations(void **state)
{
	const struct al_syscheck *r;
	const char *v = "/sys/devices/system/cpu/vulnerabilities";
	char path[256];

	(void)state;
	expect("mitigations", "skip");
	snprintf(path, sizeof(path), "%s/meltdown", v);
	fx(path, "Not affected\n");
	snprintf(path, sizeof(path), "%s/spectre_v1", v);
	fx(path, "Vulnerable: __user pointer sanitization and usercopy barriers only\n");
	r = expect("mitigations", "ok");
	expect_text(r->message, "2 entries");
	snprintf(path, sizeof(path), "%s/spectre_v2", v);
	fx(path, "Mitigation: Retpolines; IBPB: conditional\n");
	snprintf(path, sizeof(path), "%s/mds", v);
	fx(path, "Mitigation: Clear CPU buffers\n");
	r = expect("mitigations", "warn");
	expect_text(r->message, "2 mitigations");
	expect_text(r->message, "mds, spectre_v2");
	expect_text(r->fix, "mitigations=off");
	fx("/proc/cmdline", "quiet mitigations=off\n");
	expect("mitigations", "ok");
}

static void
test_clocksource(void **state)
{
	const struct al_syscheck *r;
	const char *cs = "/sys/devices/system/clocksource/clocksource0";
	char cur[128], avail[128];

	(void)state;
	snprintf(cur, sizeof(cur), "%s/current_clocksource", cs);
	snprintf(avail, sizeof(avail), "%s/available_clocksource", cs);
	expect("clocksource", "skip");
	fx(cur, "tsc\n");
	expect("clocksource", "ok");
	fx(cur, "arch_sys_counter\n");
	expect("clocksource", "ok");
	fx(cur, "hpet\n");
	fx(avail, "tsc hpet acpi_pm \n");
	r = expect("clocksource", "warn");
	expect_text(r->fix, "echo tsc");
	fx(avail, "hpet acpi_pm \n");
	r = expect("clocksource", "warn");
	expect_text(r->fix, "tsc=reliable");
	fx(cur, "jiffies\n");
	expect("clocksource", "fail");
	fx(cur, "");
	expect("clocksource", "skip");
}

static void
test_audio_servers(void **state)
{
	const struct al_syscheck *r;

	(void)state;
	expect("audio_servers", "skip");
	fx_task(1, 0, "init", 0, 0);
	r = expect("audio_servers", "ok");
	expect_text(r->message, "no audio server");
	/* PipeWire: the main thread is SCHED_OTHER, the data loop is FIFO 88 */
	fx_task(800, 0, "pipewire", SCHED_OTHER, 0);
	fx_task(800, 800, "pipewire", SCHED_OTHER, 0);
	fx_task(800, 805, "data-loop.0", SCHED_FIFO, 88);
	r = expect("audio_servers", "ok");
	expect_text(r->message, "pipewire (pid 800) at SCHED_FIFO 88");
	fx_task(800, 805, "data-loop.0", SCHED_OTHER, 0);
	r = expect("audio_servers", "warn");
	expect_text(r->message, "without a real-time thread");
	expect_text(r->fix, "rtkit");
	new_root();
	fx_task(900, 0, "jackd", SCHED_FIFO, 70);
	r = expect("audio_servers", "ok");
	expect_text(r->message, "jackd");
	fx_task(901, 0, "pulseaudio", SCHED_OTHER, 0);
	r = expect("audio_servers", "warn");
	expect_text(r->fix, "pulseaudio");
}

/* Garbage everywhere: binary bytes, no newlines, FIFOs. Nothing may crash or hang. */
static void
test_garbage(void **state)
{
	static const char *const files[] = {
		"/proc/self/limits", "/proc/self/status", "/etc/group", "/etc/passwd",
		"/proc/cmdline", "/proc/sys/kernel/osrelease", "/proc/sys/kernel/version",
		"/proc/timer_list", "/sys/kernel/debug/sched/preempt", "/sys/kernel/realtime",
		"/sys/devices/system/cpu/smt/active", "/sys/devices/system/cpu/smt/control",
		"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		"/sys/devices/system/cpu/cpu0/cpuidle/state0/latency",
		"/sys/devices/system/cpu/cpu0/cpuidle/state0/name",
		"/proc/sys/kernel/sched_rt_runtime_us", "/proc/swaps", "/proc/sys/vm/swappiness",
		"/proc/1/comm", "/proc/1/stat", "/proc/interrupts",
		"/sys/bus/usb/devices/1-1:1.0/bInterfaceClass", "/proc/sys/kernel/timer_migration",
		"/proc/mounts", "/sys/devices/system/cpu/vulnerabilities/x",
		"/sys/devices/system/clocksource/clocksource0/current_clocksource",
		"/dev/cpu_dma_latency",
	};
	unsigned char junk[70000];
	char full[PATH_MAX];
	size_t i, j;
	int round;

	(void)state;
	for (round = 0; round < 3; round++) {
		new_root();
		srand(round + 1);
		for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			size_t len = round == 0 ? 3 : round == 1 ? 200 : sizeof(junk);

			for (j = 0; j < len; j++)
				junk[j] = (unsigned char)(round == 1 ? 'A' + rand() % 60 : rand());
			fx_raw(files[i], junk, len);
		}
		run("rtprio");
	}
	/* FIFOs must not block: they are not regular files */
	new_root();
	alarm(20);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(full, sizeof(full), "%s%s", root, files[i]);
		mkdirs_for(full);
		assert_int_equal(mkfifo(full, 0666), 0);
	}
	run("rtprio");
	alarm(0);
	for (i = 0; i < (size_t)n_results; i++)
		if (strcmp(results[i].id, "usb_autosuspend") && strcmp(results[i].id, "governor") &&
		    strcmp(results[i].id, "cstates") && strcmp(results[i].id, "dma_latency") &&
		    strcmp(results[i].id, "audio_group"))
			assert_string_equal(results[i].status, "skip");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_api),
		T(test_empty_root),
		T(test_tally),
		T(test_rtprio),
		T(test_memlock),
		T(test_audio_group),
		T(test_sched_fifo),
		T(test_live_system),
		T(test_preempt),
		T(test_hrtimers),
		T(test_nohz),
		T(test_threadirqs),
		T(test_governor),
		T(test_smt),
		T(test_cstates),
		T(test_dma_latency),
		T(test_rt_throttling),
		T(test_swappiness),
		T(test_irqbalance),
		T(test_irq_threads),
		T(test_shared_irqs),
		T(test_usb_autosuspend),
		T(test_timer_migration),
		T(test_kernel_tracing),
		T(test_noatime),
		T(test_mitigations),
		T(test_clocksource),
		T(test_audio_servers),
		T(test_garbage),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
