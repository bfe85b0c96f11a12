/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load options: defaults, parsing, checks, descriptions and shared helpers. */
#define AL_LOAD_PRIVATE
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/units.h"
#include "load-private.h"

#define MiB (1024LL * 1024)
#define GiB (1024LL * MiB)

#define HB_TASKS_MAX 32768

int
al_load_opts_init(struct al_load_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->policy = SCHED_OTHER;
	o->cpus_all = true;
	CPU_ZERO(&o->cpus);
	snprintf(o->cpus_text, sizeof(o->cpus_text), "all");
	snprintf(o->dir, sizeof(o->dir), "/var/tmp");
	o->hb_groups = 10;
	o->hb_fds = 20;
	o->hb_loops = 100;
	o->hb_datasize = 100;
	o->rt_period_ns = 20 * AL_NS_PER_MS;
	o->rt_run_pct = 20;
	o->rt_prio = 2;
	return 0;
}

int
al_load_parse_policy(const char *s, struct al_load_opts *o)
{
	static const struct {
		const char *name;
		int policy;
		bool rt;
	} pol[] = {
		{ "other", SCHED_OTHER, false }, { "batch", SCHED_BATCH, false },
		{ "idle", SCHED_IDLE, false },   { "rr", SCHED_RR, true },
		{ "fifo", SCHED_FIFO, true },
	};
	const char *colon;
	size_t len, i;
	long prio = 0;

	if (!s)
		return -EINVAL;
	colon = strchr(s, ':');
	len = colon ? (size_t)(colon - s) : strlen(s);
	for (i = 0; i < sizeof(pol) / sizeof(pol[0]); i++) {
		if (strlen(pol[i].name) != len || strncmp(s, pol[i].name, len))
			continue;
		if (pol[i].rt) {
			if (!colon || al_parse_long(colon + 1, 1, 99, &prio))
				return -EINVAL;
		} else if (colon) {
			return -EINVAL;
		}
		o->policy = pol[i].policy;
		o->prio = (int)prio;
		return 0;
	}
	return -EINVAL;
}

static int
parse_cpu_number(const char **p, long *out)
{
	long v = 0;
	int digits = 0;

	while (isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		if (v >= CPU_SETSIZE)
			return -EINVAL;
		(*p)++;
		digits++;
	}
	if (!digits)
		return -EINVAL;
	*out = v;
	return 0;
}

int
al_load_parse_cpus(const char *s, struct al_load_opts *o)
{
	const char *p = s;
	cpu_set_t set;
	long a, b, c;

	if (!s || !*s)
		return -EINVAL;
	if (!strcmp(s, "all")) {
		o->cpus_all = true;
		CPU_ZERO(&o->cpus);
		snprintf(o->cpus_text, sizeof(o->cpus_text), "all");
		return 0;
	}
	if (strlen(s) >= sizeof(o->cpus_text))
		return -EINVAL;
	CPU_ZERO(&set);
	for (;;) {
		if (parse_cpu_number(&p, &a))
			return -EINVAL;
		b = a;
		if (*p == '-') {
			p++;
			if (parse_cpu_number(&p, &b) || b < a)
				return -EINVAL;
		}
		for (c = a; c <= b; c++)
			CPU_SET(c, &set);
		if (!*p)
			break;
		if (*p != ',')
			return -EINVAL;
		p++;
	}
	o->cpus_all = false;
	o->cpus = set;
	snprintf(o->cpus_text, sizeof(o->cpus_text), "%s", s);
	return 0;
}

