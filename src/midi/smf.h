/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Standard MIDI Files: a hardened reader and a small writer.
 *
 * The reader takes the whole file in memory (plain SMF or RIFF RMID),
 * checks every length against the chunk it lies in, and returns every
 * event with its exact time in ns: format 0 and 1 share one tempo map
 * (tempo events of any track apply to all tracks), format 2 tracks each
 * have their own; SMPTE divisions ignore tempo events. Times are computed
 * from the start of the tempo segment with 128-bit integer math, so there
 * is no accumulated rounding: an event's time is floor(exact time).
 *
 * It is strict where a lenient reader would have to guess: running status
 * is cancelled by meta and sysex events (as the spec says), every track
 * ends with End of Track, and a status byte where a data byte belongs is
 * an error. Each error returns -EINVAL (-ERANGE for numbers out of range,
 * -ENOMEM) and fills struct al_smf_error with the byte offset and one line.
 * Allocation is bounded by the input size (at most one event per two bytes).
 */
#ifndef AL_MIDI_SMF_H
#define AL_MIDI_SMF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AL_SMF_TRACKS_MAX 1024      /* more tracks in the header: -ERANGE */
#define AL_SMF_TEMPO_DEFAULT_US 500000 /* 120 bpm, until the first tempo event */

struct al_smf_error {
	size_t offset;      /* byte offset in the input the error is about */
	char msg[128];      /* one line, without the offset */
};

enum al_smf_kind {
	AL_SMF_EV_CHANNEL = 0, /* 0x80..0xEF with 1 or 2 data bytes */
	AL_SMF_EV_SYSEX,       /* F0 or F7 */
	AL_SMF_EV_META,        /* FF */
};

struct al_smf_event {
	int64_t t_ns;        /* from the start of the sequence */
	uint64_t tick;       /* absolute tick in its track */
	uint32_t offset;     /* input offset of the event (its delta time) */
	uint32_t data_offset; /* sysex, meta: input offset of the payload */
	uint32_t len;        /* channel: data bytes (1, 2); sysex, meta: payload bytes */
	uint16_t track;      /* 0-based MTrk index */
	uint8_t kind;        /* enum al_smf_kind */
	uint8_t status;      /* 0x80..0xEF, 0xF0, 0xF7, 0xFF */
	uint8_t type;        /* meta type */
	uint8_t d1, d2;      /* channel data bytes (d2 = 0 for 1-byte messages) */
};

/* One segment of a tempo map. */
struct al_smf_tempo {
	uint64_t tick;
	uint32_t us_per_quarter;
	uint16_t track;      /* where the tempo event is; format 2: whose map */
};

struct al_smf {
	int format;          /* 0, 1, 2 */
	int n_tracks;
	uint16_t division;   /* as in the header */
	int ppq;             /* ticks per quarter; 0 with an SMPTE division */
	int smpte_fps;       /* 24, 25, 29 (= 29.97 drop frame), 30; 0 with ppq */
	int ticks_per_frame; /* SMPTE */
	bool rmid;           /* the SMF came wrapped in RIFF RMID */
	size_t smf_offset;   /* input offset of MThd */

	struct al_smf_event *events; /* every event, by time (then file order) */
	size_t n_events;
	struct al_smf_tempo *tempos; /* tempo events as found, by track then tick */
	size_t n_tempos;

	int64_t tick_ns_max; /* the coarsest tick of the file (rounded to ns, at least 1) */
	int64_t tick_ns_min; /* the finest */
	int64_t duration_ns; /* time of the last event */
};

/*
 * Parse size bytes at buf into smf (free with al_smf_free; events point
 * into buf by offset, so keep buf for payloads). Returns 0, or -EINVAL /
 * -ERANGE / -ENOMEM with err filled; smf is then empty.
 */
int al_smf_parse(const uint8_t *buf, size_t size, struct al_smf *smf, struct al_smf_error *err);
void al_smf_free(struct al_smf *smf);

/* Length of a tick in ns at a tempo (ppq files) or of an SMPTE tick, rounded, at least 1. */
int64_t al_smf_tick_ns(const struct al_smf *smf, uint32_t us_per_quarter);

/* Data bytes a channel status takes: 2, or 1 for 0xC0..0xDF; 0 otherwise. */
int al_midi_data_bytes(uint8_t status);

/*
 * The writer: builds a file in memory. Ticks of a track must not go
 * backwards; deltas too large for a 4-byte VLQ are bridged with empty
 * text meta events. Channel messages use running status (cancelled by
 * meta and sysex) when running_status is set. Every function returns 0 or
 * -EINVAL (bad argument, wrong order) / -ENOMEM; the first error sticks.
 */
struct al_smf_writer {
	uint8_t *buf;
	size_t len, cap;
	size_t track_len_pos; /* where the open MTrk's length goes, 0: none open */
	uint64_t last_tick;
	uint8_t running;      /* current running status, 0: none */
	bool running_status;
	int tracks_left;
	int err;
};

int al_smf_writer_init(struct al_smf_writer *w, int format, int n_tracks, uint16_t division,
		       bool running_status);
int al_smf_writer_track_begin(struct al_smf_writer *w);
int al_smf_writer_channel(struct al_smf_writer *w, uint64_t tick, uint8_t status, uint8_t d1,
			  uint8_t d2);
/* status 0xF0 (payload after F0, normally ending with F7) or 0xF7 (escape). */
int al_smf_writer_sysex(struct al_smf_writer *w, uint64_t tick, uint8_t status,
			const uint8_t *data, size_t len);
int al_smf_writer_meta(struct al_smf_writer *w, uint64_t tick, uint8_t type, const uint8_t *data,
		       size_t len);
int al_smf_writer_tempo(struct al_smf_writer *w, uint64_t tick, uint32_t us_per_quarter);
/* End of Track at tick (or at the last event, if later). */
int al_smf_writer_track_end(struct al_smf_writer *w, uint64_t tick);
/* Hand over the file (free() it); the writer is reset. -EINVAL if incomplete. */
int al_smf_writer_finish(struct al_smf_writer *w, uint8_t **out, size_t *out_len);
void al_smf_writer_free(struct al_smf_writer *w);

/* Wrap an SMF in RIFF RMID (a "data" chunk); *out is malloc()ed. */
int al_smf_wrap_rmid(const uint8_t *smf, size_t len, uint8_t **out, size_t *out_len);

/* SMPTE division word: fps 24, 25, 29, 30 and ticks per frame 1..255; 0 if invalid. */
uint16_t al_smf_smpte_division(int fps, int ticks_per_frame);

#endif
