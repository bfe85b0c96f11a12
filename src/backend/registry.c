/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "duplex.h"
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

int
al_backend_check_config(const struct al_backend_ops *ops, const struct al_config *c, char *err,
			size_t err_size)
{
	const char *opt = al_backend_refuses(ops, c);

	err[0] = '\0';
	if (opt)
		snprintf(err, err_size, "%s: not with the %s backend", opt, c->backend);
	else if (c->sim_tail_p > 0 && strcmp(ops->name, "sim"))
		snprintf(err, err_size, "--sim-tail: not with the %s backend", c->backend);
	else if (c->capture && c->duplex)
		snprintf(err, err_size, "--capture: not with --duplex");
	else if (c->capture && c->tone_hz)
		snprintf(err, err_size, "--tone: not with --capture (nothing is played)");
	else if (c->blame > 0 && !al_backend_can(ops, AL_CAP_BLAME))
		snprintf(err, err_size, "--blame: not with the %s backend", c->backend);
	/* a callback backend's rate is its server's: checked when it is known */
	else if (c->tone_hz && c->tone_hz * 2 >= c->rate_hz && !al_backend_can(ops, AL_CAP_CALLBACK))
		snprintf(err, err_size, "--tone: %d Hz is not below half the rate (%lld Hz)",
			 c->tone_hz, (long long)c->rate_hz);
	else
		return 0;
	return -EINVAL;
}

/* The backends with a duplex stream, every cap of with and none of without: "jack or pipewire". */
static const char *
duplex_names(unsigned with, unsigned without, char *buf, size_t size)
{
	size_t i, len = 0, n = 0;

	buf[0] = '\0';
	for (i = 0; al_backends[i]; i++)
		if (al_backends[i]->duplex && al_backend_can(al_backends[i], with) &&
		    !(al_backends[i]->caps & without) && len + 1 < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", n++ ? " or " : "",
						al_backends[i]->name);
	return n ? buf : "a backend with a duplex stream";
}

int
al_backend_check_duplex(const char *name, const struct al_duplex_config *cfg,
			const char *fixed_opt, const struct al_backend_ops **out, char *err,
			size_t err_size)
{
	const struct al_backend_ops *be = al_backend_find(name);
	bool server = be && al_backend_can(be, AL_CAP_CALLBACK);
	char names[128];

	*out = be;
	if (!be || (!be->unavailable && !be->duplex))
		snprintf(err, err_size, "-b/--backend: '%s' is not %s", name,
			 duplex_names(0, 0, names, sizeof(names)));
	else if (server && fixed_opt)
		snprintf(err, err_size, "%s: only with -b %s (JACK and PipeWire run at the "
			 "server's rate and period)", fixed_opt,
			 duplex_names(0, AL_CAP_CALLBACK, names, sizeof(names)));
	else if (server && cfg->self_loop && (cfg->in_port || cfg->out_port))
		snprintf(err, err_size,
			 "--self-loop: not with --in/--out (the loop is inside the client)");
	else if (!server && (cfg->self_loop || cfg->in_port || cfg->out_port))
		snprintf(err, err_size, "%s: only with -b %s%s",
			 cfg->self_loop ? "--self-loop" : cfg->in_port ? "--in" : "--out",
			 duplex_names(AL_CAP_CALLBACK, 0, names, sizeof(names)),
			 cfg->self_loop ? "" : " (use -D and -C)");
	else
		return 0;
	return -EINVAL;
}