/* "4096", "64k", "512M", "1G", "2GiB": bytes, binary multiples. */
static int
parse_size_bytes(const char *s, int64_t *out)
{
	static const struct {
		const char *suffix;
		int64_t mul;
	} sfx[] = {
		{ "", 1 },	  { "B", 1 },	      { "k", 1024 },	 { "K", 1024 },
		{ "KiB", 1024 },  { "M", MiB },       { "MiB", MiB },	 { "G", GiB },
		{ "GiB", GiB },	  { "T", 1024 * GiB }, { "TiB", 1024 * GiB },
	};
	int64_t v = 0;
	const char *p = s;
	size_t i;

	if (!s || !isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (INT64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (*p - '0');
	}
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		if (strcmp(p, sfx[i].suffix))
			continue;
		if (v > INT64_MAX / sfx[i].mul)
			return -ERANGE;
		*out = v * sfx[i].mul;
		return 0;
	}
	return -EINVAL;
}

#define VAL(name_, c_, arg_, help_) \
	{ .name = (name_), .short_name = (c_), .type = AL_OPT_SPEC, .arg = (arg_), .help = (help_) }
#define FLAG(name_, c_, help_) \
	{ .name = (name_), .short_name = (c_), .type = AL_OPT_FLAG, .help = (help_) }

const struct al_optdef al_load_optdefs[] = {
	VAL("load-policy", 0, "POLICY",
	    "scheduling of the loads: other, batch, idle, rr:PRIO, fifo:PRIO (default other)"),
	VAL("load-nice", 0, "N", "nice value of the loads, -20..19 (default 0)"),
	VAL("load-cpus", 0, "LIST", "CPUs the loads may run on, e.g. 0,2-3 (default all)"),
	VAL("load-dir", 0, "DIR", "directory of the disk loads' files (default /var/tmp)"),
	FLAG("direct", 0, "disk loads use O_DIRECT"),
	VAL("file-size", 0, "SIZE",
	    "size of each disk load file, e.g. 256M (default: 1/8 of available memory, 16M..1G)"),
	VAL("workers", 0, "N",
	    "worker processes of cpu, mem, procfs, fork; threads of rt-migrate (default: cpu, mem one per CPU; rt-migrate CPUs + 1; others 1)"),
	VAL("mem-size", 0, "SIZE",
	    "working set of each mem worker (default 4 x last-level cache, at least 64M)"),
	VAL("groups", 'g', "N", "hackbench groups (default 10)"),
	VAL("fds", 'f', "N", "hackbench senders and receivers per group (default 20)"),
	VAL("loops", 'l', "N", "hackbench messages each sender sends each receiver (default 100)"),
	VAL("datasize", 's', "BYTES", "hackbench message size (default 100)"),
	FLAG("pipe", 'p', "hackbench uses pipes (default: Unix sockets)"),
	FLAG("threads", 'T', "hackbench workers are threads (default: processes)"),
	FLAG("process", 'P', "hackbench workers are processes (the default)"),
	VAL("rt-period", 0, "TIME",
	    "rt-migrate: the threads wake together every TIME, 100us..1s (default 20ms)"),
	VAL("rt-run", 0, "TIME|PCT%",
	    "rt-migrate: busy time per period, a time or a % of --rt-period (default 20%)"),
	VAL("rt-prio", 0, "PRIO",
	    "rt-migrate: SCHED_FIFO priority of the lowest thread, 1..98; each next one higher (default 2)"),
	AL_OPT_END,
};
#undef VAL
#undef FLAG

static int
opt_long(const char *name, const char *arg, long min, long max, long *out, char *err,
	 size_t err_size)
{
	int r = al_parse_long(arg, min, max, out);

	if (r == -ERANGE)
		snprintf(err, err_size, "--%s: '%s' is not in %ld..%ld", name, arg, min, max);
	else if (r)
		snprintf(err, err_size, "--%s: '%s' is not a whole number", name, arg);
	return r;
}

