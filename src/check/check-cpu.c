/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CPUs: frequency governor of every CPU, SMT, C-states and whether
 * /dev/cpu_dma_latency lets audio programs keep the CPUs out of them.
 */
#define AL_CHECK_INTERNAL
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check-private.h"

#define CPUS_MAX 8192
#define CSTATES_MAX 32
#define CSTATE_WARN_US 20   /* deepest enabled exit latency still fine */
#define PM_QOS_DEFAULT_US 2000000000

static const char cpu_dir[] = "/sys/devices/system/cpu";

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The numbers N of root/sys/devices/system/cpu/cpuN, sorted; count or -errno. */
static int
list_cpus(const struct check_ctx *c, int **out)
{
	char path[PATH_MAX];
	struct dirent *de;
	int *cpus, n = 0;
	DIR *d;

	*out = NULL;
	if (al__check_path(c, path, sizeof(path), "%s", cpu_dir))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return -errno;
	cpus = malloc(CPUS_MAX * sizeof(*cpus));
	if (!cpus) {
		closedir(d);
		return -ENOMEM;
	}
	while ((de = readdir(d)) && n < CPUS_MAX) {
		if (strncmp(de->d_name, "cpu", 3) || !al__check_is_digits(de->d_name + 3) ||
		    strlen(de->d_name) > 8)
			continue;
		cpus[n++] = atoi(de->d_name + 3);
	}
	closedir(d);
	qsort(cpus, (size_t)n, sizeof(*cpus), cmp_int);
	*out = cpus;
	return n;
}

void
al__check_governor(struct check_ctx *c, struct al_syscheck *r)
{
	char rel[128], gov[64], govs[64] = "", ranges[96];
	int *cpus, *slow, n, i, n_gov = 0, n_slow = 0;

	n = list_cpus(c, &cpus);
	if (n < 0) {
		al__check_set(r, "skip", "", "cannot list %s: %s", cpu_dir, strerror(-n));
		return;
	}
	slow = malloc((size_t)(n ? n : 1) * sizeof(*slow));
	if (!slow) {
		free(cpus);
		al__check_set(r, "skip", "", "out of memory");
		return;
	}
	for (i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "%s/cpu%d/cpufreq/scaling_governor", cpu_dir, cpus[i]);
		if (al__check_read(c, rel, gov, sizeof(gov)) <= 0)
			continue;
		n_gov++;
		if (!strcmp(gov, "performance"))
			continue;
		slow[n_slow++] = cpus[i];
		/* name the first two other governors seen */
		if (!strstr(govs, gov)) {
			size_t len = strlen(govs), glen = strlen(gov);

			if (len + glen + 2 < sizeof(govs)) {
				if (len)
					govs[len++] = '/';
				memcpy(govs + len, gov, glen + 1);
			}
		}
	}
	if (!n_gov)
		al__check_set(r, "skip", "",
			      "no CPU frequency governor (no cpufreq driver: fixed clock or a VM)");
	else if (!n_slow)
		al__check_set(r, "ok", "", "all %d CPUs use the performance governor", n_gov);
	else {
		al__check_cpu_ranges(slow, n_slow, ranges, sizeof(ranges));
		al__check_set(r, "warn", "sudo cpupower frequency-set -g performance",
			      "%d of %d CPUs not on performance: cpu %s (%s)", n_slow, n_gov, ranges,
			      govs);
	}
	free(slow);
	free(cpus);
}

void
al__check_smt(struct check_ctx *c, struct al_syscheck *r)
{
	static const char fix[] = "echo off | sudo tee /sys/devices/system/cpu/smt/control";
	char active[32], control[32];
	bool have_active, have_control;

	have_active = al__check_read(c, "/sys/devices/system/cpu/smt/active", active,
				     sizeof(active)) > 0;
	have_control = al__check_read(c, "/sys/devices/system/cpu/smt/control", control,
				      sizeof(control)) > 0;
	if (have_control &&
	    (!strcmp(control, "notsupported") || !strcmp(control, "notimplemented"))) {
		al__check_set(r, "ok", "", "SMT not supported by this CPU (control: %s)", control);
		return;
	}
	/* active is "0" or "1": a string, not a truth value (rtcqs' bug) */
	if (have_active && !strcmp(active, "1")) {
		al__check_set(r, "warn", fix,
			      "SMT (hyper-threading) is on: a sibling thread shares the core with the audio thread");
		return;
	}
	if (have_active && !strcmp(active, "0")) {
		al__check_set(r, "ok", "", "SMT is off%s%s%s", have_control ? " (control: " : "",
			      have_control ? control : "", have_control ? ")" : "");
		return;
	}
	if (have_control && !strcmp(control, "on")) {
		al__check_set(r, "warn", fix, "SMT (hyper-threading) is on (control: on)");
		return;
	}
	if (have_control && (!strcmp(control, "off") || !strcmp(control, "forceoff"))) {
		al__check_set(r, "ok", "", "SMT is off (control: %s)", control);
		return;
	}
	al__check_set(r, "skip", "", "no readable /sys/devices/system/cpu/smt/active or control");
}

