/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Real-time setup: memory locking, SCHED_FIFO threads, CPU affinity and
 * /dev/cpu_dma_latency. Every change is recorded in struct al_rt and
 * undone by al_rt_restore().
 */
#ifndef AL_CORE_RT_H
#define AL_CORE_RT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct al_rt {
	bool locked;        /* mlockall() applied */
	int dma_fd;         /* held open while the request is in force, -1 */
	int dma_latency_us; /* -1: untouched */
};

/*
 * Where an ordinary user's rtprio and memlock limits belong: the file
 * Debian's jackd2 installs (from /usr/share/jackd/audio.conf, enabled by
 * dpkg-reconfigure -p high jackd2) for the audio group.
 */
#define AL_RT_LIMITS_FILE "/etc/security/limits.d/audio.conf"

void al_rt_init(struct al_rt *rt);

/* mlockall(MCL_CURRENT | MCL_FUTURE); 0 or -errno. */
int al_rt_lock_memory(struct al_rt *rt);

/* Hold a PM QoS request of us microseconds on /dev/cpu_dma_latency. */
int al_rt_dma_latency_set(struct al_rt *rt, int us);

/* Undo everything, in reverse order. Safe to call twice. */
void al_rt_restore(struct al_rt *rt);

/*
 * Start fn(arg) in a thread at SCHED_FIFO prio (prio 0: SCHED_OTHER),
 * pinned to cpu (-1: not pinned). Returns 0 or -errno (-EPERM when the
 * policy is not permitted; the thread is then not started).
 */
int al_rt_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg, int prio, int cpu);

/* Touch size bytes of the calling thread's stack so it is resident. */
void al_rt_prefault_stack(size_t size);

/* Touch every page of a buffer. */
void al_rt_prefault(void *buf, size_t size);

#endif
