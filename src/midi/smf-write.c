/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Standard MIDI File writer and the RIFF RMID wrapper (see smf.h; the reader is smf.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "smf.h"

#define VLQ_MAX 0x0FFFFFFFu

static int
w_fail(struct al_smf_writer *w, int rc)
{
	if (!w->err)
		w->err = rc;
	return w->err;
}

static int
w_put(struct al_smf_writer *w, const void *data, size_t len)
{
	size_t cap;
	uint8_t *n;

	if (w->err)
		return w->err;
	if (len > SIZE_MAX / 2 - w->len)
		return w_fail(w, -ENOMEM);
	if (w->len + len > w->cap) {
		cap = w->cap ? w->cap : 256;
		while (cap < w->len + len)
			cap *= 2;
		n = realloc(w->buf, cap);
		if (!n)
			return w_fail(w, -ENOMEM);
		w->buf = n;
		w->cap = cap;
	}
	memcpy(w->buf + w->len, data, len);
	w->len += len;
	return 0;
}

static int
w_byte(struct al_smf_writer *w, uint8_t b)
{
	return w_put(w, &b, 1);
}

static int
w_vlq(struct al_smf_writer *w, uint32_t v)
{
	uint8_t tmp[4];
	int n = 0, i;

	if (v > VLQ_MAX)
		return w_fail(w, -EINVAL);
	tmp[n++] = v & 0x7F;
	while ((v >>= 7))
		tmp[n++] = (uint8_t)(0x80 | (v & 0x7F));
	for (i = n - 1; i >= 0; i--)
		w_byte(w, tmp[i]);
	return w->err;
}

static void
w_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

int
al_smf_writer_init(struct al_smf_writer *w, int format, int n_tracks, uint16_t division,
		   bool running_status)
{
	uint8_t hdr[14] = { 'M', 'T', 'h', 'd', 0, 0, 0, 6 };

	memset(w, 0, sizeof(*w));
	w->running_status = running_status;
	if (format < 0 || format > 2 || n_tracks < 1 || n_tracks > AL_SMF_TRACKS_MAX ||
	    (format == 0 && n_tracks != 1) || !division)
		return w_fail(w, -EINVAL);
	hdr[8] = 0;
	hdr[9] = (uint8_t)format;
	hdr[10] = (uint8_t)(n_tracks >> 8);
	hdr[11] = (uint8_t)n_tracks;
	hdr[12] = (uint8_t)(division >> 8);
	hdr[13] = (uint8_t)division;
	w->tracks_left = n_tracks;
	return w_put(w, hdr, sizeof(hdr));
}

int
al_smf_writer_track_begin(struct al_smf_writer *w)
{
	static const uint8_t mtrk[8] = { 'M', 'T', 'r', 'k', 0, 0, 0, 0 };

	if (w->err)
		return w->err;
	if (w->track_len_pos || w->tracks_left <= 0)
		return w_fail(w, -EINVAL);
	w->track_len_pos = w->len + 4;
	w->last_tick = 0;
	w->running = 0;
	return w_put(w, mtrk, sizeof(mtrk));
}

/* The delta to tick, bridging deltas past a VLQ with empty text events. */
static int
w_delta(struct al_smf_writer *w, uint64_t tick)
{
	static const uint8_t filler[3] = { 0xFF, 0x01, 0x00 };
	uint64_t d;

	if (w->err)
		return w->err;
	if (!w->track_len_pos || tick < w->last_tick)
		return w_fail(w, -EINVAL);
	d = tick - w->last_tick;
	while (d > VLQ_MAX) {
		w_vlq(w, VLQ_MAX);
		w_put(w, filler, sizeof(filler));
		w->running = 0;
		d -= VLQ_MAX;
	}
	w->last_tick = tick;
	return w_vlq(w, (uint32_t)d);
}

int
al_smf_writer_channel(struct al_smf_writer *w, uint64_t tick, uint8_t status, uint8_t d1,
		      uint8_t d2)
{
	int n = al_midi_data_bytes(status);

	if (!n || d1 > 0x7F || d2 > 0x7F)
		return w_fail(w, -EINVAL);
	if (w_delta(w, tick))
		return w->err;
	if (!w->running_status || w->running != status)
		w_byte(w, status);
	w->running = status;
	w_byte(w, d1);
	if (n == 2)
		w_byte(w, d2);
	return w->err;
}

/* The length and the bytes of a sysex or meta event; running status ends with it. */
static int
w_payload(struct al_smf_writer *w, const uint8_t *data, size_t len)
{
	w_vlq(w, (uint32_t)len);
	if (len)
		w_put(w, data, len);
	w->running = 0;
	return w->err;
}

int
al_smf_writer_sysex(struct al_smf_writer *w, uint64_t tick, uint8_t status, const uint8_t *data,
		    size_t len)
{
	if ((status != 0xF0 && status != 0xF7) || len > VLQ_MAX || (len && !data))
		return w_fail(w, -EINVAL);
	if (w_delta(w, tick))
		return w->err;
	w_byte(w, status);
	return w_payload(w, data, len);
}

int
al_smf_writer_meta(struct al_smf_writer *w, uint64_t tick, uint8_t type, const uint8_t *data,
		   size_t len)
{
	if (type > 0x7F || type == 0x2F || len > VLQ_MAX || (len && !data))
		return w_fail(w, -EINVAL);
	if (w_delta(w, tick))
		return w->err;
	w_byte(w, 0xFF);
	w_byte(w, type);
	return w_payload(w, data, len);
}

int
al_smf_writer_tempo(struct al_smf_writer *w, uint64_t tick, uint32_t us_per_quarter)
{
	uint8_t t[3] = { (uint8_t)(us_per_quarter >> 16), (uint8_t)(us_per_quarter >> 8),
			 (uint8_t)us_per_quarter };

	if (!us_per_quarter || us_per_quarter > 0xFFFFFF)
		return w_fail(w, -EINVAL);
	return al_smf_writer_meta(w, tick, 0x51, t, 3);
}

int
al_smf_writer_track_end(struct al_smf_writer *w, uint64_t tick)
{
	static const uint8_t eot[3] = { 0xFF, 0x2F, 0x00 };
	size_t body;

	if (w->err)
		return w->err;
	if (!w->track_len_pos)
		return w_fail(w, -EINVAL);
	if (tick < w->last_tick)
		tick = w->last_tick;
	if (w_delta(w, tick) || w_put(w, eot, sizeof(eot)))
		return w->err;
	body = w->len - w->track_len_pos - 4;
	if (body > UINT32_MAX)
		return w_fail(w, -EINVAL);
	w_be32(w->buf + w->track_len_pos, (uint32_t)body);
	w->track_len_pos = 0;
	w->tracks_left--;
	return 0;
}

int
al_smf_writer_finish(struct al_smf_writer *w, uint8_t **out, size_t *out_len)
{
	if (!w->err && (w->track_len_pos || w->tracks_left))
		w_fail(w, -EINVAL);
	if (w->err) {
		int rc = w->err;

		al_smf_writer_free(w);
		return rc;
	}
	*out = w->buf;
	*out_len = w->len;
	memset(w, 0, sizeof(*w));
	return 0;
}

void
al_smf_writer_free(struct al_smf_writer *w)
{
	free(w->buf);
	memset(w, 0, sizeof(*w));
}

int
al_smf_wrap_rmid(const uint8_t *smf, size_t len, uint8_t **out, size_t *out_len)
{
	size_t pad = len & 1, total = 20 + len + pad;
	uint8_t *b;

	if (len > UINT32_MAX - 20)
		return -EINVAL;
	b = malloc(total);
	if (!b)
		return -ENOMEM;
	memcpy(b, "RIFF", 4);
	b[4] = (uint8_t)(total - 8);
	b[5] = (uint8_t)((total - 8) >> 8);
	b[6] = (uint8_t)((total - 8) >> 16);
	b[7] = (uint8_t)((total - 8) >> 24);
	memcpy(b + 8, "RMIDdata", 8);
	b[16] = (uint8_t)len;
	b[17] = (uint8_t)(len >> 8);
	b[18] = (uint8_t)(len >> 16);
	b[19] = (uint8_t)(len >> 24);
	memcpy(b + 20, smf, len);
	if (pad)
		b[20 + len] = 0;
	*out = b;
	*out_len = total;
	return 0;
}
