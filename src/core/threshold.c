/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>

#include "threshold.h"
#include "units.h"

bool
al_threshold_given(const struct al_config *c)
{
	return c->max_latency_ns || c->max_interval_ns || c->fail_on_xrun || c->fail_on_server_xrun;
}

enum al_threshold
al_threshold_exceeded(const struct al_result *r)
{
	const struct al_config *c = &r->cfg;
	const struct al_period_stats *st = &r->total;

	if (c->max_latency_ns && st->wake_ns.count && st->wake_ns.max_ns > c->max_latency_ns)
		return AL_THRESHOLD_LATENCY;
	if (c->max_interval_ns && st->interval_ns.count &&
	    st->interval_ns.max_ns > c->max_interval_ns)
		return AL_THRESHOLD_INTERVAL;
	if (c->fail_on_xrun && st->xruns)
		return AL_THRESHOLD_XRUN;
	if (c->fail_on_server_xrun && st->server_xruns)
		return AL_THRESHOLD_SERVER_XRUN;
	return AL_THRESHOLD_NONE;
}

void
al_threshold_describe(const struct al_result *r, enum al_threshold t, char *buf, size_t size)
{
	char v[32], lim[32];

	switch (t) {
	case AL_THRESHOLD_LATENCY:
		al_format_duration(r->total.wake_ns.max_ns, v, sizeof(v));
		al_format_duration(r->cfg.max_latency_ns, lim, sizeof(lim));
		snprintf(buf, size, "max wake latency %s exceeded --max-latency %s", v, lim);
		break;
	case AL_THRESHOLD_INTERVAL:
		al_format_duration(r->total.interval_ns.max_ns, v, sizeof(v));
		al_format_duration(r->cfg.max_interval_ns, lim, sizeof(lim));
		snprintf(buf, size, "max interval %s exceeded --max-interval %s", v, lim);
		break;
	case AL_THRESHOLD_XRUN:
		snprintf(buf, size, "%llu xrun(s) with --fail-on-xrun",
			 (unsigned long long)r->total.xruns);
		break;
	case AL_THRESHOLD_SERVER_XRUN:
		snprintf(buf, size, "the server reported %llu xrun(s) not ours with --fail-on-server-xrun",
			 (unsigned long long)r->total.server_xruns);
		break;
	default:
		snprintf(buf, size, "%s", "");
		break;
	}
}
