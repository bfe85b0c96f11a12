/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the JACK backend's files share: jack.c (the stream of audiolat run)
 * and jack-list.c (connecting, the device listing). Only for those files.
 */
#ifndef AL_BACKEND_JACK_PRIVATE_H
#define AL_BACKEND_JACK_PRIVATE_H

#include <jack/jack.h>

#include "backend.h"

/* where JACK2 keeps its servers' sockets */
#define JACK_SERVER_DIR "/dev/shm"

/* libjack's error and info lines go nowhere (we say what failed ourselves). */
void al__jack_quiet(void);
/* The server a client without -D reaches: $JACK_DEFAULT_SERVER, else "default". */
const char *al__jack_default_server(void);
/* A client called name of server (NULL or "": the default), never starting one. */
jack_client_t *al__jack_connect(const char *name, const char *server, jack_status_t *status);
/* The backend's ops->list: every server reached, then its ports. 0, or -ENODEV: none. */
int al__jack_list(al_device_emit_fn emit, void *ud);

#endif
