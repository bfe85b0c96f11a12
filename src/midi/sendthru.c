/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi send (the 10 Hz test stream) and thru (a JACK MIDI thru
 * client), measure.h: open the port, run until the end or the stop flag
 * while watching the port, then the counters into the result.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "measure.h"
#include "port.h"

#define WATCH_NS (100 * AL_NS_PER_MS)

/* Open the port; 0, or -errno with r->stage and r->err. */
static int
open_port(const struct al_midi_config *c, const struct al_midi_ctl *ctl, struct al_midi_port_cfg *pc,
	  struct al_midi_port **port, struct al_midi_result *r)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->cfg = *c;
	rc = al_midi_port_open(pc, port, &r->info, r->err, sizeof(r->err));
	if (rc) {
		r->stage = AL_MIDI_STAGE_OPEN;
		return rc;
	}
	if (ctl->opened)
		ctl->opened(ctl->ud, r);
	return 0;
}

/*
 * Until end_ns (0: none) or the stop flag, every 100 ms: the port's
 * status (a failure ends it: r->failed, r->err) and, with a sender, the
 * status line.
 */
static void
watch(const struct al_midi_ctl *ctl, struct al_midi_port *port, struct al_midi_sender *snd,
      int64_t start_ns, int64_t end_ns, struct al_midi_result *r)
{
	struct al_midi_sender_stats st;
	int64_t now_ns;

	while (!*ctl->stop_requested) {
		now_ns = al_clock_now_ns();
		if (end_ns && now_ns >= end_ns)
			break;
		if (al_midi_port_status(port, r->err, sizeof(r->err))) {
			r->failed = true;
			break;
		}
		if (snd && ctl->status) {
			struct al_midi_live v = { .kind = AL_MIDI_SEND, .elapsed_ns = now_ns - start_ns };

			al_midi_sender_stats(snd, &st);
			v.selected = st.sent;
			ctl->status(ctl->ud, &v);
		}
		al_clock_sleep_until_ns(end_ns && end_ns - now_ns < WATCH_NS ? end_ns : now_ns + WATCH_NS);
	}
	r->interrupted = *ctl->stop_requested != 0;
}

int
al_midi_send(const struct al_midi_config *c, const struct al_midi_ctl *ctl, struct al_midi_result *r)
{
	struct al_midi_port_cfg pc = {
		.api = c->api, .mode = AL_MIDI_MODE_SEND, .out = c->port, .server = c->server,
		.client_name = "audiolat-send",
	};
	struct al_midi_sender *snd = NULL;
	struct al_midi_port *port;
	int64_t start_ns, end_ns = 0;
	int rc;

	rc = open_port(c, ctl, &pc, &port, r);
	if (rc)
		return rc;
	/* the first note a little later, so the receiver sees it whole */
	start_ns = al_clock_now_ns() + 50 * AL_NS_PER_MS;
	if (c->duration_ns)
		end_ns = start_ns + c->duration_ns;
	rc = al_midi_sender_start(port, c->rate_hz, start_ns, c->prio, c->send_channel, &snd);
	if (rc) {
		al_midi_port_close(port);
		r->stage = AL_MIDI_STAGE_RUN;
		snprintf(r->err, sizeof(r->err), "cannot start the sender: %s", strerror(-rc));
		return rc;
	}
	watch(ctl, port, snd, start_ns, end_ns, r);
	/* the figures after the thread stopped: no message is sent after them */
	al_midi_sender_stop(snd, &r->sender);
	/* JACK: let the last messages go out before the port closes */
	if (c->api == AL_MIDI_API_JACK && !r->failed)
		al_clock_sleep_until_ns(al_clock_now_ns() + WATCH_NS);
	al_midi_port_stop(port);
	al_midi_port_counters(port, &r->cnt);
	r->cnt.wake_ns = NULL; /* the port's */
	al_midi_port_close(port);
	if (!r->failed && r->sender.errors) {
		r->failed = true;
		snprintf(r->err, sizeof(r->err), "%llu messages could not be sent",
			 (unsigned long long)r->sender.errors);
	}
	return 0;
}

int
al_midi_thru(const struct al_midi_config *c, const struct al_midi_ctl *ctl, struct al_midi_result *r)
{
	struct al_midi_port_cfg pc = {
		.api = AL_MIDI_API_JACK, .mode = AL_MIDI_MODE_THRU, .out = c->out, .in = c->in,
		.server = c->server, .client_name = "audiolat-thru",
	};
	struct al_midi_port *port;
	int rc;

	rc = open_port(c, ctl, &pc, &port, r);
	if (rc)
		return rc;
	watch(ctl, port, NULL, 0, c->duration_ns ? al_clock_now_ns() + c->duration_ns : 0, r);
	al_midi_port_stop(port);
	al_midi_port_counters(port, &r->cnt);
	r->cnt.wake_ns = NULL;
	al_midi_port_close(port);
	return 0;
}
