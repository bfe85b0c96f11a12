/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AL_BACKEND_PIPEWIRE_H
#define AL_BACKEND_PIPEWIRE_H

#include "backend.h"
#include "duplex.h"

/* The PipeWire backend (pipewire*.c, duplex-pipewire.c; only built with libpipewire-0.3). */
extern const struct al_backend_ops al_backend_pipewire;
/* Its duplex stream, for audiolat roundtrip (duplex-pipewire.c). */
extern const struct al_duplex_ops al_duplex_pipewire;

/* libpipewire's version, of the library loaded (for --version: al_backend_libs) */
const char *al_pipewire_lib_version(void);

#endif
