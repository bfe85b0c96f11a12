/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The check runner and the helpers every check uses: reading files below
 * the root (regular files only, so a FIFO or device in a fixture cannot
 * block us), the kernel command line and config, who we run as, and one
 * pass over root/proc for the process-based checks.
 */
#define AL_CHECK_INTERNAL
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/sysinfo.h"
#include "check-private.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define LINE_MAX_BYTES 32768
#define FILE_MAX_BYTES (64L << 20) /* stop reading a (garbage) file after this */
#define PROC_ENTRIES_MAX 1000000
#define TASKS_MAX 4096

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
};

_Static_assert(ARRAY_SIZE(checks) <= AL_SYSCHECKS_MAX, "too many checks for AL_SYSCHECKS_MAX");

int
al__check_path(const struct check_ctx *c, char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(c->prefix);
	va_list ap;
	int n;

	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, c->prefix, len);
	va_start(ap, fmt);
	n = vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - len)
		return -ENAMETOOLONG;
	return 0;
}

/* Open a regular file below the root for reading, without blocking on FIFOs. */
static int
open_regular(const struct check_ctx *c, const char *path)
{
	return al_open_regular(c->prefix, path);
}

int
al__check_read(const struct check_ctx *c, const char *path, char *buf, size_t size)
{
	int fd;

	if (!size)
		return -EINVAL;
	buf[0] = '\0';
	fd = open_regular(c, path);
	if (fd < 0)
		return fd;
	close(fd);
	return al_read_file(c->root, path, buf, size);
}

bool
al__check_parse_long(const char *s, long *out)
{
	char *end;
	long v;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return false;
	*out = v;
	return true;
}

int
al__check_read_long(const struct check_ctx *c, const char *path, long *out)
{
	char buf[64];
	int rc = al__check_read(c, path, buf, sizeof(buf));

	if (rc < 0)
		return rc;
	return al__check_parse_long(buf, out) ? 0 : -EINVAL;
}

int
al__check_lines(const struct check_ctx *c, const char *path, al__check_line_fn fn, void *data)
{
	char *line;
	long total = 0;
	FILE *f;
	int fd, rc = 0;
	bool skipping = false;

	fd = open_regular(c, path);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		rc = -errno;
		close(fd);
		return rc;
	}
	line = malloc(LINE_MAX_BYTES);
	if (!line) {
		fclose(f);
		return -ENOMEM;
	}
	while (fgets(line, LINE_MAX_BYTES, f)) {
		size_t len = strlen(line);
		bool complete = len && line[len - 1] == '\n';

		total += (long)len;
		if (total > FILE_MAX_BYTES)
			break;
		/* an over-long line is dropped whole: its pieces would misparse */
		if (skipping || (!complete && len == LINE_MAX_BYTES - 1)) {
			skipping = !complete;
			continue;
		}
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (fn(line, data))
			break;
	}
	free(line);
	fclose(f);
	return rc;
}

struct config_find {
	const char *key;
	size_t klen;
	char *val;
	size_t size;
	bool found;
};

static int
config_line(char *line, void *data)
{
	struct config_find *cf = data;

	if (!strncmp(line, cf->key, cf->klen) && line[cf->klen] == '=') {
		snprintf(cf->val, cf->size, "%s", line + cf->klen + 1);
		cf->found = true;
		return 1;
	}
	if (!strncmp(line, "# ", 2) && !strncmp(line + 2, cf->key, cf->klen) &&
	    !strcmp(line + 2 + cf->klen, " is not set")) {
		snprintf(cf->val, cf->size, "n");
		cf->found = true;
		return 1;
	}
	return 0;
}

int
al__check_config(const struct check_ctx *c, const char *key, char *val, size_t size)
{
	struct config_find cf = { .key = key, .klen = strlen(key), .val = val, .size = size };
	char path[128];
	int rc;

	if (size)
		val[0] = '\0';
	if (!c->release[0] || strchr(c->release, '/'))
		return -ENOENT;
	snprintf(path, sizeof(path), "/boot/config-%s", c->release);
	rc = al__check_lines(c, path, config_line, &cf);
	if (rc < 0)
		return rc;
	return cf.found ? 1 : 0;
}

