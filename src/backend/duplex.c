/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The duplex backends; an unbuilt one still answers with the reason. */
#include <string.h>

#include "duplex.h"

#ifdef HAVE_JACK
extern const struct al_duplex_ops al_duplex_jack;
#else
static const struct al_duplex_ops al_duplex_jack = {
	.name = "jack",
	.unavailable = "built without libjack (install libjack-jackd2-dev and rebuild)",
};
#endif

#ifdef HAVE_ALSA
extern const struct al_duplex_ops al_duplex_alsa;
#else
static const struct al_duplex_ops al_duplex_alsa = {
	.name = "alsa",
	.unavailable = "built without alsa-lib (install libasound2-dev and rebuild)",
};
#endif

const struct al_duplex_ops *const al_duplex_backends[] = {
	&al_duplex_jack,
	&al_duplex_alsa,
	NULL,
};

const struct al_duplex_ops *
al_duplex_find(const char *name)
{
	size_t i;

	for (i = 0; al_duplex_backends[i]; i++)
		if (!strcmp(al_duplex_backends[i]->name, name))
			return al_duplex_backends[i];
	return NULL;
}
