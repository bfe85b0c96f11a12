/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SMF reader and writer and the timing statistics, on files generated
 * here: exact times under tempo maps and SMPTE divisions, running status,
 * format 0/1/2, RMID, write -> read round trips, and every malformed case
 * of docs (reference midi.md) with its error and byte offset.
 *
 * Run with --write-corpus DIR to write the files as fuzz seeds.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "midi/analyze.h"
#include "midi/smf.h"
#include "smf-gen.h"

#define MS 1000000LL

static const char *corpus_dir; /* --write-corpus */

static void
save(const char *name, const struct gen *g)
{
	char path[4096];
	FILE *f;

	if (!corpus_dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", corpus_dir, name);
	f = fopen(path, "wb");
	if (f) {
		fwrite(g->b, 1, g->n, f);
		fclose(f);
	}
}

static void
parse_ok(const char *name, const struct gen *g, struct al_smf *smf)
{
	struct al_smf_error err;
	int rc;

	save(name, g);
	rc = al_smf_parse(g->b, g->n, smf, &err);
	if (rc)
		fail_msg("%s: %d at offset %zu: %s", name, rc, err.offset, err.msg);
}

/* The i-th channel event of the sorted list. */
static const struct al_smf_event *
nth_channel(const struct al_smf *smf, size_t i)
{
	size_t k;

	for (k = 0; k < smf->n_events; k++)
		if (smf->events[k].kind == AL_SMF_EV_CHANNEL && !i--)
			return &smf->events[k];
	fail_msg("no channel event %zu", i);
	return NULL;
}

static void
default_tempo_format0(void **state)
{
	struct al_smf smf;
	struct gen g = { 0 };
	int i;

	(void)state;
	g_header(&g, 0, 1, 96);
	g_track_begin(&g);
	for (i = 0; i < 5; i++)
		G_EV(&g, i ? 96 : 0, 0x90, 60, 100);
	g_track_end(&g, 0);
	parse_ok("format0-default-tempo", &g, &smf);
	assert_int_equal(smf.format, 0);
	assert_int_equal(smf.ppq, 96);
	assert_int_equal(smf.n_events, 6); /* 5 notes + End of Track */
	for (i = 0; i < 5; i++)
		assert_int_equal(nth_channel(&smf, (size_t)i)->t_ns, i * 500 * MS);
	/* 500000 us / 96 = 5208.333 us */
	assert_int_equal(smf.tick_ns_max, 5208333);
	assert_int_equal(smf.tick_ns_min, 5208333);
	al_smf_free(&smf);
}

/* 1 tick = 100 ms / 3: rounding per event would drift by 1 ns a tick. */
static void
no_accumulated_rounding(void **state)
{
	struct al_smf smf;
	struct gen g = { 0 };
	int i;

	(void)state;
	g_header(&g, 0, 1, 3);
	g_track_begin(&g);
	g_tempo(&g, 0, 100000);
	for (i = 0; i < 3000; i++)
		G_EV(&g, i ? 1 : 0, 0x90, 60, 1);
	g_track_end(&g, 0);
	parse_ok("thirds", &g, &smf);
	assert_int_equal(nth_channel(&smf, 1)->t_ns, 33333333);
	assert_int_equal(nth_channel(&smf, 2)->t_ns, 66666666);
	assert_int_equal(nth_channel(&smf, 2999)->t_ns, 99966666666LL); /* 2999/3 * 100 ms */
	assert_int_equal(smf.tick_ns_max, 33333333);
	al_smf_free(&smf);
}

static void
tempo_changes(void **state)
{
	static const int64_t want_ms[] = { 0, 500, 1000, 1250, 1500, 3625 };
	struct al_smf smf;
	struct gen g = { 0 };
	size_t i;

	(void)state;
	g_header(&g, 0, 1, 384);
	g_track_begin(&g);
	g_tempo(&g, 0, 500000);
	G_EV(&g, 0, 0x90, 60, 100);
	G_EV(&g, 384, 0x90, 60, 100);
	G_EV(&g, 384, 0x90, 60, 100);
	g_tempo(&g, 0, 250000);           /* at tick 768: twice as fast */
	G_EV(&g, 384, 0x90, 60, 100);
	G_EV(&g, 384, 0x90, 60, 100);
	g_tempo(&g, 192, 4000000);        /* at tick 1728 (1.625 s): 4 s a quarter */
	G_EV(&g, 192, 0x90, 60, 100);     /* tick 1920: 1.625 s + 2 s */
	g_track_end(&g, 0);
	parse_ok("tempo-changes", &g, &smf);
	for (i = 0; i < sizeof(want_ms) / sizeof(want_ms[0]); i++)
		assert_int_equal(nth_channel(&smf, i)->t_ns, want_ms[i] * MS);
	/* the coarsest tick: 4 s / 384; the finest 250 ms / 384 */
	assert_int_equal(smf.tick_ns_max, 10416667);
	assert_int_equal(smf.tick_ns_min, 651042);
	al_smf_free(&smf);
}

/* Format 1: the tempo track's changes apply to the note track. */
static void
format1_tempo_track(void **state)
{
	struct al_smf smf;
	struct gen g = { 0 };

	(void)state;
	g_header(&g, 1, 2, 480);
	g_track_begin(&g);
	g_tempo(&g, 0, 500000);
	G_EV(&g, 0, 0xFF, 0x58, 4, 4, 2, 24, 8); /* time signature */
	g_tempo(&g, 960, 1000000);
	g_track_end(&g, 0);
	g_track_begin(&g);
	G_EV(&g, 0, 0x90, 60, 100);
	G_EV(&g, 480, 0x80, 60, 0);
	G_EV(&g, 0, 0x90, 62, 100);
	G_EV(&g, 480, 0x90, 64, 100);
	G_EV(&g, 480, 0x90, 65, 100);
	g_track_end(&g, 0);
	parse_ok("format1-tempo-track", &g, &smf);
	assert_int_equal(smf.format, 1);
	assert_int_equal(smf.n_tracks, 2);
	assert_int_equal(smf.n_tempos, 2);
	assert_int_equal(nth_channel(&smf, 0)->t_ns, 0);
	assert_int_equal(nth_channel(&smf, 1)->t_ns, 500 * MS);   /* note-off */
	assert_int_equal(nth_channel(&smf, 2)->t_ns, 500 * MS);
	assert_int_equal(nth_channel(&smf, 3)->t_ns, 1000 * MS);
	assert_int_equal(nth_channel(&smf, 4)->t_ns, 2000 * MS);  /* 480 ticks at 1 s */
	assert_int_equal(nth_channel(&smf, 4)->track, 1);
	al_smf_free(&smf);
}

/*
 * Two tempos at one tick in different tracks of a format 1 file: the last
 * one in file order (the higher track) wins, whatever the tempos' values.
 */
static void
format1_tempo_tie_last_wins(void **state)
{
	static const uint32_t first[] = { 500000, 1000000 }, last[] = { 1000000, 250000 };
	struct al_smf smf;
	size_t k;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct gen g = { 0 };

		g_header(&g, 1, 2, 480);
		g_track_begin(&g);
		g_tempo(&g, 240, first[k]);
		g_track_end(&g, 0);
		g_track_begin(&g);
		G_EV(&g, 0, 0x90, 60, 100);
		g_tempo(&g, 240, last[k]);
		G_EV(&g, 480, 0x90, 62, 100);
		g_track_end(&g, 0);
		parse_ok("format1-tempo-tie", &g, &smf);
		assert_int_equal(smf.n_tempos, 2);
		/* 240 ticks at the default 0.5 s a quarter, then 480 at the last tempo */
		assert_int_equal(nth_channel(&smf, 1)->t_ns,
				 250 * MS + (int64_t)last[k] * 1000);
		al_smf_free(&smf);
	}
}

