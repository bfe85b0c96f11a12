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

#ifdef HAVE_PIPEWIRE
#include "pipewire.h"
#else
static const struct al_backend_ops al_backend_pipewire = {
	.name = "pipewire",
	.summary = "a pw_filter in PipeWire's graph, measured in its data thread; names the node that "
		   "made each cycle late (--blame)",
	.unavailable = "built without libpipewire-0.3",
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
	&al_backend_pipewire,
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
#ifdef HAVE_PIPEWIRE
	{ "libpipewire", al_pipewire_lib_version },
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

bool
al_backend_can(const struct al_backend_ops *ops, unsigned caps)
{
	return (ops->caps & caps) == caps;
}

const char *
al_backend_refuses(const struct al_backend_ops *ops, const struct al_config *cfg)
{
	/* in the order audiolat run has always named them */
	const struct {
		unsigned cap;
		bool asked;
		const char *opt;
	} opts[] = {
		{ AL_CAP_CAPTURE, cfg->capture, "--capture" },
		{ AL_CAP_DUPLEX, cfg->duplex, "--duplex" },
		{ AL_CAP_TONE, cfg->tone_hz != 0, "--tone" },
		{ AL_CAP_NEAREST, cfg->nearest, "--nearest" },
		{ AL_CAP_MMAP, cfg->mmap, "--mmap" },
	};
	size_t i;

	/* an unbuilt backend's answer is that it is not there (its caps are not filled) */
	if (ops->unavailable)
		return NULL;
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (opts[i].asked && !al_backend_can(ops, opts[i].cap))
			return opts[i].opt;
	return NULL;
}