bool
al__check_cmdline(const struct check_ctx *c, const char *name, char *val, size_t size)
{
	size_t nlen = strlen(name);
	const char *p = c->cmdline;
	bool found = false;

	if (size)
		val[0] = '\0';
	if (!c->have_cmdline)
		return false;
	while (*p) {
		size_t tlen;

		while (isspace((unsigned char)*p))
			p++;
		tlen = strcspn(p, " \t\n");
		if (!tlen)
			break;
		if (tlen == 2 && !strncmp(p, "--", 2))
			break; /* the rest is for init */
		if (tlen >= nlen && !strncmp(p, name, nlen) && (tlen == nlen || p[nlen] == '=')) {
			found = true; /* the last one wins, as in the kernel */
			if (size) {
				size_t vlen = tlen > nlen ? tlen - nlen - 1 : 0;

				if (vlen >= size)
					vlen = size - 1;
				memcpy(val, p + nlen + (tlen > nlen), vlen);
				val[vlen] = '\0';
			}
		}
		p += tlen;
	}
	return found;
}

bool
al__check_is_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

bool
al__check_has_cap(const struct check_ctx *c, int cap)
{
	if (c->id.caps_known)
		return (c->id.cap_eff >> cap) & 1;
	return c->id.known && c->id.uid == 0;
}

/* Keep messages one line of printable ASCII (JSON needs valid UTF-8). */
static void
sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			*s = '?';
}

void
al__check_set(struct al_syscheck *r, const char *status, const char *fix, const char *fmt, ...)
{
	va_list ap;
	int n;

	snprintf(r->status, sizeof(r->status), "%s", status);
	va_start(ap, fmt);
	n = vsnprintf(r->message, sizeof(r->message), fmt, ap);
	va_end(ap);
	if (n < 0)
		r->message[0] = '\0';
	else if ((size_t)n >= sizeof(r->message))
		memcpy(r->message + sizeof(r->message) - 4, "...", 4);
	sanitize(r->message);
	snprintf(r->fix, sizeof(r->fix), "%s", fix ? fix : "");
	sanitize(r->fix);
}

/* "0-3,8,10-11" from a sorted list; ends in "..." when it does not fit. */
void
al__check_cpu_ranges(const int *cpus, int n, char *buf, size_t size)
{
	size_t len = 0;
	int i = 0;

	if (!size)
		return;
	buf[0] = '\0';
	while (i < n) {
		int j = i;
		char part[32];
		size_t plen;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j == i)
			snprintf(part, sizeof(part), "%s%d", len ? "," : "", cpus[i]);
		else
			snprintf(part, sizeof(part), "%s%d-%d", len ? "," : "", cpus[i], cpus[j]);
		plen = strlen(part);
		if (len + plen + 4 >= size) {
			snprintf(buf + len, size - len, "%s", size - len > 3 ? "..." : "");
			return;
		}
		memcpy(buf + len, part, plen + 1);
		len += plen;
		i = j + 1;
	}
}

/* --- who we are: root/proc/self/status --- */

static int
status_line(char *line, void *data)
{
	struct check_ident *id = data;
	char *p, *end;
	long v;

	if (!strncmp(line, "Uid:", 4)) {
		/* real, effective, saved, fs */
		p = line + 4;
		errno = 0;
		strtol(p, &end, 10);
		if (end == p || errno)
			return 0;
		p = end;
		v = strtol(p, &end, 10);
		if (end == p || errno || v < 0)
			return 0;
		id->uid = v;
		id->known = true;
	} else if (!strncmp(line, "Gid:", 4)) {
		p = line + 4;
		errno = 0;
		strtol(p, &end, 10);
		if (end == p || errno)
			return 0;
		p = end;
		v = strtol(p, &end, 10);
		if (end != p && !errno && v >= 0)
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

static int
ctx_init(struct check_ctx *c, const struct al_check_opts *o)
{
	const char *root = (o && o->root && *o->root) ? o->root : "/";
	char *real;
	struct stat st;

	if (stat(root, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
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
	al__check_lines(c, "/proc/self/status", status_line, &c->id);
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

void
al_check_tally(const struct al_syscheck *c, int n, struct al_check_tally *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		if (!strcmp(c[i].status, "ok"))
			t->ok++;
		else if (!strcmp(c[i].status, "warn"))
			t->warn++;
		else if (!strcmp(c[i].status, "fail"))
			t->fail++;
		else
			t->skip++;
	}
}