/* Format 2: each track keeps its own tempo map. */
static void
format2_own_maps(void **state)
{
	struct al_smf smf;
	struct gen g = { 0 };
	size_t i;
	int64_t t1 = -1, t0 = -1;

	(void)state;
	g_header(&g, 2, 2, 100);
	g_track_begin(&g);
	g_tempo(&g, 0, 1000000);
	G_EV(&g, 100, 0x90, 60, 100); /* 1 s */
	g_track_end(&g, 0);
	g_track_begin(&g);
	G_EV(&g, 100, 0x91, 60, 100); /* the default tempo: 0.5 s */
	g_track_end(&g, 0);
	parse_ok("format2", &g, &smf);
	for (i = 0; i < smf.n_events; i++) {
		if (smf.events[i].status == 0x90)
			t0 = smf.events[i].t_ns;
		if (smf.events[i].status == 0x91)
			t1 = smf.events[i].t_ns;
	}
	assert_int_equal(t0, 1000 * MS);
	assert_int_equal(t1, 500 * MS);
	al_smf_free(&smf);
}

static void
smpte_divisions(void **state)
{
	struct al_smf smf;
	struct gen g = { 0 }, g2 = { 0 };

	(void)state;
	/* 25 fps x 40 ticks: the millisecond division 0xE728 */
	g_header(&g, 0, 1, 0xE728);
	g_track_begin(&g);
	g_tempo(&g, 0, 250000); /* ignored under SMPTE */
	G_EV(&g, 0, 0x90, 60, 100);
	G_EV(&g, 100, 0x90, 60, 100);
	G_EV(&g, 100, 0x90, 60, 100);
	g_track_end(&g, 0);
	parse_ok("smpte-25x40", &g, &smf);
	assert_int_equal(smf.smpte_fps, 25);
	assert_int_equal(smf.ticks_per_frame, 40);
	assert_int_equal(smf.ppq, 0);
	assert_int_equal(nth_channel(&smf, 1)->t_ns, 100 * MS);
	assert_int_equal(nth_channel(&smf, 2)->t_ns, 200 * MS);
	assert_int_equal(smf.tick_ns_max, 1 * MS);
	al_smf_free(&smf);

	/* 29.97 fps x 80 ticks: 240 ticks = 3 frames = 100.1 ms */
	assert_int_equal(al_smf_smpte_division(29, 80), 0xE350);
	g_header(&g2, 0, 1, 0xE350);
	g_track_begin(&g2);
	G_EV(&g2, 0, 0x90, 60, 100);
	G_EV(&g2, 240, 0x90, 60, 100);
	g_track_end(&g2, 0);
	parse_ok("smpte-2997", &g2, &smf);
	assert_int_equal(smf.smpte_fps, 29);
	assert_int_equal(nth_channel(&smf, 1)->t_ns, 100100000);
	assert_int_equal(smf.tick_ns_max, 417083);
	al_smf_free(&smf);
}

