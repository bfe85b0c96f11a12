/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "load/phases.h"
#include "session.h"
#include "smf.h"

#define POLL_NS (20 * AL_NS_PER_MS)

static int
msgs_add(struct al_midi_session *s, const struct al_midi_msg *m, size_t n)
{
	struct al_midi_msg *nm;
	size_t cap;

	if (s->n_msgs + n > s->cap_msgs) {
		cap = s->cap_msgs ? s->cap_msgs : 1024;
		while (cap < s->n_msgs + n)
			cap *= 2;
		nm = realloc(s->msgs, cap * sizeof(*nm));
		if (!nm)
			return -ENOMEM;
		s->msgs = nm;
		s->cap_msgs = cap;
	}
	memcpy(s->msgs + s->n_msgs, m, n * sizeof(*m));
	s->n_msgs += n;
	return 0;
}

bool
al_midi_session_selected(const struct al_midi_session *s, const struct al_midi_msg *m)
{
	if (m->flags & AL_MIDI_MSG_REALTIME)
		return false;
	return al_midi_filter_match(s->filter, m->data[0], m->len > 1 ? m->data[1] : 0,
				    m->len > 2 ? m->data[2] : 0);
}

int
al_midi_session_collect(struct al_midi_session *s)
{
	struct al_midi_msg buf[256];
	size_t n, i;
	int64_t d, t;

	while ((n = al_midi_port_drain(s->port, buf, 256))) {
		if (msgs_add(s, buf, n))
			return -ENOMEM;
		for (i = 0; i < n; i++) {
			if (s->loop) {
				if (buf[i].flags & AL_MIDI_MSG_LOST)
					s->lost++;
				else if (buf[i].t_ns - buf[i].ref_ns > s->live_max_ns)
					s->live_max_ns = buf[i].t_ns - buf[i].ref_ns;
				s->selected++;
				continue;
			}
			if (!al_midi_session_selected(s, &buf[i]))
				continue;
			t = al_midi_quantize(buf[i].t_ns);
			if (s->selected) {
				d = t - s->last_sel_ns;
				if (s->interval_ns)
					d = llabs(d - s->interval_ns);
				if (d > s->live_max_ns)
					s->live_max_ns = d;
			}
			s->selected++;
			s->last_sel_ns = t;
		}
	}
	return 0;
}

/* The driver's tick: take what the port has; a port that failed or a loop's count ends it. */
static int
tick(void *ud, int64_t now_ns)
{
	struct al_midi_session *s = ud;

	(void)now_ns;
	if (al_midi_session_collect(s)) {
		snprintf(s->err, sizeof(s->err), "out of memory for the messages");
		return -ENOMEM;
	}
	if (al_midi_port_status(s->port, s->err, sizeof(s->err)))
		return -EIO;
	if (s->loop && s->count && s->n_msgs >= (size_t)s->count)
		return 1;
	return 0;
}

static void
status(void *ud, int64_t now_ns)
{
	struct al_midi_session *s = ud;

	s->status(s->status_ud, s, now_ns);
}

int
al_midi_session_run(struct al_midi_session *s)
{
	struct al_phase_driver d = {
		.spec = s->spec, .n_spec = s->n_spec, .load_opts = s->load_opts,
		.stop_requested = s->stop_requested,
		.tick = tick, .tick_ns = POLL_NS,
		.status = s->status ? status : NULL, .status_ns = s->status_ns,
		.ud = s,
	};

	s->phases = calloc(s->n_spec ? s->n_spec : 1, sizeof(*s->phases));
	if (!s->phases)
		return -ENOMEM;
	d.phases = s->phases;
	s->start_ns = al_clock_now_ns();
	d.origin_ns = s->start_ns;
	d.end_ns = s->duration_ns ? s->start_ns + s->duration_ns : 0;
	al_phase_driver_run(&d);
	s->interrupted = d.interrupted;
	s->failed = d.ended < 0;
	s->n_phases = d.n_done;
	return 0;
}

int
al_midi_session_write_smf(const struct al_midi_session *s, const char *path, int64_t origin_us,
			  int64_t end_us, uint64_t *not_in_file, char *err, size_t err_size)
{
	static const uint8_t name[] = "audiolat midi record";
	static const uint8_t empty_sysex[] = { 0xF7 };
	struct al_smf_writer w;
	uint8_t *buf;
	size_t len, i;
	uint64_t tick_us = 0;
	FILE *f;
	int rc, n;

	al_smf_writer_init(&w, 0, 1, AL_MIDI_REC_PPQ, true);
	al_smf_writer_track_begin(&w);
	al_smf_writer_meta(&w, 0, 0x03, name, sizeof(name) - 1);
	al_smf_writer_tempo(&w, 0, AL_MIDI_REC_TEMPO_US);
	for (i = 0; i < s->n_msgs; i++) {
		const struct al_midi_msg *m = &s->msgs[i];

		tick_us = (uint64_t)(al_midi_quantize(m->t_ns) / 1000 - origin_us);
		if (m->flags & AL_MIDI_MSG_SYSEX) {
			al_smf_writer_sysex(&w, tick_us, 0xF0, empty_sysex, 1);
			continue;
		}
		n = al_midi_data_bytes(m->data[0]);
		if (!n || m->len != 1 + n || (m->data[1] | (n == 2 ? m->data[2] : 0)) & 0x80) {
			(*not_in_file)++;
			continue;
		}
		al_smf_writer_channel(&w, tick_us, m->data[0], m->data[1], n == 2 ? m->data[2] : 0);
	}
	if (end_us - origin_us > (int64_t)tick_us)
		tick_us = (uint64_t)(end_us - origin_us);
	al_smf_writer_track_end(&w, tick_us);
	rc = al_smf_writer_finish(&w, &buf, &len);
	if (rc)
		return snprintf(err, err_size, "%s: cannot build the file: %s", path, strerror(-rc)), rc;
	f = fopen(path, "wbe");
	if (!f) {
		rc = -errno;
		free(buf);
		return snprintf(err, err_size, "%s: %s", path, strerror(-rc)), rc;
	}
	rc = fwrite(buf, 1, len, f) == len ? 0 : -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	free(buf);
	if (rc)
		snprintf(err, err_size, "%s: %s", path, strerror(-rc));
	return rc;
}

void
al_midi_session_free(struct al_midi_session *s)
{
	free(s->msgs);
	free(s->phases);
	s->msgs = NULL;
	s->phases = NULL;
	s->n_msgs = s->n_phases = 0;
}
