/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the files of src/check only: the context, the helpers, the checks. */
#ifndef AL_CHECK_CHECK_PRIVATE_H
#define AL_CHECK_CHECK_PRIVATE_H

#ifndef AL_CHECK_INTERNAL
#error "check-private.h is for src/check/*.c only"
#endif

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/result.h"

#define CHECK_GROUPS_MAX 64
#define CHECK_IRQ_THREADS_MAX 16
#define CHECK_SERVERS_MAX 8

/* Linux capability bits (linux/capability.h) used by the checks. */
#define CHECK_CAP_IPC_LOCK 14
#define CHECK_CAP_SYS_NICE 23

/* A kernel thread irq/NN-name that serves sound or USB. */
struct check_irq_thread {
	char comm[20];
	long pid;
	int policy;       /* SCHED_*, -1 unknown */
	int rt_priority;  /* 0 for SCHED_OTHER */
};

/* A running audio server and its best real-time thread. */
struct check_server {
	char comm[20];
	long pid;
	int policy;       /* of the thread with the highest rt_priority */
	int rt_priority;  /* 0: no real-time thread */
};

/* What the checks need from root/proc/[0-9]*: read once per run. */
struct check_procs {
	int err;                  /* 0, or -errno when root/proc cannot be listed */
	int n_procs;
	long irqbalance_pid;      /* 0: not running */
	int n_irq_threads;        /* every irq/NN-* thread */
	int max_other_irq_prio;   /* highest rt_priority of the non-audio ones, -1 none */
	int n_audio_irq;
	struct check_irq_thread audio_irq[CHECK_IRQ_THREADS_MAX];
	int n_servers;
	struct check_server servers[CHECK_SERVERS_MAX];
};

/* Who we run as, from root/proc/self/status. */
struct check_ident {
	bool known;
	long uid;                 /* effective */
	long gid;                 /* effective */
	bool caps_known;
	uint64_t cap_eff;
	int n_groups;             /* supplementary */
	long groups[CHECK_GROUPS_MAX];
};

struct check_ctx {
	const char *root;         /* for al_read_file: "/" or the fixture root */
	char prefix[PATH_MAX];    /* prepended to absolute paths: "" or the root */
	bool live;
	int (*try_fifo)(int prio);
	char release[65];         /* uname -r, "" unknown */
	char version[129];        /* uname -v, "" unknown */
	char cmdline[4096];
	bool have_cmdline;
	char preempt[32];         /* al_sysinfo_preempt_model(), refined */
	char preempt_source[96];
	bool preempt_dynamic;     /* PREEMPT_DYNAMIC kernel */
	struct check_ident id;
	struct check_procs procs;
};

/*
 * Helpers (check-util.c), which call nothing else of src/check. Paths are
 * absolute ("/proc/cmdline"), below the root.
 */
__attribute__((format(printf, 4, 5))) int al__check_path(const struct check_ctx *c, char *buf,
							 size_t size, const char *fmt, ...);
int al__check_read(const struct check_ctx *c, const char *path, char *buf, size_t size);
int al__check_read_long(const struct check_ctx *c, const char *path, long *out);
bool al__check_parse_long(const char *s, long *out);
typedef int (*al__check_line_fn)(char *line, void *data);
int al__check_lines(const struct check_ctx *c, const char *path, al__check_line_fn fn,
		    void *data);
int al__check_config(const struct check_ctx *c, const char *key, char *val, size_t size);
bool al__check_cmdline(const struct check_ctx *c, const char *name, char *val, size_t size);
bool al__check_is_digits(const char *s);
bool al__check_has_cap(const struct check_ctx *c, int cap);
__attribute__((format(printf, 4, 5))) void al__check_set(struct al_syscheck *r, const char *status,
							  const char *fix, const char *fmt, ...);
void al__check_cpu_ranges(const int *cpus, int n, char *buf, size_t size);

/* Fill c->id from root/proc/self/status (check-proc.c). */
void al__check_read_ident(struct check_ctx *c);
/* Fill c->procs from one pass over root/proc (check-proc.c). */
void al__check_scan_procs(struct check_ctx *c);
/* Fill c->preempt, c->preempt_source and c->preempt_dynamic (check-kernel.c). */
void al__check_preempt_init(struct check_ctx *c);

/* One function per check; each fills r completely. */
void al__check_rtprio(struct check_ctx *c, struct al_syscheck *r);
void al__check_memlock(struct check_ctx *c, struct al_syscheck *r);
void al__check_audio_group(struct check_ctx *c, struct al_syscheck *r);
void al__check_sched_fifo(struct check_ctx *c, struct al_syscheck *r);
void al__check_preempt(struct check_ctx *c, struct al_syscheck *r);
void al__check_hrtimers(struct check_ctx *c, struct al_syscheck *r);
void al__check_nohz(struct check_ctx *c, struct al_syscheck *r);
void al__check_threadirqs(struct check_ctx *c, struct al_syscheck *r);
void al__check_governor(struct check_ctx *c, struct al_syscheck *r);
void al__check_smt(struct check_ctx *c, struct al_syscheck *r);
void al__check_cstates(struct check_ctx *c, struct al_syscheck *r);
void al__check_dma_latency(struct check_ctx *c, struct al_syscheck *r);
void al__check_rt_throttling(struct check_ctx *c, struct al_syscheck *r);
void al__check_swappiness(struct check_ctx *c, struct al_syscheck *r);
void al__check_irqbalance(struct check_ctx *c, struct al_syscheck *r);
void al__check_irq_threads(struct check_ctx *c, struct al_syscheck *r);
void al__check_shared_irqs(struct check_ctx *c, struct al_syscheck *r);
void al__check_usb_autosuspend(struct check_ctx *c, struct al_syscheck *r);
void al__check_timer_migration(struct check_ctx *c, struct al_syscheck *r);
void al__check_kernel_tracing(struct check_ctx *c, struct al_syscheck *r);
void al__check_noatime(struct check_ctx *c, struct al_syscheck *r);
void al__check_mitigations(struct check_ctx *c, struct al_syscheck *r);
void al__check_clocksource(struct check_ctx *c, struct al_syscheck *r);
void al__check_audio_servers(struct check_ctx *c, struct al_syscheck *r);

#endif