/* Running status, note-off as velocity 0, sysex and meta in between. */
static void
running_status_sysex_meta(void **state)
{
	struct al_midi_filter on = { AL_MIDI_SEL_NOTE_ON, 0 }, off = { AL_MIDI_SEL_NOTE_OFF, 0 };
	struct al_midi_filter all = { AL_MIDI_SEL_ALL, 0 }, ch2 = { AL_MIDI_SEL_ALL, 2 };
	struct al_midi_stats *st = malloc(sizeof(*st));
	struct al_smf smf;
	struct gen g = { 0 };

	(void)state;
	g_header(&g, 0, 1, 1000);
	g_track_begin(&g);
	g_tempo(&g, 0, 1000000);                 /* 1 ms a tick */
	G_EV(&g, 0, 0x90, 60, 100);              /* on, t=0 */
	G_EV(&g, 50, 60, 0);                     /* running: velocity 0 = off, t=50 */
	G_EV(&g, 50, 62, 100);                   /* running: on, t=100 */
	G_EV(&g, 10, 0xF0, 3, 0x7E, 0x01, 0xF7); /* sysex t=110 */
	G_EV(&g, 40, 0x90, 64, 100);             /* status again after sysex: on, t=150 */
	G_EV(&g, 0, 0xFF, 0x01, 2, 'h', 'i');    /* text */
	G_EV(&g, 50, 0x81, 64, 0);               /* channel 2 note-off, t=200 */
	G_EV(&g, 0, 0xC1, 5);                    /* program change: one data byte */
	G_EV(&g, 0, 7);                          /* running program change */
	G_EV(&g, 100, 0x90, 66, 90);             /* on, t=300 */
	g_track_end(&g, 0);
	parse_ok("running-status", &g, &smf);
	assert_int_equal(nth_channel(&smf, 1)->status, 0x90);
	assert_int_equal(nth_channel(&smf, 1)->d2, 0);
	assert_int_equal(nth_channel(&smf, 2)->d1, 62);
	assert_int_equal(nth_channel(&smf, 6)->d1, 7);
	assert_int_equal(nth_channel(&smf, 6)->len, 1);

	assert_int_equal(al_midi_analyze_smf(&smf, &on, 0, st), 0);
	assert_int_equal(st->events, 4);                   /* t = 0, 100, 150, 300 */
	assert_int_equal(st->delta.min_ns, 50 * MS);
	assert_int_equal(st->delta.max_ns, 150 * MS);
	assert_int_equal(st->interval_ns, 100 * MS);       /* median of 100, 50, 150 */
	assert_true(st->interval_auto);
	assert_int_equal(al_midi_analyze_smf(&smf, &off, 0, st), 0);
	assert_int_equal(st->events, 2);                   /* t = 50, 200 */
	assert_int_equal(st->delta.max_ns, 150 * MS);
	assert_int_equal(al_midi_analyze_smf(&smf, &all, 0, st), 0);
	assert_int_equal(st->events, 9);                   /* 8 channel + 1 sysex */
	assert_int_equal(al_midi_analyze_smf(&smf, &ch2, 0, st), 0);
	assert_int_equal(st->events, 3);                   /* 0x81, 0xC1, running 0xC1 */
	free(st);
	al_smf_free(&smf);
}

/* Seed 002's figures on a 10 Hz stream with known deviations. */
static void
jitter_figures(void **state)
{
	static const uint32_t at_ms[] = { 0, 100, 200, 305, 400, 500 };
	struct al_midi_filter on = { AL_MIDI_SEL_NOTE_ON, 0 };
	struct al_midi_stats *st = malloc(sizeof(*st));
	struct al_smf smf;
	struct gen g = { 0 };
	uint32_t prev = 0;
	size_t i;

	(void)state;
	g_header(&g, 0, 1, 1000);
	g_track_begin(&g);
	g_tempo(&g, 0, 1000000);
	for (i = 0; i < 6; i++) {
		g_vlq(&g, at_ms[i] - prev);
		g_u8(&g, 0x90);
		g_u8(&g, 60);
		g_u8(&g, 100);
		G_EV(&g, 20, 0x80, 60, 0); /* note-off 20 ms later */
		prev = at_ms[i] + 20;
	}
	g_track_end(&g, 0);
	parse_ok("jitter-10hz", &g, &smf);
	assert_int_equal(al_midi_analyze_smf(&smf, &on, 100 * MS, st), 0);
	assert_int_equal(st->events, 6);
	assert_int_equal(st->deltas, 5);
	assert_false(st->interval_auto);
	assert_int_equal(st->interval_ns, 100 * MS);
	assert_int_equal(st->delta.min_ns, 95 * MS);
	assert_int_equal(st->delta.max_ns, 105 * MS);
	assert_int_equal(st->delta.mean_ns, 100 * MS);
	assert_int_equal(st->delta.median_ns, 100 * MS);
	assert_int_equal(st->delta.p99_ns, 105 * MS);
	assert_int_equal(st->delta.stddev_ns, 3162278); /* sqrt(50 ms^2 / 5) */
	assert_int_equal(st->jitter_max_ns, 5 * MS);
	assert_int_equal(st->jitter_abs_max_ns, 5 * MS);
	assert_int_equal(st->jitter_mean_abs_ns, 2 * MS);
	assert_int_equal(st->hist.count, 5);
	assert_int_equal(st->hist.max_ns, 105 * MS);
	assert_int_equal(st->jitter_hist.count, 5);
	assert_int_equal(st->jitter_hist.min_ns, 0);
	assert_int_equal(st->jitter_hist.max_ns, 5 * MS);
	assert_int_equal(st->jitter_hist.buckets[0], 3);
	/* the display histograms: exact counts in round steps */
	assert_int_equal(st->delta_lin.step_ns, 1 * MS);
	assert_int_equal(st->delta_lin.start_ns, 95 * MS);
	assert_int_equal(st->delta_lin.rows, 11);
	assert_int_equal(st->delta_lin.count[0], 1);
	assert_int_equal(st->delta_lin.count[5], 3);
	assert_int_equal(st->delta_lin.count[10], 1);
	assert_int_equal(st->jitter_lin.step_ns, 500000);
	assert_int_equal(st->jitter_lin.start_ns, 0);
	assert_int_equal(st->jitter_lin.rows, 11);
	assert_int_equal(st->jitter_lin.count[0], 3);
	assert_int_equal(st->jitter_lin.count[10], 2);

	/* an interval of 101 ms: the largest |deviation| is the 95 ms delta */
	assert_int_equal(al_midi_analyze_smf(&smf, &on, 101 * MS, st), 0);
	assert_int_equal(st->jitter_max_ns, 4 * MS);
	assert_int_equal(st->jitter_abs_max_ns, 6 * MS);
	free(st);
	al_smf_free(&smf);
}

