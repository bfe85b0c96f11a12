/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi's measurements, one function a subcommand: each plans,
 * opens the port, measures and finishes into a struct al_midi_result
 * (core/midi-result.h), and never prints.
 *
 *	struct al_midi_result *r = calloc(1, sizeof(*r));
 *	rc = al_midi_run(&cfg, &ctl, r);      (record, loop, send, thru, analyze_file by cfg.kind)
 *	rc < 0: nothing to report; r->stage says where, r->err why (one line)
 *	rc == 0: report r (r->failed: cut short, r->err why); al_midi_result_free(r)
 *
 * Returns -EINVAL (a --load that cannot run as given), -EOPNOTSUPP (a load
 * not available here), the port's -errno (port.h), -ENOMEM, or the
 * file's -errno (analyze).
 */
#ifndef AL_MIDI_MEASURE_H
#define AL_MIDI_MEASURE_H

#include <signal.h>
#include <stdint.h>

#include "core/midi-result.h"
#include "load/load.h"

struct al_midi_ctl {
	const struct al_load_opts *load_opts;  /* record, loop: the options of --load's loads */
	volatile sig_atomic_t *stop_requested; /* set: end now, keep what was measured */
	/* after the port opened, before the measurement (may be NULL) */
	void (*opened)(void *ud, const struct al_midi_result *r);
	/* every status_ns while it measures (may be NULL) */
	void (*status)(void *ud, const struct al_midi_live *live);
	int64_t status_ns;
	void *ud;
};

/*
 * The measurement cfg->kind asks for: one of the five below; -ENOTSUP
 * (stage CONFIG, the line in r->err) when its API is not built in.
 */
int al_midi_run(const struct al_midi_config *cfg, const struct al_midi_ctl *ctl,
		struct al_midi_result *r);

int al_midi_analyze_file(const struct al_midi_config *cfg, struct al_midi_result *r);
int al_midi_record(const struct al_midi_config *cfg, const struct al_midi_ctl *ctl,
		   struct al_midi_result *r);
int al_midi_loop(const struct al_midi_config *cfg, const struct al_midi_ctl *ctl,
		 struct al_midi_result *r);
int al_midi_send(const struct al_midi_config *cfg, const struct al_midi_ctl *ctl,
		 struct al_midi_result *r);
int al_midi_thru(const struct al_midi_config *cfg, const struct al_midi_ctl *ctl,
		 struct al_midi_result *r);

/* A warning into r->warnings (the first AL_WARN_MAX are kept). */
void al_midi_result_warn(struct al_midi_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Free what the functions above allocated in r (not r itself). */
void al_midi_result_free(struct al_midi_result *r);

#endif
