/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tracefs side of the flight recorder: our own instance, set up with
 * libtracefs, read per CPU from trace_pipe_raw and decoded with
 * libtraceevent's kbuffer and the events' formats.
 */
#define AL_TRACE_PRIVATE_ALLOWED
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "core/text.h"
#include "trace-private.h"
#include "trace.h"
#include "tracefs-dir.h"

/* the per-CPU buffer of the CPUs we do not trace */
#define OTHER_CPUS_KB 4

struct field {
	int offset;
	int size;
	unsigned long flags;
	bool present;
};

struct evdef;

/* How to decode one event id. */
struct decoder {
	int id;
	uint8_t type;
	const struct evdef *def;
	char vec_name[32];            /* AL_TEV_VEC_*: "local_timer" */
	struct field common_pid;
	struct field pid, prev_pid;   /* next_pid/prev_pid, pid, irq, vec */
	struct field name, prev_name; /* next_comm/prev_comm, comm, irq name */
	struct field addr;            /* hrtimer function */
};

struct al_trace {
	int cpu;
	size_t buffer_kb;
	char name[64];
	struct tracefs_instance *inst;
	bool created;
	struct tracefs_cpu *tcpu;
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	void *page;
	int page_size;
	struct decoder *dec;
	int n_dec;
	uint8_t dec_of_id[65536];     /* common_type -> 1 + index in dec, 0: not ours */
	struct al_tev_ring ring;
	uint64_t events, lost_pages;
	bool armed;                   /* the rich events are enabled too */
	pid_t follow_tid;             /* al_trace_follow: its own wake-up unrecorded until armed */
};

/*
 * rich: recorded only while armed (al_trace_arm). The base set is what a
 * run pays for on every period: on the measured CPU's wake-up path only
 * sched_waking and sched_switch fire; the rich set adds five more events
 * there (the timer vector's entry/exit, hrtimer_expire entry/exit,
 * sched_wakeup) and the preemptirq ones fire on every irqs-off section.
 */
struct evdef {
	const char *sys, *name;
	uint8_t type;
	bool required;
	bool rich;
};

static const struct evdef events[] = {
	{ "sched", "sched_switch", AL_TEV_SWITCH, true, false },
	{ "sched", "sched_waking", AL_TEV_WAKING, true, false },
	{ "irq", "irq_handler_entry", AL_TEV_IRQ_ENTRY, true, false },
	{ "irq", "irq_handler_exit", AL_TEV_IRQ_EXIT, true, false },
	{ "irq", "softirq_entry", AL_TEV_SOFTIRQ_ENTRY, true, false },
	{ "irq", "softirq_exit", AL_TEV_SOFTIRQ_EXIT, true, false },
	/* armed only */
	{ "sched", "sched_wakeup", AL_TEV_WAKEUP, false, true },
	{ "timer", "hrtimer_expire_entry", AL_TEV_TIMER_ENTRY, false, true },
	{ "timer", "hrtimer_expire_exit", AL_TEV_TIMER_EXIT, false, true },
	{ "preemptirq", "irq_disable", AL_TEV_IRQOFF, false, true },
	{ "preemptirq", "irq_enable", AL_TEV_IRQON, false, true },
	{ "preemptirq", "preempt_disable", AL_TEV_PREEMPTOFF, false, true },
	{ "preemptirq", "preempt_enable", AL_TEV_PREEMPTON, false, true },
	/* x86: interrupts that bypass irq_handler_entry */
	{ "irq_vectors", "local_timer_entry", AL_TEV_VEC_ENTRY, false, true },
	{ "irq_vectors", "local_timer_exit", AL_TEV_VEC_EXIT, false, true },
	{ "irq_vectors", "reschedule_entry", AL_TEV_VEC_ENTRY, false, true },
	{ "irq_vectors", "reschedule_exit", AL_TEV_VEC_EXIT, false, true },
	{ "irq_vectors", "call_function_entry", AL_TEV_VEC_ENTRY, false, true },
	{ "irq_vectors", "call_function_exit", AL_TEV_VEC_EXIT, false, true },
	{ "irq_vectors", "call_function_single_entry", AL_TEV_VEC_ENTRY, false, true },
	{ "irq_vectors", "call_function_single_exit", AL_TEV_VEC_EXIT, false, true },
	{ "irq_vectors", "irq_work_entry", AL_TEV_VEC_ENTRY, false, true },
	{ "irq_vectors", "irq_work_exit", AL_TEV_VEC_EXIT, false, true },
	{ "irq_vectors", "x86_platform_ipi_entry", AL_TEV_VEC_ENTRY, false, true },
	{ "irq_vectors", "x86_platform_ipi_exit", AL_TEV_VEC_EXIT, false, true },
	{ "irq_vectors", "thermal_apic_entry", AL_TEV_VEC_ENTRY, false, true },
	{ "irq_vectors", "thermal_apic_exit", AL_TEV_VEC_EXIT, false, true },
};