static void
summary_edge_cases(void **state)
{
	static const int64_t v[] = { 4, 1, 3, 2 };
	struct al_midi_summary s;
	struct al_midi_stats *st = malloc(sizeof(*st));
	int64_t one = 5;

	(void)state;
	assert_int_equal(al_midi_summarize(v, 4, &s), 0);
	assert_int_equal(s.min_ns, 1);
	assert_int_equal(s.max_ns, 4);
	assert_int_equal(s.median_ns, 2); /* (2 + 3) / 2 rounded down */
	assert_int_equal(s.mean_ns, 3);   /* 2.5 rounds up */
	assert_int_equal(s.p99_ns, 4);
	assert_int_equal(s.mean_abs_dev_ns, 1);
	assert_int_equal(al_midi_summarize(v, 0, &s), 0);
	assert_int_equal(s.count, 0);
	/* fewer than two events: no deltas, all zero */
	assert_int_equal(al_midi_analyze_times(&one, 1, 0, st), 0);
	assert_int_equal(st->events, 1);
	assert_int_equal(st->deltas, 0);
	assert_int_equal(st->delta.max_ns, 0);
	assert_int_equal(al_midi_analyze_times(v, 4, 0, st), -EINVAL); /* backwards */
	free(st);
}

/*
 * --interval auto on bunched events (a JACK server under hackbench hands
 * over three events in one cycle): the median delta is 0, and jitter
 * against 0 would say nothing. The commonest non-zero delta is the interval.
 */
static void
auto_interval_of_bunched_events(void **state)
{
	struct al_midi_stats *st = malloc(sizeof(*st));
	int64_t t[30];
	size_t i;

	(void)state;
	for (i = 0; i < 30; i++) /* three at a time, 100 ms apart (and a little jitter) */
		t[i] = (int64_t)(i / 3) * 100000000 + (int64_t)(i / 3 % 2) * 20000;
	assert_int_equal(al_midi_analyze_times(t, 30, 0, st), 0);
	assert_int_equal(st->delta.median_ns, 0);
	assert_true(st->interval_auto);
	assert_true(st->interval_mode);
	/* within the bucket's 0.4 % of 100 ms */
	assert_true(st->interval_ns > 99600000 && st->interval_ns < 100400000);
	/* an even stream keeps the median */
	for (i = 0; i < 30; i++)
		t[i] = (int64_t)i * 100000000;
	assert_int_equal(al_midi_analyze_times(t, 30, 0, st), 0);
	assert_false(st->interval_mode);
	assert_int_equal(st->interval_ns, 100000000);
	free(st);
}

/*
 * A phase's stretch of a recording: the delta from the event before it
 * is its first; the timeline puts each delta in the 1 s window where it
 * ends.
 */
static void
stretch_and_timeline(void **state)
{
	static const int64_t t[] = { 0, 900 * MS, 1200 * MS, 2500 * MS, 2600 * MS, 4000 * MS };
	struct al_midi_stats *st;

	(void)state;
	assert_int_equal(al_midi_analyze_stretch(t, 6, 0, 2000 * MS, 3000 * MS, &st), 0);
	assert_int_equal(st->events, 2);                 /* 2500, 2600 */
	assert_int_equal(st->deltas, 2);                 /* from 1200, and 100 ms */
	assert_int_equal(st->delta.max_ns, 1300 * MS);
	assert_int_equal(st->delta.min_ns, 100 * MS);
	free(st);
	assert_int_equal(al_midi_analyze_stretch(t, 6, 0, 0, 0, &st), 0);
	assert_int_equal(st->events, 6);
	assert_int_equal(st->timeline_window_ns, 1000 * MS);
	assert_int_equal(st->n_timeline, 5);
	assert_int_equal(st->timeline[0].deltas, 1);     /* 0 -> 900 */
	assert_int_equal(st->timeline[1].deltas, 1);     /* 900 -> 1200 */
	assert_int_equal(st->timeline[1].delta_max_ns, 300 * MS);
	assert_int_equal(st->timeline[2].deltas, 2);     /* 1200 -> 2500, 2500 -> 2600 */
	assert_int_equal(st->timeline[2].delta_min_ns, 100 * MS);
	assert_int_equal(st->timeline[2].delta_max_ns, 1300 * MS);
	assert_int_equal(st->timeline[3].deltas, 0);
	assert_int_equal(st->timeline[4].deltas, 1);     /* 2600 -> 4000 */
	assert_int_equal(st->timeline[4].t_ns, 4000 * MS);
	free(st);
}

static void
linear_histogram(void **state)
{
	static const int64_t v[] = { -7, 0, 13, 13, 200 };
	static const int64_t big[] = { INT64_MIN, INT64_MAX };
	struct al_midi_linhist lh;
	uint64_t sum = 0;
	int i;

	(void)state;
	al_midi_linhist_fill(&lh, v, 5);
	assert_int_equal(lh.step_ns, 20);  /* 207 / 20 + 1 = 11 -> 20 */
	assert_int_equal(lh.start_ns, -20);
	assert_int_equal(lh.rows, 12);
	assert_int_equal(lh.count[0], 1);
	assert_int_equal(lh.count[1], 3);
	assert_int_equal(lh.count[11], 1);
	al_midi_linhist_fill(&lh, big, 2);  /* no overflow at the extremes */
	for (i = 0; i < lh.rows; i++)
		sum += lh.count[i];
	assert_int_equal(sum, 2);
	assert_true(lh.rows <= AL_MIDI_LINHIST_ROWS);
	al_midi_linhist_fill(&lh, v, 0);
	assert_int_equal(lh.rows, 0);
}

