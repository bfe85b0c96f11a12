/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The analysis of src/trace on made-up event sequences: who is charged
 * for which part of the window, woken/switched-in times, nesting, lost
 * events, the history ring; and the names of what was charged (names.c:
 * timer addresses, symbols from /proc/kallsyms, tasks' comms from /proc).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define AL_TRACE_PRIVATE_ALLOWED
#include "trace/trace-private.h"
#include "trace/trace.h"

#define TID 100
#define HOG 200

static struct al_tev evbuf[512];
static size_t n_ev;
static int cur_pid; /* the task on the CPU: common_pid of the events, as the kernel gives it */

static void
reset(void)
{
	memset(evbuf, 0, sizeof(evbuf));
	n_ev = 0;
	cur_pid = 0;
}

static struct al_tev *
ev(int64_t ts, int type, int pid, const char *name)
{
	struct al_tev *e = &evbuf[n_ev++];

	assert_true(n_ev <= sizeof(evbuf) / sizeof(evbuf[0]));
	e->ts_ns = ts;
	e->type = (uint8_t)type;
	e->pid = pid;
	e->prev_pid = cur_pid;
	snprintf(e->name, sizeof(e->name), "%s", name ? name : "");
	return e;
}

static void
sw(int64_t ts, int prev_pid, const char *prev, int next_pid, const char *next)
{
	struct al_tev *e = ev(ts, AL_TEV_SWITCH, next_pid, next);

	e->prev_pid = prev_pid;
	cur_pid = next_pid;
	snprintf(e->prev_name, sizeof(e->prev_name), "%s", prev);
}

static int
analyze(int64_t from, int64_t to, struct al_spike *out, uint64_t *addr)
{
	struct al_tev_ring r = { .ev = evbuf, .cap = sizeof(evbuf) / sizeof(evbuf[0]),
				 .head = n_ev, .n = n_ev };

	return al__trace_analyze(&r, from, to, TID, out, addr);
}

static const struct al_cause *
cause(const struct al_spike *s, const char *kind, const char *name)
{
	for (int i = 0; i < s->n_causes; i++)
		if (!strcmp(s->causes[i].kind, kind) && !strcmp(s->causes[i].name, name))
			return &s->causes[i];
	return NULL;
}

static int64_t
sum(const struct al_spike *s)
{
	int64_t t = 0;

	for (int i = 0; i < s->n_causes; i++)
		t += s->causes[i].duration_ns;
	return t;
}

/* A higher-priority task holds the CPU; the timer IRQ wakes the thread at the boundary. */
static void
test_hog(void **state)
{
	struct al_spike s;
	uint64_t addr[AL_SPIKE_CAUSES];
	const struct al_cause *c;

	(void)state;
	reset();
	sw(500, TID, "victim", 0, "swapper/1");
	sw(950, 0, "swapper/1", HOG, "al-hog");
	ev(1000, AL_TEV_VEC_ENTRY, -1, "local_timer");
	ev(1001, AL_TEV_TIMER_ENTRY, 0, NULL)->addr = 0xffffffff81001234ULL;
	ev(1002, AL_TEV_WAKING, TID, "victim");
	ev(1003, AL_TEV_WAKEUP, TID, "victim");
	ev(1004, AL_TEV_TIMER_EXIT, 0, NULL);
	ev(1005, AL_TEV_VEC_EXIT, -1, NULL);
	sw(6000, HOG, "al-hog", TID, "victim");
	ev(6100, AL_TEV_SOFTIRQ_ENTRY, 3, NULL); /* after the switch: not charged */
	ev(6200, AL_TEV_SOFTIRQ_EXIT, 3, NULL);
	assert_int_equal(analyze(1000, 6010, &s, addr), 0);
	assert_int_equal(s.t_ns, 1000);
	assert_int_equal(s.latency_ns, 5010);
	assert_int_equal(s.woken_ns, 2);
	assert_int_equal(s.switched_in_ns, 5000);
	assert_false(s.truncated);
	assert_int_equal(s.n_causes, 3);
	assert_string_equal(s.causes[0].kind, "task");
	assert_string_equal(s.causes[0].name, "al-hog");
	assert_int_equal(s.causes[0].pid, HOG);
	assert_int_equal(s.causes[0].duration_ns, 6000 - 1005);
	c = cause(&s, "irq", "local_timer");
	assert_non_null(c);
	assert_int_equal(c->duration_ns, 2); /* 1000-1001 and 1004-1005 */
	assert_int_equal(c->pid, -1);
	c = cause(&s, "timer", "");
	assert_non_null(c);
	assert_int_equal(c->duration_ns, 3);
	assert_int_equal(addr[c - s.causes], 0xffffffff81001234ULL);
	/* every ns from the boundary to the switch is charged once */
	assert_int_equal(sum(&s), 5000);
}

/* IRQ, softirq on its exit, nested in a task; names and vectors. */
static void
test_nesting(void **state)
{
	struct al_spike s;
	uint64_t addr[AL_SPIKE_CAUSES];
	const struct al_cause *c;

	(void)state;
	reset();
	sw(0, 0, "swapper/1", 300, "kworker/1:0");
	ev(100, AL_TEV_IRQ_ENTRY, 24, "virtio0-input.0");
	ev(150, AL_TEV_WAKING, TID, "victim");
	ev(160, AL_TEV_IRQ_EXIT, 24, NULL);
	ev(160, AL_TEV_SOFTIRQ_ENTRY, 3, NULL);
	ev(200, AL_TEV_IRQ_ENTRY, 25, "virtio0-output.0"); /* an IRQ inside the softirq */
	ev(210, AL_TEV_IRQ_EXIT, 25, NULL);
	ev(400, AL_TEV_SOFTIRQ_EXIT, 3, NULL);
	sw(450, 300, "kworker/1:0", TID, "victim");
	assert_int_equal(analyze(50, 460, &s, addr), 0);
	assert_int_equal(s.woken_ns, 100);
	assert_int_equal(s.switched_in_ns, 400);
	c = &s.causes[0];
	assert_string_equal(c->kind, "softirq");
	assert_string_equal(c->name, "NET_RX");
	assert_int_equal(c->pid, 3);
	assert_int_equal(c->duration_ns, 240 - 10);
	c = cause(&s, "task", "kworker/1:0");
	assert_non_null(c);
	assert_int_equal(c->duration_ns, 50 + 50); /* 50-100, 400-450 */
	c = cause(&s, "irq", "virtio0-input.0");
	assert_non_null(c);
	assert_int_equal(c->duration_ns, 60);
	assert_int_equal(c->pid, 24);
	c = cause(&s, "irq", "virtio0-output.0");
	assert_non_null(c);
	assert_int_equal(c->duration_ns, 10);
	assert_int_equal(sum(&s), 400);
	/* longest first */
	for (int i = 1; i < s.n_causes; i++)
		assert_true(s.causes[i - 1].duration_ns >= s.causes[i].duration_ns);
}

/* The thread itself still ran past the boundary (an overrun), then the CPU idled. */
static void
test_self_and_idle(void **state)
{
	struct al_spike s;
	uint64_t addr[AL_SPIKE_CAUSES];

	(void)state;
	reset();
	sw(0, 0, "swapper/1", TID, "victim");
	sw(1300, TID, "victim", 0, "swapper/1");
	ev(1500, AL_TEV_WAKING, TID, "victim");
	sw(1510, 0, "swapper/1", TID, "victim");
	assert_int_equal(analyze(1000, 1520, &s, addr), 0);
	assert_int_equal(s.n_causes, 2);
	assert_string_equal(s.causes[0].kind, "self");
	assert_int_equal(s.causes[0].pid, TID);
	assert_int_equal(s.causes[0].duration_ns, 300);
	assert_string_equal(s.causes[1].kind, "idle");
	assert_string_equal(s.causes[1].name, "swapper/1");
	assert_int_equal(s.causes[1].duration_ns, 210);
	assert_int_equal(s.woken_ns, 500);
	assert_int_equal(s.switched_in_ns, 510);
}

/* No switch before the boundary: the first switch's prev ran; the history began late. */
static void
test_no_switch_before(void **state)
{
	struct al_spike s;
	uint64_t addr[AL_SPIKE_CAUSES];

	(void)state;
	reset();
	cur_pid = HOG;
	ev(900, AL_TEV_SOFTIRQ_ENTRY, 1, NULL);
	ev(950, AL_TEV_SOFTIRQ_EXIT, 1, NULL);
	ev(1100, AL_TEV_WAKEUP, TID, "victim");
	sw(1200, HOG, "al-hog", TID, "victim");
	assert_int_equal(analyze(1000, 1210, &s, addr), 0);
	assert_false(s.truncated); /* the history starts before the boundary */
	assert_int_equal(s.woken_ns, 100); /* sched_wakeup when no sched_waking */
	assert_int_equal(s.n_causes, 1);
	assert_string_equal(s.causes[0].name, "al-hog");
	assert_int_equal(s.causes[0].duration_ns, 200);

	/* the history starts after the boundary: what ran before is unknown */
	assert_int_equal(analyze(800, 1210, &s, addr), 0);
	assert_true(s.truncated);
	assert_int_equal(sum(&s), 1200 - 900);
}

/* Events lost inside the window: flagged, and the gap is charged to nobody. */
static void
test_lost(void **state)
{
	struct al_spike s;
	uint64_t addr[AL_SPIKE_CAUSES];

	(void)state;
	reset();
	sw(0, 0, "swapper/1", HOG, "al-hog");
	ev(1100, AL_TEV_IRQ_ENTRY, 5, "eth0");
	ev(1200, AL_TEV_LOST, 0, NULL);
	ev(1300, AL_TEV_IRQ_EXIT, 5, NULL)->prev_pid = 400; /* its entry may be lost: ignored */
	sw(1400, 400, "other", TID, "victim");
	assert_int_equal(analyze(1000, 1410, &s, addr), 0);
	assert_true(s.truncated);
	/* 1000-1100 al-hog; 1100-1200 gap; 1200-1400 "other" (prev of the next switch) */
	assert_non_null(cause(&s, "task", "al-hog"));
	assert_int_equal(cause(&s, "task", "al-hog")->duration_ns, 100);
	assert_null(cause(&s, "irq", "eth0"));
	assert_non_null(cause(&s, "task", "other"));
	assert_int_equal(cause(&s, "task", "other")->duration_ns, 200);

	/* a window that falls into the gap entirely */
	reset();
	sw(0, 0, "swapper/1", HOG, "al-hog");
	ev(1500, AL_TEV_LOST, 0, NULL);
	sw(1600, HOG, "al-hog", TID, "victim");
	assert_int_equal(analyze(1000, 1200, &s, addr), -ENODATA);
	/* a lost page before the replay start does not matter */
	reset();
	ev(10, AL_TEV_LOST, 0, NULL);
	sw(20, 0, "swapper/1", HOG, "al-hog");
	sw(1600, HOG, "al-hog", TID, "victim");
	assert_int_equal(analyze(1000, 1610, &s, addr), 0);
	assert_false(s.truncated);
}

/* The kernel did not deliver a switch: common_pid says who runs. */
static void
test_missed_switch(void **state)
{
	struct al_spike s;
	uint64_t addr[AL_SPIKE_CAUSES];

	(void)state;
	/* idle; the hog's timer wakes it; the switch to it is missing (seen on 6.18) */
	reset();
	sw(0, TID, "victim", 0, "swapper/1");
	ev(900, AL_TEV_VEC_ENTRY, -1, "local_timer");
	ev(901, AL_TEV_WAKING, HOG, "al-hog");
	ev(910, AL_TEV_VEC_EXIT, -1, NULL);
	cur_pid = HOG; /* no switch event */
	ev(1000, AL_TEV_VEC_ENTRY, -1, "local_timer");
	ev(1002, AL_TEV_WAKING, TID, "victim");
	ev(1010, AL_TEV_VEC_EXIT, -1, NULL);
	sw(4000, HOG, "al-hog", TID, "victim");
	assert_int_equal(analyze(950, 4010, &s, addr), 0);
	/* woken before the gap: it ran from right after the IRQ that woke it */
	assert_string_equal(s.causes[0].kind, "task");
	assert_string_equal(s.causes[0].name, "al-hog");
	assert_int_equal(s.causes[0].pid, HOG);
	assert_int_equal(s.causes[0].duration_ns, 50 + 2990);
	assert_null(cause(&s, "idle", "swapper/1"));
	assert_int_equal(sum(&s), 3050);

	/* one IRQ wakes the hog and then another task: the hog ran from the IRQ's end */
	reset();
	sw(0, TID, "victim", 0, "swapper/1");
	ev(900, AL_TEV_VEC_ENTRY, -1, "local_timer");
	ev(901, AL_TEV_WAKING, HOG, "al-hog");
	ev(905, AL_TEV_WAKING, 300, "kworker/1:1");
	ev(910, AL_TEV_VEC_EXIT, -1, NULL);
	cur_pid = HOG; /* no switch event */
	ev(4900, AL_TEV_VEC_ENTRY, -1, "local_timer");
	ev(4910, AL_TEV_VEC_EXIT, -1, NULL);
	sw(5000, HOG, "al-hog", TID, "victim");
	assert_int_equal(analyze(950, 5010, &s, addr), 0);
	assert_string_equal(s.causes[0].kind, "task");
	assert_string_equal(s.causes[0].name, "al-hog");
	assert_int_equal(s.causes[0].duration_ns, 4050 - 10);
	assert_null(cause(&s, "idle", "swapper/1"));

	/* no event at all while the hog ran: the switch away from it says it ran */
	reset();
	sw(0, TID, "victim", 0, "swapper/1");
	ev(900, AL_TEV_VEC_ENTRY, -1, "local_timer");
	ev(901, AL_TEV_WAKING, HOG, "al-hog");
	ev(905, AL_TEV_WAKING, 300, "kworker/1:1");
	ev(910, AL_TEV_VEC_EXIT, -1, NULL);
	sw(4000, HOG, "al-hog", TID, "victim");
	assert_int_equal(analyze(950, 4010, &s, addr), 0);
	assert_string_equal(s.causes[0].kind, "task");
	assert_string_equal(s.causes[0].name, "al-hog");
	assert_int_equal(s.causes[0].duration_ns, 4000 - 950);
	assert_null(cause(&s, "idle", "swapper/1"));

	/* not woken in sight: the old task keeps the time up to the event */
	reset();
	sw(0, 0, "swapper/1", 300, "worker");
	cur_pid = HOG;
	ev(1500, AL_TEV_IRQ_ENTRY, 9, "eth0");
	ev(1600, AL_TEV_IRQ_EXIT, 9, NULL);
	sw(2000, HOG, "al-hog", TID, "victim");
	assert_int_equal(analyze(1000, 2010, &s, addr), 0);
	assert_int_equal(cause(&s, "task", "worker")->duration_ns, 500);
	assert_int_equal(cause(&s, "irq", "eth0")->duration_ns, 100);
	/* charged before its comm was seen: the switch away from it names it */
	assert_null(cause(&s, "task", ""));
	assert_int_equal(cause(&s, "task", "al-hog")->pid, HOG);
	assert_int_equal(cause(&s, "task", "al-hog")->duration_ns, 400);

	/* nothing names it in the window: no comm, the trace layer asks /proc later */
	reset();
	sw(0, 0, "swapper/1", 300, "worker");
	cur_pid = HOG;
	ev(1500, AL_TEV_IRQ_ENTRY, 9, "eth0");
	ev(1600, AL_TEV_IRQ_EXIT, 9, NULL);
	sw(2000, HOG, "", TID, "victim");
	assert_int_equal(analyze(1000, 2010, &s, addr), 0);
	assert_int_equal(cause(&s, "task", "")->pid, HOG);
	assert_int_equal(cause(&s, "task", "")->duration_ns, 400);
}

static void
test_errors(void **state)
{
	struct al_spike s;
	uint64_t addr[AL_SPIKE_CAUSES];

	(void)state;
	reset();
	assert_int_equal(analyze(0, 10, &s, addr), -ENODATA); /* nothing recorded */
	sw(100, 0, "swapper/1", TID, "victim");
	assert_int_equal(analyze(200, 300, &s, addr), -ENODATA); /* nothing after the boundary yet */
	assert_int_equal(analyze(0, 50, &s, addr), -ENODATA); /* older than the history */
	assert_int_equal(analyze(300, 200, &s, addr), -EINVAL);
}

/* More sources than the table holds: the rest is one "other" cause; at most 8 causes. */
static void
test_many_sources(void **state)
{
	struct al_spike s;
	uint64_t addr[AL_SPIKE_CAUSES];
	char name[16];
	int64_t t = 0;

	(void)state;
	reset();
	sw(t, 0, "swapper/1", HOG, "al-hog");
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "irq%d", i);
		ev(t += 10, AL_TEV_IRQ_ENTRY, i, name);
		ev(t += 5 + (i == 0 ? 1000 : 0), AL_TEV_IRQ_EXIT, i, NULL);
	}
	sw(t += 10, HOG, "al-hog", TID, "victim");
	assert_int_equal(analyze(0, t, &s, addr), 0);
	assert_int_equal(s.n_causes, AL_SPIKE_CAUSES);
	assert_string_equal(s.causes[0].name, "al-hog");
	assert_int_equal(s.causes[0].duration_ns, 1010);
	assert_string_equal(s.causes[1].name, "irq0");
	assert_int_equal(s.causes[1].duration_ns, 1005);
	/* the table holds 64 sources (al-hog, irq0..irq62): irq63..irq99 are "other" */
	assert_string_equal(s.causes[2].kind, "other");
	assert_string_equal(s.causes[2].name, "(more sources)");
	assert_int_equal(s.causes[2].duration_ns, 37 * 5);
	assert_int_equal(s.causes[3].duration_ns, 5);
}

