/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The MIDI ports within reach, for `audiolat devices`. */
#ifndef AL_MIDI_LIST_H
#define AL_MIDI_LIST_H

/* One port: api "rawmidi" (name "hw:C,D"), "seq" ("client:port") or "jack". */
typedef void (*al_midi_list_fn)(void *ud, const char *api, const char *name,
				const char *description);

/*
 * Call fn for every MIDI port of every API this build has: ALSA rawmidi
 * devices of every card, ALSA sequencer ports (not our own, not the
 * system's), and the MIDI ports of the JACK server (JACK_DEFAULT_SERVER or
 * the default; none is started). APIs that cannot be reached are passed
 * over silently. Returns the number of ports.
 */
int al_midi_list(al_midi_list_fn fn, void *ud);

/* The same as rows of l->midi (core/devices.h); l->with_midi set. The number of ports. */
struct al_device_list;
int al_midi_list_devices(struct al_device_list *l);

#endif