static void
filters(void **state)
{
	struct al_midi_filter f = { AL_MIDI_SEL_NOTE_ON, 0 };
	int sel = -1;

	(void)state;
	assert_true(al_midi_filter_match(&f, 0x90, 60, 1));
	assert_false(al_midi_filter_match(&f, 0x90, 60, 0));
	assert_false(al_midi_filter_match(&f, 0x80, 60, 64));
	assert_false(al_midi_filter_match(&f, 0xF0, 0, 0));
	f.channel = 10;
	assert_true(al_midi_filter_match(&f, 0x99, 36, 100));
	assert_false(al_midi_filter_match(&f, 0x90, 36, 100));
	assert_int_equal(al_midi_select_parse("note-off", &sel), 0);
	assert_int_equal(sel, AL_MIDI_SEL_NOTE_OFF);
	assert_int_equal(al_midi_select_parse("notes", &sel), -EINVAL);
	assert_string_equal(al_midi_select_name(AL_MIDI_SEL_ALL), "all");
}

/* Non-minimal VLQs, alien chunks, a longer MThd and EOT with data are fine. */
static void
tolerated_oddities(void **state)
{
	struct al_smf smf;
	struct gen g = { 0 };

	(void)state;
	g_bytes(&g, "MThd", 4);
	g_be32(&g, 8);
	g_be16(&g, 1);
	g_be16(&g, 1);
	g_be16(&g, 96);
	g_be16(&g, 0xBEEF); /* two extra header bytes */
	g_bytes(&g, "XFIH", 4);
	g_be32(&g, 3);
	g_bytes(&g, "abc", 3);
	g_track_begin(&g);
	g_bytes(&g, (const uint8_t[]){ 0x80, 0x00, 0x90, 60, 1 }, 5); /* delta 80 00 = 0 */
	g_bytes(&g, (const uint8_t[]){ 0x80, 0x80, 0x80, 0x60, 0x90, 60, 1 }, 7); /* 96 */
	G_EV(&g, 0, 0xFF, 0x2F, 1, 0);
	g_track_close(&g);
	g_bytes(&g, "junk after the last track", 25);
	parse_ok("oddities", &g, &smf);
	assert_int_equal(nth_channel(&smf, 1)->tick, 96);
	assert_int_equal(nth_channel(&smf, 1)->t_ns, 500 * MS);
	al_smf_free(&smf);
}

static void
rmid_wrapping(void **state)
{
	struct al_smf smf;
	struct gen g = { 0 }, r = { 0 };
	uint8_t *wrapped;
	size_t len;

	(void)state;
	g_header(&g, 0, 1, 96);
	g_track_begin(&g);
	G_EV(&g, 0, 0x90, 60, 100);
	G_EV(&g, 96, 0x90, 60, 100);
	g_track_end(&g, 0);
	/* by hand, with an odd-sized chunk before data (padded) */
	g_bytes(&r, "RIFF", 4);
	g_le32(&r, (uint32_t)(4 + 8 + 3 + 1 + 8 + g.n));
	g_bytes(&r, "RMID", 4);
	g_bytes(&r, "INFO", 4);
	g_le32(&r, 3);
	g_bytes(&r, "abc\0", 4);
	g_bytes(&r, "data", 4);
	g_le32(&r, (uint32_t)g.n);
	g_bytes(&r, g.b, g.n);
	parse_ok("rmid", &r, &smf);
	assert_true(smf.rmid);
	assert_int_equal(smf.smf_offset, 32);
	assert_int_equal(nth_channel(&smf, 1)->t_ns, 500 * MS);
	assert_int_equal(nth_channel(&smf, 1)->offset, 32 + 14 + 8 + 4);
	al_smf_free(&smf);

	/* the writer's wrapping reads back too */
	assert_int_equal(al_smf_wrap_rmid(g.b, g.n, &wrapped, &len), 0);
	assert_int_equal(al_smf_parse(wrapped, len, &smf, NULL), 0);
	assert_true(smf.rmid);
	assert_int_equal(nth_channel(&smf, 1)->t_ns, 500 * MS);
	al_smf_free(&smf);
	free(wrapped);
}

