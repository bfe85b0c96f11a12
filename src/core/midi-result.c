/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The names of the MIDI result's enums, the configuration's defaults and checks (midi-result.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "midi-result.h"

static const char *const api_names[AL_MIDI_API_COUNT] = { "jack", "rawmidi", "seq" };
static const char *const select_names[] = { "note-on", "note-off", "all" };

static int
find(const char *const *names, int n, const char *s, int *out)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	}
	return -EINVAL;
}

int
al_midi_api_parse(const char *s, int *api)
{
	return find(api_names, AL_MIDI_API_COUNT, s, api);
}

const char *
al_midi_api_name(int api)
{
	return api >= 0 && api < AL_MIDI_API_COUNT ? api_names[api] : "?";
}

int
al_midi_select_parse(const char *s, int *out)
{
	return find(select_names, (int)(sizeof(select_names) / sizeof(select_names[0])), s, out);
}

const char *
al_midi_select_name(int sel)
{
	if (sel < 0 || sel >= (int)(sizeof(select_names) / sizeof(select_names[0])))
		return "?";
	return select_names[sel];
}

void
al_midi_config_init(struct al_midi_config *c, int kind)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->api = AL_MIDI_API_JACK;
	c->rate_hz = 10;
	c->send_channel = 1;
	c->filter.events = AL_MIDI_SEL_NOTE_ON;
}

int
al_midi_rate_parse(const char *arg, double *hz, char *err, size_t err_size)
{
	char *end;
	double v;

	if (!*arg || (*arg != '.' && (*arg < '0' || *arg > '9')))
		return snprintf(err, err_size, "--rate: '%s' is not a number", arg), -EINVAL;
	v = strtod(arg, &end);
	if (*end || !isfinite(v))
		return snprintf(err, err_size, "--rate: '%s' is not a number", arg), -EINVAL;
	if (v < 0.01 || v > 1000)
		return snprintf(err, err_size, "--rate: '%s' is not in 0.01..1000 Hz", arg), -EINVAL;
	*hz = v;
	return 0;
}

int
al_midi_config_check(const struct al_midi_config *c, char *err, size_t err_size)
{
	const char *api = al_midi_api_name(c->api);
	bool jack = c->api == AL_MIDI_API_JACK;

	if ((c->kind == AL_MIDI_SEND || c->kind == AL_MIDI_RECORD) && !c->port && !jack)
		snprintf(err, err_size, "--port: %s needs a port (%s)", api,
			 c->api == AL_MIDI_API_RAWMIDI ? "hw:CARD,DEVICE" : "client:port");
	else if (c->kind == AL_MIDI_LOOP && (!c->out || !c->in) && !jack)
		snprintf(err, err_size, "--out and --in: %s needs both", api);
	else if (c->kind == AL_MIDI_THRU && !jack)
		snprintf(err, err_size, "--api: thru is a JACK client; use --api jack");
	else if (c->server && !jack)
		snprintf(err, err_size, "--server: only with --api jack");
	else
		return 0;
	return -EINVAL;
}
