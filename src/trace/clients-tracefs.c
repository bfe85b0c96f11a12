/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JACK blame's recording (clients.h, docs/jack.md): an ftrace instance of
 * our own, "audiolat-<pid>-clients", on every CPU; sched_switch and
 * sched_waking filtered in the kernel to the threads followed, the IRQ,
 * softirq and x86 vector events to the CPUs those may run on; read with
 * libtracefs and decoded with libtraceevent into the events clients.c
 * replays.
 */
#define AL_TRACE_PRIVATE_ALLOWED
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "core/text.h"
#include "clients-private.h"
#include "clients.h"
#include "tracefs-dir.h"

/* x86's vector interrupts (they bypass irq_handler_entry), as trace.c records them */
static const char *const vectors[N_VECTORS] = { "local_timer", "reschedule", "call_function",
						"call_function_single", "irq_work",
						"x86_platform_ipi", "thermal_apic" };

/* Stop an instance and remove it (NULL: nothing). */
static void
drop(struct tracefs_instance *inst)
{
	if (!inst)
		return;
	tracefs_trace_off(inst);
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
}

/* "audiolat-<pid>-clients" of processes now dead (killed with SIGKILL). */
static void
remove_stale(void)
{
	char **names = tracefs_instances("^audiolat-[0-9]+" CLIENTS_SUFFIX "$");
	long pid;

	for (int i = 0; names && names[i]; i++) {
		pid = strtol(names[i] + strlen("audiolat-"), NULL, 10);
		if (pid > 0 && pid <= INT_MAX && pid != getpid() && kill((pid_t)pid, 0) &&
		    errno == ESRCH)
			drop(tracefs_instance_alloc(NULL, names[i]));
	}
	tracefs_list_free(names);
}

void
al_clients_close(struct al_clients *c)
{
	if (!c)
		return;
	drop(c->inst);
	if (c->dump)
		fclose(c->dump);
	if (c->tep)
		tep_free(c->tep);
	free(c->pend);
	free(c);
}

static int
write_file(struct al_clients *c, const char *file, const char *value, char *err, size_t err_size)
{
	if (tracefs_instance_file_write(c->inst, file, value) < 0)
		return al_text_err(err, err_size, errno ? -errno : -EIO, "%s: writing '%s' to %s: %s",
			    c->name, value, file, strerror(errno ? errno : EIO));
	return 0;
}

/* An event's id and a field of it (NULL: none); -1 when the kernel has no such event. */
static int
event_id(struct al_clients *c, const char *sys, const char *name, const char *field,
	 struct tep_format_field **f)
{
	struct tep_event *ev = tep_find_event_by_name(c->tep, sys, name);

	if (f)
		*f = ev && field ? tep_find_field(ev, field) : NULL;
	return ev && (!f || *f) ? ev->id : -1;
}

/* The IRQ, softirq and vector events (none of them required: without, no IRQ is charged). */
static void
find_irq_events(struct al_clients *c)
{
	char name[64];
	size_t i;

	c->ev_id[EV_IRQ] = event_id(c, "irq", "irq_handler_entry", "irq", &c->f_irq);
	if (c->ev_id[EV_IRQ] >= 0 &&
	    !(c->f_irq_name = tep_find_field(tep_find_event(c->tep, c->ev_id[EV_IRQ]), "name")))
		c->ev_id[EV_IRQ] = -1;
	c->ev_id[EV_IRQ_EXIT] = event_id(c, "irq", "irq_handler_exit", "irq", &c->f_irq_exit);
	c->ev_id[EV_SOFTIRQ] = event_id(c, "irq", "softirq_entry", "vec", &c->f_vec);
	c->ev_id[EV_SOFTIRQ_EXIT] = event_id(c, "irq", "softirq_exit", "vec", &c->f_vec_exit);
	for (i = 0; i < N_VECTORS; i++) {
		snprintf(name, sizeof(name), "%s_entry", vectors[i]);
		c->vec_id[i][0] = event_id(c, "irq_vectors", name, NULL, NULL);
		snprintf(name, sizeof(name), "%s_exit", vectors[i]);
		c->vec_id[i][1] = event_id(c, "irq_vectors", name, NULL, NULL);
		if (c->vec_id[i][0] < 0 || c->vec_id[i][1] < 0)
			c->vec_id[i][0] = c->vec_id[i][1] = -1;
	}
}

