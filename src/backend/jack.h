/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AL_BACKEND_JACK_H
#define AL_BACKEND_JACK_H

#include "backend.h"

/* The JACK backend (jack.c; only built with libjack). */
extern const struct al_backend_ops al_backend_jack;
/* libjack's version, of the library loaded (for --version: al_backend_libs) */
const char *al_jack_lib_version(void);

#endif
