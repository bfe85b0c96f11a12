/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The other clients of a sound server, as processes and threads: what a
 * backend finds (the JACK backend: docs/jack.md) and the flight recorder
 * follows (--trace, src/trace/clients.h). Plain data.
 */
#ifndef AL_CORE_TASKS_H
#define AL_CORE_TASKS_H

#include <stdbool.h>

#define AL_TASK_NAME 64
#define AL_TASKS_MAX 32       /* threads followed at most */

/* One real-time thread of a server's client (or of audiolat itself: self). */
struct al_task {
	char client[AL_TASK_NAME]; /* the server's name for the client ("slowclient") */
	int pid;                   /* its process */
	int tid;                   /* the thread: its real-time (process) thread */
	char comm[16];             /* the thread's comm */
	int policy;                /* SCHED_FIFO, SCHED_RR (sched.h) */
	int priority;              /* its real-time priority */
	bool self;                 /* audiolat's own process thread */
};

#endif
