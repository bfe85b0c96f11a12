/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat monitor's threshold actions (--on-threshold, docs/monitor.md):
 * what to do with an event the monitor handed on (monitor.h: on the
 * controlling thread, at most one per action_interval_ns). exec:CMD runs
 * `sh -c CMD` (posix_spawn, not waited for; at most AL_ACTION_CHILDREN at
 * once) with the event in its environment, signal:SIG signals the parent,
 * trace asks for a checkpoint (the flight recorder's explanation saved).
 */
#ifndef AL_RUN_ACTION_H
#define AL_RUN_ACTION_H

#include <stdint.h>
#include <sys/types.h>

#include "monitor.h"

#define AL_ACTION_CHILDREN 16

enum al_action_kind { AL_ACTION_NONE, AL_ACTION_EXEC, AL_ACTION_SIGNAL, AL_ACTION_TRACE };

struct al_action {
	enum al_action_kind kind;
	const char *spec;      /* as given ("exec:..."), NULL: none */
	const char *exec_cmd;  /* exec: CMD */
	int signo;             /* signal: SIG */
	pid_t children[AL_ACTION_CHILDREN]; /* exec: running, 0: a free slot */
};

/* "trace", "exec:CMD" or "signal:SIG" (HUP, SIGUSR1, 10, ...) into a. 0 or -EINVAL. */
int al_action_parse(struct al_action *a, const char *spec);

/*
 * What a's action asks of the run (threshold_ns: a period later than it
 * is an event, 0: none; trace: --trace is on): trace needs the flight
 * recorder, a threshold an action. 0, or -EINVAL with one line in err
 * naming the option.
 */
int al_action_check(const struct al_action *a, int64_t threshold_ns, bool trace, char *err,
		    size_t err_size);

/*
 * Do a's action for ev (started_at_ns: the stream start, epoch ns, for
 * AUDIOLAT_EVENT_TIME). 1: make a checkpoint now (trace); 0: done;
 * -EBUSY: AL_ACTION_CHILDREN commands still running, this one skipped;
 * -ENOMEM; another -errno: /bin/sh could not be started.
 */
int al_action_run(struct al_action *a, const struct al_monitor_event *ev, int64_t started_at_ns);

/* Collect the exec: commands that ended (only a's: loads are children too). */
void al_action_reap(struct al_action *a);

#endif