#define N_EVENTS (sizeof(events) / sizeof(events[0]))

static const char *const systems[] = { "sched", "irq", "timer", "preemptirq", "irq_vectors",
				       NULL };

/* Instances created by this process so far (names "<pid>", "<pid>-1", ...). */
static atomic_uint instance_seq;

/* one line in err, returning rc */
#define fail al_text_err

const char *
al_trace_name(const struct al_trace *t)
{
	return t->name;
}

uint64_t
al_trace_events(const struct al_trace *t)
{
	return t->events;
}

uint64_t
al_trace_lost_pages(const struct al_trace *t)
{
	return t->lost_pages;
}

/* "audiolat-<pid>" or "audiolat-<pid>-<seq>": 0 and pid, seq; -1 for other names. */
static int
parse_instance_name(const char *name, long *pid, long *seq)
{
	char *end;

	if (strncmp(name, AL_TRACE_PREFIX, strlen(AL_TRACE_PREFIX)))
		return -1;
	name += strlen(AL_TRACE_PREFIX);
	if (!isdigit((unsigned char)*name))
		return -1;
	errno = 0;
	*pid = strtol(name, &end, 10);
	if (errno || *pid <= 0 || *pid > INT_MAX)
		return -1;
	*seq = 0;
	if (*end == '-') {
		name = end + 1;
		if (!isdigit((unsigned char)*name))
			return -1;
		*seq = strtol(name, &end, 10);
		if (errno || *seq <= 0 || *seq > INT_MAX)
			return -1;
	}
	return *end ? -1 : 0;
}

/*
 * Instances left by processes that died without closing them (SIGKILL):
 * a dead pid's, or one with our pid that this process did not create (a
 * predecessor that had the same pid). Live processes' are left alone.
 */
void
al__trace_remove_stale(void)
{
	char **names = tracefs_instances("^" AL_TRACE_PREFIX);
	struct tracefs_instance *inst;
	long pid, seq;
	int i;

	if (!names) {
		al__khist_remove_stale();
		return;
	}
	for (i = 0; names[i]; i++) {
		if (parse_instance_name(names[i], &pid, &seq))
			continue;
		if (pid == getpid()) {
			if ((unsigned long)seq < atomic_load(&instance_seq))
				continue;
		} else if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) {
			continue;
		}
		inst = tracefs_instance_alloc(NULL, names[i]);
		if (!inst)
			continue;
		tracefs_trace_off(inst);
		al__khist_clear(inst, names[i]);
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
	}
	tracefs_list_free(names);
	al__khist_remove_stale();
}

