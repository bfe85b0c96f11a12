/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the backends can reach, as audiolat devices lists it (core/devices.h). */
#include <stdlib.h>

#include "core/devices.h"
#include "backend.h"

static void
add_row(void *ud, const struct al_device *d)
{
	struct al_device_group *g = ud;

	al_device_rows_add(&g->rows, &g->n, &g->cap, d->kind, d->name, d->description, d->detail);
}

void
al_backend_devices(const struct al_backend_ops *b, struct al_device_group *g)
{
	*g = (struct al_device_group){
		.backend = b->name, .summary = b->summary, .unavailable = b->unavailable,
		.listable = b->list != NULL, .server_env = b->server_env,
		.server_env_value = b->server_env ? getenv(b->server_env) : NULL,
	};
	if (!b->unavailable && b->list)
		g->rc = b->list(add_row, g);
}

void
al_backend_device_list(struct al_device_list *l, const struct al_backend_ops *only)
{
	struct al_device_group *g;
	size_t i;

	for (i = 0; al_backends[i]; i++)
		if ((!only || only == al_backends[i]) && (g = al_device_list_group(l)))
			al_backend_devices(al_backends[i], g);
}