/* Nesting deeper than the stack, exits without entries, unknown vectors: no crash, sums hold. */
static void
test_robust(void **state)
{
	struct al_spike s;
	uint64_t addr[AL_SPIKE_CAUSES];
	int64_t t = 0;

	(void)state;
	reset();
	sw(t, 0, "swapper/1", HOG, "al-hog");
	ev(t += 10, AL_TEV_SOFTIRQ_EXIT, 3, NULL);
	ev(t += 10, AL_TEV_IRQ_EXIT, 3, NULL);
	for (int i = 0; i < 40; i++)
		ev(t += 10, AL_TEV_IRQ_ENTRY, 5, "deep");
	for (int i = 0; i < 40; i++)
		ev(t += 10, AL_TEV_IRQ_EXIT, 5, NULL);
	ev(t += 10, AL_TEV_SOFTIRQ_ENTRY, 77, NULL);
	ev(t += 10, AL_TEV_SOFTIRQ_EXIT, 77, NULL);
	sw(t += 10, HOG, "al-hog", TID, "victim");
	assert_int_equal(analyze(0, t, &s, addr), 0);
	assert_int_equal(sum(&s), t);
	assert_non_null(cause(&s, "softirq", "softirq-77"));
	assert_non_null(cause(&s, "irq", "deep"));
	assert_int_equal(cause(&s, "irq", "deep")->duration_ns, 790);
}

