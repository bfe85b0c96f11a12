/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The figures of a run the CI formats carry, under stable names. */
#include <math.h>
#include <string.h>

#include "export.h"
#include "doc/view.h"

static const struct {
	const char *path;    /* the stable name */
	const char *field;   /* where the document has it */
	const char *unit;
	double scale;        /* document value -> unit */
	bool latency;        /* the run's --max-latency applies */
} figures[] = {
	{ "audiolat.run.wake_latency.p50", "total.wake_latency_ns.p50", "s", 1e-9, false },
	{ "audiolat.run.wake_latency.p99", "total.wake_latency_ns.p99", "s", 1e-9, false },
	{ "audiolat.run.wake_latency.p999", "total.wake_latency_ns.p999", "s", 1e-9, false },
	{ "audiolat.run.wake_latency.max", "total.wake_latency_ns.max", "s", 1e-9, true },
	{ "audiolat.run.interval.max", "total.interval_ns.max", "s", 1e-9, false },
	{ "audiolat.run.max_interval_pct_of_buffer", "total.max_interval_pct_of_buffer", "%", 1,
	  false },
	{ "audiolat.run.within_1ms_pct", "total.within_1ms_pct", "%", 1, false },
	{ "audiolat.run.within_2ms_pct", "total.within_2ms_pct", "%", 1, false },
	{ "audiolat.run.xruns", "total.xruns", "", 1, false },
	{ "audiolat.run.periods", "total.periods", "", 1, false },
};

size_t
al_ci_run_figures(const json_t *doc, struct al_ci_figure *out, size_t max)
{
	double limit_ns = al_doc_real(doc, "config.max_latency_ns", NAN);
	size_t i, n = 0;
	json_t *v;

	for (i = 0; i < sizeof(figures) / sizeof(figures[0]) && n < max; i++) {
		struct al_ci_figure *f = &out[n++];

		memset(f, 0, sizeof(*f));
		f->path = figures[i].path;
		f->unit = figures[i].unit;
		v = al_doc_get(doc, figures[i].field);
		f->measured = json_is_number(v);
		if (f->measured)
			f->value = json_number_value(v) * figures[i].scale;
		if (figures[i].latency && f->measured && isfinite(limit_ns) && limit_ns > 0) {
			f->has_limit = true;
			f->pass = json_number_value(v) <= limit_ns;
		}
	}
	return n;
}
