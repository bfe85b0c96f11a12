/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's rawmidi framing records (Linux 5.14, protocol 2.0.2):
 * struct snd_rawmidi_framing_tstamp, 32 bytes, native byte order:
 *
 *	offset  0  u8   frame_type (0: timestamped data; others are skipped)
 *	        1  u8   length (valid bytes in data, 1..16)
 *	        2  u8   reserved[2]
 *	        4  u32  tv_nsec
 *	        8  u64  tv_sec
 *	       16  u8   data[16]
 *
 * Decoded here from byte buffers, so the decoding is tested without a
 * sound card; rawmidi.c reads the records from the kernel.
 */
#ifndef AL_MIDI_FRAMING_H
#define AL_MIDI_FRAMING_H

#include <stddef.h>
#include <stdint.h>

#include "midi.h"

#define AL_RAWMIDI_FRAME_BYTES 32
#define AL_RAWMIDI_FRAME_DATA 16
#define AL_RAWMIDI_FRAME_TSTAMP 0

/* Mode bits of struct snd_rawmidi_params.mode (include/uapi/sound/asound.h). */
#define AL_RAWMIDI_MODE_FRAMING_TSTAMP (1 << 0)
#define AL_RAWMIDI_MODE_CLOCK_REALTIME (1 << 3)
#define AL_RAWMIDI_MODE_CLOCK_MONOTONIC (2 << 3)
#define AL_RAWMIDI_MODE_CLOCK_MONOTONIC_RAW (3 << 3)

struct al_rawmidi_frame {
	int64_t t_ns;      /* tv_sec * 1e9 + tv_nsec, on the clock the stream was set to */
	uint8_t len;       /* 1..16 */
	uint8_t data[AL_RAWMIDI_FRAME_DATA];
};

/*
 * Decode the record at p (AL_RAWMIDI_FRAME_BYTES bytes). Returns 1 with
 * *out filled, 0 for a frame type other than 0 (to be skipped), or
 * -EINVAL: length 0 or above 16, tv_nsec >= 1e9, or a time past 2^63 ns.
 */
int al_rawmidi_frame_decode(const uint8_t *p, struct al_rawmidi_frame *out);

/*
 * Decode a buffer of whole records and feed their bytes to the stream
 * parser; each completed message goes to cb(ud, msg). Returns the number
 * of messages, or -EINVAL (len not a multiple of 32, or a bad record;
 * *bad_offset then says where).
 */
int al_rawmidi_frames_parse(const uint8_t *buf, size_t len, struct al_midi_stream *s,
			    void (*cb)(void *ud, const struct al_midi_msg *m), void *ud,
			    size_t *bad_offset);

/*
 * Open /dev/snd/midiC<card>D<dev> for framed input the raw-ioctl way:
 * check the protocol (>= 2.0.2), declare ours (USER_PVERSION, before
 * PARAMS, or the kernel ignores the mode), then PARAMS with a 4096-byte
 * buffer (a multiple of 32) and FRAMING_TSTAMP | clock_mode. Returns a
 * non-blocking fd to read() whole records from, or -errno (-ENOTSUP: the
 * kernel has no framing).
 */
int al_rawmidi_kernel_open(int card, int dev, unsigned clock_mode);

#endif
