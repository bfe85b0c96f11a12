/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the user may do: real-time priority and memory-lock limits (from
 * root/proc/self/limits, on the live system too), audio group membership
 * (root/proc/self/status and root/etc/group), and whether SCHED_FIFO really
 * works (tried in a short-lived thread on the live system only).
 */
#define AL_CHECK_INTERNAL
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rt.h"
#include "check-private.h"

#define RTPRIO_GOOD 75            /* rtcqs' floor; JACK/PipeWire use 70-95 */
#define MEMLOCK_GOOD_BYTES (1ULL << 30)
#define FIFO_TRY_PRIO 80

/* the file audiolat run's warning names: the one jackd2 installs for the audio group */
static const char fix_rtprio[] =
	"sudo dpkg-reconfigure -p high jackd2, or: echo '@audio - rtprio 95' | sudo tee -a "
	AL_RT_LIMITS_FILE "; then log in again";
static const char fix_memlock[] =
	"sudo dpkg-reconfigure -p high jackd2, or: echo '@audio - memlock unlimited' | sudo tee -a "
	AL_RT_LIMITS_FILE "; then log in again";

struct limit {
	const char *name;    /* "Max realtime priority" */
	bool found;
	bool soft_unlimited, hard_unlimited;
	unsigned long long soft, hard;
};

static bool
parse_limit_value(const char *s, bool *unlimited, unsigned long long *v)
{
	char *end;

	if (!strcmp(s, "unlimited")) {
		*unlimited = true;
		*v = 0;
		return true;
	}
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	*unlimited = false;
	return !errno && !*end;
}

static int
limits_line(char *line, void *data)
{
	struct limit *l = data;
	size_t n = strlen(l->name);
	char soft[32], hard[32];

	if (strncmp(line, l->name, n) || (line[n] != ' ' && line[n] != '\t'))
		return 0;
	if (sscanf(line + n, "%31s %31s", soft, hard) != 2)
		return 1;
	if (parse_limit_value(soft, &l->soft_unlimited, &l->soft) &&
	    parse_limit_value(hard, &l->hard_unlimited, &l->hard))
		l->found = true;
	return 1;
}

/* 0, or a skip already written to r. */
static int
read_limit(struct check_ctx *c, struct al_syscheck *r, struct limit *l)
{
	int rc = al__check_lines(c, "/proc/self/limits", limits_line, l);

	if (rc < 0) {
		al__check_set(r, "skip", "", "cannot read /proc/self/limits: %s", strerror(-rc));
		return -1;
	}
	if (!l->found) {
		al__check_set(r, "skip", "", "no readable '%s' line in /proc/self/limits", l->name);
		return -1;
	}
	return 0;
}

void
al__check_rtprio(struct check_ctx *c, struct al_syscheck *r)
{
	struct limit l = { .name = "Max realtime priority" };
	char hard[24], soft[32] = "";

	if (read_limit(c, r, &l))
		return;
	if (l.hard_unlimited)
		snprintf(hard, sizeof(hard), "unlimited");
	else
		snprintf(hard, sizeof(hard), "%llu", l.hard);
	if (!l.soft_unlimited && (l.hard_unlimited || l.soft < l.hard))
		snprintf(soft, sizeof(soft), " (soft %llu)", l.soft);
	if (al__check_has_cap(c, CHECK_CAP_SYS_NICE))
		al__check_set(r, "ok", "",
			      "CAP_SYS_NICE (root): RLIMIT_RTPRIO does not apply (hard limit %s); run as the audio user to check theirs",
			      hard);
	else if (l.hard_unlimited || l.hard >= RTPRIO_GOOD)
		al__check_set(r, "ok", "", "hard RLIMIT_RTPRIO is %s%s", hard, soft);
	else if (l.hard > 0)
		al__check_set(r, "warn", fix_rtprio,
			      "hard RLIMIT_RTPRIO is %s%s: audio threads at 80-95 (JACK, PipeWire) are refused",
			      hard, soft);
	else
		al__check_set(r, "fail", fix_rtprio,
			      "hard RLIMIT_RTPRIO is 0: no real-time scheduling for this user");
}

