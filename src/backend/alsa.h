/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AL_BACKEND_ALSA_H
#define AL_BACKEND_ALSA_H

#include "backend.h"
#include "duplex.h"

/* The ALSA PCM backend (alsa.c; only built with libasound) and its duplex stream (duplex-alsa.c). */
extern const struct al_backend_ops al_backend_alsa;
extern const struct al_duplex_ops al_duplex_alsa;
/* alsa-lib's version, of the library loaded (for --version: al_backend_libs) */
const char *al_alsa_lib_version(void);

#endif
