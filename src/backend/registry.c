/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "backend.h"
#include "sim.h"

const struct al_backend_ops *const al_backends[] = {
	&al_backend_sim,
	NULL,
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