/* irqs-off and preempt-off sections overlap the rest. */
static void
test_irqoff(void **state)
{
	struct al_spike s;
	uint64_t addr[AL_SPIKE_CAUSES];

	(void)state;
	reset();
	sw(0, 0, "swapper/1", HOG, "al-hog");
	ev(900, AL_TEV_IRQOFF, 0, NULL);
	ev(1300, AL_TEV_IRQON, 0, NULL);
	ev(1400, AL_TEV_PREEMPTOFF, 0, NULL);
	ev(1450, AL_TEV_WAKING, TID, "victim");
	sw(1500, HOG, "al-hog", TID, "victim");
	assert_int_equal(analyze(1000, 1510, &s, addr), 0);
	assert_int_equal(cause(&s, "task", "al-hog")->duration_ns, 500);
	assert_int_equal(cause(&s, "irqoff", "irqs-off")->duration_ns, 300);
	assert_int_equal(cause(&s, "preemptoff", "preempt-off")->duration_ns, 100);
}

/* The ring keeps the newest cap events, oldest first. */
static void
test_ring(void **state)
{
	struct al_tev store[4];
	struct al_tev_ring r = { .ev = store, .cap = 4 };
	struct al_tev e = { .type = AL_TEV_WAKING };

	(void)state;
	for (int i = 0; i < 10; i++) {
		e.ts_ns = i;
		al__tev_push(&r, &e);
	}
	assert_int_equal(r.n, 4);
	assert_int_equal(r.evicted, 6);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(al__tev_at(&r, i)->ts_ns, 6 + (int64_t)i);
}

