/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat devices: the ALSA PCMs and the JACK servers and ports within reach. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "backend/backend.h"
#include "cli-devices.h"
#include "midi/list.h"
#include "report/report.h"
#include "cli.h"
#include "commands.h"

enum {
	OPT_JSON = 1,
};

static const struct option long_opts[] = {
	{ "backend", required_argument, NULL, 'b' },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char devices_help[] =
	"usage: audiolat devices [options]\n"
	"\n"
	"List what audiolat run -D can measure: the ALSA PCMs with their hints\n"
	"(snd_device_name_hint) and the JACK servers within reach with their ports\n"
	"(the default server, $JACK_DEFAULT_SERVER, and every JACK2 server socket of\n"
	"this user in /dev/shm; PipeWire under pw-jack), PipeWire's server, sinks,\n"
	"sources and drivers (-b pipewire), the OSS devices (/dev/dsp*,\n"
	"with the ALSA card behind each), then the MIDI ports that\n"
	"audiolat midi --port takes: ALSA rawmidi devices (hw:C,D), sequencer ports\n"
	"(client:port) and JACK MIDI ports.\n"
	"\n"
	"options:\n"
	"  -b, --backend NAME     only this backend (alsa, jack, pipewire, oss)\n"
	"      --json FILE|-      write the audiolat.devices/1 JSON document (- = stdout,\n"
	"                         and no text)\n"
	"  -h, --help             this text\n"
	"\n"
	"exit status: 0 listed (even when nothing was found), 1 runtime error,\n"
	"2 usage error, 4 the backend asked for with -b is not built in\n";

static void
print_midi(void *ud, const char *api, const char *name, const char *description)
{
	(void)ud;
	printf("  %-8s %-28s %s\n", api, name, description);
}

static void
json_midi(void *ud, const char *api, const char *name, const char *description)
{
	json_array_append_new(ud, json_pack("{s:s, s:o, s:o}", "api", api, "name",
					    al_json_text(name), "description",
					    al_json_text(description)));
}

struct print_ctx {
	FILE *f;
	const char *indent;
	int n;
};

static void
print_one(void *ud, const struct al_device *d)
{
	struct print_ctx *p = ud;
	bool port = !strcmp(d->kind, "jack-port");

	if (!strcmp(d->kind, "jack-server"))
		fprintf(p->f, "%sserver %-24s %-14s %s\n", p->indent, d->name, d->detail,
			d->description);
	else
		fprintf(p->f, "%s%s%-28s %-24s %s\n", p->indent, port ? "  " : "", d->name, d->detail,
			d->description);
	p->n++;
}

/* "no JACK server running": a server backend's -ENODEV, its name in capitals. */
static const char *
server_name(const struct al_backend_ops *b, char *buf, size_t size)
{
	size_t i, len = 0;

	len = (size_t)snprintf(buf, size, "no ");
	for (i = 0; b->name[i] && len + 1 < size; i++)
		buf[len++] = (char)toupper((unsigned char)b->name[i]);
	buf[len] = '\0';
	snprintf(buf + len, size - len, " server running");
	return buf;
}

int
cli_devices_print(FILE *f, const struct al_backend_ops *b, const char *indent)
{
	struct print_ctx p = { f, indent, 0 };
	char name[64];
	int rc;

	if (b->unavailable) {
		fprintf(f, "%snot available: %s\n", indent, b->unavailable);
		return 0;
	}
	if (!b->list) {
		fprintf(f, "%sno devices (a simulated card)\n", indent);
		return 0;
	}
	rc = b->list(print_one, &p);
	if (rc == -ENODEV && b->server_env)
		fprintf(f, "%s%s (%s=%s)\n", indent, server_name(b, name, sizeof(name)),
			b->server_env, getenv(b->server_env) ? getenv(b->server_env) : "unset");
	else if (rc < 0)
		fprintf(f, "%scannot list: %s\n", indent, strerror(-rc));
	else if (!p.n)
		fprintf(f, "%snone found\n", indent);
	return rc < 0 ? rc : p.n;
}

static void
json_one(void *ud, const struct al_device *d)
{
	json_array_append_new(ud, json_pack("{s:s, s:s, s:s, s:s}", "kind", d->kind, "name", d->name,
					    "description", d->description ? d->description : "",
					    "detail", d->detail ? d->detail : ""));
}

static json_t *
backend_json(const struct al_backend_ops *b)
{
	json_t *devs = json_array();
	const char *error = NULL;
	char name[64];
	int rc;

	if (b->unavailable)
		error = b->unavailable;
	else if (b->list && (rc = b->list(json_one, devs)) < 0)
		error = rc == -ENODEV && b->server_env ? server_name(b, name, sizeof(name))
						       : strerror(-rc);
	return json_pack("{s:s, s:b, s:o, s:o}", "backend", b->name, "available", !b->unavailable,
			 "error", error ? json_string(error) : json_null(), "devices", devs);
}

int
cmd_devices(int argc, char **argv)
{
	const struct al_backend_ops *only = NULL;
	const char *json_path = NULL;
	int opt;
	size_t i;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":b:h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'b':
			only = al_backend_find(optarg);
			if (!only)
				return cli_usage_error("devices", "-b/--backend: unknown backend '%s'",
						       optarg);
			break;
		case OPT_JSON:
			json_path = optarg;
			break;
		case 'h':
			fputs(devices_help, stdout);
			return AL_EXIT_OK;
		case ':':
			return cli_usage_error("devices", "option %s: needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("devices", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("devices", "unexpected argument '%s'", argv[optind]);
	if (only && only->unavailable)
		return cli_cmd_error(AL_EXIT_UNAVAILABLE, "devices", "backend %s: %s", only->name,
				     only->unavailable);

	if (json_path) {
		json_t *arr = json_array(), *doc, *midi;
		int rc;

		for (i = 0; al_backends[i]; i++)
			if (!only || only == al_backends[i])
				json_array_append_new(arr, backend_json(al_backends[i]));
		midi = json_array();
		if (!only)
			al_midi_list(json_midi, midi);
		doc = json_pack("{s:s, s:o, s:o}", "schema", AL_SCHEMA_DEVICES, "backends", arr,
				"midi", midi);
		rc = doc ? al_doc_write(json_path, doc, 0) : -ENOMEM;
		json_decref(doc);
		if (rc)
			return cli_cmd_error(AL_EXIT_RUNTIME, "devices", "--json %s: %s", json_path,
					     strerror(-rc));
		if (!strcmp(json_path, "-"))
			return AL_EXIT_OK;
	}
	for (i = 0; al_backends[i]; i++) {
		const struct al_backend_ops *b = al_backends[i];

		if (only && only != b)
			continue;
		printf("%s: %s\n", b->name, b->summary);
		cli_devices_print(stdout, b, "  ");
	}
	if (!only) {
		printf("midi: ports for audiolat midi --port\n");
		if (!al_midi_list(print_midi, NULL))
			printf("  (none: no ALSA rawmidi or sequencer port, no JACK MIDI port within reach)\n");
	}
	return AL_EXIT_OK;
}
