/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the files of src/load only: the ops of a load and its worker context. */
#ifndef AL_LOAD_LOAD_PRIVATE_H
#define AL_LOAD_LOAD_PRIVATE_H

#ifndef AL_LOAD_PRIVATE
#error "load-private.h is for src/load only"
#endif

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "core/clock.h"
#include "load.h"

#define AL_LOAD_COUNTERS 8
#define AL_LOAD_ERR_LEN 160

enum al_load_state {
	AL_LOAD_STARTING = 0,
	AL_LOAD_RUNNING,
	AL_LOAD_DONE,
	AL_LOAD_FAILED,
};

/*
 * Memory shared (MAP_SHARED | MAP_ANONYMOUS) between the controller, the
 * supervisor and the workers of one load. Workers add to the counters in
 * batches; the controller reads them at stop.
 */
struct al_load_shm {
	_Atomic int state;
	_Atomic int error_set;           /* the first error wins */
	_Atomic int error_code;          /* its -errno */
	_Atomic int64_t work_start_ns;   /* when the measured work began (0: not yet) */
	_Atomic uint64_t count[AL_LOAD_COUNTERS];
	char error[AL_LOAD_ERR_LEN];
};

/* What a worker gets (in the worker process). */
struct al_load_ctx {
	const struct al_load_opts *opts;
	const char *arg;                 /* cmd: the command */
	struct al_load_shm *shm;
	int index;                       /* 0 .. n_workers-1 */
	int n_workers;
	void *priv;                      /* set up by ops->setup in the supervisor */
};

struct al_load_ops {
	const char *name;
	const char *summary;
	const char *option_names;        /* long option names it uses, space separated */
	const char *metric_names;        /* throughput metric names, space separated */
	bool needs_arg;                  /* cmd:COMMAND */
	/* workers to fork; NULL: one. 0 workers: nothing runs (idle). */
	int (*workers)(const struct al_load_opts *o);
	/*
	 * In the controller, from al_load_check_opts() when a phase uses the
	 * load (may be NULL): do the options fit? 0, or -errno with one line
	 * in err naming the option.
	 */
	int (*check)(const struct al_load_opts *o, char *err, size_t err_size);
	/* In the supervisor before the workers fork (open files): 0 or -errno + al_load_fail(). */
	int (*setup)(struct al_load_ctx *c);
	/* In each worker: runs until killed; returns 0 when done on its own, -errno on failure. */
	int (*worker)(struct al_load_ctx *c);
	/* Parameters after the name: "groups=10 fds=20 ..." */
	void (*describe)(const struct al_load_opts *o, const char *arg, char *buf, size_t size);
	/*
	 * Throughput from the counters over work_ns (the phase time less the
	 * load's preparation); returns the number of metrics written.
	 */
	int (*metrics)(const struct al_load_shm *shm, int64_t work_ns, struct al_metric *m,
		       int max);
};

extern const struct al_load_ops al_load_idle, al_load_cpu, al_load_mem, al_load_hackbench,
	al_load_disk_write, al_load_disk_copy, al_load_disk_read, al_load_procfs, al_load_fork,
	al_load_rt_migrate, al_load_cmd;

/* Record the load's error (first one wins); returns err (a -errno) for chaining. */
int al_load_fail(struct al_load_shm *shm, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Mark the start of the measured work (first caller wins). */
void al__load_work_started(struct al_load_shm *shm);

static inline void
al__load_add(struct al_load_shm *shm, int i, uint64_t n)
{
	atomic_fetch_add_explicit(&shm->count[i], n, memory_order_relaxed);
}

/* Raise counter i to v when v is larger (a maximum, not a sum). */
static inline void
al__load_max(struct al_load_shm *shm, int i, uint64_t v)
{
	uint64_t cur = atomic_load_explicit(&shm->count[i], memory_order_relaxed);

	while (v > cur && !atomic_compare_exchange_weak_explicit(&shm->count[i], &cur, v,
								 memory_order_relaxed,
								 memory_order_relaxed))
		;
}

static inline uint64_t
al__load_get(const struct al_load_shm *shm, int i)
{
	return atomic_load_explicit(&((struct al_load_shm *)shm)->count[i], memory_order_relaxed);
}

/* Counter i per second of work_ns (0 when no time passed): the rates among the metrics. */
static inline double
al__load_per_s(const struct al_load_shm *shm, int i, int64_t work_ns)
{
	double s = (double)work_ns / AL_NS_PER_SEC;

	/* a rate over no time was not measured: NAN, a null in the documents */
	return s > 0 ? (double)al__load_get(shm, i) / s : NAN;
}

/* Append s to the NUL-terminated buf of size bytes, truncating. */
static inline void
al__append(char *buf, size_t size, const char *s)
{
	size_t len = strnlen(buf, size), n = strlen(s);

	if (len + 1 >= size)
		return;
	if (n > size - len - 1)
		n = size - len - 1;
	memcpy(buf + len, s, n);
	buf[len + n] = 0;
}

/* Fill one metric. */
void al__load_metric(struct al_metric *m, const char *name, double value, const char *unit);

/* Name the calling process "al-<name>" (comm). */
void al__load_set_comm(const char *name);

/* CPUs the loads may use (o->ncpus, else the --load-cpus set or the caller's affinity). */
int al__load_ncpus(const struct al_load_opts *o);

/* The working set of one mem worker. */
int64_t al__load_mem_bytes(const struct al_load_opts *o);

/* Open an anonymous temporary file in dir (O_TMPFILE, else mkstemp+unlink). */
int al__load_tmpfile(const char *dir, bool direct, int *fd_out);

/* where a supervisor's ready pipe is (its fds: 0 and 1 /dev/null, 2 kept, this) */
#define AL_LOAD_READY_FD 3

/*
 * The supervisor of one load (supervisor.c), in the child the controller
 * forked: its group, the workers, 'r' or 'e' on ready_fd, never returns.
 */
__attribute__((noreturn)) void al__load_supervisor_main(const struct al_load_item *item,
							 const struct al_load_opts *o,
							 struct al_load_shm *shm, int ready_fd,
							 pid_t controller);

#endif
