/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What root/proc says about processes, read once per run: who we run as
 * (root/proc/self/status), and one pass over root/proc/[0-9]* for the
 * irqbalance daemon, the IRQ threads and the audio servers.
 */
#define AL_CHECK_INTERNAL
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-private.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PROC_ENTRIES_MAX 1000000
#define TASKS_MAX 4096

/* --- who we are: root/proc/self/status --- */

/* The effective id of a Uid: or Gid: line's "real effective saved fs". */
static bool
effective_id(const char *p, long *out)
{
	char *end;
	long v;

	errno = 0;
	strtol(p, &end, 10);
	if (end == p || errno)
		return false;
	p = end;
	v = strtol(p, &end, 10);
	if (end == p || errno || v < 0)
		return false;
	*out = v;
	return true;
}

static int
status_line(char *line, void *data)
{
	struct check_ident *id = data;
	char *p, *end;
	long v;

	if (!strncmp(line, "Uid:", 4)) {
		if (effective_id(line + 4, &v)) {
			id->uid = v;
			id->known = true;
		}
	} else if (!strncmp(line, "Gid:", 4)) {
		if (effective_id(line + 4, &v))
			id->gid = v;
	} else if (!strncmp(line, "Groups:", 7)) {
		p = line + 7;
		id->n_groups = 0;
		while (id->n_groups < CHECK_GROUPS_MAX) {
			errno = 0;
			v = strtol(p, &end, 10);
			if (end == p || errno || v < 0)
				break;
			id->groups[id->n_groups++] = v;
			p = end;
		}
	} else if (!strncmp(line, "CapEff:", 7)) {
		unsigned long long caps;

		p = line + 7;
		while (isspace((unsigned char)*p))
			p++;
		errno = 0;
		caps = strtoull(p, &end, 16);
		if (end != p && !errno && !*end) {
			id->cap_eff = caps;
			id->caps_known = true;
		}
	}
	return 0;
}

void
al__check_read_ident(struct check_ctx *c)
{
	al__check_lines(c, "/proc/self/status", status_line, &c->id);
}

/* --- one pass over root/proc --- */

/* Policy (field 41) and rt_priority (field 40) of a /proc/PID/stat line. */
static bool
parse_stat(const char *buf, int *policy, int *rt_priority)
{
	const char *p = strrchr(buf, ')');
	long rtp = -1, pol = -1;
	int field = 2;

	if (!p)
		return false;
	p++;
	while (*p && field < 41) {
		char *end;
		long v;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		field++;
		errno = 0;
		v = strtol(p, &end, 10);
		if (field == 40 || field == 41) {
			if (end == p || errno || (*end && *end != ' ' && *end != '\n'))
				return false;
			if (field == 40)
				rtp = v;
			else
				pol = v;
		}
		p += strcspn(p, " ");
	}
	if (rtp < 0 || rtp > 99 || pol < 0 || pol > 7)
		return false;
	*rt_priority = (int)rtp;
	*policy = (int)pol;
	return true;
}

static bool
read_sched(const struct check_ctx *c, const char *path, int *policy, int *rt_priority)
{
	char buf[2048];

	if (al__check_read(c, path, buf, sizeof(buf)) <= 0)
		return false;
	return parse_stat(buf, policy, rt_priority);
}

static bool
is_audio_irq(const char *comm)
{
	static const char *const words[] = { "snd", "audio", "xhci", "ehci", "ohci",
					     "uhci", "usb", "dwc" };
	const char *name = strchr(comm, '-');
	size_t i;

	if (!name)
		return false;
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (strstr(name + 1, words[i]))
			return true;
	return false;
}

static bool
is_server(const char *comm)
{
	static const char *const names[] = { "pipewire", "pipewire-pulse", "jackd", "jackdbus",
					     "pulseaudio" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(comm, names[i]))
			return true;
	return false;
}

/* The best real-time thread of a server: root/proc/PID/task/TID/stat. */
static void
server_sched(const struct check_ctx *c, long pid, struct check_server *s)
{
	char path[PATH_MAX], rel[96];
	struct dirent *de;
	int policy, rtp, n = 0;
	DIR *d;

	s->policy = -1;
	s->rt_priority = 0;
	snprintf(rel, sizeof(rel), "/proc/%ld/stat", pid);
	if (read_sched(c, rel, &policy, &rtp)) {
		s->policy = policy;
		s->rt_priority = rtp;
	}
	if (al__check_path(c, path, sizeof(path), "/proc/%ld/task", pid))
		return;
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)) && n++ < TASKS_MAX) {
		if (!al__check_is_digits(de->d_name) || strlen(de->d_name) > 12)
			continue;
		snprintf(rel, sizeof(rel), "/proc/%ld/task/%.12s/stat", pid, de->d_name);
		if (read_sched(c, rel, &policy, &rtp) && rtp > s->rt_priority) {
			s->policy = policy;
			s->rt_priority = rtp;
		}
	}
	closedir(d);
}

void
al__check_scan_procs(struct check_ctx *c)
{
	struct check_procs *pr = &c->procs;
	char path[PATH_MAX], rel[64], comm[64];
	struct dirent *de;
	int n = 0;
	DIR *d;

	memset(pr, 0, sizeof(*pr));
	pr->max_other_irq_prio = -1;
	if (al__check_path(c, path, sizeof(path), "/proc")) {
		pr->err = -ENAMETOOLONG;
		return;
	}
	d = opendir(path);
	if (!d) {
		pr->err = -errno;
		return;
	}
	while ((de = readdir(d)) && n++ < PROC_ENTRIES_MAX) {
		long pid;
		int policy, rtp;

		if (!al__check_is_digits(de->d_name) || strlen(de->d_name) > 12)
			continue;
		pid = strtol(de->d_name, NULL, 10);
		snprintf(rel, sizeof(rel), "/proc/%ld/comm", pid);
		if (al__check_read(c, rel, comm, sizeof(comm)) <= 0)
			continue; /* gone, or a kernel without comm */
		pr->n_procs++;
		if (!strcmp(comm, "irqbalance")) {
			pr->irqbalance_pid = pid;
		} else if (!strncmp(comm, "irq/", 4)) {
			snprintf(rel, sizeof(rel), "/proc/%ld/stat", pid);
			if (!read_sched(c, rel, &policy, &rtp)) {
				policy = -1;
				rtp = 0;
			}
			pr->n_irq_threads++;
			if (is_audio_irq(comm)) {
				struct check_irq_thread *t;

				if (pr->n_audio_irq >= CHECK_IRQ_THREADS_MAX)
					continue;
				t = &pr->audio_irq[pr->n_audio_irq++];
				snprintf(t->comm, sizeof(t->comm), "%.16s", comm);
				t->pid = pid;
				t->policy = policy;
				t->rt_priority = rtp;
			} else if (rtp > pr->max_other_irq_prio) {
				pr->max_other_irq_prio = rtp;
			}
		} else if (is_server(comm) && pr->n_servers < CHECK_SERVERS_MAX) {
			struct check_server *s = &pr->servers[pr->n_servers++];

			snprintf(s->comm, sizeof(s->comm), "%.16s", comm);
			s->pid = pid;
			server_sched(c, pid, s);
		}
	}
	closedir(d);
}
