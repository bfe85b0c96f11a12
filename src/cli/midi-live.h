/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat midi record and loop (midi-live.c): measure, then report. */
#ifndef AL_CLI_MIDI_LIVE_H
#define AL_CLI_MIDI_LIVE_H

#include "midi-out.h"

int midi_record(struct midi_opts *o);
int midi_loop(struct midi_opts *o);

/* The exit code and message for a port that failed to open (record, loop, send, thru). */
int midi_port_error(const struct midi_opts *o, int rc, const char *err);

#endif