static void
test_softirq_names(void **state)
{
	char buf[16];

	(void)state;
	assert_string_equal(al__softirq_name(3, buf, sizeof(buf)), "NET_RX");
	assert_string_equal(al__softirq_name(2, buf, sizeof(buf)), "NET_TX");
	assert_string_equal(al__softirq_name(9, buf, sizeof(buf)), "RCU");
	assert_string_equal(al__softirq_name(10, buf, sizeof(buf)), "softirq-10");
	assert_string_equal(al__softirq_name(-1, buf, sizeof(buf)), "softirq--1");
}

/* src/trace/names.c: a timer's address, a task's comm from /proc, a pid that is gone. */
static void
test_names(void **state)
{
	uint64_t addr[AL_SPIKE_CAUSES] = { 0xffffffff81001234ULL, 0, 0 };
	struct al_spike s = { .n_causes = 3 };
	char comm[32] = "";
	FILE *f;

	(void)state;
	snprintf(s.causes[0].kind, sizeof(s.causes[0].kind), "timer");
	snprintf(s.causes[1].kind, sizeof(s.causes[1].kind), "task");
	s.causes[1].pid = (int)getpid();
	snprintf(s.causes[2].kind, sizeof(s.causes[2].kind), "task");
	s.causes[2].pid = 2147483647; /* past any pid_max */
	al__trace_name_timers(&s, addr);
	assert_string_equal(s.causes[0].name, "0xffffffff81001234");
	assert_string_equal(s.causes[1].name, "");
	al__trace_name_tasks(&s);
	f = fopen("/proc/self/comm", "re");
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	assert_true(comm[0]);
	assert_string_equal(s.causes[1].name, comm);
	assert_string_equal(s.causes[2].name, "pid-2147483647");
}