void
al__check_cstates(struct check_ctx *c, struct al_syscheck *r)
{
	char rel[160], name[32], deepest[32] = "", drv[64], opt[16];
	long lat, dis, max_lat = -1;
	int *cpus, n, i, s, rc, n_cpu_idle = 0, n_cpu_deep = 0;

	if (al__check_cmdline(c, "idle", opt, sizeof(opt)) && !strcmp(opt, "poll")) {
		al__check_set(r, "ok", "", "idle=poll: CPUs never enter C-states");
		return;
	}
	n = list_cpus(c, &cpus);
	if (n < 0) {
		al__check_set(r, "skip", "", "cannot list %s: %s", cpu_dir, strerror(-n));
		return;
	}
	for (i = 0; i < n; i++) {
		long cpu_max = -1;
		bool any = false;

		for (s = 0; s < CSTATES_MAX; s++) {
			snprintf(rel, sizeof(rel), "%s/cpu%d/cpuidle/state%d/latency", cpu_dir,
				 cpus[i], s);
			rc = al__check_read_long(c, rel, &lat);
			if (rc == -ENOENT || rc == -ENOTDIR)
				break;    /* no more states */
			if (rc < 0)
				continue; /* garbage: ignore this state */
			any = true;
			snprintf(rel, sizeof(rel), "%s/cpu%d/cpuidle/state%d/disable", cpu_dir,
				 cpus[i], s);
			if (al__check_read_long(c, rel, &dis) == 0 && dis)
				continue;
			if (lat <= cpu_max || lat < 0)
				continue;
			cpu_max = lat;
			if (lat > max_lat) {
				max_lat = lat;
				snprintf(rel, sizeof(rel), "%s/cpu%d/cpuidle/state%d/name",
					 cpu_dir, cpus[i], s);
				if (al__check_read(c, rel, name, sizeof(name)) <= 0)
					snprintf(name, sizeof(name), "state%d", s);
				snprintf(deepest, sizeof(deepest), "%s", name);
			}
		}
		if (any)
			n_cpu_idle++;
		if (cpu_max > CSTATE_WARN_US)
			n_cpu_deep++;
	}
	free(cpus);
	if (!n_cpu_idle) {
		if (al__check_read(c, "/sys/devices/system/cpu/cpuidle/current_driver", drv,
				   sizeof(drv)) >= 0)
			al__check_set(r, "ok", "",
				      "no cpuidle states (cpuidle driver: %s): CPUs idle with a plain halt",
				      drv[0] ? drv : "none");
		else
			al__check_set(r, "skip", "", "no cpuidle states or driver in %s", cpu_dir);
		return;
	}
	if (max_lat < 0)
		al__check_set(r, "ok", "", "all C-states disabled on %d CPUs", n_cpu_idle);
	else if (max_lat <= CSTATE_WARN_US)
		al__check_set(r, "ok", "", "deepest enabled C-state: %s (%ld us exit latency)",
			      deepest, max_lat);
	else
		al__check_set(r, "warn",
			      "sudo cpupower idle-set -D 20 (or hold /dev/cpu_dma_latency at 0 while playing)",
			      "deepest enabled C-state %s takes %ld us to leave (%d of %d CPUs above %d us)",
			      deepest, max_lat, n_cpu_deep, n_cpu_idle, CSTATE_WARN_US);
}

/* May uid/groups of c->id write a file of this mode and owner? (fixtures) */
static bool
may_write(const struct check_ctx *c, const struct stat *st)
{
	int i;

	if (c->id.known && c->id.uid == 0)
		return true;
	if (al__check_has_cap(c, 1 /* CAP_DAC_OVERRIDE */))
		return true;
	if (!c->id.known)
		return false;
	if ((long)st->st_uid == c->id.uid)
		return st->st_mode & S_IWUSR;
	if ((long)st->st_gid == c->id.gid)
		return st->st_mode & S_IWGRP;
	for (i = 0; i < c->id.n_groups; i++)
		if ((long)st->st_gid == c->id.groups[i])
			return st->st_mode & S_IWGRP;
	return st->st_mode & S_IWOTH;
}

void
al__check_dma_latency(struct check_ctx *c, struct al_syscheck *r)
{
	char full[PATH_MAX], current[48] = "";
	struct stat st;
	bool writable;
	int32_t v;
	int fd;

	if (al__check_path(c, full, sizeof(full), "/dev/cpu_dma_latency") || stat(full, &st)) {
		al__check_set(r, "skip", "", "no /dev/cpu_dma_latency");
		return;
	}
	if (c->live)
		writable = !faccessat(AT_FDCWD, full, W_OK, AT_EACCESS);
	else
		writable = may_write(c, &st);
	/* the current PM QoS limit: 4 bytes, 2000000000 (2000 s) means none */
	if ((c->live && S_ISCHR(st.st_mode)) || (!c->live && S_ISREG(st.st_mode))) {
		fd = open(full, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0) {
			if (read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v) && v >= 0) {
				if (v >= PM_QOS_DEFAULT_US)
					snprintf(current, sizeof(current), "; no limit in force");
				else
					snprintf(current, sizeof(current),
						 "; limit in force: %d us", (int)v);
			}
			close(fd);
		}
	}
	if (writable)
		al__check_set(r, "ok", "",
			      "/dev/cpu_dma_latency is writable: audio programs can keep CPUs out of deep C-states%s",
			      current);
	else
		al__check_set(r, "warn",
			      "echo 'KERNEL==\"cpu_dma_latency\", GROUP=\"audio\", MODE=\"0660\"' | sudo tee /etc/udev/rules.d/99-cpu-dma-latency.rules",
			      "/dev/cpu_dma_latency is not writable (mode %04o): audio programs cannot ask for low wake-up latency%s",
			      (unsigned)(st.st_mode & 07777), current);
}