int
al_clients_open(struct al_clients **out, size_t buffer_kb, char *err, size_t err_size)
{
	static const char *const systems[] = { "sched", "irq", "irq_vectors", NULL };
	struct tep_event *sw, *wk;
	struct al_clients *c;
	int rc;

	*out = NULL;
	if (err && err_size)
		err[0] = '\0';
	if (!buffer_kb)
		buffer_kb = AL_CLIENTS_BUFFER_KB_DEFAULT;
	if (geteuid() != 0)
		return al_text_err(err, err_size, -EPERM, "tracing the clients needs root");
	c = calloc(1, sizeof(*c));
	if (!c)
		return al_text_err(err, err_size, -ENOMEM, "out of memory");
	c->pend = calloc(EVENTS_PENDING, sizeof(*c->pend));
	if (!c->pend) {
		free(c);
		return al_text_err(err, err_size, -ENOMEM, "out of memory");
	}
	tracefs_set_loglevel(TEP_LOG_NONE);
	rc = al_tracefs_ready(err, err_size);
	if (rc)
		goto fail;
	remove_stale();
	snprintf(c->name, sizeof(c->name), "audiolat-%d" CLIENTS_SUFFIX, (int)getpid());
	c->inst = tracefs_instance_create(c->name);
	if (!c->inst) {
		rc = al_text_err(err, err_size, errno == ENOENT ? -ENOTSUP : errno ? -errno : -EIO,
			  "cannot create the ftrace instance %s: %s", c->name,
			  strerror(errno ? errno : EIO));
		goto fail;
	}
	rc = write_file(c, "tracing_on", "0", err, err_size);
	if (!rc)
		rc = write_file(c, "trace_clock", "mono", err, err_size);
	if (rc)
		goto fail;
	if (tracefs_instance_set_buffer_size(c->inst, buffer_kb, -1) < 0) {
		rc = al_text_err(err, err_size, errno ? -errno : -EIO, "%s: cannot set a %zu KiB buffer",
			  c->name, buffer_kb);
		goto fail;
	}
	c->tep = tracefs_local_events_system(NULL, systems);
	sw = c->tep ? tep_find_event_by_name(c->tep, "sched", "sched_switch") : NULL;
	wk = c->tep ? tep_find_event_by_name(c->tep, "sched", "sched_waking") : NULL;
	if (!sw || !wk) {
		rc = al_text_err(err, err_size, -ENOTSUP, "%s: the kernel has no sched_switch/sched_waking",
			  c->name);
		goto fail;
	}
	c->switch_id = sw->id;
	c->waking_id = wk->id;
	c->f_prev_pid = tep_find_field(sw, "prev_pid");
	c->f_next_pid = tep_find_field(sw, "next_pid");
	c->f_prev_state = tep_find_field(sw, "prev_state");
	c->f_pid = tep_find_field(wk, "pid");
	c->f_next_comm = tep_find_field(sw, "next_comm");
	c->f_target = tep_find_field(wk, "target_cpu");
	find_irq_events(c);
	if (!c->f_prev_pid || !c->f_next_pid || !c->f_prev_state || !c->f_pid) {
		rc = al_text_err(err, err_size, -ENOTSUP, "%s: sched_switch/sched_waking lack their fields",
			  c->name);
		goto fail;
	}
	al_graph_init(&c->g, 0, AL_NS_PER_MS);
	tracefs_instance_file_clear(c->inst, "trace");
	if (getenv("AUDIOLAT_CLIENTS_DUMP") && *getenv("AUDIOLAT_CLIENTS_DUMP"))
		c->dump = fopen(getenv("AUDIOLAT_CLIENTS_DUMP"), "we");
	*out = c;
	return 0;
fail:
	al_clients_close(c);
	return rc;
}

/*
 * Enable the IRQ, softirq and vector events (each pair whose both ends the
 * kernel has), the ends before the starts: no section recorded as begun
 * and never ended. Filtered to the CPUs the followed threads may run on
 * (their affinity; all of them: no filter). 0 or -errno.
 */
