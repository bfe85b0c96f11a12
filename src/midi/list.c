/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_ALSA
#include <alsa/asoundlib.h>
#endif
#ifdef HAVE_JACK
#include <jack/jack.h>
#include <jack/midiport.h>
#endif

#include "core/devices.h"
#include "core/text.h"
#include "list.h"

#ifdef HAVE_ALSA
static int
list_rawmidi(al_midi_list_fn fn, void *ud)
{
	snd_rawmidi_info_t *info;
	char ctl_name[16], name[32], desc[160];
	int card = -1, dev, n = 0;
	snd_ctl_t *ctl;

	snd_rawmidi_info_alloca(&info);
	while (snd_card_next(&card) == 0 && card >= 0) {
		snprintf(ctl_name, sizeof(ctl_name), "hw:%d", card);
		if (snd_ctl_open(&ctl, ctl_name, 0) < 0)
			continue;
		for (dev = -1; snd_ctl_rawmidi_next_device(ctl, &dev) == 0 && dev >= 0;) {
			const char *dir = "in+out";

			snd_rawmidi_info_set_device(info, (unsigned int)dev);
			snd_rawmidi_info_set_subdevice(info, 0);
			snd_rawmidi_info_set_stream(info, SND_RAWMIDI_STREAM_OUTPUT);
			if (snd_ctl_rawmidi_info(ctl, info) < 0) {
				snd_rawmidi_info_set_stream(info, SND_RAWMIDI_STREAM_INPUT);
				if (snd_ctl_rawmidi_info(ctl, info) < 0)
					continue;
				dir = "in";
			}
			snprintf(name, sizeof(name), "hw:%d,%d", card, dev);
			snprintf(desc, sizeof(desc), "%s (card %s, %s)", snd_rawmidi_info_get_name(info),
				 snd_rawmidi_info_get_id(info), dir);
			fn(ud, "rawmidi", name, desc);
			n++;
		}
		snd_ctl_close(ctl);
	}
	return n;
}

static int
list_seq(al_midi_list_fn fn, void *ud)
{
	snd_seq_client_info_t *ci;
	snd_seq_port_info_t *pi;
	char name[32], desc[160];
	snd_seq_t *seq;
	int n = 0;

	if (snd_seq_open(&seq, "default", SND_SEQ_OPEN_DUPLEX, SND_SEQ_NONBLOCK) < 0)
		return 0;
	snd_seq_client_info_alloca(&ci);
	snd_seq_port_info_alloca(&pi);
	snd_seq_client_info_set_client(ci, -1);
	while (snd_seq_query_next_client(seq, ci) >= 0) {
		int client = snd_seq_client_info_get_client(ci);

		if (client == SND_SEQ_CLIENT_SYSTEM || client == snd_seq_client_id(seq))
			continue;
		snd_seq_port_info_set_client(pi, client);
		snd_seq_port_info_set_port(pi, -1);
		while (snd_seq_query_next_port(seq, pi) >= 0) {
			unsigned int caps = snd_seq_port_info_get_capability(pi);

			if (caps & SND_SEQ_PORT_CAP_NO_EXPORT)
				continue;
			snprintf(name, sizeof(name), "%d:%d", client, snd_seq_port_info_get_port(pi));
			snprintf(desc, sizeof(desc), "%s: %s (%s%s)", snd_seq_client_info_get_name(ci),
				 snd_seq_port_info_get_name(pi),
				 caps & SND_SEQ_PORT_CAP_SUBS_READ ? "out" : "",
				 caps & SND_SEQ_PORT_CAP_SUBS_WRITE
					 ? (caps & SND_SEQ_PORT_CAP_SUBS_READ ? "+in" : "in")
					 : "");
			fn(ud, "seq", name, desc);
			n++;
		}
	}
	snd_seq_close(seq);
	return n;
}
#endif

#ifdef HAVE_JACK
static int
list_jack(al_midi_list_fn fn, void *ud)
{
	const char **ports, *server = getenv("JACK_DEFAULT_SERVER");
	jack_options_t opts = JackNoStartServer | (server ? JackServerName : 0);
	jack_client_t *client;
	jack_status_t status;
	char desc[160];
	int n = 0;

	jack_set_error_function(al_text_discard_line);
	jack_set_info_function(al_text_discard_line);
	client = jack_client_open("audiolat-list-midi", opts, &status, server);
	if (!client)
		return 0;
	ports = jack_get_ports(client, NULL, JACK_DEFAULT_MIDI_TYPE, 0);
	for (size_t i = 0; ports && ports[i]; i++) {
		jack_port_t *p = jack_port_by_name(client, ports[i]);
		int flags = p ? jack_port_flags(p) : 0;

		snprintf(desc, sizeof(desc), "JACK MIDI %s on server %s",
			 flags & JackPortIsOutput ? "output" : "input", server ? server : "default");
		fn(ud, "jack", ports[i], desc);
		n++;
	}
	jack_free(ports);
	jack_client_close(client);
	return n;
}
#endif

int
al_midi_list(al_midi_list_fn fn, void *ud)
{
	int n = 0;

#ifdef HAVE_ALSA
	snd_lib_error_set_handler(al_text_discard);
	n += list_rawmidi(fn, ud);
	n += list_seq(fn, ud);
	snd_lib_error_set_handler(NULL);
#endif
#ifdef HAVE_JACK
	n += list_jack(fn, ud);
#endif
	(void)fn, (void)ud;
	return n;
}

static void
add_device(void *ud, const char *api, const char *name, const char *description)
{
	struct al_device_list *l = ud;

	al_device_rows_add(&l->midi, &l->n_midi, &l->cap_midi, api, name, description, NULL);
}

int
al_midi_list_devices(struct al_device_list *l)
{
	l->with_midi = true;
	return al_midi_list(add_device, l);
}