static int
check_tracefs(char *err, size_t err_size)
{
	const char *path;
	char *dir;
	int rc;

	rc = al_tracefs_ready(err, err_size);
	if (rc)
		return rc;
	path = tracefs_tracing_dir();
	if (!path)
		return fail(err, err_size, -ENOENT, "no tracefs (kernel without CONFIG_TRACING?)");
	if (asprintf(&dir, "%s/instances", path) < 0)
		return fail(err, err_size, -ENOMEM, "out of memory");
	rc = access(dir, W_OK) ? -errno : 0;
	if (rc == -EACCES || rc == -EPERM)
		fail(err, err_size, -EPERM, "tracing needs root: %s is not writable", dir);
	else if (rc == -ENOENT)
		fail(err, err_size, -ENOTSUP, "%s is missing: the kernel has no ftrace instances",
		     dir);
	else if (rc)
		fail(err, err_size, rc, "%s: %s", dir, strerror(-rc));
	free(dir);
	return rc == -EACCES ? -EPERM : rc == -ENOENT ? -ENOTSUP : rc;
}

int
al__trace_new_instance(char *name, size_t name_size, struct tracefs_instance **inst, char *err,
		       size_t err_size)
{
	unsigned seq;
	int tries;

	for (tries = 0; tries < 64; tries++) {
		seq = atomic_fetch_add(&instance_seq, 1);
		if (seq)
			snprintf(name, name_size, AL_TRACE_PREFIX "%d-%u", (int)getpid(), seq);
		else
			snprintf(name, name_size, AL_TRACE_PREFIX "%d", (int)getpid());
		*inst = tracefs_instance_create(name);
		if (!*inst)
			return fail(err, err_size, errno ? -errno : -EIO,
				    "cannot create the ftrace instance %s: %s", name,
				    strerror(errno ? errno : EIO));
		if (tracefs_instance_is_new(*inst))
			return 0;
		/* someone else's: leave it */
		tracefs_instance_free(*inst);
		*inst = NULL;
	}
	return fail(err, err_size, -EEXIST, "no free ftrace instance name " AL_TRACE_PREFIX "%d-*",
		    (int)getpid());
}

static int
create_instance(struct al_trace *t, char *err, size_t err_size)
{
	int rc = al__trace_new_instance(t->name, sizeof(t->name), &t->inst, err, err_size);

	t->created = rc == 0;
	return rc;
}

static int
write_file(struct al_trace *t, const char *file, const char *value, char *err, size_t err_size)
{
	if (tracefs_instance_file_write(t->inst, file, value) < 0) {
		int rc = errno ? -errno : -EIO;

		return fail(err, err_size, rc, "%s: writing '%s' to %s: %s", t->name, value, file,
			    strerror(-rc));
	}
	return 0;
}

static void
get_field(struct tep_event *ev, const char *name, struct field *f)
{
	struct tep_format_field *ff = tep_find_any_field(ev, name);

	memset(f, 0, sizeof(*f));
	if (!ff)
		return;
	f->offset = ff->offset;
	f->size = ff->size;
	f->flags = ff->flags;
	f->present = true;
}

static void
setup_decoder(struct al_trace *t, const struct evdef *d, struct tep_event *ev)
{
	struct decoder *dc = &t->dec[t->n_dec++];
	size_t n;

	memset(dc, 0, sizeof(*dc));
	dc->id = ev->id;
	dc->def = d;
	if (ev->id >= 0 && ev->id < 65536)
		t->dec_of_id[ev->id] = (uint8_t)t->n_dec;
	dc->type = d->type;
	get_field(ev, "common_pid", &dc->common_pid);
	switch (d->type) {
	case AL_TEV_SWITCH:
		get_field(ev, "next_pid", &dc->pid);
		get_field(ev, "next_comm", &dc->name);
		get_field(ev, "prev_pid", &dc->prev_pid);
		get_field(ev, "prev_comm", &dc->prev_name);
		break;
	case AL_TEV_WAKING:
	case AL_TEV_WAKEUP:
		get_field(ev, "pid", &dc->pid);
		get_field(ev, "comm", &dc->name);
		break;
	case AL_TEV_IRQ_ENTRY:
		get_field(ev, "irq", &dc->pid);
		get_field(ev, "name", &dc->name);
		break;
	case AL_TEV_IRQ_EXIT:
		get_field(ev, "irq", &dc->pid);
		break;
	case AL_TEV_SOFTIRQ_ENTRY:
	case AL_TEV_SOFTIRQ_EXIT:
		get_field(ev, "vec", &dc->pid);
		break;
	case AL_TEV_TIMER_ENTRY:
		get_field(ev, "function", &dc->addr);
		break;
	case AL_TEV_VEC_ENTRY:
	case AL_TEV_VEC_EXIT:
		n = strlen(d->name) - (d->type == AL_TEV_VEC_ENTRY ? strlen("_entry")
								   : strlen("_exit"));
		if (n >= sizeof(dc->vec_name))
			n = sizeof(dc->vec_name) - 1;
		memcpy(dc->vec_name, d->name, n);
		dc->vec_name[n] = '\0';
		break;
	default:
		break;
	}
}

