/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AL_BACKEND_JACK_H
#define AL_BACKEND_JACK_H

#include "backend.h"
#include "duplex.h"

/* The JACK backend (jack.c; only built with libjack) and its duplex stream (duplex-jack.c). */
extern const struct al_backend_ops al_backend_jack;
extern const struct al_duplex_ops al_duplex_jack;
/* libjack's version, of the library loaded (for --version: al_backend_libs) */
const char *al_jack_lib_version(void);

#endif