/* A timer's address named from /proc/kallsyms: the first symbol at it; one not there stays. */
static void
test_symbolize(void **state)
{
	struct al_spike s = { .n_causes = 2 };
	unsigned long long a = 0;
	char line[512], sym[256] = "", want[32], type;
	FILE *f = fopen("/proc/kallsyms", "re");

	(void)state;
	if (!f)
		skip(); /* a kernel without /proc/kallsyms */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3 && a)
			break;
	fclose(f);
	if (!a)
		skip(); /* kptr_restrict hides the addresses from us */
	snprintf(want, sizeof(want), "%.31s", sym);
	snprintf(s.causes[0].kind, sizeof(s.causes[0].kind), "timer");
	snprintf(s.causes[0].name, sizeof(s.causes[0].name), "%#llx", a);
	snprintf(s.causes[1].kind, sizeof(s.causes[1].kind), "timer");
	snprintf(s.causes[1].name, sizeof(s.causes[1].name), "0x1");
	assert_int_equal(al_trace_symbolize(&s, 1), 0);
	assert_string_equal(s.causes[0].name, want);
	assert_string_equal(s.causes[1].name, "0x1");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hog),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_self_and_idle),
		cmocka_unit_test(test_no_switch_before),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_missed_switch),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_many_sources),
		cmocka_unit_test(test_robust),
		cmocka_unit_test(test_irqoff),
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_softirq_names),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_symbolize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
