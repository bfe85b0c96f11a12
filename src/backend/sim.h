/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AL_BACKEND_SIM_H
#define AL_BACKEND_SIM_H

#include "backend.h"

extern const struct al_backend_ops al_backend_sim;

#endif
