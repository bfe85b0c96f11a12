/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The warnings of a MIDI result, and freeing what measure.h's functions allocated. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "measure.h"

void
al_midi_result_warn(struct al_midi_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	al_warnings_vadd(r->warnings, &r->n_warnings, fmt, ap);
	va_end(ap);
}

void
al_midi_result_free(struct al_midi_result *r)
{
	size_t i;

	for (i = 0; r->phases && i < r->n_phases; i++)
		free(r->phases[i].st);
	free(r->phases);
	free(r->st);
	free(r->lat_hist);
	r->phases = NULL;
	r->st = NULL;
	r->lat_hist = NULL;
	r->n_phases = 0;
}
