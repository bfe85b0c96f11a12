/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat devices' text and its audiolat.devices/1 document, from core/devices.h's list. */
#ifndef AL_REPORT_DEVICES_H
#define AL_REPORT_DEVICES_H

#include <stdio.h>

#include <jansson.h>

#include "core/devices.h"

/*
 * One backend's devices, one a line, each line starting with indent; or
 * why there are none ("not available: ...", "no JACK server running
 * (JACK_DEFAULT_SERVER=unset)", "none found").
 */
void al_report_device_group_text(FILE *f, const struct al_device_group *g, const char *indent);

/* Every group ("NAME: SUMMARY", then its devices), then the MIDI ports when asked for. */
void al_report_devices_text(FILE *f, const struct al_device_list *l);

/* The audiolat.devices/1 document (docs/json.md); NULL on ENOMEM. */
json_t *al_report_devices_json(const struct al_device_list *l);

#endif
