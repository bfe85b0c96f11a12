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

#endif
