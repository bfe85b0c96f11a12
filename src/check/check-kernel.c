/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel: preemption model, timers, threaded interrupts, RT throttling,
 * timer migration, CPU vulnerability mitigations and the clocksource.
 * The kernel config is read from root/boot/config-RELEASE only
 * (/proc/config.gz would need zlib, which audiolat does not use).
 */
#define AL_CHECK_INTERNAL
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/sysinfo.h"
#include "check-private.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define VULN_MAX 64

static bool
config_is(const struct check_ctx *c, const char *key, const char *want)
{
	char val[64];

	return al__check_config(c, key, val, sizeof(val)) == 1 && !strcmp(val, want);
}

void
al__check_preempt_init(struct check_ctx *c)
{
	/* the model (and where it was read) is core's; the check only judges it */
	al_sysinfo_preempt_model(c->root, c->release[0] ? c->release : NULL, c->version,
				 c->preempt, sizeof(c->preempt), c->preempt_source,
				 sizeof(c->preempt_source));
	c->preempt_dynamic = strstr(c->version, "PREEMPT_DYNAMIC") ||
			     config_is(c, "CONFIG_PREEMPT_DYNAMIC", "y");
}

void
al__check_preempt(struct check_ctx *c, struct al_syscheck *r)
{
	const char *m = c->preempt, *src = c->preempt_source[0] ? c->preempt_source : "?";
	const char *fix_kernel =
		"install a PREEMPT_RT kernel (linux-image-rt, linux-rt) or one built with CONFIG_PREEMPT=y";
	const char *fix_boot =
		"boot with preempt=full (add it to GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, run update-grub)";
	const char *fix = c->preempt_dynamic ? fix_boot : fix_kernel;

	if (!strcmp(m, "PREEMPT_RT"))
		al__check_set(r, "ok", "", "PREEMPT_RT kernel (from %s)", src);
	else if (!strcmp(m, "full"))
		al__check_set(r, "ok", "",
			      "fully preemptible (preempt=full%s), not PREEMPT_RT: fine for most audio work (from %s)",
			      c->preempt_dynamic ? ", PREEMPT_DYNAMIC" : "", src);
	else if (!strcmp(m, "lazy"))
		al__check_set(r, "ok", "",
			      "preempt=lazy: real-time threads still preempt at once; not PREEMPT_RT (from %s)",
			      src);
	else if (!strcmp(m, "voluntary"))
		al__check_set(r, "warn", fix,
			      "voluntary preemption: kernel code runs up to the next preemption point before an audio thread gets the CPU (from %s)",
			      src);
	else if (!strcmp(m, "none"))
		al__check_set(r, "fail", fix,
			      "no kernel preemption (server model): long kernel paths delay audio threads by milliseconds (from %s)",
			      src);
	else if (!strcmp(m, "dynamic"))
		al__check_set(r, "warn",
			      "mount -t debugfs none /sys/kernel/debug to read the mode, or boot with preempt=full",
			      "PREEMPT_DYNAMIC kernel, mode unknown: no /sys/kernel/debug/sched/preempt, no preempt= on the command line, no /boot/config-%.60s",
			      c->release[0] ? c->release : "RELEASE");
	else if (c->preempt_source[0])
		al__check_set(r, "skip", "", "preemption model unknown (%s)", c->preempt_source);
	else
		al__check_set(r, "skip", "",
			      "preemption model unknown: no /sys/kernel/realtime, debugfs, kernel config or uname -v");
}

/* Per-CPU fields of /proc/timer_list. */
struct timer_list {
	int hres_on, hres_off;
	int nohz_on, nohz_off;
};

static int
timer_list_line(char *line, void *data)
{
	struct timer_list *t = data;
	char *p = line, *colon;
	long v;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '.')
		return 0;
	colon = strchr(p, ':');
	if (!colon || !al__check_parse_long(colon + 1, &v))
		return 0;
	if (!strncmp(p, ".hres_active", 12) && (p[12] == ' ' || p[12] == ':')) {
		if (v)
			t->hres_on++;
		else
			t->hres_off++;
	} else if ((!strncmp(p, ".nohz", 5) && (p[5] == ' ' || p[5] == ':')) ||
		   (!strncmp(p, ".nohz_mode", 10) && (p[10] == ' ' || p[10] == ':'))) {
		/* ".nohz : 0/1" (6.x), ".nohz_mode : 0/1/2" (older) */
		if (v)
			t->nohz_on++;
		else
			t->nohz_off++;
	}
	return 0;
}

