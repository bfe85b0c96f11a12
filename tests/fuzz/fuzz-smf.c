/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * al_smf_parse(): the input as a MIDI file. Checks: 0, -EINVAL, -ERANGE or
 * -ENOMEM; on failure no events, one non-empty line and an offset within
 * the input; on success at most one event per two input bytes, sorted by
 * time, every offset and payload inside the input, data bytes below 0x80,
 * sane statistics for every event filter, and (format 0 with ticks per
 * quarter) the events written back by the writer parse to the same ticks,
 * bytes and times. Everything allocated is freed (libFuzzer's leak check).
 */
#include <errno.h>
#include <inttypes.h>

#include "midi/analyze.h"
#include "midi/smf.h"
#include "fuzz.h"

static void
check_stats(const struct al_smf *smf, int sel)
{
	struct al_midi_filter f = { sel, 0 };
	static struct al_midi_stats st;
	int rc;

	rc = al_midi_analyze_smf(smf, &f, 0, &st);
	FUZZ_CHECK(rc == 0 || rc == -ENOMEM, "analyze returned %d", rc);
	if (rc || st.events < 2)
		return;
	FUZZ_CHECK(st.deltas == st.events - 1, "%" PRIu64 " deltas of %" PRIu64 " events",
		   st.deltas, st.events);
	FUZZ_CHECK(st.delta.min_ns >= 0 && st.delta.min_ns <= st.delta.median_ns &&
			   st.delta.median_ns <= st.delta.max_ns && st.delta.p99_ns <= st.delta.max_ns &&
			   st.delta.mean_ns >= st.delta.min_ns && st.delta.mean_ns <= st.delta.max_ns,
		   "delta min %" PRId64 " median %" PRId64 " mean %" PRId64 " p99 %" PRId64
		   " max %" PRId64, st.delta.min_ns, st.delta.median_ns, st.delta.mean_ns,
		   st.delta.p99_ns, st.delta.max_ns);
	/* auto: the median delta, or when that is 0 the commonest non-zero one */
	FUZZ_CHECK(st.interval_mode ? st.delta.median_ns == 0 && st.interval_ns > 0
				    : st.interval_ns == st.delta.median_ns,
		   "auto interval %" PRId64 " (median %" PRId64 ", mode %d)", st.interval_ns,
		   st.delta.median_ns, st.interval_mode);
	FUZZ_CHECK(st.jitter_abs_max_ns >= st.jitter_max_ns && st.jitter_abs_max_ns >= 0,
		   "jitter max %" PRId64 " abs %" PRId64, st.jitter_max_ns, st.jitter_abs_max_ns);
	FUZZ_CHECK(st.hist.count == st.deltas, "histogram holds %" PRIu64, st.hist.count);
	FUZZ_CHECK(st.delta_lin.rows >= 1 && st.delta_lin.rows <= AL_MIDI_LINHIST_ROWS &&
			   st.delta_lin.start_ns <= st.delta.min_ns &&
			   (__int128)st.delta_lin.start_ns + (__int128)st.delta_lin.rows * st.delta_lin.step_ns >
				   st.delta.max_ns,
		   "display rows %d from %" PRId64 " step %" PRId64, st.delta_lin.rows,
		   st.delta_lin.start_ns, st.delta_lin.step_ns);
}

/* Format 0, ppq: rewrite every event and compare. */
static void
check_rewrite(const uint8_t *data, const struct al_smf *smf)
{
	struct al_smf_writer w;
	struct al_smf again;
	struct al_smf_error err;
	const struct al_smf_event *e, *a;
	uint64_t last = 0;
	uint8_t *buf;
	size_t len, i;
	int rc;

	if (smf->format != 0 || !smf->ppq)
		return;
	al_smf_writer_init(&w, 0, 1, smf->division, true);
	al_smf_writer_track_begin(&w);
	for (i = 0; i < smf->n_events; i++) {
		e = &smf->events[i];
		if (e->tick > last)
			last = e->tick;
		if (e->kind == AL_SMF_EV_CHANNEL)
			al_smf_writer_channel(&w, e->tick, e->status, e->d1, e->d2);
		else if (e->kind == AL_SMF_EV_SYSEX)
			al_smf_writer_sysex(&w, e->tick, e->status, data + e->data_offset, e->len);
		else if (e->type != 0x2F)
			al_smf_writer_meta(&w, e->tick, e->type, data + e->data_offset, e->len);
	}
	al_smf_writer_track_end(&w, last);
	rc = al_smf_writer_finish(&w, &buf, &len);
	FUZZ_CHECK(rc == 0, "rewriting failed: %d", rc);
	rc = al_smf_parse(buf, len, &again, &err);
	FUZZ_CHECK(rc == 0, "the rewritten file fails at %zu: %s", err.offset, err.msg);
	FUZZ_CHECK(again.n_events == smf->n_events, "%zu events, rewritten %zu", smf->n_events,
		   again.n_events);
	for (i = 0; i < smf->n_events; i++) {
		e = &smf->events[i];
		a = &again.events[i];
		FUZZ_CHECK(e->tick == a->tick && e->t_ns == a->t_ns && e->kind == a->kind &&
				   e->status == a->status && e->d1 == a->d1 &&
				   (e->len == a->len || e->type == 0x2F) &&
				   e->d2 == a->d2 && e->type == a->type,
			   "event %zu differs after rewriting: tick %" PRIu64 "/%" PRIu64
			   " t %" PRId64 "/%" PRId64 " status %02x/%02x", i, e->tick, a->tick,
			   e->t_ns, a->t_ns, e->status, a->status);
		if (e->kind != AL_SMF_EV_CHANNEL && e->type != 0x2F)
			FUZZ_CHECK(!memcmp(data + e->data_offset, buf + a->data_offset, e->len),
				   "payload of event %zu differs", i);
	}
	al_smf_free(&again);
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct al_smf_error err;
	struct al_smf smf;
	size_t i;
	int rc;

	memset(&err, 'X', sizeof(err));
	rc = al_smf_parse(data, size, &smf, &err);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -ERANGE || rc == -ENOMEM, "returned %d", rc);
	if (rc) {
		FUZZ_CHECK(!smf.events && !smf.n_events && !smf.tempos, "failed with %d but kept events",
			   rc);
		FUZZ_CHECK(err.offset <= size, "error offset %zu past %zu bytes", err.offset, size);
		fuzz_check_err(err.msg, sizeof(err.msg), 0);
		return 0;
	}
	FUZZ_CHECK(smf.n_events <= size / 2 + 1, "%zu events from %zu bytes", smf.n_events, size);
	FUZZ_CHECK(smf.format >= 0 && smf.format <= 2, "format %d", smf.format);
	FUZZ_CHECK((smf.ppq > 0) != (smf.smpte_fps > 0), "ppq %d fps %d", smf.ppq, smf.smpte_fps);
	FUZZ_CHECK(!smf.n_events || (smf.tick_ns_min > 0 && smf.tick_ns_min <= smf.tick_ns_max),
		   "tick %" PRId64 "..%" PRId64, smf.tick_ns_min, smf.tick_ns_max);
	for (i = 0; i < smf.n_events; i++) {
		const struct al_smf_event *e = &smf.events[i];

		FUZZ_CHECK(e->t_ns >= 0 && (!i || e->t_ns >= smf.events[i - 1].t_ns),
			   "event %zu at %" PRId64 " ns", i, e->t_ns);
		FUZZ_CHECK(e->offset < size && e->track < smf.n_tracks, "event %zu offset %u track %u",
			   i, e->offset, e->track);
		if (e->kind == AL_SMF_EV_CHANNEL)
			FUZZ_CHECK(e->status >= 0x80 && e->status < 0xF0 && e->d1 < 0x80 && e->d2 < 0x80 &&
					   (int)e->len == al_midi_data_bytes(e->status),
				   "channel event %zu: %02x %02x %02x len %u", i, e->status, e->d1, e->d2,
				   e->len);
		else
			FUZZ_CHECK(e->data_offset <= size && e->len <= size - e->data_offset,
				   "event %zu payload %u+%u past %zu", i, e->data_offset, e->len, size);
	}
	check_stats(&smf, AL_MIDI_SEL_NOTE_ON);
	check_stats(&smf, AL_MIDI_SEL_ALL);
	check_rewrite(data, &smf);
	al_smf_free(&smf);
	return 0;
}
