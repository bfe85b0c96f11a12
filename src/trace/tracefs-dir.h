/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside src/trace: where this process reaches tracefs. The machine's
 * mount when there is one; else, for root, a mount of our own that only
 * this process can reach and that goes with it, SIGKILL included (the
 * machine's mount table is never changed).
 */
#ifndef AL_TRACEFS_DIR_H
#define AL_TRACEFS_DIR_H

#include <stddef.h>

/*
 * Make tracefs reachable through libtracefs (tracefs_tracing_dir()).
 * 0; -EPERM not root and not mounted; -ENOENT no tracefs (or nowhere to
 * mount it); -ENOMEM. err gets one line.
 */
int al_tracefs_ready(char *err, size_t err_size);

struct tracefs_instance;

/*
 * (trace.c) A new ftrace instance of this process, named AL_TRACE_PREFIX
 * "<pid>" or "<pid>-<n>" into name: 0 or -errno with one line in err.
 */
int al__trace_new_instance(char *name, size_t name_size, struct tracefs_instance **inst, char *err,
			   size_t err_size);
/* (trace.c) Remove the instances, then the synthetic events, of processes now dead. */
void al__trace_remove_stale(void);
/* (khist.c) Remove the hist triggers of instance name (a dead process's), before it goes. */
void al__khist_clear(struct tracefs_instance *inst, const char *name);
/* (khist.c) Remove the synthetic events of processes now dead (after their instances). */
void al__khist_remove_stale(void);

#endif
