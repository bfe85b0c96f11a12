/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The processes and real-time threads behind a jackd2 server's clients
 * (docs/jack.md). jackd2 1.9.21's jack_get_client_pid() answers 0 for
 * external clients, so they are found from what the server leaves on
 * the machine:
 *   - every client of server S has a futex file
 *     /dev/shm/jack_sem.<uid>_<S>_<client> (the server's, and its own):
 *     the list of the server's clients;
 *   - every external client binds a UNIX socket for the server's
 *     notifications, /dev/shm/jack_<client>_<uid>_0: /proc/net/unix maps
 *     its path to an inode, /proc/PID/fd/N -> socket:[inode] to the
 *     process; that process must map the client's futex file of this
 *     server (a client of the same name on another server is not it);
 *   - its real-time threads (SCHED_FIFO or SCHED_RR, /proc/PID/task/TID/stat)
 *     are the client's process thread.
 * Nothing here calls libjack; none of it is for the process thread.
 */
#ifndef AL_BACKEND_JACK_CLIENTS_H
#define AL_BACKEND_JACK_CLIENTS_H

#include <stddef.h>

#include "core/tasks.h"

#define JKC_CLIENTS_MAX 64

/* What the last look-up found per client of the server. */
struct jkc_client {
	char name[AL_TASK_NAME];
	int pid;          /* 0: not found (yet) */
	int n_threads;    /* real-time threads found */
	bool internal;    /* the server's own ("system", "freewheel"): not followed */
};

/*
 * The clients of server (their futex files in dir, normally /dev/shm),
 * each with its process and real-time threads: up to max threads into
 * out (our own client, self_name, is left out: the caller knows its
 * thread), clients[] what was found per client. Returns the number of
 * threads written, or -errno.
 */
int jkc_lookup(const char *dir, const char *server, const char *self_name,
	       struct al_task *out, int max, struct jkc_client *clients, int *n_clients);

/* The real-time threads of process pid (its task directory under proc_dir, "/proc"). */
int jkc_rt_threads(const char *proc_dir, int pid, const char *client, struct al_task *out,
		   int max);

#endif