/* A duration with a unit ("500us", "20ms") in [min_ns, max_ns], the range as text. */
static int
opt_duration(const char *name, const char *arg, int64_t min_ns, int64_t max_ns,
	     const char *range, int64_t *out_ns, char *err, size_t err_size)
{
	int64_t t_ns;
	int r = al_parse_duration_ns(arg, 0, &t_ns);

	if (r == -EINVAL) {
		snprintf(err, err_size, "--%s: '%s' is not a time with a unit (e.g. 20ms, 500us)",
			 name, arg);
		return r;
	}
	if (!r && (t_ns < min_ns || t_ns > max_ns))
		r = -ERANGE;
	if (r) {
		snprintf(err, err_size, "--%s: '%s' is not in %s", name, arg, range);
		return r;
	}
	*out_ns = t_ns;
	return 0;
}

/* --rt-run: a time, or a whole percentage of the period ("20%"). */
static int
opt_rt_run(struct al_load_opts *o, const char *arg, char *err, size_t err_size)
{
	size_t len = strlen(arg);
	char pct[16];
	long v;
	int r;

	if (len && arg[len - 1] == '%') {
		if (len > sizeof(pct))
			r = -ERANGE;
		else {
			memcpy(pct, arg, len - 1);
			pct[len - 1] = 0;
			r = al_parse_long(pct, 1, 99, &v);
		}
		if (r) {
			snprintf(err, err_size, "--rt-run: '%s' is not a percentage of --rt-period in 1%%..99%%",
				 arg);
			return r;
		}
		o->rt_run_pct = (int)v;
		o->rt_run_ns = 0;
		return 0;
	}
	r = opt_duration("rt-run", arg, AL_NS_PER_US, AL_NS_PER_SEC, "1us..1s", &o->rt_run_ns, err,
			 err_size);
	if (r == -EINVAL)
		snprintf(err, err_size,
			 "--rt-run: '%s' is not a time (e.g. 4ms) or a percentage of --rt-period (e.g. 20%%)",
			 arg);
	if (!r)
		o->rt_run_pct = 0;
	return r;
}

static int
opt_size(const char *name, const char *arg, int64_t min, int64_t *out, char *err,
	 size_t err_size)
{
	int r = parse_size_bytes(arg, out);

	if (!r && *out < min)
		r = -ERANGE;
	if (r)
		snprintf(err, err_size,
			 "--%s: '%s' is not a size of at least %lld bytes (e.g. 4096, 64k, 256M, 1G)",
			 name, arg ? arg : "", (long long)min);
	return r;
}

/* The load options that are a whole number in a range, each an int of struct al_load_opts. */
static const struct {
	const char *name;
	long min, max;
	size_t off;
} int_opts[] = {
	{ "load-nice", -20, 19, offsetof(struct al_load_opts, nice) },
	{ "workers", 1, 1024, offsetof(struct al_load_opts, workers) },
	{ "groups", 1, 1000, offsetof(struct al_load_opts, hb_groups) },
	{ "fds", 1, 1000, offsetof(struct al_load_opts, hb_fds) },
	{ "loops", 1, 100000000, offsetof(struct al_load_opts, hb_loops) },
	{ "datasize", 1, 1048576, offsetof(struct al_load_opts, hb_datasize) },
	{ "rt-prio", 1, 98, offsetof(struct al_load_opts, rt_prio) },
};

/* The flags: each sets a bool of struct al_load_opts to value. */
static const struct {
	const char *name;
	size_t off;
	bool value;
} flag_opts[] = {
	{ "direct", offsetof(struct al_load_opts, direct), true },
	{ "pipe", offsetof(struct al_load_opts, hb_pipe), true },
	{ "threads", offsetof(struct al_load_opts, hb_threads), true },
	{ "process", offsetof(struct al_load_opts, hb_threads), false },
};