/* Writer -> reader: every event comes back with its tick and bytes. */
static void
write_read_round_trip(void **state)
{
	static const uint8_t syx[] = { 0x7E, 0x7F, 0x09, 0x01, 0xF7 };
	struct al_smf_writer w;
	struct al_smf_error err;
	struct al_smf smf;
	uint8_t *buf;
	size_t len, i;
	int rs, k;

	(void)state;
	for (rs = 0; rs < 2; rs++) {
		assert_int_equal(al_smf_writer_init(&w, 1, 2, 1000, rs), 0);
		assert_int_equal(al_smf_writer_track_begin(&w), 0);
		assert_int_equal(al_smf_writer_tempo(&w, 0, 1000), 0); /* 1 us a tick */
		assert_int_equal(al_smf_writer_track_end(&w, 0), 0);
		assert_int_equal(al_smf_writer_track_begin(&w), 0);
		for (k = 0; k < 100; k++) {
			assert_int_equal(al_smf_writer_channel(&w, (uint64_t)k * 100000, 0x90, 60, 100), 0);
			assert_int_equal(al_smf_writer_channel(&w, (uint64_t)k * 100000 + 3, 0x90, 60, 0), 0);
			if (k == 50)
				assert_int_equal(al_smf_writer_sysex(&w, (uint64_t)k * 100000 + 3, 0xF0, syx, sizeof(syx)), 0);
		}
		/* a gap longer than a VLQ holds: bridged */
		assert_int_equal(al_smf_writer_channel(&w, 0x30000000ULL, 0xB0, 7, 127), 0);
		assert_int_equal(al_smf_writer_track_end(&w, 0), 0);
		assert_int_equal(al_smf_writer_channel(&w, 0, 0x90, 1, 1), -EINVAL); /* no track open */
		assert_int_equal(al_smf_writer_finish(&w, &buf, &len), -EINVAL);     /* the error sticks */

		assert_int_equal(al_smf_writer_init(&w, 0, 1, 1000, rs), 0);
		assert_int_equal(al_smf_writer_track_begin(&w), 0);
		assert_int_equal(al_smf_writer_tempo(&w, 0, 1000), 0);
		for (k = 0; k < 100; k++) {
			assert_int_equal(al_smf_writer_channel(&w, (uint64_t)k * 100000, 0x90, 60, 100), 0);
			assert_int_equal(al_smf_writer_channel(&w, (uint64_t)k * 100000 + 3, 0x90, 60, 0), 0);
			if (k == 50)
				assert_int_equal(al_smf_writer_sysex(&w, (uint64_t)k * 100000 + 3, 0xF0, syx, sizeof(syx)), 0);
		}
		assert_int_equal(al_smf_writer_channel(&w, 0x30000000ULL, 0xB0, 7, 127), 0);
		assert_int_equal(al_smf_writer_channel(&w, 5, 0x90, 1, 1), -EINVAL); /* backwards */
		al_smf_writer_free(&w);

		assert_int_equal(al_smf_writer_init(&w, 0, 1, 1000, rs), 0);
		assert_int_equal(al_smf_writer_track_begin(&w), 0);
		assert_int_equal(al_smf_writer_tempo(&w, 0, 1000), 0);
		for (k = 0; k < 100; k++) {
			assert_int_equal(al_smf_writer_channel(&w, (uint64_t)k * 100000, 0x90, 60, 100), 0);
			assert_int_equal(al_smf_writer_channel(&w, (uint64_t)k * 100000 + 3, 0x90, 60, 0), 0);
			if (k == 50)
				assert_int_equal(al_smf_writer_sysex(&w, (uint64_t)k * 100000 + 3, 0xF0, syx, sizeof(syx)), 0);
		}
		assert_int_equal(al_smf_writer_channel(&w, 0x30000000ULL, 0xB0, 7, 127), 0);
		assert_int_equal(al_smf_writer_track_end(&w, 0x30000010ULL), 0);
		assert_int_equal(al_smf_writer_finish(&w, &buf, &len), 0);

		if (al_smf_parse(buf, len, &smf, &err))
			fail_msg("written file does not parse: %zu: %s", err.offset, err.msg);
		assert_int_equal(smf.ppq, 1000);
		for (k = 0; k < 100; k++) {
			const struct al_smf_event *on = nth_channel(&smf, (size_t)k * 2);
			const struct al_smf_event *off = nth_channel(&smf, (size_t)k * 2 + 1);

			assert_int_equal(on->tick, (uint64_t)k * 100000);
			assert_int_equal(on->t_ns, (int64_t)k * 100 * MS);
			assert_int_equal(on->d2, 100);
			assert_int_equal(off->t_ns, (int64_t)k * 100 * MS + 3000);
			assert_int_equal(off->d2, 0);
		}
		assert_int_equal(nth_channel(&smf, 200)->status, 0xB0);
		assert_int_equal(nth_channel(&smf, 200)->tick, 0x30000000ULL);
		for (i = 0; i < smf.n_events; i++)
			if (smf.events[i].kind == AL_SMF_EV_SYSEX)
				break;
		assert_true(i < smf.n_events);
		assert_int_equal(smf.events[i].len, sizeof(syx));
		assert_memory_equal(buf + smf.events[i].data_offset, syx, sizeof(syx));
		assert_int_equal(smf.events[i].t_ns, 50 * 100 * MS + 3000);
		assert_int_equal(smf.events[smf.n_events - 1].type, 0x2F);
		assert_int_equal(smf.events[smf.n_events - 1].tick, 0x30000010ULL);
		al_smf_free(&smf);
		free(buf);
	}
	assert_int_equal(al_smf_writer_init(&w, 0, 2, 96, true), -EINVAL);
	al_smf_writer_free(&w);
}

/* ---- malformed files: every one an error with its offset ---- */

struct bad_case {
	char name[48];
	struct gen g;
	int rc;
	size_t offset;
	const char *msg; /* a substring of the message */
};

static struct bad_case bad[64];
static size_t n_bad;

static struct gen *
bad_begin(const char *name, int rc, const char *msg)
{
	struct bad_case *c = &bad[n_bad++];

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->rc = rc;
	c->msg = msg;
	return &c->g;
}

static void
bad_at(size_t offset)
{
	bad[n_bad - 1].offset = offset;
}

/* A valid header and an open track, ready for a bad event. */
static struct gen *
bad_track(const char *name, const char *msg)
{
	struct gen *g = bad_begin(name, -EINVAL, msg);

	g_header(g, 0, 1, 96);
	g_track_begin(g);
	return g;
}

