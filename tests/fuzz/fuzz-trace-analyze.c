/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * al__trace_analyze() (src/trace/analyze.c) on any event history: the
 * input is a window and a sequence of events as the decoder would produce
 * them from a kernel buffer with any content (any order, any nesting, lost
 * markers, names without a NUL). Layout: 8 bytes of header (window start
 * offset, window length, tid selector, ring capacity selector), then 8
 * bytes per event: type, pid selector, prev_pid selector, name selector,
 * time delta (3 bytes, may go backwards once in 16), addr byte.
 * Checks: 0, -EINVAL or -ENODATA; on 0: t_ns/latency_ns as given;
 * woken_ns/switched_in_ns -1 or inside the window; 0 <= n_causes <= 8,
 * causes sorted longest first, each > 0 ns and no longer than the window,
 * kinds from the documented list, terminated names; the causes that do
 * not overlap (all but irqoff/preemptoff) sum to at most the window; the
 * timer address is set exactly for timer causes.
 */
#include <errno.h>
#include <inttypes.h>

#define AL_TRACE_PRIVATE_ALLOWED
#include "trace/trace-private.h"
#include "fuzz.h"

#define MAX_EVENTS 2048

static const char *const names[] = { "swapper/1", "al-hog", "victim", "local_timer",
				     "virtio0-input.0", "", "kworker/1:1H-kblockd" };
static const char *const kinds[] = { "task", "self", "idle", "irq", "softirq", "timer",
				     "irqoff", "preemptoff", "other" };

static bool
known_kind(const char *k)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(k, kinds[i]))
			return true;
	return false;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct al_tev store[MAX_EVENTS];
	struct al_tev_ring r = { .ev = store };
	struct al_tev e;
	struct al_spike s;
	uint64_t addr[AL_SPIKE_CAUSES];
	int64_t t = 1000000, from, to, window, other_sum = 0;
	size_t i, n;
	int tid, rc;

	if (size < 8)
		return 0;
	from = t + (int64_t)(data[0] | data[1] << 8) * 16 - 200000;
	window = (int64_t)(data[2] | data[3] << 8) * 8 - 1000; /* may be negative: -EINVAL */
	to = from + window;
	tid = data[4] % 4;
	r.cap = 1 + (size_t)(data[5] | (data[6] & 7) << 8) % MAX_EVENTS;
	data += 8;
	size -= 8;
	memset(store, 0, sizeof(store));
	for (n = 0; size >= 8 && n < 4 * MAX_EVENTS; n++, data += 8, size -= 8) {
		int32_t delta = data[4] | data[5] << 8 | (data[6] & 0x7f) << 16;

		memset(&e, 0, sizeof(e));
		e.type = data[0] % (AL_TEV_TYPES + 1);
		e.pid = data[1] % 8 - 1;
		e.prev_pid = data[2] % 8 - 1;
		if (data[3] & 0x80) /* a name filling the field, unterminated */
			memset(e.name, 'x', sizeof(e.name));
		else
			snprintf(e.name, sizeof(e.name), "%s", names[data[3] % 7]);
		snprintf(e.prev_name, sizeof(e.prev_name), "%s", names[data[2] % 7]);
		if (data[3] & 0x40)
			memset(e.prev_name, 'y', sizeof(e.prev_name));
		t += (data[6] & 0x80) && (data[7] & 0xf) == 0 ? -delta : delta;
		e.ts_ns = t;
		e.addr = data[7] & 0x10 ? 0xffffffff81000000ULL + data[7] : 0;
		al__tev_push(&r, &e);
	}

	rc = al__trace_analyze(&r, from, to, tid, &s, addr);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -ENODATA, "returned %d", rc);
	FUZZ_CHECK(rc != -EINVAL || to < from, "-EINVAL for a window of %" PRId64 " ns", window);
	if (rc)
		return 0;
	FUZZ_CHECK(s.t_ns == from && s.latency_ns == window, "t_ns %" PRId64 " latency %" PRId64,
		   s.t_ns, s.latency_ns);
	FUZZ_CHECK(s.woken_ns == -1 || (s.woken_ns >= 0 && s.woken_ns <= window),
		   "woken_ns %" PRId64 " outside a window of %" PRId64, s.woken_ns, window);
	FUZZ_CHECK(s.switched_in_ns == -1 || (s.switched_in_ns >= 0 && s.switched_in_ns <= window),
		   "switched_in_ns %" PRId64 " outside a window of %" PRId64, s.switched_in_ns,
		   window);
	FUZZ_CHECK(s.n_causes >= 0 && s.n_causes <= AL_SPIKE_CAUSES, "%d causes", s.n_causes);
	for (i = 0; i < (size_t)s.n_causes; i++) {
		const struct al_cause *c = &s.causes[i];

		FUZZ_CHECK(memchr(c->kind, '\0', sizeof(c->kind)) && known_kind(c->kind),
			   "cause %zu: bad kind", i);
		FUZZ_CHECK(memchr(c->name, '\0', sizeof(c->name)), "cause %zu: name unterminated",
			   i);
		FUZZ_CHECK(c->duration_ns > 0 && c->duration_ns <= window,
			   "cause %zu (%s %s): %" PRId64 " ns in a window of %" PRId64, i, c->kind,
			   c->name, c->duration_ns, window);
		FUZZ_CHECK(i == 0 || s.causes[i - 1].duration_ns >= c->duration_ns,
			   "causes not sorted at %zu", i);
		FUZZ_CHECK(!strcmp(c->kind, "timer") || addr[i] == 0,
			   "cause %zu (%s) has a timer address", i, c->kind);
		if (strcmp(c->kind, "irqoff") && strcmp(c->kind, "preemptoff"))
			other_sum += c->duration_ns;
	}
	FUZZ_CHECK(other_sum <= window, "causes sum to %" PRId64 " ns in a window of %" PRId64,
		   other_sum, window);
	return 0;
}
