/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Building Standard MIDI Files byte by byte for the tests (and the fuzz
 * seeds): no binary fixtures, every file is written by the test that
 * reads it. Nothing here uses the writer under test.
 */
#ifndef AL_TESTS_SMF_GEN_H
#define AL_TESTS_SMF_GEN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define GEN_MAX 65536

struct gen {
	uint8_t b[GEN_MAX];
	size_t n;
	size_t trk; /* offset of the open MTrk's length */
};

static inline void
g_bytes(struct gen *g, const void *p, size_t n)
{
	if (g->n + n > GEN_MAX)
		n = GEN_MAX - g->n;
	memcpy(g->b + g->n, p, n);
	g->n += n;
}

static inline void
g_u8(struct gen *g, uint8_t v)
{
	g_bytes(g, &v, 1);
}

static inline void
g_be16(struct gen *g, uint16_t v)
{
	g_u8(g, (uint8_t)(v >> 8));
	g_u8(g, (uint8_t)v);
}

static inline void
g_be32(struct gen *g, uint32_t v)
{
	g_be16(g, (uint16_t)(v >> 16));
	g_be16(g, (uint16_t)v);
}

static inline void
g_le32(struct gen *g, uint32_t v)
{
	g_u8(g, (uint8_t)v);
	g_u8(g, (uint8_t)(v >> 8));
	g_u8(g, (uint8_t)(v >> 16));
	g_u8(g, (uint8_t)(v >> 24));
}

/* Minimal VLQ (the tests write non-minimal ones by hand). */
static inline void
g_vlq(struct gen *g, uint32_t v)
{
	uint8_t t[5];
	int n = 0;

	t[n++] = v & 0x7F;
	while ((v >>= 7))
		t[n++] = (uint8_t)(0x80 | (v & 0x7F));
	while (n--)
		g_u8(g, t[n]);
}

static inline void
g_header(struct gen *g, uint16_t format, uint16_t ntracks, uint16_t division)
{
	g_bytes(g, "MThd", 4);
	g_be32(g, 6);
	g_be16(g, format);
	g_be16(g, ntracks);
	g_be16(g, division);
}

static inline void
g_track_begin(struct gen *g)
{
	g_bytes(g, "MTrk", 4);
	g->trk = g->n;
	g_be32(g, 0);
}

/* Patch the open track's length to what was written since g_track_begin. */
static inline void
g_track_close(struct gen *g)
{
	uint32_t len = (uint32_t)(g->n - g->trk - 4);

	g->b[g->trk] = (uint8_t)(len >> 24);
	g->b[g->trk + 1] = (uint8_t)(len >> 16);
	g->b[g->trk + 2] = (uint8_t)(len >> 8);
	g->b[g->trk + 3] = (uint8_t)len;
}

/* An event: delta time, then the bytes as given (status or not). */
#define G_EV(g, delta, ...)                                          \
	do {                                                         \
		static const uint8_t ev_[] = { __VA_ARGS__ };        \
		g_vlq((g), (delta));                                 \
		g_bytes((g), ev_, sizeof(ev_));                      \
	} while (0)

static inline void
g_tempo(struct gen *g, uint32_t delta, uint32_t us)
{
	g_vlq(g, delta);
	g_u8(g, 0xFF);
	g_u8(g, 0x51);
	g_u8(g, 3);
	g_u8(g, (uint8_t)(us >> 16));
	g_u8(g, (uint8_t)(us >> 8));
	g_u8(g, (uint8_t)us);
}

static inline void
g_eot(struct gen *g, uint32_t delta)
{
	G_EV(g, delta, 0xFF, 0x2F, 0x00);
}

/* A whole track closed with End of Track. */
static inline void
g_track_end(struct gen *g, uint32_t delta)
{
	g_eot(g, delta);
	g_track_close(g);
}

#endif
