/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pw-profiler's log (audiolat import, docs/interchange.md): al_pwp_parse()
 * returns 0 or -EINVAL, on failure one ":LINE: expected ..." line naming a
 * line of the input; on success the points add up (each is an interval, a
 * clamped or an incomplete one; each node's points are its finished ones
 * and its unfinished), and the document has no wake latency, never a 0,
 * and the counts the parse made.
 */
#include <errno.h>

#include "interchange/pwprofiler.h"
#include "fuzz.h"

static void
check_run(const struct al_pwp_run *r)
{
	FUZZ_CHECK(r->points > 0, "%s", "a log of no point accepted");
	FUZZ_CHECK(r->interval.n + r->clamped + r->incomplete == r->points,
		   "%zu intervals + %llu clamped + %llu incomplete != %llu points", r->interval.n,
		   (unsigned long long)r->clamped, (unsigned long long)r->incomplete,
		   (unsigned long long)r->points);
	FUZZ_CHECK(r->driver_end.n == r->interval.n && r->period.n == r->points,
		   "%zu driver ends, %zu periods", r->driver_end.n, r->period.n);
	for (size_t i = 0; i < r->n_nodes; i++) {
		const struct al_pwp_node *n = &r->nodes[i];

		FUZZ_CHECK(n->column < r->columns, "node %zu in column %zu of %zu", i, n->column,
			   r->columns);
		FUZZ_CHECK(n->points <= r->points && n->busy.n + n->unfinished == n->points &&
				   n->end.n == n->busy.n && n->wait.n >= n->busy.n,
			   "node %zu: %llu points, %llu unfinished, %zu busy, %zu wait", i,
			   (unsigned long long)n->points, (unsigned long long)n->unfinished,
			   n->busy.n, n->wait.n);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct al_pwp_run r;
	uint64_t points, nodes;
	char err[256];
	json_t *doc;

	memset(err, 'x', sizeof(err));
	if (fuzz_line_failed(al_pwp_parse((const char *)data, size, &r, err, sizeof(err)), err,
			     sizeof(err)))
		return 0;
	check_run(&r);
	points = r.points;
	nodes = r.n_nodes;
	doc = al_pwp_doc(&r, "fuzz");
	FUZZ_CHECK(doc != NULL, "%s", "no document");
	FUZZ_CHECK(json_is_null(al_doc_get(doc, "total.wake_latency_ns")) &&
			   json_is_null(al_doc_get(doc, "total.xruns")),
		   "%s", "a wake latency or an xrun count pw-profiler does not measure");
	FUZZ_CHECK(al_doc_int(doc, "source.points", -1) == (int64_t)points &&
			   json_array_size(al_doc_get(doc, "source.nodes")) == nodes,
		   "%s", "the document's points or nodes are not the parse's");
	json_decref(doc);
	al_pwp_run_free(&r);
	return 0;
}
