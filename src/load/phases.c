/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "phases.h"

/* Sleep to t_ns through the phase: ticks, status, polls. false: the run must end. */
static bool
run_until(struct al_phase_driver *d, int64_t t_ns, struct al_load_set *loads,
	  struct al_phase *ph, int64_t *next_status_ns)
{
	int64_t now_ns, wake_ns, next_poll_ns = 0;
	char err[AL_WARN_LEN];
	int rc;

	for (;;) {
		if (d->stop_requested && *d->stop_requested) {
			d->interrupted = true;
			return false;
		}
		now_ns = al_clock_now_ns();
		if (d->tick && (rc = d->tick(d->ud, now_ns))) {
			d->ended = rc;
			return false;
		}
		if (t_ns && now_ns >= t_ns)
			return true;
		if (d->status && now_ns >= *next_status_ns) {
			d->status(d->ud, now_ns);
			*next_status_ns = now_ns + d->status_ns;
		}
		if (loads && now_ns >= next_poll_ns) {
			rc = al_load_phase_poll(loads, err, sizeof(err));
			if (rc && d->end_with_loads)
				return false; /* finished (1) or failed (< 0): stop now */
			/* a load that died is named in the phase; the others go on */
			if (rc < 0 && !ph->error[0])
				snprintf(ph->error, sizeof(ph->error), "%s", err);
			next_poll_ns = now_ns + d->poll_ns;
		}
		wake_ns = now_ns + d->tick_ns;
		if (t_ns && t_ns < wake_ns)
			wake_ns = t_ns;
		if (d->status && *next_status_ns < wake_ns)
			wake_ns = *next_status_ns;
		if (loads && d->poll_ns && next_poll_ns < wake_ns)
			wake_ns = next_poll_ns;
		/* a signal ends the sleep early: the flags are checked again */
		al_clock_sleep_until_ns(wake_ns);
	}
}

int
al_phase_driver_run(struct al_phase_driver *d)
{
	size_t n = d->n_spec ? d->n_spec : 1, i;
	int64_t now_ns, end_ns, next_status_ns;
	struct al_load_set *loads;
	char err[AL_WARN_LEN];
	bool go_on = true;

	d->n_done = 0;
	d->interrupted = false;
	d->ended = 0;
	d->start_err = 0;
	if (!d->origin_ns)
		d->origin_ns = al_clock_now_ns();
	next_status_ns = d->origin_ns;
	for (i = 0; i < n && go_on; i++) {
		const struct al_phase_spec *sp = d->n_spec ? &d->spec[i] : NULL;
		struct al_phase *ph = &d->phases[i];
		int rc;

		/* the phase begins when its loads begin to start (their fork storm is theirs) */
		ph->start_ns = al_clock_now_ns() - d->origin_ns;
		d->n_done = i + 1;
		if (d->phase_begin)
			d->phase_begin(d->ud, i);
		snprintf(ph->name, sizeof(ph->name), "%s", sp ? sp->name : "idle");
		/* what was asked, as audiolat load records it; stop() says what ran */
		al_load_phase_describe(sp, d->load_opts, ph->load, sizeof(ph->load));
		loads = NULL;
		if (sp && (rc = al_load_phase_start(sp, d->load_opts, &loads, err, sizeof(err))) < 0) {
			snprintf(ph->error, sizeof(ph->error), "%s", err);
			if (!d->start_err)
				d->start_err = rc;
			loads = NULL;
		}
		now_ns = al_clock_now_ns();
		/*
		 * Every phase gets its full time from when its loads started:
		 * stopping the previous loads (reaping hundreds of hackbench
		 * workers can take a while) shifts the schedule, never shortens
		 * a phase.
		 */
		end_ns = sp && sp->duration_ns ? now_ns + sp->duration_ns : d->end_ns;
		if (!(d->end_with_loads && !loads && sp))
			go_on = run_until(d, end_ns, loads, ph, &next_status_ns);
		else
			go_on = false;
		d->stopped_ns = al_clock_now_ns();
		if (loads && al_load_phase_stop(loads, ph) < 0 && !ph->error[0])
			snprintf(ph->error, sizeof(ph->error), "a load failed");
		ph->end_ns = al_clock_now_ns() - d->origin_ns;
	}
	return 0;
}