static int
enable_events(struct al_trace *t, char *err, size_t err_size)
{
	struct tep_event *ev;
	size_t i;

	t->tep = tracefs_local_events_system(NULL, systems);
	if (!t->tep)
		return fail(err, err_size, -ENOTSUP, "%s: cannot read the event formats",
			    t->name);
	t->dec = calloc(N_EVENTS, sizeof(*t->dec));
	if (!t->dec)
		return fail(err, err_size, -ENOMEM, "out of memory");
	for (i = 0; i < N_EVENTS; i++) {
		ev = tep_find_event_by_name(t->tep, events[i].sys, events[i].name);
		/* the rich ones are only decoded here; al_trace_arm() enables them */
		if (!ev || (!events[i].rich &&
			    tracefs_event_enable(t->inst, events[i].sys, events[i].name) < 0)) {
			if (events[i].required)
				return fail(err, err_size, -ENOTSUP,
					    "%s: the kernel has no event %s:%s", t->name,
					    events[i].sys, events[i].name);
			continue;
		}
		setup_decoder(t, &events[i], ev);
	}
	return 0;
}

/* An event that opens a context or section (its end is another event). */
static bool
opens(uint8_t type)
{
	return type == AL_TEV_TIMER_ENTRY || type == AL_TEV_VEC_ENTRY || type == AL_TEV_IRQOFF ||
	       type == AL_TEV_PREEMPTOFF;
}

/*
 * The followed thread's own wake-up, left out by filters in the kernel
 * (on, not armed) or recorded (off): its sched_waking, and the switch to it
 * from idle. Other tasks' wakings and switches, and the thread's switches
 * out and from other tasks, stay recorded.
 */
static int
filter_own_wakeup(struct al_trace *t, bool on)
{
	char waking[64], sw[96];
	int rc = 0;

	if (!t->follow_tid)
		return 0;
	snprintf(waking, sizeof(waking), "pid != %d", (int)t->follow_tid);
	snprintf(sw, sizeof(sw), "next_pid != %d || prev_pid != 0", (int)t->follow_tid);
	if (tracefs_instance_file_write(t->inst, "events/sched/sched_waking/filter",
					on ? waking : "0") < 0)
		rc = errno ? -errno : -EIO;
	if (tracefs_instance_file_write(t->inst, "events/sched/sched_switch/filter",
					on ? sw : "0") < 0 && !rc)
		rc = errno ? -errno : -EIO;
	return rc;
}

int
al_trace_follow(struct al_trace *t, pid_t tid)
{
	if (!t || !t->inst || tid <= 0)
		return -EINVAL;
	if (t->follow_tid && !t->armed)
		filter_own_wakeup(t, false);
	t->follow_tid = tid;
	return t->armed ? 0 : filter_own_wakeup(t, true);
}

