/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JACK blame's analysis (src/trace/clients.c compiled in; no tracefs call)
 * on any scheduler history: cycles of any period and events of three
 * followed threads and others, in the order al_clients_read() replays them
 * (sorted by time). Layout: 4 bytes of header (period selector, cycles,
 * a gap selector), then 6 bytes per event: type, prev selector, next
 * selector, prev_state, time delta (2 bytes). The type byte: bit 0 a
 * waking (else a switch), bit 7 an IRQ, softirq or vector event instead
 * (entry or exit: bits 1-3; the IRQ number or vector: the prev selector),
 * bit 6 on CPU 1 (else 0), bit 5 a waking onto CPU 1. Checks: at most the arrays'
 * sizes; late cycles in the order they began, each past its deadline
 * (late_ns > 0, an overrun); causes at most AL_GRAPH_CAUSES and no more
 * than those found, of a known state, names terminated, busy >= 0 and
 * wait >= -1 for the clients, the driver's only with a late start; a
 * task, IRQ or softirq that held a client's CPU: preempting, for more
 * than 0 and less than its cycle's span and quantum; each
 * node's unfinished <= runs and blamed <= late cycles.
 */
#include "../../src/trace/clients.c"
#include "fuzz.h"

#define MAX_EVENTS 4096

static const int tids[] = { 101, 201, 301, 999, 0 };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct al_clients c;
	static struct al_graph g;
	static struct cev ev[MAX_EVENTS];
	const char *const clients[] = { "slow", "fine", "audiolat-300" };
	int64_t period_ns, t = 7200LL * AL_NS_PER_SEC;
	size_t n = 0, i;
	int k, cycles;

	if (size < 4)
		return 0;
	memset(&c, 0, sizeof(c));
	al_graph_init(&c.g, 0, AL_NS_PER_MS);
	for (k = 0; k < 3; k++) {
		struct thr *th = &c.thr[c.n_thr++];

		snprintf(th->task.client, sizeof(th->task.client), "%s", clients[k]);
		th->task.pid = 100 * (k + 1);
		th->task.tid = tids[k];
		th->task.self = k == 2;
		th->node = al__clients_node_of(&c, &th->task);
	}
	period_ns = (int64_t)(1 + data[0]) * 50 * AL_NS_PER_US;
	cycles = data[1];
	for (k = 0; k < cycles; k++)
		al_clients_cycle(&c, t + k * period_ns + (data[2] & 1 ? (k % 3) * period_ns / 7 : 0),
				 period_ns);
	data += 4;
	size -= 4;
	for (; size >= 6 && n < MAX_EVENTS; data += 6, size -= 6, n++) {
		struct cev *e = &ev[n];

		memset(e, 0, sizeof(*e));
		e->type = data[0] & 1 ? EV_WAKING : EV_SWITCH;
		e->a = tids[data[1] % 5];
		e->b = tids[data[2] % 5];
		e->cpu = data[0] & 0x40 ? 1 : 0;
		e->target = data[0] & 0x20 ? 1 : 0;
		if (data[0] & 0x80) {
			e->type = (uint8_t)(EV_IRQ + (data[0] >> 1) % 6);
			e->a = data[1] % 4;
			e->b = 0;
		}
		e->prev_state = data[3] & 0x80 ? data[3] : 0;
		snprintf(e->comm, sizeof(e->comm), "%s", data[2] & 0x80 ? "hog" : "");
		if (e->type >= EV_IRQ)
			snprintf(e->comm, sizeof(e->comm), "%s", data[2] & 1 ? "local_timer" : "virtio2-input.0");
		if (data[2] & 0x40)
			memset(e->comm, 'x', sizeof(e->comm) - 1);
		t += (int64_t)(data[4] | data[5] << 8) * 200;
		e->ts_ns = t - (data[4] & 0xf0 ? 0 : period_ns); /* now and then from the past */
		e->seq = n;
	}
	qsort(ev, n, sizeof(ev[0]), cev_cmp);
	for (i = 0; i < n; i++)
		replay(&c, &ev[i]);
	memset(&g, 0, sizeof(g));
	al_clients_blame(&c, &g, "srv", 0);

	FUZZ_CHECK(g.n_late <= AL_GRAPH_LATE_MAX && g.n_nodes <= AL_GRAPH_NODES, "sizes %zu %d",
		   g.n_late, g.n_nodes);
	for (i = 0; i < g.n_late; i++) {
		const struct al_late_cycle *lc = &g.late[i];

		FUZZ_CHECK(i == 0 || g.late[i - 1].start_ns < lc->start_ns, "late %zu out of order", i);
		FUZZ_CHECK(lc->late_ns > 0 && (lc->kind & AL_LATE_OVERRUN), "late %zu: %lld ns, kind %d",
			   i, (long long)lc->late_ns, lc->kind);
		FUZZ_CHECK(lc->n_causes >= 1 && lc->n_causes <= AL_GRAPH_CAUSES &&
			   (uint64_t)lc->n_causes <= lc->n_blamed, "late %zu: %d causes of %llu", i,
			   lc->n_causes, (unsigned long long)lc->n_blamed);
		for (k = 0; k < lc->n_causes; k++) {
			const struct al_graph_cause *cs = &lc->causes[k];

			FUZZ_CHECK(memchr(cs->name, '\0', sizeof(cs->name)), "%s", "unterminated name");
			FUZZ_CHECK(cs->status == AL_NODE_AWAKE || cs->status == AL_NODE_TRIGGERED ||
				   cs->status == AL_NODE_PREEMPTING, "state %d", cs->status);
			FUZZ_CHECK(!cs->driver || (lc->kind & AL_LATE_START), "%s", "a driver cause, no late start");
			FUZZ_CHECK(cs->driver || (cs->busy_ns >= 0 && cs->wait_ns >= -1),
				   "late %zu cause %d: busy %lld wait %lld", i, k, (long long)cs->busy_ns,
				   (long long)cs->wait_ns);
			FUZZ_CHECK(cs->kind == AL_CAUSE_TASK || (cs->status == AL_NODE_PREEMPTING &&
				   (cs->kind == AL_CAUSE_IRQ || cs->kind == AL_CAUSE_SOFTIRQ)),
				   "late %zu cause %d: kind %d state %d", i, k, cs->kind, cs->status);
			FUZZ_CHECK(cs->status != AL_NODE_PREEMPTING ||
				   (cs->busy_ns > 0 && cs->busy_ns <= lc->end_ns - lc->start_ns + lc->quantum_ns),
				   "late %zu cause %d: held the CPU %lld ns of a %lld ns cycle", i, k,
				   (long long)cs->busy_ns, (long long)(lc->end_ns - lc->start_ns));
		}
	}
	for (k = 0; k < g.n_nodes; k++)
		FUZZ_CHECK(g.nodes[k].unfinished <= g.nodes[k].runs &&
			   g.nodes[k].blamed <= g.n_late + g.late_dropped, "node %d: %llu of %llu", k,
			   (unsigned long long)g.nodes[k].unfinished, (unsigned long long)g.nodes[k].runs);
	return 0;
}
