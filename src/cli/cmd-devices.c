/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat devices: the ALSA PCMs and the JACK servers and ports within reach. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "args/common-opts.h"
#include "backend/backend.h"
#include "midi/list.h"
#include "report/devices.h"
#include "report/report.h"
#include "cli.h"
#include "commands.h"
#include "doc-io.h"

struct devices_cli {
	const struct al_backend_ops *only;
	const char *json_path;
	bool help;
};

#define TO(f_) AL_OPT_TO(struct devices_cli, f_)
static const struct al_optdef devices_opts[] = {
	AL_OPT_TEXT("usage: audiolat devices [options]\n"
		    "\n"
		    "List what audiolat run -D can measure: the ALSA PCMs with their hints\n"
		    "(snd_device_name_hint) and the JACK servers within reach with their ports\n"
		    "(the default server, $JACK_DEFAULT_SERVER, and every JACK2 server socket of\n"
		    "this user in /dev/shm; PipeWire under pw-jack), PipeWire's server, sinks,\n"
		    "sources and drivers (-b pipewire), the OSS devices (/dev/dsp*,\n"
		    "with the ALSA card behind each), then the MIDI ports that\n"
		    "audiolat midi --port takes: ALSA rawmidi devices (hw:C,D), sequencer ports\n"
		    "(client:port) and JACK MIDI ports.\n"
		    "\n"),
	AL_OPT_TEXT("options:\n"),
	{ .id = 'b', .name = "backend", .short_name = 'b', .type = AL_OPT_SPEC, .arg = "NAME",
	  .help = "only this backend (alsa, jack, pipewire, oss)" },
	CLI_SHARED_AS(CLI_OPT_JSON, NULL, "write the audiolat.devices/1 JSON document (- = stdout,\n"
					  "and no text)", TO(json_path)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 listed (even when nothing was found), 1 runtime error,\n"
		    "2 usage error, 4 the backend asked for with -b is not built in or its\n"
		    "server is not running (the list says so)\n"),
	AL_OPT_END,
};

/* -b: resolved once */
static int
devices_set(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size)
{
	struct devices_cli *o = ctx;

	if (h->id != 'b')
		return 0;
	o->only = al_backend_find(h->arg);
	if (!o->only)
		return snprintf(err, err_size, "-b/--backend: unknown backend '%s'", h->arg), -EINVAL;
	return 0;
}

int
cmd_devices(int argc, char **argv)
{
	struct devices_cli o = { 0 };
	struct al_device_list l = { 0 };
	const struct al_backend_ops *only;
	const char *json_path;
	int first, rc;

	rc = cli_parse("devices", devices_opts, 25, argc, argv, devices_set, &o, &o.help, 0, &first);
	if (rc >= 0)
		return rc;
	rc = AL_EXIT_OK;
	only = o.only;
	json_path = o.json_path;
	if (only && only->unavailable)
		return cli_cmd_error(AL_EXIT_UNAVAILABLE, "devices", "backend %s: %s", only->name,
				     only->unavailable);

	al_backend_device_list(&l, only);
	if (!only)
		al_midi_list_devices(&l);
	if (json_path) {
		json_t *doc = al_report_devices_json(&l);

		rc = cli_write_doc("devices", json_path, doc, 0);
		json_decref(doc);
	}
	if (!rc && !(json_path && !strcmp(json_path, "-")))
		al_report_devices_text(stdout, &l);
	/* -b B whose server or devices cannot be reached: listed, and exit 4 */
	if (!rc && only && l.n == 1 && l.groups[0].listable && l.groups[0].rc < 0)
		rc = cli_exit_of(l.groups[0].rc);
	al_device_list_free(&l);
	return rc;
}