int
al_trace_arm(struct al_trace *t, bool rich)
{
	int pass, i, rc = 0, frc = 0;

	if (!t || !t->inst)
		return -EINVAL;
	if (t->armed == rich)
		return 0;
	if (rich)
		frc = filter_own_wakeup(t, false);
	/*
	 * Arming enables the ends before the starts, disarming disables the
	 * starts before the ends: no context is recorded as entered and never
	 * left (the analysis would charge the rest of the window to it).
	 */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < t->n_dec; i++) {
			const struct evdef *d = t->dec[i].def;

			if (!d->rich || opens(d->type) != (rich ? pass == 1 : pass == 0))
				continue;
			if ((rich ? tracefs_event_enable(t->inst, d->sys, d->name)
				  : tracefs_event_disable(t->inst, d->sys, d->name)) < 0 &&
			    !rc)
				rc = errno ? -errno : -EIO;
		}
	t->armed = rich;
	if (!rich)
		frc = filter_own_wakeup(t, true);
	return rc ? rc : frc;
}

bool
al_trace_armed(const struct al_trace *t)
{
	return t && t->armed;
}

int
al_trace_open(struct al_trace **out, int cpu, size_t buffer_kb, char *err, size_t err_size)
{
	struct al_trace *t;
	char buf[32];
	long n_cpus = sysconf(_SC_NPROCESSORS_CONF);
	int rc;

	*out = NULL;
	if (err && err_size)
		err[0] = '\0';
	if (!buffer_kb)
		buffer_kb = AL_TRACE_BUFFER_KB_DEFAULT;
	if (cpu < 0 || cpu >= n_cpus)
		return fail(err, err_size, -EINVAL, "no CPU %d to trace (%ld CPUs)", cpu, n_cpus);
	if (buffer_kb < AL_TRACE_BUFFER_KB_MIN || buffer_kb > AL_TRACE_BUFFER_KB_MAX)
		return fail(err, err_size, -EINVAL, "trace buffer of %zu KiB not in [%d, %d]",
			    buffer_kb, AL_TRACE_BUFFER_KB_MIN, AL_TRACE_BUFFER_KB_MAX);
	t = calloc(1, sizeof(*t));
	if (!t)
		return fail(err, err_size, -ENOMEM, "out of memory");
	t->cpu = cpu;
	t->buffer_kb = buffer_kb;
	tracefs_set_loglevel(TEP_LOG_NONE);

	rc = check_tracefs(err, err_size);
	if (rc)
		goto fail;
	al__trace_remove_stale();
	rc = create_instance(t, err, err_size);
	if (rc)
		goto fail;
	/* from here on, al_trace_close() removes the instance */
	rc = write_file(t, "tracing_on", "0", err, err_size);
	if (!rc)
		rc = write_file(t, "trace_clock", "mono", err, err_size);
	if (!rc)
		rc = write_file(t, "options/overwrite", "1", err, err_size);
	if (rc)
		goto fail;
	/*
	 * The comms come from the events' own fields: the kernel need not save
	 * the comm of every task switched on the CPU after an event of ours
	 * (record-cmd, a probe on every sched_switch and sched_wakeup). Kernels
	 * without the option in instances keep it; nothing else changes.
	 */
	tracefs_instance_file_write(t->inst, "trace_options", "norecord-cmd");
	if (tracefs_instance_set_buffer_size(t->inst, OTHER_CPUS_KB, -1) < 0 ||
	    tracefs_instance_set_buffer_size(t->inst, buffer_kb, cpu) < 0) {
		rc = fail(err, err_size, errno ? -errno : -EIO,
			  "%s: cannot set a %zu KiB buffer on CPU %d: %s", t->name, buffer_kb, cpu,
			  strerror(errno ? errno : EIO));
		goto fail;
	}
	snprintf(buf, sizeof(buf), "%d", cpu);
	if (tracefs_instance_set_affinity(t->inst, buf) < 0) {
		rc = fail(err, err_size, -EIO, "%s: cannot limit tracing to CPU %d", t->name, cpu);
		goto fail;
	}
	rc = enable_events(t, err, err_size);
	if (rc)
		goto fail;

	t->tcpu = tracefs_cpu_open(t->inst, cpu, true);
	if (!t->tcpu) {
		rc = fail(err, err_size, errno ? -errno : -EIO,
			  "%s: cannot open trace_pipe_raw of CPU %d", t->name, cpu);
		goto fail;
	}
	t->page_size = tracefs_cpu_read_size(t->tcpu);
	t->kbuf = tep_kbuffer(t->tep);
	t->page = t->page_size > 0 ? calloc(1, (size_t)t->page_size) : NULL;
	/* history: about twice what the kernel buffer holds (events average > 32 bytes there) */
	t->ring.cap = buffer_kb * 1024 / 32;
	t->ring.ev = calloc(t->ring.cap, sizeof(*t->ring.ev));
	if (!t->kbuf || !t->page || !t->ring.ev) {
		rc = fail(err, err_size, -ENOMEM, "out of memory for the trace history");
		goto fail;
	}
	tracefs_instance_file_clear(t->inst, "trace"); /* start empty */
	rc = write_file(t, "tracing_on", "1", err, err_size);
	if (rc)
		goto fail;
	*out = t;
	return 0;
fail:
	al_trace_close(t);
	return rc;
}

