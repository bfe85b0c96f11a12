/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The measurement a configuration asks for (measure.h): one entry point for audiolat midi. */
#include <errno.h>
#include <stdio.h>

#include "measure.h"
#include "port.h"

int
al_midi_run(const struct al_midi_config *cfg, const struct al_midi_ctl *ctl,
	    struct al_midi_result *r)
{
	/* an API not built in: said before anything is planned or opened */
	if (cfg->kind != AL_MIDI_ANALYZE && al_midi_api_unavailable(cfg->api)) {
		r->stage = AL_MIDI_STAGE_CONFIG;
		snprintf(r->err, sizeof(r->err), "--api %s: %s", al_midi_api_name(cfg->api),
			 al_midi_api_unavailable(cfg->api));
		return -ENOTSUP;
	}
	switch (cfg->kind) {
	case AL_MIDI_ANALYZE:
		return al_midi_analyze_file(cfg, r);
	case AL_MIDI_SEND:
		return al_midi_send(cfg, ctl, r);
	case AL_MIDI_RECORD:
		return al_midi_record(cfg, ctl, r);
	case AL_MIDI_LOOP:
		return al_midi_loop(cfg, ctl, r);
	default:
		return al_midi_thru(cfg, ctl, r);
	}
}