static void
format_bytes(unsigned long long b, char *buf, size_t size)
{
	if (b >= (1ULL << 30) && !(b % (1ULL << 30)))
		snprintf(buf, size, "%llu GiB", b >> 30);
	else if (b >= (1ULL << 20) && !(b % (1ULL << 20)))
		snprintf(buf, size, "%llu MiB", b >> 20);
	else if (b >= 1024 && !(b % 1024))
		snprintf(buf, size, "%llu KiB", b >> 10);
	else
		snprintf(buf, size, "%llu bytes", b);
}

void
al__check_memlock(struct check_ctx *c, struct al_syscheck *r)
{
	struct limit l = { .name = "Max locked memory" };
	char size[32];

	if (read_limit(c, r, &l))
		return;
	format_bytes(l.hard, size, sizeof(size));
	if (al__check_has_cap(c, CHECK_CAP_IPC_LOCK))
		al__check_set(r, "ok", "",
			      "CAP_IPC_LOCK (root): RLIMIT_MEMLOCK does not apply here (hard limit %s)",
			      l.hard_unlimited ? "unlimited" : size);
	else if (l.hard_unlimited)
		al__check_set(r, "ok", "", "hard RLIMIT_MEMLOCK is unlimited");
	else if (l.hard >= MEMLOCK_GOOD_BYTES)
		al__check_set(r, "ok", "", "hard RLIMIT_MEMLOCK is %s", size);
	else
		al__check_set(r, "warn", fix_memlock,
			      "hard RLIMIT_MEMLOCK is %s: audio programs cannot lock all their memory (mlockall fails, pages can fault)",
			      size);
}

struct group_find {
	const char *name;
	bool found;
	long gid;
	char members[1024];
};

static int
group_line(char *line, void *data)
{
	struct group_find *g = data;
	size_t n = strlen(g->name);
	char *gid, *end;
	long v;

	if (strncmp(line, g->name, n) || line[n] != ':')
		return 0;
	/* audio:x:29:alice,bob */
	gid = strchr(line + n + 1, ':');
	if (!gid)
		return 0;
	gid++;
	errno = 0;
	v = strtol(gid, &end, 10);
	if (end == gid || errno || *end != ':' || v < 0)
		return 0;
	g->gid = v;
	g->found = true;
	snprintf(g->members, sizeof(g->members), "%s", end + 1);
	return 1;
}

struct passwd_find {
	long uid;
	char name[64];
};

static int
passwd_line(char *line, void *data)
{
	struct passwd_find *p = data;
	char *f1, *f2, *end;
	long v;

	/* alice:x:1000:1000:... */
	f1 = strchr(line, ':');
	if (!f1 || f1 == line)
		return 0;
	f2 = strchr(f1 + 1, ':');
	if (!f2)
		return 0;
	errno = 0;
	v = strtol(f2 + 1, &end, 10);
	if (end == f2 + 1 || errno || *end != ':' || v != p->uid)
		return 0;
	snprintf(p->name, sizeof(p->name), "%.*s", (int)(f1 - line), line);
	return 1;
}

static bool
list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	if (!n)
		return false;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