static int
irq_events(struct al_clients *c)
{
	static const char *const irq_ev[] = { "irq_handler_exit", "softirq_exit", "irq_handler_entry",
					      "softirq_entry" };
	static const int irq_type[] = { EV_IRQ_EXIT, EV_SOFTIRQ_EXIT, EV_IRQ, EV_SOFTIRQ };
	char filter[FILTER_MAX] = "", name[64];
	cpu_set_t any, set;
	size_t len = 0, i;
	int k, pass, rc = 0;

	CPU_ZERO(&any);
	for (k = 0; k < c->n_thr; k++)
		if (!sched_getaffinity(c->thr[k].task.tid, sizeof(set), &set))
			CPU_OR(&any, &any, &set);
	if (CPU_COUNT(&any) && CPU_COUNT(&any) < sysconf(_SC_NPROCESSORS_CONF))
		for (k = 0; k < CPU_SETSIZE && len < sizeof(filter); k++)
			if (CPU_ISSET(k, &any))
				len += (size_t)snprintf(filter + len, sizeof(filter) - len, "%sCPU==%d",
							len ? "||" : "", k);
	if (!filter[0] || len >= sizeof(filter))
		snprintf(filter, sizeof(filter), "0"); /* every CPU */
	for (i = 0; i < 4; i++) {
		int entry = irq_type[i] - !(irq_type[i] & 1); /* EV_IRQ, EV_SOFTIRQ: odd */

		if (c->ev_id[entry] < 0 || c->ev_id[entry + 1] < 0)
			continue;
		if (tracefs_event_file_write(c->inst, "irq", irq_ev[i], "filter", filter) < 0 ||
		    (!c->irqs && tracefs_event_enable(c->inst, "irq", irq_ev[i]) < 0))
			rc = rc ? rc : errno ? -errno : -EIO;
	}
	for (pass = 1; pass >= 0; pass--)
		for (i = 0; i < N_VECTORS; i++) {
			if (c->vec_id[i][0] < 0)
				continue;
			snprintf(name, sizeof(name), "%s_%s", vectors[i], pass ? "exit" : "entry");
			if (tracefs_event_file_write(c->inst, "irq_vectors", name, "filter", filter) < 0 ||
			    (!c->irqs && tracefs_event_enable(c->inst, "irq_vectors", name) < 0))
				rc = rc ? rc : errno ? -errno : -EIO;
		}
	c->irqs = true;
	return rc;
}

static int
set_filters(struct al_clients *c)
{
	char sw[FILTER_MAX], wk[FILTER_MAX];
	size_t ls = 0, lw = 0;
	int i;

	sw[0] = wk[0] = '\0';
	for (i = 0; i < c->n_thr; i++) {
		int t = c->thr[i].task.tid;

		ls += (size_t)snprintf(sw + ls, sizeof(sw) - ls, "%sprev_pid==%d||next_pid==%d",
				       i ? "||" : "prev_prio<100||next_prio<100||", t, t);
		lw += (size_t)snprintf(wk + lw, sizeof(wk) - lw, "%spid==%d", i ? "||" : "", t);
		if (ls >= sizeof(sw) || lw >= sizeof(wk))
			return -E2BIG;
	}
	if (!c->n_thr)
		return 0;
	if (tracefs_event_file_write(c->inst, "sched", "sched_switch", "filter", sw) < 0 ||
	    tracefs_event_file_write(c->inst, "sched", "sched_waking", "filter", wk) < 0)
		return errno ? -errno : -EIO;
	if (!c->enabled) {
		if (tracefs_event_enable(c->inst, "sched", "sched_switch") < 0 ||
		    tracefs_event_enable(c->inst, "sched", "sched_waking") < 0 ||
		    tracefs_trace_on(c->inst) < 0)
			return errno ? -errno : -EIO;
		c->enabled = true;
	}
	/*
	 * After the threads' own events (each of these writes takes a while:
	 * the runs are recorded meanwhile). Without them the tasks are still
	 * charged; $AUDIOLAT_CLIENTS_IRQS=0 leaves them out (bench/jack-blame.sh).
	 */
	if (!getenv("AUDIOLAT_CLIENTS_IRQS") || strcmp(getenv("AUDIOLAT_CLIENTS_IRQS"), "0"))
		irq_events(c);
	return 0;
}

int
al_clients_follow(struct al_clients *c, const struct al_task *tasks, int n)
{
	struct thr keep[AL_TASKS_MAX];
	int i, k, m = 0;

	if (!c || n < 0)
		return -EINVAL;
	if (n > AL_TASKS_MAX)
		n = AL_TASKS_MAX;
	for (i = 0; i < n; i++) {
		for (k = 0; k < c->n_thr && c->thr[k].task.tid != tasks[i].tid; k++)
			;
		if (k < c->n_thr) {
			keep[m] = c->thr[k];
		} else {
			memset(&keep[m], 0, sizeof(keep[m]));
			keep[m].state = T_BLOCKED;
		}
		keep[m].task = tasks[i];
		keep[m].node = al__clients_node_of(c, &tasks[i]);
		m++;
	}
	memcpy(c->thr, keep, sizeof(keep[0]) * (size_t)m);
	c->n_thr = m;
	return set_filters(c);
}