static void
no_config_reason(const struct check_ctx *c, char *buf, size_t size)
{
	snprintf(buf, size, "no /boot/config-%.60s%s", c->release[0] ? c->release : "RELEASE",
		 c->release[0] ? "" : " (kernel release unknown)");
}

void
al__check_hrtimers(struct check_ctx *c, struct al_syscheck *r)
{
	struct timer_list t = { 0 };
	char val[64], why[128], opt[16];
	struct timespec res;
	int rc, tl_rc;

	if (al__check_cmdline(c, "highres", opt, sizeof(opt)) && !strcmp(opt, "off")) {
		al__check_set(r, "fail", "remove highres=off from the kernel command line",
			      "highres=off on the kernel command line: timers have tick resolution");
		return;
	}
	tl_rc = al__check_lines(c, "/proc/timer_list", timer_list_line, &t);
	if (!tl_rc && t.hres_on + t.hres_off > 0) {
		if (!t.hres_off)
			al__check_set(r, "ok", "",
				      "high-resolution timers active on all %d CPUs (/proc/timer_list)",
				      t.hres_on);
		else
			al__check_set(r, "fail",
				      "use a kernel with CONFIG_HIGH_RES_TIMERS=y and a working clock event device",
				      "high-resolution timers inactive on %d of %d CPUs (/proc/timer_list)",
				      t.hres_off, t.hres_on + t.hres_off);
		return;
	}
	/* /proc/timer_list is root-only on some kernels: the live clock tells too */
	if (c->live && !clock_getres(CLOCK_MONOTONIC, &res)) {
		long res_ns = res.tv_sec ? 1000000000L : res.tv_nsec;

		if (res_ns <= 1000)
			al__check_set(r, "ok", "",
				      "high-resolution timers active (CLOCK_MONOTONIC resolution %ld ns)",
				      res_ns);
		else
			al__check_set(r, "fail",
				      "use a kernel with CONFIG_HIGH_RES_TIMERS=y and a working clock event device",
				      "high-resolution timers inactive: CLOCK_MONOTONIC resolution is %ld ns",
				      res_ns);
		return;
	}
	rc = al__check_config(c, "CONFIG_HIGH_RES_TIMERS", val, sizeof(val));
	if (rc < 0) {
		no_config_reason(c, why, sizeof(why));
		al__check_set(r, "skip", "", "%s /proc/timer_list and %s (/proc/config.gz is not read)",
			      tl_rc == -EACCES ? "unreadable" : "no", why);
	} else if (rc == 1 && !strcmp(val, "y")) {
		al__check_set(r, "ok", "", "CONFIG_HIGH_RES_TIMERS=y");
	} else {
		al__check_set(r, "fail", "use a kernel built with CONFIG_HIGH_RES_TIMERS=y",
			      "kernel built without CONFIG_HIGH_RES_TIMERS: timers have tick (1/HZ) resolution");
	}
}

