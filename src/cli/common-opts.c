/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/units.h"
#include "load/load.h"
#include "common-opts.h"

/* what the result keeps: al_config.label and .load_spec, with their NUL */
#define LABEL_MAX 127
#define LOAD_SPEC_MAX (AL_LOAD_DESC_MAX - 1)

const struct cli_optdef cli_common_opts[] = {
	{ CLI_OPT_DURATION, "duration", 'd', CLI_OPT_TIME, "-d/--duration", 0, 0, AL_NS_PER_SEC, 0 },
	{ CLI_OPT_PRIORITY, "priority", 'p', CLI_OPT_INT, "-p/--priority", 0, 99, 0, 0 },
	{ CLI_OPT_QUIET, "quiet", 'q', CLI_OPT_FLAG, "-q/--quiet", 0, 0, 0, 0 },
	{ CLI_OPT_JSON, "json", 0, CLI_OPT_OUT, "--json", 0, 0, 0, 0 },
	{ CLI_OPT_LABEL, "label", 0, CLI_OPT_TEXT, "--label", 0, 0, 0, LABEL_MAX },
	{ CLI_OPT_DB, "db", 0, CLI_OPT_PATH, "--db", 0, 0, 0, 0 },
	{ CLI_OPT_NO_DB, "no-db", 0, CLI_OPT_FLAG, "--no-db", 0, 0, 0, 0 },
	{ CLI_OPT_LOAD, "load", 0, CLI_OPT_SPEC, "--load", 0, 0, 0, LOAD_SPEC_MAX },
	{ 0, NULL, 0, 0, NULL, 0, 0, 0, 0 },
};

const struct cli_optdef *
cli_common_find(int id)
{
	const struct cli_optdef *d;

	for (d = cli_common_opts; d->name; d++)
		if (d->id == id)
			return d;
	return NULL;
}

/* The value of a definition, checked by its type. */
static int
check(const struct cli_optdef *d, const char *arg, int64_t *v, char *err, size_t size)
{
	long n;
	int rc;

	switch (d->type) {
	case CLI_OPT_FLAG:
	case CLI_OPT_OUT:
		return 0;
	case CLI_OPT_TIME:
		rc = al_parse_duration_ns(arg, d->unit_ns, v);
		if (rc == -ERANGE)
			snprintf(err, size, "%s: '%s' is too large", d->label, arg);
		else if (rc)
			snprintf(err, size,
				 "%s: '%s' is not a duration (a number with ns, us, ms, s, m or h)",
				 d->label, arg);
		else if (*v <= 0)
			snprintf(err, size, "%s: '%s' must be longer than zero", d->label, arg);
		return rc || *v <= 0 ? -EINVAL : 0;
	case CLI_OPT_INT:
		rc = al_parse_long(arg, d->min, d->max, &n);
		if (rc == -EINVAL)
			snprintf(err, size, "%s: '%s' is not a whole number", d->label, arg);
		else if (rc)
			snprintf(err, size, "%s: '%s' is not in %ld..%ld", d->label, arg, d->min,
				 d->max);
		*v = n;
		return rc ? -EINVAL : 0;
	case CLI_OPT_TEXT:
	case CLI_OPT_SPEC:
		if (d->max_len && strlen(arg) > d->max_len) {
			if (d->type == CLI_OPT_TEXT)
				snprintf(err, size, "%s: '%.40s...' is too long (at most %zu bytes)",
					 d->label, arg, d->max_len);
			else
				snprintf(err, size, "%s: '%.40s...' is too long", d->label, arg);
			return -EINVAL;
		}
		for (const char *q = arg; d->type == CLI_OPT_TEXT && *q; q++)
			if ((unsigned char)*q < 0x20 || *q == 0x7f) {
				snprintf(err, size, "%s: '%s' has a control character", d->label, arg);
				return -EINVAL;
			}
		return 0;
	case CLI_OPT_PATH:
		if (!arg[0]) {
			snprintf(err, size, "%s: '%s' is not a path", d->label, arg);
			return -EINVAL;
		}
		return 0;
	}
	return 0;
}

int
cli_common_set(struct cli_common *c, int id, const char *arg, char *err, size_t err_size)
{
	const struct cli_optdef *d = cli_common_find(id);
	int64_t v = 0;
	int rc;

	if (!d)
		return -ENOENT;
	rc = check(d, arg, &v, err, err_size);
	if (rc)
		return rc;
	switch (id) {
	case CLI_OPT_DURATION:
		c->duration_ns = v;
		c->duration_given = true;
		break;
	case CLI_OPT_PRIORITY:
		c->priority = (int)v;
		c->priority_given = true;
		break;
	case CLI_OPT_QUIET:
		c->quiet = true;
		break;
	case CLI_OPT_JSON:
		c->json_path = arg;
		break;
	case CLI_OPT_LABEL:
		c->label = arg;
		break;
	case CLI_OPT_DB:
		c->db_path = arg;
		break;
	case CLI_OPT_NO_DB:
		c->no_db = true;
		break;
	case CLI_OPT_LOAD:
		c->load_spec = arg;
		break;
	}
	return 0;
}