int
al_load_opt_set(struct al_load_opts *o, const char *name, const char *arg, char *err,
		size_t err_size)
{
	const struct al_optdef *d;
	size_t i;
	long v;
	int r;

	for (d = al_load_optdefs; d->name; d++)
		if (!strcmp(d->name, name))
			break;
	if (!d->name) {
		snprintf(err, err_size, "--%s: not a load option", name);
		return -ENOENT;
	}
	if (d->type != AL_OPT_FLAG && !arg) {
		snprintf(err, err_size, "--%s: needs a value (%s)", name, d->arg);
		return -EINVAL;
	}
	if (!strcmp(name, "load-policy")) {
		r = al_load_parse_policy(arg, o);
		if (r)
			snprintf(err, err_size,
				 "--load-policy: '%s' is not other, batch, idle, rr:PRIO or fifo:PRIO (PRIO 1..99)",
				 arg);
		return r;
	}
	for (i = 0; i < sizeof(int_opts) / sizeof(int_opts[0]); i++)
		if (!strcmp(name, int_opts[i].name)) {
			r = opt_long(name, arg, int_opts[i].min, int_opts[i].max, &v, err, err_size);
			if (!r)
				*(int *)((char *)o + int_opts[i].off) = (int)v;
			return r;
		}
	for (i = 0; i < sizeof(flag_opts) / sizeof(flag_opts[0]); i++)
		if (!strcmp(name, flag_opts[i].name)) {
			*(bool *)((char *)o + flag_opts[i].off) = flag_opts[i].value;
			return 0;
		}
	if (!strcmp(name, "load-cpus")) {
		r = al_load_parse_cpus(arg, o);
		if (r)
			snprintf(err, err_size,
				 "--load-cpus: '%s' is not a CPU list like 0,2-3 or all", arg);
		return r;
	}
	if (!strcmp(name, "load-dir")) {
		if (!*arg || strlen(arg) >= sizeof(o->dir)) {
			snprintf(err, err_size, "--load-dir: '%s' is empty or too long", arg);
			return -EINVAL;
		}
		snprintf(o->dir, sizeof(o->dir), "%s", arg);
		return 0;
	}
	if (!strcmp(name, "file-size"))
		return opt_size(name, arg, 4096, &o->file_size_bytes, err, err_size);
	if (!strcmp(name, "mem-size"))
		return opt_size(name, arg, 4096, &o->mem_bytes, err, err_size);
	if (!strcmp(name, "rt-period"))
		return opt_duration(name, arg, 100 * AL_NS_PER_US, AL_NS_PER_SEC, "100us..1s",
				    &o->rt_period_ns, err, err_size);
	if (!strcmp(name, "rt-run"))
		return opt_rt_run(o, arg, err, err_size);
	snprintf(err, err_size, "--%s: declared, but not set here", name);
	return -ENOENT;
}

static bool
phases_use(const struct al_phase_spec *phases, size_t n, const struct al_load_ops *ops)
{
	size_t i;
	int j;

	if (!phases)
		return true;
	for (i = 0; i < n; i++)
		for (j = 0; j < phases[i].n_loads; j++)
			if (phases[i].loads[j].ops == ops)
				return true;
	return false;
}