void
al__check_nohz(struct check_ctx *c, struct al_syscheck *r)
{
	struct timer_list t = { 0 };
	char val[64], why[128], opt[16];
	char full[PATH_MAX];
	struct stat st;
	int rc, tl_rc;

	if (al__check_cmdline(c, "nohz", opt, sizeof(opt)) && !strcmp(opt, "off")) {
		al__check_set(r, "warn", "remove nohz=off from the kernel command line",
			      "nohz=off on the kernel command line: idle CPUs take every tick");
		return;
	}
	tl_rc = al__check_lines(c, "/proc/timer_list", timer_list_line, &t);
	if (!tl_rc && t.nohz_on + t.nohz_off > 0) {
		if (!t.nohz_off)
			al__check_set(r, "ok", "",
				      "tickless idle (NO_HZ) active on all %d CPUs (/proc/timer_list)",
				      t.nohz_on);
		else
			al__check_set(r, "warn", "use a kernel with CONFIG_NO_HZ_IDLE=y",
				      "periodic tick on %d of %d CPUs (/proc/timer_list)", t.nohz_off,
				      t.nohz_on + t.nohz_off);
		return;
	}
	rc = al__check_config(c, "CONFIG_NO_HZ_FULL", val, sizeof(val));
	if (rc == 1 && !strcmp(val, "y")) {
		al__check_set(r, "ok", "", "CONFIG_NO_HZ_FULL=y");
		return;
	}
	if (rc >= 0) {
		if (config_is(c, "CONFIG_NO_HZ_IDLE", "y") || config_is(c, "CONFIG_NO_HZ", "y"))
			al__check_set(r, "ok", "", "CONFIG_NO_HZ_IDLE=y: tickless idle");
		else
			al__check_set(r, "warn", "use a kernel with CONFIG_NO_HZ_IDLE=y",
				      "periodic tick (CONFIG_HZ_PERIODIC): idle CPUs take every tick");
		return;
	}
	if (!al__check_path(c, full, sizeof(full), "/sys/devices/system/cpu/nohz_full") &&
	    !stat(full, &st)) {
		al__check_set(r, "ok", "", "NO_HZ_FULL kernel (/sys/devices/system/cpu/nohz_full)");
		return;
	}
	no_config_reason(c, why, sizeof(why));
	al__check_set(r, "skip", "", "%s /proc/timer_list and %s (/proc/config.gz is not read)",
		      tl_rc == -EACCES ? "unreadable" : "no", why);
}

void
al__check_threadirqs(struct check_ctx *c, struct al_syscheck *r)
{
	if (!strcmp(c->preempt, "PREEMPT_RT")) {
		al__check_set(r, "ok", "", "interrupt handlers are threads (forced by PREEMPT_RT)");
		return;
	}
	if (!c->have_cmdline) {
		al__check_set(r, "skip", "", "cannot read /proc/cmdline");
		return;
	}
	if (al__check_cmdline(c, "threadirqs", NULL, 0)) {
		if (config_is(c, "CONFIG_IRQ_FORCED_THREADING", "n"))
			al__check_set(r, "warn",
				      "use a kernel with CONFIG_IRQ_FORCED_THREADING=y",
				      "threadirqs given, but the kernel lacks IRQ_FORCED_THREADING: it has no effect");
		else
			al__check_set(r, "ok", "", "threadirqs on the kernel command line");
		return;
	}
	al__check_set(r, "warn",
		      "add threadirqs to GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, run update-grub and reboot",
		      "no threadirqs: interrupt handlers run in hard IRQ context and their priority cannot be set");
}

void
al__check_rt_throttling(struct check_ctx *c, struct al_syscheck *r)
{
	long runtime_us, period_us = 1000000;
	int rc;

	rc = al__check_read_long(c, "/proc/sys/kernel/sched_rt_runtime_us", &runtime_us);
	if (rc < 0) {
		al__check_set(r, "skip", "", "cannot read /proc/sys/kernel/sched_rt_runtime_us: %s",
			      rc == -EINVAL ? "not a number" : strerror(-rc));
		return;
	}
	if (al__check_read_long(c, "/proc/sys/kernel/sched_rt_period_us", &period_us) < 0 ||
	    period_us <= 0)
		period_us = 1000000;
	if (runtime_us < 0 || runtime_us >= period_us)
		al__check_set(r, "ok", "", "RT throttling off (sched_rt_runtime_us = %ld)",
			      runtime_us);
	else if (runtime_us == 0)
		al__check_set(r, "fail", "sysctl -w kernel.sched_rt_runtime_us=950000",
			      "sched_rt_runtime_us = 0: real-time threads get no CPU time at all");
	else
		al__check_set(r, "warn", "sysctl -w kernel.sched_rt_runtime_us=-1",
			      "RT throttling on: real-time threads get %ld of every %ld us; a long RT burst is stopped for the rest",
			      runtime_us, period_us);
}