static void
build_bad_cases(void)
{
	struct gen *g;
	size_t at;

	n_bad = 0;
	bad_begin("empty", -EINVAL, "empty file");
	bad_at(0);

	g = bad_begin("garbage", -EINVAL, "not a Standard MIDI File");
	g_bytes(g, "\x01\x02garbage, not MIDI at all", 26);
	bad_at(0);

	g = bad_begin("not-mthd", -EINVAL, "starts with 'MTrk'");
	g_bytes(g, "MTrk\0\0\0\0", 8);
	bad_at(0);

	g = bad_begin("mthd-short", -EINVAL, "MThd length 5 (needs 6)");
	g_bytes(g, "MThd", 4);
	g_be32(g, 5);
	g_bytes(g, "\0\0\0\1\0", 5);
	bad_at(4);

	g = bad_begin("mthd-past-end", -EINVAL, "MThd length 100 runs past the end");
	g_bytes(g, "MThd", 4);
	g_be32(g, 100);
	g_bytes(g, "\0\0\0\1\0\x60", 6);
	bad_at(4);

	g = bad_begin("mthd-cut", -EINVAL, "MThd header cut off");
	g_bytes(g, "MThd\0\0", 6);
	bad_at(4);

	g = bad_begin("format-3", -EINVAL, "format 3");
	g_header(g, 3, 1, 96);
	bad_at(8);

	g = bad_begin("ntracks-0", -EINVAL, "0 tracks");
	g_header(g, 1, 0, 96);
	bad_at(10);

	g = bad_begin("ntracks-absurd", -ERANGE, "65535 tracks");
	g_header(g, 1, 65535, 96);
	bad_at(10);

	g = bad_begin("ntracks-missing", -EINVAL, "the header says 3 tracks, the file ends after 1");
	g_header(g, 1, 3, 96);
	g_track_begin(g);
	g_track_end(g, 0);
	bad_at(g->n);

	g = bad_begin("format0-2tracks", -EINVAL, "format 0 with 2 tracks");
	g_header(g, 0, 2, 96);
	bad_at(10);

	g = bad_begin("division-0", -EINVAL, "zero division");
	g_header(g, 0, 1, 0);
	g_track_begin(g);
	g_track_end(g, 0);
	bad_at(12);

	g = bad_begin("smpte-23fps", -EINVAL, "SMPTE division with 23 frames");
	g_header(g, 0, 1, 0xE928);
	bad_at(12);

	g = bad_begin("smpte-0tpf", -EINVAL, "0 ticks per frame");
	g_header(g, 0, 1, 0xE700);
	bad_at(12);

	g = bad_begin("chunk-past-eof", -EINVAL, "chunk 'MTrk' length 1000 runs past the end");
	g_header(g, 0, 1, 96);
	at = g->n + 4;
	g_bytes(g, "MTrk", 4);
	g_be32(g, 1000);
	g_bytes(g, "\0\xFF\x2F\0", 4);
	bad_at(at);

	g = bad_begin("chunk-garbage", -EINVAL, "garbage where chunk 2 should start");
	g_header(g, 1, 2, 96);
	g_track_begin(g);
	g_track_end(g, 0);
	at = g->n;
	g_bytes(g, "\x00\x01\x02\x03\0\0\0\0", 8);
	bad_at(at);

	g = bad_track("vlq-5-bytes", "longer than 4 bytes");
	at = g->n;
	g_bytes(g, "\x81\x80\x80\x80\x00\x90\x3c\x40", 8);
	g_track_end(g, 0);
	bad_at(at);

	g = bad_track("vlq-cut", "delta time cut off");
	g_bytes(g, "\x00\x90\x3c\x40\x81\x80", 6);
	g_track_close(g);
	bad_at(g->n);

	g = bad_track("data-before-status", "running status with no status");
	at = g->n + 1;
	g_bytes(g, "\x00\x3c\x40", 3);
	g_track_end(g, 0);
	bad_at(at);

	g = bad_track("running-after-meta", "cancelled by the meta event at offset 26");
	G_EV(g, 0, 0x90, 60, 100);    /* 22..25; the meta is at 26 */
	G_EV(g, 0, 0xFF, 0x01, 1, 'x');
	at = g->n + 1;
	G_EV(g, 10, 62, 100);
	g_track_end(g, 0);
	bad_at(at);

	g = bad_track("running-after-sysex", "cancelled by the sysex event");
	G_EV(g, 0, 0x90, 60, 100);
	G_EV(g, 0, 0xF0, 1, 0xF7);
	at = g->n + 1;
	G_EV(g, 10, 62, 100);
	g_track_end(g, 0);
	bad_at(at);

	g = bad_track("message-cut", "message 0x90 cut off by the end of track 0");
	at = g->n;
	g_bytes(g, "\x00\x90\x3c", 3);
	g_track_close(g);
	bad_at(at);

	g = bad_track("data-high-bit", "status byte 0x90 where a data byte of message 0x90 belongs");
	at = g->n + 3;
	g_bytes(g, "\x00\x90\x3c\x90\x40", 5);
	g_track_end(g, 0);
	bad_at(at);

	g = bad_track("sysex-past-track", "sysex length 200 runs past the end of track 0");
	at = g->n;
	g_bytes(g, "\x00\xF0\x81\x48\x01\x02\xF7", 7);
	g_track_end(g, 0);
	bad_at(at);

	g = bad_track("meta-huge", "meta event length 268435455 runs past");
	at = g->n;
	g_bytes(g, "\x00\xFF\x01\xFF\xFF\xFF\x7F", 7);
	g_track_end(g, 0);
	bad_at(at);

	g = bad_track("sysex-no-f7", "sysex length 3 runs past");
	at = g->n;
	g_bytes(g, "\x00\xF0\x03\x7E\x7F", 5); /* the chunk ends inside the sysex */
	g_track_close(g);
	bad_at(at);

	g = bad_track("tempo-short", "tempo with 2 data bytes (needs 3)");
	at = g->n;
	G_EV(g, 0, 0xFF, 0x51, 2, 0x07, 0xA1);
	g_track_end(g, 0);
	bad_at(at);

	g = bad_track("tempo-zero", "tempo of 0 us");
	at = g->n;
	G_EV(g, 0, 0xFF, 0x51, 3, 0, 0, 0);
	g_track_end(g, 0);
	bad_at(at);

	g = bad_track("timesig-short", "time signature with 3 data bytes (needs 4)");
	at = g->n;
	G_EV(g, 0, 0xFF, 0x58, 3, 4, 2, 24);
	g_track_end(g, 0);
	bad_at(at);

	g = bad_track("meta-type-high", "meta event type 0x90");
	at = g->n + 2;
	G_EV(g, 0, 0xFF, 0x90, 0);
	g_track_end(g, 0);
	bad_at(at);

	g = bad_track("no-eot", "track 0 has no End of Track");
	G_EV(g, 0, 0x90, 60, 100);
	g_track_close(g);
	bad_at(g->n);

	g = bad_track("after-eot", "8 bytes after End of Track in track 0");
	G_EV(g, 0, 0xFF, 0x2F, 0);
	at = g->n;
	G_EV(g, 0, 0x90, 60, 100);
	G_EV(g, 0, 0x80, 60, 0);
	g_track_close(g);
	bad_at(at);

	g = bad_track("event-f1", "0xf1 is not a valid event");
	at = g->n + 1;
	G_EV(g, 0, 0xF1, 0x10);
	g_track_end(g, 0);
	bad_at(at);

	g = bad_track("delta-no-event", "ends after a delta time");
	G_EV(g, 0, 0x90, 60, 100);
	g_u8(g, 0x05);
	g_track_close(g);
	bad_at(g->n);

	g = bad_begin("time-overflow", -ERANGE, "past 2^63 ns");
	g_header(g, 0, 1, 1);
	g_track_begin(g);
	g_tempo(g, 0, 0xFFFFFF);
	G_EV(g, 0x0FFFFFFF, 0x90, 60, 100);
	G_EV(g, 0x0FFFFFFF, 0x90, 60, 100);
	at = g->n;
	G_EV(g, 0x0FFFFFFF, 0x90, 60, 100);
	g_track_end(g, 0);
	bad_at(at);

	g = bad_begin("riff-past-eof", -EINVAL, "RIFF size 1000 runs past");
	g_bytes(g, "RIFF", 4);
	g_le32(g, 1000);
	g_bytes(g, "RMIDdata\0\0\0\0", 12);
	bad_at(4);

	g = bad_begin("riff-not-rmid", -EINVAL, "RIFF file of type 'WAVE'");
	g_bytes(g, "RIFF", 4);
	g_le32(g, 4);
	g_bytes(g, "WAVE", 4);
	bad_at(8);

	g = bad_begin("rmid-no-data", -EINVAL, "without a data chunk");
	g_bytes(g, "RIFF", 4);
	g_le32(g, 12);
	g_bytes(g, "RMIDINFO\0\0\0\0", 12);
	bad_at(12);

	g = bad_begin("rmid-data-past", -EINVAL, "RIFF chunk 'data' size 500 runs past");
	g_bytes(g, "RIFF", 4);
	g_le32(g, 20);
	g_bytes(g, "RMIDdata", 8);
	g_le32(g, 500);
	g_bytes(g, "MThd\0\0\0\6", 8);
	bad_at(16);

	g = bad_begin("rmid-bad-smf", -EINVAL, "format 7");
	g_bytes(g, "RIFF", 4);
	g_le32(g, 4 + 8 + 14);
	g_bytes(g, "RMIDdata", 8);
	g_le32(g, 14);
	g_header(g, 7, 1, 96);
	bad_at(20 + 8);
}

