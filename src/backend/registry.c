/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "backend.h"
#include "sim.h"

#ifdef HAVE_ALSA
#include "alsa.h"
#else
static const struct al_backend_ops al_backend_alsa = {
	.name = "alsa",
	.summary = "an ALSA PCM (hw:, plughw:, plug:jack, default, ...) through alsa-lib",
	.unavailable = "built without libasound",
};
#endif

#ifdef HAVE_JACK
#include "jack.h"
#else
static const struct al_backend_ops al_backend_jack = {
	.name = "jack",
	.summary = "a client of a running JACK server (or PipeWire's JACK) in its process callback",
	.unavailable = "built without libjack",
};
#endif

#ifdef HAVE_OSS
#include "oss.h"
#else
static const struct al_backend_ops al_backend_oss = {
	.name = "oss",
	.summary = "an OSS device (/dev/dsp: ALSA's OSS emulation) with fragments and blocking writes",
	.unavailable = "built without linux/soundcard.h",
};
#endif

const struct al_backend_ops *const al_backends[] = {
	&al_backend_sim,
	&al_backend_alsa,
	&al_backend_jack,
	&al_backend_oss,
	NULL,
};

/* a backend built with a library adds its row here */
const struct al_lib_version al_backend_libs[] = {
#ifdef HAVE_ALSA
	{ "alsa-lib", al_alsa_lib_version },
#endif
#ifdef HAVE_JACK
	{ "libjack", al_jack_lib_version },
#endif
	{ NULL, NULL },
};

const struct al_backend_ops *
al_backend_find(const char *name)
{
	size_t i;

	for (i = 0; al_backends[i]; i++)
		if (!strcmp(al_backends[i]->name, name))
			return al_backends[i];
	return NULL;
}