/*
 * The kernel's own views of latency, beside audiolat's: hist triggers and
 * synthetic events (a wake-to-run histogram built in the kernel), the
 * timerlat and osnoise tracers (rtla). Read from tracefs where it can be
 * read (root), else from the kernel config. audiolat's own figures need
 * none of them.
 */
static const struct {
	const char *name;
	const char *config;
	const char *file;   /* in tracefs, there when the kernel has it */
	const char *tracer; /* in available_tracers */
} ktrace[] = {
	{ "hist triggers", "CONFIG_HIST_TRIGGERS", "events/sched/sched_switch/hist", NULL },
	{ "synthetic events", "CONFIG_SYNTH_EVENTS", "synthetic_events", NULL },
	{ "timerlat", "CONFIG_TIMERLAT_TRACER", NULL, "timerlat" },
	{ "osnoise", "CONFIG_OSNOISE_TRACER", NULL, "osnoise" },
};

#define KTRACE_DIR "/sys/kernel/tracing"

static bool word_in(const char *list, const char *word);

void
al__check_kernel_tracing(struct check_ctx *c, struct al_syscheck *r)
{
	char tracers[4096], path[PATH_MAX], val[16], lacks[160] = "", configs[200] = "";
	const char *source;
	bool from_tracefs, any_lacking = false;
	struct stat st;
	size_t i;
	int rc;

	if (al__check_read(c, "/proc/filesystems", tracers, sizeof(tracers)) >= 0 &&
	    !word_in(tracers, "tracefs")) {
		al__check_set(r, "warn", "a kernel built with CONFIG_FTRACE (distribution kernels are)",
			      "no tracefs in /proc/filesystems: --trace, hist triggers and rtla cannot run");
		return;
	}
	from_tracefs = al__check_read(c, KTRACE_DIR "/available_tracers", tracers, sizeof(tracers)) >= 0;
	source = from_tracefs ? "read from tracefs" : "from /boot/config";
	for (i = 0; i < ARRAY_SIZE(ktrace); i++) {
		bool has;

		if (from_tracefs && ktrace[i].tracer) {
			has = word_in(tracers, ktrace[i].tracer);
		} else if (from_tracefs) {
			has = al__check_path(c, path, sizeof(path), KTRACE_DIR "/%s", ktrace[i].file) == 0 &&
			      stat(path, &st) == 0;
		} else {
			rc = al__check_config(c, ktrace[i].config, val, sizeof(val));
			if (rc < 0) {
				al__check_set(r, "skip", "",
					      "cannot tell which tracing features the kernel has: %s is not readable (root reads it) and %s",
					      KTRACE_DIR,
					      rc == -ENOENT ? "no /boot/config of this kernel" : strerror(-rc));
				return;
			}
			has = rc == 1 && (!strcmp(val, "y") || !strcmp(val, "m"));
		}
		if (has)
			continue;
		snprintf(lacks + strlen(lacks), sizeof(lacks) - strlen(lacks), "%s%s",
			 any_lacking ? ", " : "", ktrace[i].name);
		snprintf(configs + strlen(configs), sizeof(configs) - strlen(configs), "%s%s=y",
			 any_lacking ? ", " : "a kernel with ", ktrace[i].config);
		any_lacking = true;
	}
	if (!any_lacking)
		al__check_set(r, "ok", "",
			      "the kernel has hist triggers, synthetic events, timerlat and osnoise (%s)",
			      source);
	else
		al__check_set(r, "warn", configs,
			      "the kernel lacks %s (%s): no kernel-side wake-to-run histogram or rtla timerlat (audiolat's own figures do not need them)",
			      lacks, source);
}