int
al_load_check_opts(const struct al_load_opts *o, const struct al_phase_spec *phases,
		   size_t n_phases, char *err, size_t err_size)
{
	bool disk = phases_use(phases, n_phases, &al_load_disk_write) ||
		    phases_use(phases, n_phases, &al_load_disk_copy) ||
		    phases_use(phases, n_phases, &al_load_disk_read);
	const struct al_load_ops *ops;
	struct stat st;
	cpu_set_t allowed;
	int fd, r, c;
	size_t i;

	if (!o->cpus_all) {
		if (sched_getaffinity(0, sizeof(allowed), &allowed))
			CPU_ZERO(&allowed);
		for (c = 0; c < CPU_SETSIZE; c++) {
			if (CPU_ISSET(c, &o->cpus) && !CPU_ISSET(c, &allowed)) {
				snprintf(err, err_size,
					 "--load-cpus: CPU %d is not online or not allowed", c);
				return -EINVAL;
			}
		}
	}
	if ((o->policy == SCHED_RR || o->policy == SCHED_FIFO) && (o->prio < 1 || o->prio > 99)) {
		snprintf(err, err_size, "--load-policy: priority %d is not in 1..99", o->prio);
		return -EINVAL;
	}
	if (phases_use(phases, n_phases, &al_load_hackbench) &&
	    (long)o->hb_groups * o->hb_fds * 2 > HB_TASKS_MAX) {
		snprintf(err, err_size, "hackbench: %d groups x %d fds x 2 is more than %d tasks",
			 o->hb_groups, o->hb_fds, HB_TASKS_MAX);
		return -EINVAL;
	}
	for (i = 0; (ops = al_load_get(i)); i++) {
		if (ops->check && phases_use(phases, n_phases, ops)) {
			r = ops->check(o, err, err_size);
			if (r)
				return r;
		}
	}
	if (!disk)
		return 0;
	if (stat(o->dir, &st)) {
		r = -errno;
		snprintf(err, err_size, "--load-dir: %s: %s", o->dir, strerror(-r));
		return r;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, err_size, "--load-dir: %s: %s", o->dir, strerror(ENOTDIR));
		return -ENOTDIR;
	}
	r = al__load_tmpfile(o->dir, o->direct, &fd);
	if (r) {
		if (o->direct && r == -EINVAL) {
			snprintf(err, err_size, "--direct: %s does not support O_DIRECT", o->dir);
			return -EOPNOTSUPP;
		}
		snprintf(err, err_size, "--load-dir: cannot create a file in %s: %s", o->dir,
			 strerror(-r));
		return r;
	}
	close(fd);
	return 0;
}

/* Bytes of MemAvailable, or 0. */
static int64_t
mem_available_bytes(void)
{
	char line[128];
	long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

int64_t
al_load_file_size_bytes(const struct al_load_opts *o)
{
	struct statvfs vfs;
	int64_t size, free_bytes;

	if (o->file_size_bytes > 0)
		return o->file_size_bytes;
	size = mem_available_bytes() / 8;
	if (size > GiB)
		size = GiB;
	if (size < 16 * MiB)
		size = 16 * MiB;
	/* two files (disk-copy) must fit in half the free space */
	if (!statvfs(o->dir, &vfs)) {
		free_bytes = (int64_t)vfs.f_bavail * (int64_t)vfs.f_frsize;
		if (size > free_bytes / 4)
			size = free_bytes / 4;
	}
	size &= ~(MiB - 1);
	if (size < MiB)
		size = MiB;
	return size;
}

int
al__load_ncpus(const struct al_load_opts *o)
{
	cpu_set_t set;
	int n;

	if (o->ncpus > 0)
		return o->ncpus;
	if (!o->cpus_all) {
		n = CPU_COUNT(&o->cpus);
		return n > 0 ? n : 1;
	}
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		n = CPU_COUNT(&set);
		if (n > 0)
			return n;
	}
	n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

int
al_load_workers(const struct al_load_ops *ops, const struct al_load_opts *o)
{
	if (!ops)
		return 0;
	if (ops->workers)
		return ops->workers(o);
	return 1;
}

static const char *
policy_name(int policy)
{
	switch (policy) {
	case SCHED_BATCH:
		return "batch";
	case SCHED_IDLE:
		return "idle";
	case SCHED_RR:
		return "rr";
	case SCHED_FIFO:
		return "fifo";
	default:
		return "other";
	}
}

void
al_load_describe_sched(const struct al_load_opts *o, char *buf, size_t size)
{
	if (o->policy == SCHED_RR || o->policy == SCHED_FIFO)
		snprintf(buf, size, "policy=%s:%d nice=%d cpus=%s", policy_name(o->policy), o->prio,
			 o->nice, o->cpus_all ? "all" : o->cpus_text);
	else
		snprintf(buf, size, "policy=%s nice=%d cpus=%s", policy_name(o->policy), o->nice,
			 o->cpus_all ? "all" : o->cpus_text);
}

void
al_load_phase_describe(const struct al_phase_spec *ph, const struct al_load_opts *o, char *buf,
		       size_t size)
{
	char one[AL_LOAD_DESC_MAX];
	size_t len = 0;
	int i;

	if (!ph || !ph->n_loads) {
		snprintf(buf, size, "none");
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < ph->n_loads && len + 1 < size; i++) {
		al_load_describe(&ph->loads[i], o, one, sizeof(one));
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " + " : "", one);
	}
	if (len + 1 < size) {
		al_load_describe_sched(o, one, sizeof(one));
		snprintf(buf + len, size - len, " %s", one);
	}
}

