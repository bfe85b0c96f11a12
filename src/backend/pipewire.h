/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AL_BACKEND_PIPEWIRE_H
#define AL_BACKEND_PIPEWIRE_H

#include "backend.h"

/* The PipeWire backend (pipewire.c, pipewire-blame.c; only built with libpipewire-0.3). */
extern const struct al_backend_ops al_backend_pipewire;

/* libpipewire's version, of the library loaded (for --version: al_backend_libs) */
const char *al_pipewire_lib_version(void);

#endif
