/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One result's scope for the comparisons: compare-private.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ci.h"
#include "doc/view.h"

#define AL_COMPARE_INTERNAL
#include "compare-private.h"

const char *
al__phase_name(const json_t *ph)
{
	const char *s = al_doc_str(ph, "name", NULL);

	return s ? s : "?";
}

/* The phase object of key in doc, NULL when it has none. */
static const json_t *
find_phase(const json_t *doc, const struct scope_key *key)
{
	const json_t *phases = json_object_get(doc, "phases"), *ph;
	int seen = 0;
	size_t i;

	json_array_foreach(phases, i, ph)
	{
		if (!json_is_object(ph) || strcmp(al__phase_name(ph), key->name))
			continue;
		if (seen++ == key->occurrence)
			return ph;
	}
	return NULL;
}

int
al__scope_load(const json_t *doc, const struct scope_key *key, struct scope_data *sd)
{
	const json_t *wl;
	struct al_dseries ser;
	int64_t start = 0, end = INT64_MAX;
	bool by_time = false;
	size_t i;
	int rc;

	memset(sd, 0, sizeof(*sd));
	sd->deff = 1;
	if (!key->name) {
		sd->stats = json_object_get(doc, "total");
	} else {
		sd->stats = find_phase(doc, key);
		if (!sd->stats)
			return 0;
		if (json_is_integer(json_object_get(sd->stats, "start_ns")) &&
		    json_is_integer(json_object_get(sd->stats, "end_ns"))) {
			start = al_doc_int(sd->stats, "start_ns", 0);
			end = al_doc_int(sd->stats, "end_ns", 0);
			by_time = end > start;
		}
	}
	wl = json_object_get(sd->stats, "wake_latency_ns");
	rc = al_dhist_from_json(al_doc_get(sd->stats, "histogram.wake_latency_ns"), wl, &sd->hist);
	if (rc)
		return rc;
	rc = al_dseries_from_json(doc, &ser);
	if (rc)
		return rc;
	if (ser.n) {
		sd->win_n = calloc(ser.n, sizeof(*sd->win_n));
		sd->win_mean = calloc(ser.n, sizeof(*sd->win_mean));
		sd->win_max = calloc(ser.n, sizeof(*sd->win_max));
		if (!sd->win_n || !sd->win_mean || !sd->win_max) {
			al_dseries_free(&ser);
			return -ENOMEM;
		}
	}
	for (i = 0; i < ser.n; i++) {
		const struct al_dwindow *w = &ser.w[i];

		if (!w->periods)
			continue;
		if (key->name) {
			if (by_time ? w->t_ns < start || w->t_ns >= end
				    : !w->phase || strcmp(w->phase, key->name))
				continue;
		}
		sd->win_n[sd->m] = w->periods;
		sd->win_mean[sd->m] = (double)w->wake_mean_ns;
		sd->win_max[sd->m] = w->wake_max_ns;
		sd->m++;
	}
	al_dseries_free(&ser);
	sd->deff =
	    al_ci_design_effect(sd->win_n, sd->win_mean, sd->m, al_doc_real(wl, "stddev", 0));
	sd->n_eff = sd->hist.count ? (double)sd->hist.count / sd->deff : 0;
	return 0;
}

void
al__scope_free(struct scope_data *sd)
{
	al_dhist_free(&sd->hist);
	free(sd->win_n);
	free(sd->win_mean);
	free(sd->win_max);
	memset(sd, 0, sizeof(*sd));
}