static void
malformed_files(void **state)
{
	struct al_smf_error err;
	struct al_smf smf;
	size_t i;
	int rc;

	(void)state;
	build_bad_cases();
	for (i = 0; i < n_bad; i++) {
		struct bad_case *c = &bad[i];

		save(c->name, &c->g);
		memset(&smf, 0x5A, sizeof(smf));
		rc = al_smf_parse(c->g.b, c->g.n, &smf, &err);
		if (rc != c->rc || err.offset != c->offset || !strstr(err.msg, c->msg))
			fail_msg("%s: got %d at offset %zu '%s', expected %d at %zu '%s'", c->name, rc,
				 err.offset, err.msg, c->rc, c->offset, c->msg);
		assert_null(smf.events);
		assert_int_equal(smf.n_events, 0);
		assert_null(strchr(err.msg, '\n'));
	}
	assert_true(n_bad >= 30);
}

/* Every prefix of a valid file is refused cleanly (no crash, an offset inside). */
static void
truncations(void **state)
{
	struct al_smf_error err;
	struct al_smf smf;
	struct gen g = { 0 };
	size_t n;

	(void)state;
	g_header(&g, 1, 2, 96);
	g_track_begin(&g);
	g_tempo(&g, 0, 600000);
	g_track_end(&g, 0);
	g_track_begin(&g);
	G_EV(&g, 0, 0x90, 60, 100);
	G_EV(&g, 10, 0xF0, 2, 1, 0xF7);
	G_EV(&g, 10, 0xC0, 3);
	g_track_end(&g, 5);
	assert_int_equal(al_smf_parse(g.b, g.n, &smf, &err), 0);
	al_smf_free(&smf);
	for (n = 0; n < g.n; n++) {
		assert_int_equal(al_smf_parse(g.b, n, &smf, &err), -EINVAL);
		assert_true(err.offset <= n);
		assert_true(err.msg[0]);
	}
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(default_tempo_format0),
		cmocka_unit_test(no_accumulated_rounding),
		cmocka_unit_test(tempo_changes),
		cmocka_unit_test(format1_tempo_tie_last_wins),
		cmocka_unit_test(format1_tempo_track),
		cmocka_unit_test(format2_own_maps),
		cmocka_unit_test(smpte_divisions),
		cmocka_unit_test(running_status_sysex_meta),
		cmocka_unit_test(jitter_figures),
		cmocka_unit_test(summary_edge_cases),
		cmocka_unit_test(linear_histogram),
		cmocka_unit_test(filters),
		cmocka_unit_test(tolerated_oddities),
		cmocka_unit_test(auto_interval_of_bunched_events),
		cmocka_unit_test(stretch_and_timeline),
		cmocka_unit_test(rmid_wrapping),
		cmocka_unit_test(write_read_round_trip),
		cmocka_unit_test(malformed_files),
		cmocka_unit_test(truncations),
	};

	if (argc == 3 && !strcmp(argv[1], "--write-corpus"))
		corpus_dir = argv[2];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
