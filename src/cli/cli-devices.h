/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The device lists of audiolat devices, also printed when `run -D` names nothing. */
#ifndef AL_CLI_CLI_DEVICES_H
#define AL_CLI_CLI_DEVICES_H

#include <stdio.h>

#include "backend/backend.h"

/*
 * Print the devices backend b can reach, one a line, each line starting
 * with indent; say so when there are none (no server running). Returns
 * the number listed, or -errno from the backend's list().
 */
int cli_devices_print(FILE *f, const struct al_backend_ops *b, const char *indent);

#endif
