/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat load's run: one phase of loads on its own, through the phase driver (phases.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "phases.h"

#define POLL_NS (50 * AL_NS_PER_MS)

/* The NAME argument as a spec ("cmd" + COMMAND becomes cmd:'COMMAND'). */
static int
build_spec(const struct al_load_solo *s, char *spec, size_t size, char *err, size_t err_size)
{
	if (!s->command) {
		snprintf(spec, size, "%s", s->name);
		return 0;
	}
	if (!strchr(s->command, '\''))
		snprintf(spec, size, "cmd:'%s'", s->command);
	else if (!strchr(s->command, '"'))
		snprintf(spec, size, "cmd:\"%s\"", s->command);
	else
		return snprintf(err, err_size, "cmd: COMMAND cannot hold both ' and \""), -EINVAL;
	return 0;
}

/* The one phase to run, s->classic, s->planned_ns; -EINVAL, -EOPNOTSUPP, -EPERM, with err. */
static int
plan(struct al_load_solo *s, char *err, size_t err_size)
{
	char spec[AL_LOAD_ARG_MAX + 64];
	size_t n = 0;
	int rc;

	if (build_spec(s, spec, sizeof(spec), err, err_size))
		return -EINVAL;
	if (al_load_spec_parse(spec, s->duration_ns, &s->spec, &n, err, err_size))
		return -EINVAL;
	if (n != 1)
		return snprintf(err, err_size,
				"'%s' is %zu phases; audiolat load runs one (use audiolat run --load)",
				spec, n), -EINVAL;
	if (s->spec[0].duration_given && s->duration_ns)
		return snprintf(err, err_size, "'%s' has a time; drop it or -d/--duration", spec),
		       -EINVAL;
	s->planned_ns = s->spec[0].duration_ns;
	/* hackbench on its own with no time: one run, printed like rt-tests hackbench */
	s->classic = !s->planned_ns && s->spec[0].n_loads == 1 &&
		     !strcmp(al_load_name(s->spec[0].loads[0].ops), "hackbench");
	if (s->classic)
		s->opts->hb_runs = 1;
	rc = al_load_check_opts(s->opts, s->spec, 1, err, err_size);
	return rc == -EOPNOTSUPP || rc == -EPERM ? rc : rc ? -EINVAL : 0;
}

int
al_load_solo_run(struct al_load_solo *s, char *err, size_t err_size)
{
	struct al_phase_driver d;
	int rc = plan(s, err, err_size);

	if (rc)
		return rc;
	s->phase = calloc(1, sizeof(*s->phase));
	if (!s->phase)
		return snprintf(err, err_size, "out of memory"), -ENOMEM;
	if (s->planned)
		s->planned(s->ud, s);
	/* one phase until its time, the stop flag, or the loads' own end (hackbench's one run) */
	d = (struct al_phase_driver){
		.spec = s->spec, .n_spec = 1, .load_opts = s->opts,
		.stop_requested = s->stop_requested, .tick_ns = POLL_NS,
		.end_with_loads = true, .phases = s->phase,
	};
	al_phase_driver_run(&d);
	s->elapsed_ns = d.stopped_ns - d.origin_ns;
	s->interrupted = d.interrupted;
	s->start_err = d.start_err;
	return 0;
}

void
al_load_solo_free(struct al_load_solo *s)
{
	free(s->phase);
	al_load_spec_free(s->spec);
	s->phase = NULL;
	s->spec = NULL;
}
