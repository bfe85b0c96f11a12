/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "doc/doc.h"
#include "devices.h"

/* "no JACK server running": a server backend's -ENODEV, its name in capitals. */
static const char *
server_name(const struct al_device_group *g, char *buf, size_t size)
{
	size_t i, len;

	len = (size_t)snprintf(buf, size, "no ");
	for (i = 0; g->backend[i] && len + 1 < size; i++)
		buf[len++] = (char)toupper((unsigned char)g->backend[i]);
	buf[len] = '\0';
	snprintf(buf + len, size - len, " server running");
	return buf;
}

void
al_report_device_group_text(FILE *f, const struct al_device_group *g, const char *indent)
{
	char name[64];

	if (g->unavailable) {
		fprintf(f, "%snot available: %s\n", indent, g->unavailable);
		return;
	}
	if (!g->listable) {
		fprintf(f, "%sno devices (a simulated card)\n", indent);
		return;
	}
	for (size_t i = 0; i < g->n; i++) {
		const struct al_device_row *d = &g->rows[i];

		if (!strcmp(d->kind, "jack-server"))
			fprintf(f, "%sserver %-24s %-14s %s\n", indent, d->name, d->detail,
				d->description);
		else
			fprintf(f, "%s%s%-28s %-24s %s\n", indent,
				!strcmp(d->kind, "jack-port") ? "  " : "", d->name, d->detail,
				d->description);
	}
	if (g->rc == -ENODEV && g->server_env)
		fprintf(f, "%s%s (%s=%s)\n", indent, server_name(g, name, sizeof(name)),
			g->server_env, g->server_env_value ? g->server_env_value : "unset");
	else if (g->rc < 0)
		fprintf(f, "%scannot list: %s\n", indent, strerror(-g->rc));
	else if (!g->n)
		fprintf(f, "%snone found\n", indent);
}

void
al_report_devices_text(FILE *f, const struct al_device_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		fprintf(f, "%s: %s\n", l->groups[i].backend, l->groups[i].summary);
		al_report_device_group_text(f, &l->groups[i], "  ");
	}
	if (!l->with_midi)
		return;
	fprintf(f, "midi: ports for audiolat midi --port\n");
	for (i = 0; i < l->n_midi; i++)
		fprintf(f, "  %-8s %-28s %s\n", l->midi[i].kind, l->midi[i].name,
			l->midi[i].description);
	if (!l->n_midi)
		fprintf(f, "  (none: no ALSA rawmidi or sequencer port, no JACK MIDI port within reach)\n");
}

static json_t *
group_json(const struct al_device_group *g)
{
	json_t *devs = json_array();
	const char *error = NULL;
	char name[64];

	for (size_t i = 0; i < g->n; i++) {
		const struct al_device_row *d = &g->rows[i];

		json_array_append_new(devs, json_pack("{s:s, s:s, s:s, s:s}", "kind", d->kind,
						      "name", d->name, "description",
						      d->description ? d->description : "",
						      "detail", d->detail ? d->detail : ""));
	}
	if (g->unavailable)
		error = g->unavailable;
	else if (g->listable && g->rc < 0)
		error = g->rc == -ENODEV && g->server_env ? server_name(g, name, sizeof(name))
							  : strerror(-g->rc);
	return json_pack("{s:s, s:b, s:o, s:o}", "backend", g->backend, "available",
			 !g->unavailable, "error", error ? json_string(error) : json_null(),
			 "devices", devs);
}

json_t *
al_report_devices_json(const struct al_device_list *l)
{
	json_t *arr = json_array(), *midi = json_array();
	size_t i;

	for (i = 0; i < l->n; i++)
		json_array_append_new(arr, group_json(&l->groups[i]));
	for (i = 0; i < l->n_midi; i++)
		json_array_append_new(midi, json_pack("{s:s, s:o, s:o}", "api", l->midi[i].kind,
						      "name", al_json_text(l->midi[i].name),
						      "description",
						      al_json_text(l->midi[i].description)));
	return json_pack("{s:s, s:o, s:o}", "schema", AL_SCHEMA_DEVICES, "backends", arr, "midi",
			 midi);
}
