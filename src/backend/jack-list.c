/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The JACK backend's connection helpers and its device listing (`audiolat
 * devices`): the servers this user can reach (the default one, and every
 * JACK2 socket in /dev/shm), each with its ports; libjack's version.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jack/jack.h>

#include "core/text.h"
#include "jack-private.h"
#include "jack.h"

void
al__jack_quiet(void)
{
	jack_set_error_function(al_text_discard_line);
	jack_set_info_function(al_text_discard_line);
}

const char *
al__jack_default_server(void)
{
	const char *s = getenv("JACK_DEFAULT_SERVER");

	return s && *s ? s : "default";
}

jack_client_t *
al__jack_connect(const char *name, const char *server, jack_status_t *status)
{
	jack_options_t opts = JackNoStartServer;

	if (server && *server)
		opts |= JackServerName;
	return jack_client_open(name, opts, status, server);
}

/* One server: itself, then its ports. 0, or -ENODEV when it does not answer. */
static int
list_server(const char *server, al_device_emit_fn emit, void *ud)
{
	jack_status_t status = 0;
	jack_client_t *c;
	const char **ports;
	char name[64], desc[128], detail[96];
	int i;

	snprintf(name, sizeof(name), "audiolat-list-%d", (int)getpid());
	c = al__jack_connect(name, server, &status);
	if (!c)
		return -ENODEV;
	snprintf(desc, sizeof(desc), "%u Hz, %u frames per period, libjack %s",
		 jack_get_sample_rate(c), jack_get_buffer_size(c), jack_get_version_string());
	emit(ud, &(struct al_device){ .kind = "jack-server", .name = server, .description = desc,
				      .detail = "running" });
	ports = jack_get_ports(c, NULL, NULL, 0);
	for (i = 0; ports && ports[i]; i++) {
		jack_port_t *p = jack_port_by_name(c, ports[i]);
		int flags = p ? jack_port_flags(p) : 0;

		snprintf(detail, sizeof(detail), "%s%s%s", (flags & JackPortIsOutput) ? "output"
							   : "input",
			 (flags & JackPortIsPhysical) ? ",physical" : "",
			 (flags & JackPortIsTerminal) ? ",terminal" : "");
		emit(ud, &(struct al_device){ .kind = "jack-port", .name = ports[i],
					      .description = p ? jack_port_type(p) : "",
					      .detail = detail });
	}
	jack_free(ports);
	jack_client_close(c);
	return 0;
}

/* The servers whose sockets JACK2 left in /dev/shm, for this user; at most max. */
static int
find_servers(char names[][128], int max)
{
	char suffix[32];
	struct dirent *de;
	struct stat stb;
	char path[512];
	DIR *d;
	int n = 0;

	snprintf(suffix, sizeof(suffix), "_%u_0", (unsigned int)getuid());
	d = opendir(JACK_SERVER_DIR);
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		size_t len = strlen(de->d_name), sl = strlen(suffix);

		if (strncmp(de->d_name, "jack_", 5) || len <= 5 + sl ||
		    strcmp(de->d_name + len - sl, suffix))
			continue;
		snprintf(path, sizeof(path), "%s/%s", JACK_SERVER_DIR, de->d_name);
		if (stat(path, &stb) || !S_ISSOCK(stb.st_mode))
			continue;
		if (len - 5 - sl >= sizeof(names[0]))
			continue;
		memcpy(names[n], de->d_name + 5, len - 5 - sl);
		names[n][len - 5 - sl] = '\0';
		n++;
	}
	closedir(d);
	return n;
}

int
al__jack_list(al_device_emit_fn emit, void *ud)
{
	char names[32][128];
	int n, i, k, reached = 0;

	al__jack_quiet();
	/* the default server first (under pw-jack: PipeWire), then every socket found */
	snprintf(names[0], sizeof(names[0]), "%s", al__jack_default_server());
	n = 1 + find_servers(names + 1, 31);
	for (i = 0; i < n; i++) {
		for (k = 0; k < i && strcmp(names[k], names[i]); k++)
			;
		if (k < i)
			continue;
		if (list_server(names[i], emit, ud) == 0)
			reached++;
		else if (i > 0)
			emit(ud, &(struct al_device){ .kind = "jack-server", .name = names[i],
						      .description = "a JACK2 socket in /dev/shm: a dead server, "
								     "or one this libjack cannot reach",
						      .detail = "not answering" });
	}
	return reached ? 0 : -ENODEV;
}

const char *
al_jack_lib_version(void)
{
	const char *v = jack_get_version_string();

	return v && *v ? v : "unknown";
}
