/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What audiolat devices lists, as plain data: per backend what its list()
 * gave (or why it could not), and the MIDI ports. src/backend/devices.c
 * and src/midi/list.c fill it; src/report/devices.c makes its text and its
 * audiolat.devices/1 document. The strings are copies (NULL stays NULL).
 */
#ifndef AL_CORE_DEVICES_H
#define AL_CORE_DEVICES_H

#include <stdbool.h>
#include <stddef.h>

/* One device (kind "alsa-pcm", "jack-port", ...), or one MIDI port (kind: its API). */
struct al_device_row {
	char *kind;
	char *name;
	char *description;
	char *detail;
};

/* One backend's devices. */
struct al_device_group {
	const char *backend;          /* its name */
	const char *summary;          /* its one line */
	const char *unavailable;      /* why it is not built in; NULL: it is */
	bool listable;                /* it has devices (the simulated card has none) */
	int rc;                       /* what its list() returned: -errno, else >= 0 */
	const char *server_env;       /* a server backend's variable ("JACK_DEFAULT_SERVER"), NULL */
	const char *server_env_value; /* its value, NULL: unset */
	struct al_device_row *rows;
	size_t n, cap;
};

struct al_device_list {
	struct al_device_group *groups;
	size_t n, cap;
	bool with_midi;               /* the MIDI ports were asked for */
	struct al_device_row *midi;
	size_t n_midi, cap_midi;
};

/* Append a copy of one row. 0 or -ENOMEM. */
int al_device_rows_add(struct al_device_row **rows, size_t *n, size_t *cap, const char *kind,
		       const char *name, const char *description, const char *detail);
/* A new group at the end of l (zeroed), NULL on ENOMEM. */
struct al_device_group *al_device_list_group(struct al_device_list *l);
void al_device_group_free(struct al_device_group *g);
void al_device_list_free(struct al_device_list *l);

#endif