void
al__check_audio_group(struct check_ctx *c, struct al_syscheck *r)
{
	struct group_find g = { .name = "audio" };
	struct passwd_find pw;
	char fix[200];
	bool member;
	int i;

	if (!c->id.known) {
		al__check_set(r, "skip", "", "cannot read the user and groups from /proc/self/status");
		return;
	}
	if (c->id.uid == 0) {
		al__check_set(r, "skip", "",
			      "running as root: run audiolat check as the user who plays audio to check their groups");
		return;
	}
	al__check_lines(c, "/etc/group", group_line, &g);
	if (!g.found && c->live) {
		struct group *gr = getgrnam("audio"); /* NSS: LDAP, sssd, ... */

		if (gr) {
			g.found = true;
			g.gid = (long)gr->gr_gid;
		}
	}
	pw.uid = c->id.uid;
	pw.name[0] = '\0';
	al__check_lines(c, "/etc/passwd", passwd_line, &pw);
	if (!pw.name[0] && c->live) {
		struct passwd *p = getpwuid((uid_t)c->id.uid);

		if (p)
			snprintf(pw.name, sizeof(pw.name), "%s", p->pw_name);
	}
	if (!g.found) {
		snprintf(fix, sizeof(fix),
			 "sudo groupadd -r audio && sudo usermod -aG audio %s, then log in again",
			 pw.name[0] ? pw.name : "$USER");
		al__check_set(r, "warn", fix,
			      "no 'audio' group: real-time limits are usually granted to @audio");
		return;
	}
	member = c->id.gid == g.gid;
	for (i = 0; i < c->id.n_groups; i++)
		if (c->id.groups[i] == g.gid)
			member = true;
	if (member) {
		al__check_set(r, "ok", "", "uid %ld is in the audio group (gid %ld)", c->id.uid,
			      g.gid);
	} else if (pw.name[0] && list_has(g.members, pw.name)) {
		al__check_set(r, "warn", "log out and in again (or start a shell with: newgrp audio)",
			      "%s is listed in group audio (gid %ld) but this session is not in it",
			      pw.name, g.gid);
	} else {
		snprintf(fix, sizeof(fix), "sudo usermod -aG audio %s, then log in again",
			 pw.name[0] ? pw.name : "$USER");
		al__check_set(r, "warn", fix, "uid %ld is not in the audio group (gid %ld)",
			      c->id.uid, g.gid);
	}
}

struct fifo_probe {
	int policy;
	int priority;
};

static void *
fifo_probe_thread(void *arg)
{
	struct fifo_probe *p = arg;
	struct sched_param sp;

	/* ask the kernel, not the pthread attribute cache */
	p->policy = sched_getscheduler(0);
	if (!sched_getparam(0, &sp))
		p->priority = sp.sched_priority;
	return NULL;
}

/* Run a thread at SCHED_FIFO prio; our own scheduling stays as it was. */
static int
try_fifo_live(int prio)
{
	struct fifo_probe p = { .policy = -1 };
	struct sched_param before, after;
	int policy_before, policy_after, rc;
	pthread_t t;

	if (pthread_getschedparam(pthread_self(), &policy_before, &before))
		policy_before = -1;
	rc = al_rt_thread_start(&t, fifo_probe_thread, &p, prio, -1);
	if (rc)
		return rc;
	pthread_join(t, NULL);
	if (policy_before >= 0 && !pthread_getschedparam(pthread_self(), &policy_after, &after) &&
	    (policy_after != policy_before || after.sched_priority != before.sched_priority))
		pthread_setschedparam(pthread_self(), policy_before, &before);
	return (p.policy == SCHED_FIFO && p.priority == prio) ? 0 : -EPERM;
}

void
al__check_sched_fifo(struct check_ctx *c, struct al_syscheck *r)
{
	int (*try_fifo)(int prio) = c->try_fifo;
	bool cap = al__check_has_cap(c, CHECK_CAP_SYS_NICE);
	int rc_high, rc_low;

	if (!try_fifo && !c->live) {
		al__check_set(r, "skip", "",
			      "not the live system (--root): SCHED_FIFO is only tried below /");
		return;
	}
	if (!try_fifo)
		try_fifo = try_fifo_live;
	rc_high = try_fifo(FIFO_TRY_PRIO);
	if (!rc_high) {
		al__check_set(r, "ok", "",
			      "a thread ran at SCHED_FIFO %d (a short-lived test thread; nothing left changed)",
			      FIFO_TRY_PRIO);
		return;
	}
	rc_low = try_fifo(1);
	if (!rc_low) {
		al__check_set(r, "warn", fix_rtprio,
			      "SCHED_FIFO %d refused (%s), only low priorities work: raise RLIMIT_RTPRIO",
			      FIFO_TRY_PRIO, strerror(-rc_high));
		return;
	}
	if (cap && rc_low == -EPERM)
		al__check_set(r, "fail",
			      "give the cgroup real-time time: write 950000 to cpu.rt_runtime_us of its cpu cgroup (CONFIG_RT_GROUP_SCHED)",
			      "SCHED_FIFO refused even with CAP_SYS_NICE (%s): the cgroup has no real-time budget",
			      strerror(-rc_low));
	else
		al__check_set(r, "fail", fix_rtprio, "SCHED_FIFO refused at any priority (%s)",
			      strerror(-rc_low));
}
