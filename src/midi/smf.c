/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Standard MIDI File reader (see smf.h; the writer is smf-write.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smf.h"

#define VLQ_MAX 0x0FFFFFFFu
#define NS_PER_SEC 1000000000ULL

typedef unsigned __int128 u128;

struct parser {
	const uint8_t *buf;
	size_t size;
	struct al_smf *smf;
	struct al_smf_error *err;
	size_t cap;          /* events allocated */
	size_t max_events;   /* bound from the input size */
	size_t tempo_cap;
};

static int
fail(struct al_smf_error *err, int rc, size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
fail(struct al_smf_error *err, int rc, size_t offset, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->offset = offset;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return rc;
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t
be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t
le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

int
al_midi_data_bytes(uint8_t status)
{
	if (status < 0x80 || status >= 0xF0)
		return 0;
	return (status & 0xE0) == 0xC0 ? 1 : 2;
}

/* A chunk id of four printable ASCII characters, for messages. */
static bool
printable_id(const uint8_t *p)
{
	int i;

	for (i = 0; i < 4; i++)
		if (p[i] < 0x20 || p[i] > 0x7E)
			return false;
	return true;
}

/* Read a VLQ at *pos below end; at most 4 bytes. */
static int
read_vlq(struct parser *ps, size_t *pos, size_t end, uint32_t *out, const char *what)
{
	size_t start = *pos;
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		if (*pos >= end)
			return fail(ps->err, -EINVAL, *pos, "%s cut off by the end of the track", what);
		v = v << 7 | (ps->buf[*pos] & 0x7F);
		if (!(ps->buf[(*pos)++] & 0x80)) {
			*out = v;
			return 0;
		}
	}
	return fail(ps->err, -EINVAL, start, "%s is a variable-length number longer than 4 bytes",
		    what);
}

static int
add_event(struct parser *ps, const struct al_smf_event *ev)
{
	struct al_smf *smf = ps->smf;
	struct al_smf_event *n;
	size_t cap;

	if (smf->n_events == ps->cap) {
		if (ps->cap >= ps->max_events)
			return fail(ps->err, -EINVAL, ev->offset, "more events than the file can hold");
		cap = ps->cap ? ps->cap * 2 : 64;
		if (cap > ps->max_events)
			cap = ps->max_events;
		n = realloc(smf->events, cap * sizeof(*n));
		if (!n)
			return fail(ps->err, -ENOMEM, ev->offset, "out of memory for %zu events", cap);
		smf->events = n;
		ps->cap = cap;
	}
	smf->events[smf->n_events++] = *ev;
	return 0;
}

static int
add_tempo(struct parser *ps, uint64_t tick, uint32_t us, uint16_t track, size_t offset)
{
	struct al_smf *smf = ps->smf;
	struct al_smf_tempo *n;
	size_t cap;

	if (smf->n_tempos == ps->tempo_cap) {
		cap = ps->tempo_cap ? ps->tempo_cap * 2 : 16;
		if (cap > ps->max_events)
			cap = ps->max_events;
		n = realloc(smf->tempos, cap * sizeof(*n));
		if (!n)
			return fail(ps->err, -ENOMEM, offset, "out of memory for %zu tempo events", cap);
		smf->tempos = n;
		ps->tempo_cap = cap;
	}
	smf->tempos[smf->n_tempos++] = (struct al_smf_tempo){
		.tick = tick, .us_per_quarter = us, .track = track };
	return 0;
}

static const char *
meta_name(uint8_t type)
{
	switch (type) {
	case 0x51:
		return "tempo";
	case 0x58:
		return "time signature";
	case 0x59:
		return "key signature";
	default:
		return "meta event";
	}
}

/* A sysex event (status F0 or F7) from its length at *pos: ev filled, *pos past it. */
static int
read_sysex(struct parser *ps, struct al_smf_event *ev, size_t *pos, size_t end, uint16_t track,
	   uint8_t status)
{
	uint32_t len;
	int rc;

	rc = read_vlq(ps, pos, end, &len, "sysex length");
	if (rc)
		return rc;
	if (len > end - *pos)
		return fail(ps->err, -EINVAL, ev->offset,
			    "sysex length %u runs past the end of track %u (%zu bytes left)", len, track,
			    end - *pos);
	ev->kind = AL_SMF_EV_SYSEX;
	ev->status = status;
	ev->data_offset = (uint32_t)*pos;
	ev->len = len;
	*pos += len;
	return 0;
}

/* A meta event from its type at *pos (after the FF): checked, a tempo kept; *pos past it. */
static int
read_meta(struct parser *ps, struct al_smf_event *ev, size_t *pos, size_t end, uint16_t track)
{
	const uint8_t *buf = ps->buf;
	uint32_t len, us;
	int rc;

	if (*pos >= end)
		return fail(ps->err, -EINVAL, *pos, "meta event cut off by the end of track %u", track);
	ev->type = buf[*pos];
	if (ev->type >= 0x80)
		return fail(ps->err, -EINVAL, *pos, "meta event type 0x%02x (0x00..0x7f exist)",
			    ev->type);
	(*pos)++;
	rc = read_vlq(ps, pos, end, &len, "meta event length");
	if (rc)
		return rc;
	if (len > end - *pos)
		return fail(ps->err, -EINVAL, ev->offset,
			    "meta event length %u runs past the end of track %u (%zu bytes left)",
			    len, track, end - *pos);
	ev->kind = AL_SMF_EV_META;
	ev->status = 0xFF;
	ev->data_offset = (uint32_t)*pos;
	ev->len = len;
	if ((ev->type == 0x51 && len < 3) || (ev->type == 0x58 && len < 4) ||
	    (ev->type == 0x59 && len < 2))
		return fail(ps->err, -EINVAL, ev->offset, "%s with %u data bytes (needs %d)",
			    meta_name(ev->type), len, ev->type == 0x51 ? 3 : ev->type == 0x58 ? 4 : 2);
	if (ev->type == 0x51) {
		us = (uint32_t)buf[*pos] << 16 | (uint32_t)buf[*pos + 1] << 8 | buf[*pos + 2];
		if (!us)
			return fail(ps->err, -EINVAL, ev->offset, "tempo of 0 us per quarter note");
		rc = add_tempo(ps, ev->tick, us, track, ev->offset);
		if (rc)
			return rc;
	}
	*pos += len;
	return 0;
}

/* One MTrk chunk: payload [pos, end). */
static int
parse_track(struct parser *ps, uint16_t track, size_t pos, size_t end)
{
	const uint8_t *buf = ps->buf;
	size_t cancel_off = 0;          /* the meta/sysex that cancelled running status */
	const char *cancel_what = NULL;
	uint8_t running = 0, b;
	uint64_t tick = 0;
	bool eot = false;
	uint32_t delta;
	int rc, n, i;

	while (pos < end) {
		struct al_smf_event ev = { 0 };

		if (eot)
			return fail(ps->err, -EINVAL, pos, "%zu bytes after End of Track in track %u",
				    end - pos, track);
		ev.offset = (uint32_t)pos;
		ev.track = track;
		rc = read_vlq(ps, &pos, end, &delta, "delta time");
		if (rc)
			return rc;
		tick += delta;
		ev.tick = tick;
		if (pos >= end)
			return fail(ps->err, -EINVAL, pos, "track %u ends after a delta time, without an event",
				    track);
		b = buf[pos];
		if (b < 0x80) {
			if (!running) {
				if (cancel_what)
					return fail(ps->err, -EINVAL, pos,
						    "data byte 0x%02x without a status byte (running status was cancelled by the %s at offset %zu)",
						    b, cancel_what, cancel_off);
				return fail(ps->err, -EINVAL, pos,
					    "data byte 0x%02x without a status byte (running status with no status before it)",
					    b);
			}
			ev.status = running;
		} else if (b < 0xF0) {
			ev.status = running = b;
			pos++;
		} else if (b == 0xF0 || b == 0xF7 || b == 0xFF) {
			/* sysex or meta: read whole, and running status ends here */
			pos++;
			rc = b == 0xFF ? read_meta(ps, &ev, &pos, end, track)
				       : read_sysex(ps, &ev, &pos, end, track, b);
			if (rc)
				return rc;
			if (b == 0xFF && ev.type == 0x2F)
				eot = true;
			running = 0;
			cancel_what = b == 0xFF ? "meta event" : "sysex event";
			cancel_off = ev.offset;
			rc = add_event(ps, &ev);
			if (rc)
				return rc;
			continue;
		} else {
			return fail(ps->err, -EINVAL, pos, "0x%02x is not a valid event in a MIDI file", b);
		}
		/* a channel message: status in ev.status, data bytes at pos */
		n = al_midi_data_bytes(ev.status);
		if (end - pos < (size_t)n)
			return fail(ps->err, -EINVAL, ev.offset,
				    "message 0x%02x cut off by the end of track %u", ev.status, track);
		for (i = 0; i < n; i++)
			if (buf[pos + i] & 0x80)
				return fail(ps->err, -EINVAL, pos + i,
					    "status byte 0x%02x where a data byte of message 0x%02x belongs",
					    buf[pos + i], ev.status);
		ev.kind = AL_SMF_EV_CHANNEL;
		ev.len = (uint32_t)n;
		ev.d1 = buf[pos];
		ev.d2 = n == 2 ? buf[pos + 1] : 0;
		pos += (size_t)n;
		rc = add_event(ps, &ev);
		if (rc)
			return rc;
	}
	if (!eot)
		return fail(ps->err, -EINVAL, end, "track %u has no End of Track", track);
	return 0;
}

/* A tempo map: segments with the exact start time numerator (ns * ppq). */
struct segment {
	uint64_t tick;
	uint32_t us;
	u128 start_num;
};

/* A tempo event and its index in file order (track, then offset): a stable key. */
struct tempo_key {
	struct al_smf_tempo t;
	size_t idx;
};

static int
cmp_tempo(const void *a, const void *b)
{
	const struct tempo_key *x = a, *y = b;

	if (x->t.tick != y->t.tick)
		return x->t.tick < y->t.tick ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int
cmp_event(const void *a, const void *b)
{
	const struct al_smf_event *x = a, *y = b;

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The last segment starting at or before tick (later ones win ties). */
static const struct segment *
find_segment(const struct segment *s, size_t n, uint64_t tick)
{
	size_t lo = 0, hi = n; /* s[0].tick == 0 */

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].tick <= tick)
			lo = mid;
		else
			hi = mid;
	}
	return &s[lo];
}

int64_t
al_smf_tick_ns(const struct al_smf *smf, uint32_t us_per_quarter)
{
	u128 num, den;

	if (smf->ppq) {
		num = (u128)us_per_quarter * 1000;
		den = (u128)smf->ppq;
	} else if (smf->smpte_fps == 29) {
		num = (u128)NS_PER_SEC * 1001;
		den = (u128)30000 * (u128)smf->ticks_per_frame;
	} else {
		num = NS_PER_SEC;
		den = (u128)smf->smpte_fps * (u128)smf->ticks_per_frame;
	}
	if (!den)
		return 0;
	num = (num + den / 2) / den;
	return num ? (int64_t)num : 1; /* a tick under half a ns counts as 1 ns */
}

static void
note_tick(struct al_smf *smf, uint32_t us)
{
	int64_t t = al_smf_tick_ns(smf, us);

	if (t > smf->tick_ns_max)
		smf->tick_ns_max = t;
	if (!smf->tick_ns_min || t < smf->tick_ns_min)
		smf->tick_ns_min = t;
}

/*
 * Times of the events [first, last) under one tempo map: format 0/1 all
 * events, format 2 those of one track (before the final sort, the events
 * of a track are contiguous). tempos[] must be sorted by tick.
 */
static int
apply_map(struct parser *ps, size_t first, size_t last, const struct al_smf_tempo *tempos,
	  size_t n_tempos)
{
	struct al_smf *smf = ps->smf;
	struct segment *seg;
	uint64_t max_tick = 0;
	size_t n = 0, i;
	u128 num;

	for (i = first; i < last; i++)
		if (smf->events[i].tick > max_tick)
			max_tick = smf->events[i].tick;
	if (first == last)
		return 0;
	seg = malloc((n_tempos + 1) * sizeof(*seg));
	if (!seg)
		return fail(ps->err, -ENOMEM, 0, "out of memory for the tempo map");
	seg[n++] = (struct segment){ 0, AL_SMF_TEMPO_DEFAULT_US, 0 };
	for (i = 0; i < n_tempos; i++) {
		struct segment *prev = &seg[n - 1];

		seg[n].tick = tempos[i].tick;
		seg[n].us = tempos[i].us_per_quarter;
		seg[n].start_num = prev->start_num +
				   (u128)(tempos[i].tick - prev->tick) * prev->us * 1000;
		n++;
	}
	/* the resolution: every segment in force for some tick up to the last event */
	for (i = 0; i < n; i++)
		if (seg[i].tick <= max_tick && (i + 1 == n || seg[i + 1].tick > seg[i].tick))
			note_tick(smf, seg[i].us);

	for (i = first; i < last; i++) {
		struct al_smf_event *ev = &smf->events[i];
		const struct segment *s;

		s = find_segment(seg, n, ev->tick);
		num = s->start_num + (u128)(ev->tick - s->tick) * s->us * 1000;
		num /= (u128)smf->ppq;
		if (num > (u128)INT64_MAX) {
			free(seg);
			return fail(ps->err, -ERANGE, ev->offset,
				    "event time is past 2^63 ns (tick %llu)",
				    (unsigned long long)ev->tick);
		}
		ev->t_ns = (int64_t)num;
	}
	free(seg);
	return 0;
}

static int
compute_times(struct parser *ps)
{
	struct al_smf *smf = ps->smf;
	struct al_smf_tempo *sorted;
	struct tempo_key *keys;
	u128 num, den;
	size_t i, j, e;
	int rc = 0;

	if (!smf->ppq) {
		/* SMPTE: a fixed tick, tempo events do not apply */
		if (smf->smpte_fps == 29) {
			num = (u128)NS_PER_SEC * 1001;
			den = (u128)30000 * (u128)smf->ticks_per_frame;
		} else {
			num = NS_PER_SEC;
			den = (u128)smf->smpte_fps * (u128)smf->ticks_per_frame;
		}
		note_tick(smf, 0);
		for (i = 0; i < smf->n_events; i++) {
			u128 t = (u128)smf->events[i].tick * num / den;

			if (t > (u128)INT64_MAX)
				return fail(ps->err, -ERANGE, smf->events[i].offset,
					    "event time is past 2^63 ns (tick %llu)",
					    (unsigned long long)smf->events[i].tick);
			smf->events[i].t_ns = (int64_t)t;
		}
		return 0;
	}
	if (smf->format != 2) {
		keys = malloc((smf->n_tempos ? smf->n_tempos : 1) * sizeof(*keys));
		sorted = malloc((smf->n_tempos ? smf->n_tempos : 1) * sizeof(*sorted));
		if (!keys || !sorted) {
			free(keys);
			free(sorted);
			return fail(ps->err, -ENOMEM, 0, "out of memory for the tempo map");
		}
		for (i = 0; i < smf->n_tempos; i++)
			keys[i] = (struct tempo_key){ smf->tempos[i], i };
		/* by tick, ties in file order: of several tempos at one tick the
		 * last one (the highest track, the latest in it) wins */
		qsort(keys, smf->n_tempos, sizeof(*keys), cmp_tempo);
		for (i = 0; i < smf->n_tempos; i++)
			sorted[i] = keys[i].t;
		free(keys);
		rc = apply_map(ps, 0, smf->n_events, sorted, smf->n_tempos);
		free(sorted);
		return rc;
	}
	/* format 2: each track its own map; tempos are grouped by track in order */
	for (i = 0, j = 0, e = 0; i < (size_t)smf->n_tracks; i++) {
		size_t k = j, f = e;

		while (k < smf->n_tempos && smf->tempos[k].track == i)
			k++;
		while (f < smf->n_events && smf->events[f].track == i)
			f++;
		rc = apply_map(ps, e, f, k > j ? smf->tempos + j : NULL, k - j);
		if (rc)
			return rc;
		j = k;
		e = f;
	}
	return 0;
}

static int
parse_smf(struct parser *ps, size_t base, size_t end)
{
	const uint8_t *buf = ps->buf;
	struct al_smf *smf = ps->smf;
	uint32_t hlen, clen;
	size_t pos;
	int ntracks, t, rc;
	int8_t fps;

	if (end - base < 4 || memcmp(buf + base, "MThd", 4)) {
		if (end - base >= 4 && printable_id(buf + base))
			return fail(ps->err, -EINVAL, base,
				    "not a Standard MIDI File: starts with '%.4s', not MThd",
				    (const char *)buf + base);
		return fail(ps->err, -EINVAL, base, "not a Standard MIDI File: no MThd header");
	}
	if (end - base < 8)
		return fail(ps->err, -EINVAL, base + 4, "MThd header cut off by the end of the file");
	hlen = be32(buf + base + 4);
	if (hlen < 6)
		return fail(ps->err, -EINVAL, base + 4, "MThd length %u (needs 6)", hlen);
	if (hlen > end - base - 8)
		return fail(ps->err, -EINVAL, base + 4,
			    "MThd length %u runs past the end of the file (%zu bytes left)", hlen,
			    end - base - 8);
	smf->smf_offset = base;
	smf->format = be16(buf + base + 8);
	ntracks = be16(buf + base + 10);
	smf->division = be16(buf + base + 12);
	if (smf->format > 2)
		return fail(ps->err, -EINVAL, base + 8, "format %d (0, 1 and 2 exist)", smf->format);
	if (!ntracks)
		return fail(ps->err, -EINVAL, base + 10, "the header says 0 tracks");
	if (ntracks > AL_SMF_TRACKS_MAX)
		return fail(ps->err, -ERANGE, base + 10, "the header says %d tracks (at most %d)",
			    ntracks, AL_SMF_TRACKS_MAX);
	if (smf->format == 0 && ntracks != 1)
		return fail(ps->err, -EINVAL, base + 10, "format 0 with %d tracks (needs 1)", ntracks);
	if (smf->division & 0x8000) {
		fps = (int8_t)(smf->division >> 8);
		smf->smpte_fps = -fps;
		smf->ticks_per_frame = smf->division & 0xFF;
		if (smf->smpte_fps != 24 && smf->smpte_fps != 25 && smf->smpte_fps != 29 &&
		    smf->smpte_fps != 30)
			return fail(ps->err, -EINVAL, base + 12,
				    "SMPTE division with %d frames per second (24, 25, 29 and 30 exist)",
				    smf->smpte_fps);
		if (!smf->ticks_per_frame)
			return fail(ps->err, -EINVAL, base + 12,
				    "zero division: SMPTE with 0 ticks per frame");
	} else {
		smf->ppq = smf->division;
		if (!smf->ppq)
			return fail(ps->err, -EINVAL, base + 12,
				    "zero division: 0 ticks per quarter note");
	}

	pos = base + 8 + hlen;
	for (t = 0; t < ntracks;) {
		if (pos >= end || end - pos < 8)
			return fail(ps->err, -EINVAL, pos,
				    "the header says %d tracks, the file ends after %d", ntracks, t);
		clen = be32(buf + pos + 4);
		if (!printable_id(buf + pos))
			return fail(ps->err, -EINVAL, pos,
				    "garbage where chunk %d should start (bytes %02x %02x %02x %02x)",
				    t + 1, buf[pos], buf[pos + 1], buf[pos + 2], buf[pos + 3]);
		if (clen > end - pos - 8)
			return fail(ps->err, -EINVAL, pos + 4,
				    "chunk '%.4s' length %u runs past the end of the file (%zu bytes left)",
				    (const char *)buf + pos, clen, end - pos - 8);
		if (!memcmp(buf + pos, "MTrk", 4)) {
			rc = parse_track(ps, (uint16_t)t, pos + 8, pos + 8 + clen);
			if (rc)
				return rc;
			t++;
		}
		/* other chunks are skipped, as the spec says */
		pos += 8 + (size_t)clen;
	}
	smf->n_tracks = ntracks;
	rc = compute_times(ps);
	if (rc)
		return rc;
	qsort(smf->events, smf->n_events, sizeof(*smf->events), cmp_event);
	if (smf->n_events)
		smf->duration_ns = smf->events[smf->n_events - 1].t_ns;
	return 0;
}

static int
parse_rmid(struct parser *ps)
{
	const uint8_t *buf = ps->buf;
	size_t pos, end;
	uint32_t rlen, clen;

	if (ps->size < 12)
		return fail(ps->err, -EINVAL, ps->size, "RIFF header cut off by the end of the file");
	rlen = le32(buf + 4);
	if (rlen > ps->size - 8)
		return fail(ps->err, -EINVAL, 4,
			    "RIFF size %u runs past the end of the file (%zu bytes left)", rlen,
			    ps->size - 8);
	if (rlen < 4)
		return fail(ps->err, -EINVAL, 4, "RIFF size %u is too small for a form type", rlen);
	if (memcmp(buf + 8, "RMID", 4)) {
		if (printable_id(buf + 8))
			return fail(ps->err, -EINVAL, 8, "RIFF file of type '%.4s', not RMID",
				    (const char *)buf + 8);
		return fail(ps->err, -EINVAL, 8, "RIFF file that is not RMID");
	}
	end = 8 + (size_t)rlen;
	for (pos = 12; pos < end;) {
		if (end - pos < 8)
			return fail(ps->err, -EINVAL, pos, "RIFF chunk header cut off by the RIFF size");
		clen = le32(buf + pos + 4);
		if (clen > end - pos - 8)
			return fail(ps->err, -EINVAL, pos + 4,
				    "RIFF chunk '%.4s' size %u runs past the RIFF size (%zu bytes left)",
				    printable_id(buf + pos) ? (const char *)buf + pos : "????", clen,
				    end - pos - 8);
		if (!memcmp(buf + pos, "data", 4)) {
			ps->smf->rmid = true;
			return parse_smf(ps, pos + 8, pos + 8 + clen);
		}
		pos += 8 + (size_t)clen + (clen & 1);
	}
	return fail(ps->err, -EINVAL, 12, "RIFF RMID file without a data chunk");
}

int
al_smf_parse(const uint8_t *buf, size_t size, struct al_smf *smf, struct al_smf_error *err)
{
	struct parser ps = { .buf = buf, .size = size, .smf = smf, .err = err };
	int rc;

	memset(smf, 0, sizeof(*smf));
	if (err) {
		err->offset = 0;
		err->msg[0] = '\0';
	}
	if (!buf || !size)
		return fail(err, -EINVAL, 0, "empty file");
	if (size > UINT32_MAX)
		return fail(err, -ERANGE, 0, "file of %zu bytes is too large (4 GiB at most)", size);
	/* every event takes at least two bytes: a delta and a status or data byte */
	ps.max_events = size / 2 + 1;
	if (size >= 4 && !memcmp(buf, "RIFF", 4))
		rc = parse_rmid(&ps);
	else
		rc = parse_smf(&ps, 0, size);
	if (rc)
		al_smf_free(smf);
	return rc;
}

void
al_smf_free(struct al_smf *smf)
{
	free(smf->events);
	free(smf->tempos);
	memset(smf, 0, sizeof(*smf));
}

uint16_t
al_smf_smpte_division(int fps, int ticks_per_frame)
{
	if ((fps != 24 && fps != 25 && fps != 29 && fps != 30) || ticks_per_frame < 1 ||
	    ticks_per_frame > 255)
		return 0;
	return (uint16_t)((uint8_t)(int8_t)-fps << 8 | ticks_per_frame);
}