void
al_trace_close(struct al_trace *t)
{
	if (!t)
		return;
	if (t->inst) {
		tracefs_trace_off(t->inst);
		if (t->tcpu)
			tracefs_cpu_close(t->tcpu);
		t->tcpu = NULL;
		if (t->created)
			tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
	}
	if (t->kbuf)
		kbuffer_free(t->kbuf);
	if (t->tep)
		tep_free(t->tep);
	free(t->page);
	free(t->ring.ev);
	free(t->dec);
	free(t);
}

/* A number field inside a record of size bytes; false when it is not there. */
static bool
read_num(const struct al_trace *t, const struct field *f, const uint8_t *data, int size,
	 long long *v)
{
	unsigned long long u;

	if (!f->present || f->offset < 0 || f->size <= 0 || f->size > 8 || f->offset > size ||
	    f->size > size - f->offset)
		return false;
	u = tep_read_number(t->tep, data + f->offset, f->size);
	if (f->size == 4 && (f->flags & TEP_FIELD_IS_SIGNED))
		*v = (int32_t)(uint32_t)u;
	else
		*v = (long long)u;
	return true;
}

/* A string field (fixed char array or __data_loc/__rel_loc), printable, cut to size. */
static void
read_str(const struct al_trace *t, const struct field *f, const uint8_t *data, int size,
	 char *dst, size_t dst_size)
{
	const uint8_t *s;
	size_t len, i;

	dst[0] = '\0';
	if (!f->present || f->offset < 0 || f->size <= 0 || f->offset > size ||
	    f->size > size - f->offset)
		return;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc;
		size_t off;

		if (f->size != 4)
			return;
		loc = tep_read_number(t->tep, data + f->offset, 4);
		off = loc & 0xffff;
		len = (loc >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (size_t)f->offset + 4;
		if (off > (size_t)size || len > (size_t)size - off)
			return;
		s = data + off;
	} else {
		s = data + f->offset;
		len = (size_t)f->size;
	}
	for (i = 0; i < len && i + 1 < dst_size && s[i]; i++)
		dst[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? (char)s[i] : '?';
	dst[i] = '\0';
}

static void
decode(struct al_trace *t, const uint8_t *data, int size, int64_t ts_ns)
{
	const struct decoder *dc;
	struct al_tev e;
	unsigned id;
	long long v;

	if (size < 2)
		return;
	id = (unsigned)tep_read_number(t->tep, data, 2);
	if (!t->dec_of_id[id])
		return;
	dc = &t->dec[t->dec_of_id[id] - 1];
	memset(&e, 0, sizeof(e));
	e.ts_ns = ts_ns;
	e.type = dc->type;
	if (read_num(t, &dc->common_pid, data, size, &v))
		e.prev_pid = (int32_t)v;
	if (read_num(t, &dc->pid, data, size, &v))
		e.pid = (int32_t)v;
	if (dc->type == AL_TEV_SWITCH && read_num(t, &dc->prev_pid, data, size, &v))
		e.prev_pid = (int32_t)v;
	if (read_num(t, &dc->addr, data, size, &v))
		e.addr = (uint64_t)v;
	read_str(t, &dc->name, data, size, e.name, sizeof(e.name));
	read_str(t, &dc->prev_name, data, size, e.prev_name, sizeof(e.prev_name));
	if (dc->vec_name[0])
		snprintf(e.name, sizeof(e.name), "%s", dc->vec_name);
	al__tev_push(&t->ring, &e);
	t->events++;
}

/*
 * Move events from the kernel into the history, oldest first, until one
 * newer than until_ns was read (the rest stays in the kernel buffer for
 * later windows) or the kernel has no more; at most about twice the
 * buffer per call, so a CPU flooded with events cannot keep us here.
 */
static int
drain(struct al_trace *t, int64_t until_ns)
{
	size_t max_pages = 2 * (t->buffer_kb * 1024 / (size_t)t->page_size) + 8, p;
	unsigned long long ts;
	void *data;
	int n;

	if (t->ring.n && al__tev_at(&t->ring, t->ring.n - 1)->ts_ns > until_ns)
		return 0;
	for (p = 0; p < max_pages; p++) {
		errno = 0;
		n = tracefs_cpu_read(t->tcpu, t->page, true);
		if (n <= 0) {
			if (n < 0 && errno != EAGAIN && errno != EINTR && errno != 0)
				return -EIO;
			return 0;
		}
		if (kbuffer_load_subbuffer(t->kbuf, t->page) < 0)
			continue;
		data = kbuffer_read_event(t->kbuf, &ts);
		if (data && kbuffer_missed_events(t->kbuf)) {
			struct al_tev lost = { .ts_ns = (int64_t)ts, .type = AL_TEV_LOST };

			al__tev_push(&t->ring, &lost);
			t->lost_pages++;
		}
		for (; data; data = kbuffer_next_event(t->kbuf, &ts)) {
			int size = kbuffer_event_size(t->kbuf);

			if (size > 0 && size <= t->page_size)
				decode(t, data, size, (int64_t)ts);
		}
		if (t->ring.n && al__tev_at(&t->ring, t->ring.n - 1)->ts_ns > until_ns)
			return 0;
	}
	return 0;
}

/*
 * Reading the buffer out and replaying it takes milliseconds: not on the
 * traced CPU, where the measured thread runs. Moves the calling thread off
 * cpu when it may run elsewhere too (*saved: its mask, to restore); false
 * when it was not moved.
 */
static bool
leave_cpu(int cpu, cpu_set_t *saved)
{
	cpu_set_t off;

	if (sched_getaffinity(0, sizeof(*saved), saved) || !CPU_ISSET(cpu, saved) ||
	    CPU_COUNT(saved) < 2)
		return false;
	off = *saved;
	CPU_CLR(cpu, &off);
	return sched_setaffinity(0, sizeof(off), &off) == 0;
}

int
al_trace_explain(struct al_trace *t, int64_t from_ns, int64_t to_ns, pid_t tid,
		 struct al_spike *out)
{
	uint64_t addr[AL_SPIKE_CAUSES];
	int rc;

	cpu_set_t saved;
	bool moved;

	if (!t || !out || to_ns < from_ns)
		return -EINVAL;
	moved = leave_cpu(t->cpu, &saved);
	rc = drain(t, to_ns);
	if (!rc)
		rc = al__trace_analyze(&t->ring, from_ns, to_ns, (int)tid, out, addr);
	if (!rc) {
		al__trace_name_timers(out, addr);
		al__trace_name_tasks(out);
	}
	if (moved)
		sched_setaffinity(0, sizeof(saved), &saved);
	return rc;
}