/* A string field of a record (a fixed array or __data_loc), printable, into dst. */
static void
read_str(const struct tep_format_field *f, const struct tep_record *rec, char *dst, size_t size)
{
	const char *src;
	size_t off, len, i;

	dst[0] = '\0';
	if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > rec->size)
		return;
	off = (size_t)f->offset;
	len = (size_t)f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc;

		if (f->size != 4 || tep_read_number_field((struct tep_format_field *)f, rec->data, &loc))
			return;
		off = loc & 0xffff;
		len = (loc >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (size_t)f->offset + 4;
		if (off > (size_t)rec->size || len > (size_t)rec->size - off)
			return;
	}
	src = (const char *)rec->data + off;
	for (i = 0; i < len && i + 1 < size && src[i]; i++)
		dst[i] = src[i] < 0x20 || src[i] > 0x7e ? '?' : src[i];
	dst[i] = '\0';
}

/* An IRQ, softirq or vector event into e (false: not one of ours). */
static bool
decode_irq(struct al_clients *c, const struct tep_event *ev, const struct tep_record *rec,
	   struct cev *e)
{
	struct tep_format_field *f = NULL;
	unsigned long long v;
	size_t i;

	for (e->type = EV_IRQ; e->type <= EV_SOFTIRQ_EXIT; e->type++)
		if (c->ev_id[e->type] >= 0 && ev->id == c->ev_id[e->type])
			break;
	switch (e->type) {
	case EV_IRQ:
		f = c->f_irq;
		read_str(c->f_irq_name, rec, e->comm, sizeof(e->comm));
		break;
	case EV_IRQ_EXIT:
		f = c->f_irq_exit;
		break;
	case EV_SOFTIRQ:
		f = c->f_vec;
		break;
	case EV_SOFTIRQ_EXIT:
		f = c->f_vec_exit;
		break;
	default:
		for (i = 0; i < N_VECTORS; i++)
			if (c->vec_id[i][0] >= 0 && (ev->id == c->vec_id[i][0] || ev->id == c->vec_id[i][1])) {
				e->type = ev->id == c->vec_id[i][0] ? EV_VEC : EV_VEC_EXIT;
				snprintf(e->comm, sizeof(e->comm), "%s", vectors[i]);
				return true;
			}
		return false;
	}
	if (tep_read_number_field(f, rec->data, &v))
		return false;
	e->a = (int32_t)v;
	return true;
}

static int
on_event(struct tep_event *ev, struct tep_record *rec, int cpu, void *ud)
{
	struct al_clients *c = ud;
	struct cev e = { .ts_ns = (int64_t)rec->ts, .target = -1 };
	unsigned long long v;

	e.cpu = (int16_t)cpu;
	if (ev->id == c->switch_id) {
		e.type = EV_SWITCH;
		if (tep_read_number_field(c->f_prev_pid, rec->data, &v))
			return 0;
		e.a = (int32_t)v;
		if (tep_read_number_field(c->f_next_pid, rec->data, &v))
			return 0;
		e.b = (int32_t)v;
		if (tep_read_number_field(c->f_prev_state, rec->data, &v))
			return 0;
		e.prev_state = (int64_t)v;
		read_str(c->f_next_comm, rec, e.comm, sizeof(e.comm) < 16 ? sizeof(e.comm) : 16);
	} else if (ev->id == c->waking_id) {
		e.type = EV_WAKING;
		if (tep_read_number_field(c->f_pid, rec->data, &v))
			return 0;
		e.a = (int32_t)v;
		if (c->f_target && !tep_read_number_field(c->f_target, rec->data, &v) &&
		    (int)v >= 0 && (int)v < CPUS_MAX)
			e.target = (int16_t)v;
	} else if (!decode_irq(c, ev, rec, &e)) {
		return 0;
	}
	if (c->n_pend >= EVENTS_PENDING) {
		c->dropped++;
		return 0;
	}
	e.seq = c->events;
	c->pend[c->n_pend++] = e;
	c->events++;
	return 0;
}

int
al_clients_read(struct al_clients *c, int64_t now_ns)
{
	if (!c || !c->enabled)
		return 0;
	if (tracefs_iterate_raw_events(c->tep, c->inst, NULL, 0, on_event, c) < 0)
		return -EIO;
	al__clients_replay_pending(c, now_ns);
	return 0;
}