void
al_load_describe(const struct al_load_item *item, const struct al_load_opts *o, char *buf,
		 size_t size)
{
	char params[AL_LOAD_DESC_MAX] = "";

	if (item->ops->describe)
		item->ops->describe(o, item->arg, params, sizeof(params));
	snprintf(buf, size, "%s%s%s", item->ops->name, *params ? " " : "", params);
}

int
al_load_fail(struct al_load_shm *shm, int err, const char *fmt, ...)
{
	int expected = 0;
	va_list ap;

	if (atomic_compare_exchange_strong(&shm->error_set, &expected, 1)) {
		va_start(ap, fmt);
		vsnprintf(shm->error, sizeof(shm->error), fmt, ap);
		va_end(ap);
		atomic_store(&shm->error_code, err);
		atomic_store(&shm->state, AL_LOAD_FAILED);
	}
	return err;
}

void
al__load_work_started(struct al_load_shm *shm)
{
	int64_t expected = 0;

	atomic_compare_exchange_strong(&shm->work_start_ns, &expected, al_clock_now_ns());
}

void
al__load_metric(struct al_metric *m, const char *name, double value, const char *unit)
{
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->value = value;
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
}

void
al__load_set_comm(const char *name)
{
	char comm[16];

	snprintf(comm, sizeof(comm), "al-%s", name);
	prctl(PR_SET_NAME, comm, 0, 0, 0);
}

int
al__load_tmpfile(const char *dir, bool direct, int *fd_out)
{
	int flags = O_RDWR | O_CLOEXEC | (direct ? O_DIRECT : 0);
	char path[AL_LOAD_DIR_MAX + 32];
	int fd, err;

	fd = open(dir, flags | O_TMPFILE, 0600);
	if (fd >= 0) {
		*fd_out = fd;
		return 0;
	}
	err = errno;
	/* file systems without O_TMPFILE: a named file, unlinked at once */
	if (err != EOPNOTSUPP && err != EISDIR && err != ENOSYS)
		return -err;
	snprintf(path, sizeof(path), "%s/.audiolat-load.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	if (direct) {
		err = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_DIRECT);
		if (err) {
			err = errno;
			close(fd);
			return -err;
		}
	}
	*fd_out = fd;
	return 0;
}

void
al_load_intro(const struct al_phase_spec *ph, const struct al_load_opts *o, bool classic,
	      int64_t duration_ns, char *buf, size_t size)
{
	char desc[AL_LOAD_DESC_MAX];
	size_t len;

	if (classic) {
		snprintf(buf, size,
			 "Running in %s mode with %d groups using %d file descriptors each (== %d tasks)\n"
			 "Each sender will pass %d messages of %d bytes\n",
			 o->hb_threads ? "threaded" : "process", o->hb_groups, 2 * o->hb_fds,
			 2 * o->hb_fds * o->hb_groups, o->hb_loops, o->hb_datasize);
		return;
	}
	al_load_phase_describe(ph, o, desc, sizeof(desc));
	len = (size_t)snprintf(buf, size, "load: %s\n", desc);
	if (len >= size)
		return;
	if (duration_ns)
		snprintf(buf + len, size - len, "duration: %.3f s\n",
			 (double)duration_ns / AL_NS_PER_SEC);
	else
		snprintf(buf + len, size - len, "duration: until interrupted (Ctrl-C)\n");
}
