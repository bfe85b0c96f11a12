/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <string.h>

#include "summary.h"

void
al_roundtrip_summarize(const struct al_roundtrip_reading *rd, size_t n,
		       struct al_roundtrip_summary *s)
{
	double sum = 0.0, sum_level = 0.0, m2 = 0.0;
	size_t i, n_inv = 0;
	int64_t first_valid = -1;

	memset(s, 0, sizeof(*s));
	s->n_readings = n;
	s->settled_at_ns = -1;
	for (i = 0; i < n; i++) {
		if (rd[i].r.status == AL_MTDM_VALID) {
			first_valid = rd[i].t_ns;
			break;
		}
	}
	if (first_valid < 0) {
		/* what the run ended with says best what is wrong */
		s->status = n && rd[n - 1].r.status == AL_MTDM_UNSTABLE ? AL_MTDM_UNSTABLE
									 : AL_MTDM_NO_SIGNAL;
		s->why = AL_ROUNDTRIP_NEVER_VALID;
		return;
	}
	s->settled_at_ns = first_valid + AL_ROUNDTRIP_SETTLE_NS;
	for (i = 0; i < n; i++) {
		const struct al_mtdm_result *r = &rd[i].r;

		if (rd[i].t_ns < s->settled_at_ns)
			continue;
		s->n_settled++;
		if (r->status == AL_MTDM_NO_SIGNAL) {
			s->n_no_signal++;
			continue;
		}
		if (r->status != AL_MTDM_VALID) {
			s->n_unstable++;
			continue;
		}
		if (!s->n_valid || r->delay_frames < s->min_frames)
			s->min_frames = r->delay_frames;
		if (!s->n_valid || r->delay_frames > s->max_frames)
			s->max_frames = r->delay_frames;
		if (r->error > s->worst_error)
			s->worst_error = r->error;
		s->n_valid++;
		n_inv += r->inverted;
		sum += r->delay_frames;
		sum_level += r->level;
	}
	if (!s->n_settled) {
		s->status = AL_MTDM_UNSTABLE;
		s->why = AL_ROUNDTRIP_NOT_SETTLED;
		return;
	}
	if (s->n_valid) {
		s->delay_frames = sum / s->n_valid;
		s->level = sum_level / s->n_valid;
		for (i = 0; i < n; i++)
			if (rd[i].t_ns >= s->settled_at_ns && rd[i].r.status == AL_MTDM_VALID)
				m2 += (rd[i].r.delay_frames - s->delay_frames) *
				      (rd[i].r.delay_frames - s->delay_frames);
		s->stddev_frames = s->n_valid > 1 ? sqrt(m2 / (s->n_valid - 1)) : 0.0;
		s->inverted = n_inv * 2 > s->n_valid;
	}
	if (s->n_valid < s->n_settled) {
		s->status = s->n_no_signal == s->n_settled ? AL_MTDM_NO_SIGNAL : AL_MTDM_UNSTABLE;
		s->why = AL_ROUNDTRIP_LOST;
	} else if (s->max_frames - s->min_frames > AL_ROUNDTRIP_MAX_SPREAD_FRAMES) {
		s->status = AL_MTDM_UNSTABLE;
		s->why = AL_ROUNDTRIP_SPREAD;
	} else if (n_inv && n_inv != s->n_valid) {
		s->status = AL_MTDM_UNSTABLE;
		s->why = AL_ROUNDTRIP_POLARITY;
	} else {
		s->status = AL_MTDM_VALID;
		s->why = AL_ROUNDTRIP_OK;
	}
}
