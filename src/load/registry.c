/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loads, in the order `audiolat load --help` lists them. */
#define AL_LOAD_PRIVATE
#include <string.h>

#include "load-private.h"

static const struct al_load_ops *const registry[] = {
	&al_load_idle,	    &al_load_hackbench, &al_load_cpu,	  &al_load_mem,
	&al_load_disk_write, &al_load_disk_copy, &al_load_disk_read, &al_load_procfs,
	&al_load_fork,	    &al_load_rt_migrate, &al_load_cmd,
};

const struct al_load_ops *
al_load_get(size_t i)
{
	return i < sizeof(registry) / sizeof(registry[0]) ? registry[i] : NULL;
}

const struct al_load_ops *
al_load_find(const char *name)
{
	const struct al_load_ops *ops;
	size_t i;

	for (i = 0; (ops = al_load_get(i)); i++)
		if (!strcmp(ops->name, name))
			return ops;
	return NULL;
}

const char *
al_load_name(const struct al_load_ops *ops)
{
	return ops->name;
}

const char *
al_load_summary(const struct al_load_ops *ops)
{
	return ops->summary;
}

const char *
al_load_option_names(const struct al_load_ops *ops)
{
	return ops->option_names ? ops->option_names : "";
}

const char *
al_load_metric_names(const struct al_load_ops *ops)
{
	return ops->metric_names ? ops->metric_names : "";
}

/* idle: no load at all. */
static int
idle_workers(const struct al_load_opts *o)
{
	(void)o;
	return 0;
}

const struct al_load_ops al_load_idle = {
	.name = "idle",
	.summary = "no load (a baseline phase)",
	.workers = idle_workers,
};
