/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The check runner: the table of checks in their fixed order, the context
 * they share (the root, the kernel's release and command line, who we
 * run as, the processes), and the tally. The checks are in check-user.c,
 * check-kernel.c, check-cpu.c and check-sys.c; the helpers they use in
 * check-util.c, the reading of root/proc in check-proc.c.
 */
#define AL_CHECK_INTERNAL
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "check.h"
#include "check-private.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *id;
	void (*fn)(struct check_ctx *c, struct al_syscheck *r);
} checks[] = {
	{ "rtprio", al__check_rtprio },
	{ "memlock", al__check_memlock },
	{ "audio_group", al__check_audio_group },
	{ "sched_fifo", al__check_sched_fifo },
	{ "preempt", al__check_preempt },
	{ "hrtimers", al__check_hrtimers },
	{ "nohz", al__check_nohz },
	{ "threadirqs", al__check_threadirqs },
	{ "governor", al__check_governor },
	{ "smt", al__check_smt },
	{ "cstates", al__check_cstates },
	{ "dma_latency", al__check_dma_latency },
	{ "rt_throttling", al__check_rt_throttling },
	{ "swappiness", al__check_swappiness },
	{ "irqbalance", al__check_irqbalance },
	{ "irq_threads", al__check_irq_threads },
	{ "shared_irqs", al__check_shared_irqs },
	{ "usb_autosuspend", al__check_usb_autosuspend },
	{ "timer_migration", al__check_timer_migration },
	{ "noatime", al__check_noatime },
	{ "mitigations", al__check_mitigations },
	{ "clocksource", al__check_clocksource },
	{ "audio_servers", al__check_audio_servers },
	{ "kernel_tracing", al__check_kernel_tracing },
};

_Static_assert(ARRAY_SIZE(checks) <= AL_SYSCHECKS_MAX, "too many checks for AL_SYSCHECKS_MAX");

/* --- the runner --- */

static void
read_uname(struct check_ctx *c)
{
	struct utsname u;

	if (al__check_read(c, "/proc/sys/kernel/osrelease", c->release, sizeof(c->release)) < 0)
		c->release[0] = '\0';
	if (al__check_read(c, "/proc/sys/kernel/version", c->version, sizeof(c->version)) < 0)
		c->version[0] = '\0';
	if (!c->live || uname(&u))
		return;
	if (!c->release[0])
		snprintf(c->release, sizeof(c->release), "%s", u.release);
	if (!c->version[0])
		snprintf(c->version, sizeof(c->version), "%s", u.version);
}

/* 0 when root is a directory (stat() can reach), else -errno or -ENOTDIR. */
static int
root_dir(const char *root)
{
	struct stat st;

	if (stat(root, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int
al_check_root(const char *root, char *err, size_t err_size)
{
	if (!root_dir(root))
		return 0;
	snprintf(err, err_size, "--root: '%s' is not a directory", root);
	return -EINVAL;
}

static int
ctx_init(struct check_ctx *c, const struct al_check_opts *o)
{
	const char *root = (o && o->root && *o->root) ? o->root : "/";
	char *real;
	int rc = root_dir(root);

	if (rc)
		return rc;
	real = realpath(root, NULL);
	if (!real)
		return -errno;
	if (strlen(real) >= sizeof(c->prefix) - 256) {
		free(real);
		return -ENAMETOOLONG;
	}
	c->live = !strcmp(real, "/");
	snprintf(c->prefix, sizeof(c->prefix), "%s", c->live ? "" : real);
	free(real);
	c->root = c->live ? "/" : c->prefix;
	c->try_fifo = o ? o->try_fifo : NULL;

	read_uname(c);
	c->have_cmdline = al__check_read(c, "/proc/cmdline", c->cmdline, sizeof(c->cmdline)) >= 0;
	al__check_read_ident(c);
	al__check_preempt_init(c);
	al__check_scan_procs(c);
	return 0;
}

int
al_check_run(const struct al_check_opts *o, struct al_syscheck *out, size_t cap)
{
	struct check_ctx *c;
	size_t i;
	int rc;

	if (!out || cap < ARRAY_SIZE(checks))
		return -ENOSPC;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	rc = ctx_init(c, o);
	if (rc < 0) {
		free(c);
		return rc;
	}
	for (i = 0; i < ARRAY_SIZE(checks); i++) {
		struct al_syscheck *r = &out[i];

		memset(r, 0, sizeof(*r));
		snprintf(r->id, sizeof(r->id), "%s", checks[i].id);
		checks[i].fn(c, r);
		if (!r->status[0])
			al__check_set(r, "skip", "", "no result");
	}
	free(c);
	return (int)ARRAY_SIZE(checks);
}