void
al__check_timer_migration(struct check_ctx *c, struct al_syscheck *r)
{
	long v;
	int rc = al__check_read_long(c, "/proc/sys/kernel/timer_migration", &v);

	if (rc < 0)
		al__check_set(r, "skip", "", "cannot read /proc/sys/kernel/timer_migration: %s",
			      rc == -EINVAL ? "not a number" : strerror(-rc));
	else if (v)
		al__check_set(r, "warn", "sysctl -w kernel.timer_migration=0",
			      "timer_migration = 1: timers move to busy CPUs, adding jitter there");
	else
		al__check_set(r, "ok", "", "timer_migration = 0");
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void
al__check_mitigations(struct check_ctx *c, struct al_syscheck *r)
{
	static const char dir_rel[] = "/sys/devices/system/cpu/vulnerabilities";
	char path[PATH_MAX], val[256], rel[PATH_MAX], list[160] = "", opt[32];
	char *names[VULN_MAX];
	struct dirent *de;
	int n = 0, entries = 0, i;
	size_t len = 0;
	DIR *d;

	if (al__check_cmdline(c, "mitigations", opt, sizeof(opt)) && !strcmp(opt, "off")) {
		al__check_set(r, "ok", "", "mitigations=off on the kernel command line");
		return;
	}
	if (al__check_path(c, path, sizeof(path), "%s", dir_rel) || !(d = opendir(path))) {
		al__check_set(r, "skip", "", "no %s", dir_rel);
		return;
	}
	while ((de = readdir(d)) && entries < 1000) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "%s/%s", dir_rel, de->d_name);
		if (al__check_read(c, rel, val, sizeof(val)) < 0)
			continue;
		entries++;
		if (strncmp(val, "Mitigation", 10) || n >= VULN_MAX)
			continue;
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	if (!entries) {
		al__check_set(r, "skip", "", "no readable entries in %s", dir_rel);
		return;
	}
	if (!n) {
		al__check_set(r, "ok", "", "no CPU vulnerability mitigations active (%d entries)",
			      entries);
		return;
	}
	qsort(names, (size_t)n, sizeof(names[0]), cmp_str);
	for (i = 0; i < n; i++) {
		int w = snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "", names[i]);

		if (w < 0 || (size_t)w >= sizeof(list) - len) {
			snprintf(list + len, sizeof(list) - len, ", ...");
			break;
		}
		len += (size_t)w;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	al__check_set(r, "warn",
		      "boot with mitigations=off (only on a dedicated, trusted audio machine)",
		      "%d mitigations active, each adds cost to syscalls and context switches: %s", n,
		      list);
}

/* word in a list of words split by blanks (spaces, tabs, newlines) */
static bool
word_in(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || isspace((unsigned char)p[-1])) &&
		    (!p[n] || isspace((unsigned char)p[n])))
			return true;
	return false;
}

void
al__check_clocksource(struct check_ctx *c, struct al_syscheck *r)
{
	static const char *const fast[] = { "tsc", "arch_sys_counter", "kvm-clock",
					    "hyperv_clocksource_tsc_page", "riscv_clocksource" };
	static const char base[] = "/sys/devices/system/clocksource/clocksource0";
	char cur[64], avail[512], rel[128];
	size_t i;
	int rc;

	snprintf(rel, sizeof(rel), "%s/current_clocksource", base);
	rc = al__check_read(c, rel, cur, sizeof(cur));
	if (rc <= 0) {
		al__check_set(r, "skip", "", "cannot read %s", rel);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(fast); i++) {
		if (!strcmp(cur, fast[i])) {
			al__check_set(r, "ok", "", "clocksource is %s: clock reads stay in user space",
				      cur);
			return;
		}
	}
	snprintf(rel, sizeof(rel), "%s/available_clocksource", base);
	if (al__check_read(c, rel, avail, sizeof(avail)) < 0)
		avail[0] = '\0';
	if (!strcmp(cur, "jiffies")) {
		al__check_set(r, "fail",
			      word_in(avail, "tsc") ?
				      "echo tsc | sudo tee /sys/devices/system/clocksource/clocksource0/current_clocksource" :
				      "check dmesg for clocksource errors; boot with clocksource=tsc if the TSC is good",
			      "clocksource is jiffies: clock reads have tick resolution");
		return;
	}
	al__check_set(r, "warn",
		      word_in(avail, "tsc") ?
			      "echo tsc | sudo tee /sys/devices/system/clocksource/clocksource0/current_clocksource" :
			      "tsc is not offered (marked unstable?): see dmesg; boot with tsc=reliable only if the TSC is known good",
		      "clocksource is %s: every clock read is a slow device access (tsc is fast)", cur);
}
