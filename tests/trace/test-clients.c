/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JACK blame's analysis (src/trace/clients.c, compiled in for its static
 * functions; no tracefs call is made) on made-up scheduler events: a
 * client that runs past its cycle's deadline is that cycle's cause with
 * its own BUSY, one that finishes in time is not; the tasks that preempted
 * a late client are named with the time each held its CPU; a client woken
 * and not on a CPU by the deadline is "triggered"; clients woken late in
 * their cycle make it the server's late start; an IRQ inside a late
 * client's run, a softirq while it waited for its CPU, an IRQ nested in a
 * softirq are charged (by name, kind and the time each held the CPU, each
 * nanosecond to the innermost), an exit without its entry ends nothing,
 * a task a hog pushed onto another CPU is charged to the run it cut into
 * there (not the hog), and events of several CPUs read out of order are
 * replayed in time order.
 */
#include "../../src/trace/clients.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define P 5333333LL /* 256 frames at 48 kHz */
#define B0 (7200 * AL_NS_PER_SEC)
#define US AL_NS_PER_US
#define SLOW 101 /* tids */
#define FINE 201
#define SELF 301
#define HOG 999

static struct al_clients *c;
static struct al_graph g;

static void
add_thread(const char *client, int pid, int tid, bool self)
{
	struct thr *th = &c->thr[c->n_thr++];

	memset(th, 0, sizeof(*th));
	snprintf(th->task.client, sizeof(th->task.client), "%s", client);
	th->task.pid = pid;
	th->task.tid = tid;
	th->task.self = self;
	th->node = al__clients_node_of(c, &th->task);
}

static int
setup(void **state)
{
	(void)state;
	c = calloc(1, sizeof(*c));
	assert_non_null(c);
	al_graph_init(&c->g, 0, AL_NS_PER_MS);
	add_thread("slow", 100, SLOW, false);
	add_thread("fine", 200, FINE, false);
	add_thread("audiolat-300", 300, SELF, true);
	for (int k = 0; k < 20; k++)
		al_clients_cycle(c, B0 + k * P, P);
	memset(&g, 0, sizeof(g));
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	free(c);
	return 0;
}

static void
waking(int tid, int64_t t)
{
	struct cev e = { .ts_ns = t, .type = EV_WAKING, .a = tid };

	replay(c, &e);
}

/* prev switched out (state: 0 runnable, 1 sleeping), next in */
static void
sw(int64_t t, int prev, int64_t state, int next, const char *next_comm)
{
	struct cev e = { .ts_ns = t, .type = EV_SWITCH, .a = prev, .b = next, .prev_state = state };

	snprintf(e.comm, sizeof(e.comm), "%s", next_comm);
	replay(c, &e);
}

/* one cycle's run of tid: woken at w, on the CPU at a, blocked at f (offsets from boundary b) */
static void
run(int tid, int64_t b, int64_t w, int64_t a, int64_t f)
{
	waking(tid, b + w);
	sw(b + a, 0, 0, tid, "x");
	sw(b + f, tid, 1, 0, "swapper/0");
}

static const struct al_graph_cause *
cause_named(const struct al_late_cycle *lc, const char *name)
{
	for (int k = 0; k < lc->n_causes; k++)
		if (!strcmp(lc->causes[k].name, name))
			return &lc->causes[k];
	return NULL;
}

/* the slow client spins 1.5 periods in cycle 3; the others finish in time */
static void
slow_client_is_the_cause(void **state)
{
	const struct al_graph_cause *cs;
	int k;

	(void)state;
	for (k = 0; k < 10; k++) {
		int64_t b = B0 + k * P;

		run(SLOW, b, 10 * US, 20 * US, k == 3 ? 20 * US + 8000 * US : 60 * US);
		run(FINE, b, 10 * US, 15 * US, 40 * US);
		run(SELF, b, 12 * US, 30 * US, 1200 * US);
	}
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 1);
	assert_int_equal(g.late[0].start_ns, 3 * P);
	assert_true(g.late[0].kind == AL_LATE_OVERRUN);
	assert_int_equal(g.late[0].late_ns, 20 * US + 8000 * US - P);
	assert_int_equal(g.late[0].n_causes, 1);
	cs = cause_named(&g.late[0], "slow");
	assert_non_null(cs);
	assert_int_equal(cs->id, 100);
	assert_int_equal(cs->status, AL_NODE_AWAKE);
	assert_int_equal(cs->busy_ns, 8000 * US);
	assert_int_equal(cs->wait_ns, 10 * US);
	assert_false(cs->self);
	/* each client a node; every run counted, one of them past its deadline */
	assert_int_equal(g.n_nodes, 3);
	assert_int_equal(g.nodes[0].runs, 10);
	assert_int_equal(g.nodes[0].unfinished, 1);
	assert_int_equal(g.nodes[0].blamed, 1);
	assert_int_equal(g.nodes[1].blamed, 0);
	assert_true(g.nodes[2].self);
	assert_int_equal(g.self_id, 300);
	assert_true(g.active);
	assert_string_equal(g.source, "jack-trace");
	assert_string_equal(g.driver_name, "srv");
}

/* fine is preempted by a hog for 6 ms: fine runs past, the hog is named with its time */
static void
preemptor_is_named(void **state)
{
	const struct al_graph_cause *cf, *ch;
	int64_t b = B0 + 2 * P;

	(void)state;
	waking(FINE, b + 10 * US);
	sw(b + 20 * US, 0, 0, FINE, "fine");
	sw(b + 100 * US, FINE, 0, HOG, "hog");     /* preempted: runnable */
	sw(b + 6100 * US, HOG, 1, FINE, "fine");
	sw(b + 6150 * US, FINE, 1, 0, "swapper/1"); /* its work done */
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 1);
	cf = cause_named(&g.late[0], "fine");
	ch = cause_named(&g.late[0], "hog");
	assert_non_null(cf);
	assert_non_null(ch);
	/*
	 * its own time on the CPU, 130 us, would have ended in time: the hog
	 * held it past the deadline (jackd did so to the well-behaved client
	 * of backend-jack-blame, 2.96 ms, on a loaded VM): triggered, not
	 * running; its busy is still the wall time of its run
	 */
	assert_int_equal(cf->status, AL_NODE_TRIGGERED);
	assert_int_equal(cf->busy_ns, 6130 * US);
	assert_int_equal(ch->status, AL_NODE_PREEMPTING);
	assert_int_equal(ch->id, HOG);
	assert_int_equal(ch->busy_ns, 6000 * US);
	assert_string_equal(al_node_status_name(ch->status), "preempting");
}

/* preempted 0.5 ms, but its own 5.6 ms of work alone end past the deadline: running */
static void
own_run_past_the_deadline_despite_a_preemption_is_running(void **state)
{
	const struct al_graph_cause *cf;
	int64_t b = B0 + 2 * P;

	(void)state;
	waking(FINE, b + 10 * US);
	sw(b + 20 * US, 0, 0, FINE, "fine");
	sw(b + 100 * US, FINE, 0, HOG, "hog");
	sw(b + 600 * US, HOG, 1, FINE, "fine");
	sw(b + 6120 * US, FINE, 1, 0, "swapper/1");
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 1);
	cf = cause_named(&g.late[0], "fine");
	assert_non_null(cf);
	assert_int_equal(cf->status, AL_NODE_AWAKE);
	assert_int_equal(cf->busy_ns, 6100 * US);
}

/*
 * fine is preempted by an audio thread for 0.2 ms, which hands the CPU to a
 * hog for 6 ms (the filter keeps every real-time task's switch): each is
 * charged its own part
 */
static void
preemptors_share_the_cpu(void **state)
{
	const struct al_graph_cause *ca, *ch;
	int64_t b = B0 + 2 * P;

	(void)state;
	waking(FINE, b + 10 * US);
	sw(b + 20 * US, 0, 0, FINE, "fine");
	sw(b + 100 * US, FINE, 0, 777, "other-rt");
	sw(b + 300 * US, 777, 1, HOG, "hog");
	sw(b + 6300 * US, HOG, 1, FINE, "fine");
	sw(b + 6350 * US, FINE, 1, 0, "swapper/1");
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 1);
	ch = cause_named(&g.late[0], "hog");
	ca = cause_named(&g.late[0], "other-rt");
	assert_non_null(ch);
	assert_non_null(ca);
	assert_int_equal(ch->busy_ns, 6000 * US);
	assert_int_equal(ca->busy_ns, 200 * US);
}

/* fine's one run in cycle 4 (offsets from its boundary): the cause it makes */
static const struct al_graph_cause *
fine_late(int64_t w, int64_t a, int64_t f)
{
	run(FINE, B0 + 4 * P, w, a, f);
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 1);
	return cause_named(&g.late[0], "fine");
}

/* woken before the deadline, on a CPU only after it: triggered, waited that long */
static void
waiting_for_a_cpu_is_triggered(void **state)
{
	const struct al_graph_cause *cf = fine_late(10 * US, P + 1000 * US, P + 1050 * US);

	(void)state;
	assert_non_null(cf);
	assert_int_equal(cf->status, AL_NODE_TRIGGERED);
	assert_int_equal(cf->wait_ns, P + 990 * US);
}

/* the same with a long run once on the CPU: still no CPU by the deadline, triggered */
static void
no_cpu_by_the_deadline_is_triggered_however_long_its_run(void **state)
{
	const struct al_graph_cause *cf = fine_late(10 * US, P + 1000 * US, P + 7000 * US);

	(void)state;
	assert_non_null(cf);
	assert_int_equal(cf->status, AL_NODE_TRIGGERED);
}

/*
 * woken on time, on a CPU only 0.1 ms before the deadline (what held it is
 * not in the trace: a VM's steal), its usual 0.3 ms run ends 0.2 ms late:
 * the wait made it late, not its run: triggered, not running
 */
static void
a_short_run_after_a_long_wait_is_triggered(void **state)
{
	const struct al_graph_cause *cf = fine_late(10 * US, P - 100 * US, P + 200 * US);

	(void)state;
	assert_non_null(cf);
	assert_int_equal(cf->status, AL_NODE_TRIGGERED);
	assert_int_equal(cf->wait_ns, P - 110 * US);
	assert_int_equal(cf->busy_ns, 300 * US);
}

/* woken 3.5 ms into a 5.3 ms cycle and past the deadline: the server began it late */
static void
woken_late_is_a_late_start(void **state)
{
	const struct al_graph_cause *cd;
	int64_t b = B0 + 5 * P;

	(void)state;
	run(FINE, b, 3500 * US, 3510 * US, P + 20 * US);
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 1);
	assert_true(g.late[0].kind & AL_LATE_START);
	assert_int_equal(g.late_starts, 1);
	cd = cause_named(&g.late[0], "srv");
	assert_non_null(cd);
	assert_true(cd->driver);
	assert_int_equal(cd->wait_ns, 3500 * US);
}

/* woken a little before our boundary (the line lies after the server's start): that cycle's */
static void
early_wake_belongs_to_the_boundary(void **state)
{
	int64_t b = B0 + 6 * P;

	(void)state;
	/* 30 us before the boundary, done 5 ms after it: in time for this cycle */
	run(SLOW, b, -30 * US, -20 * US, 5000 * US);
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 0);
	assert_int_equal(g.nodes[0].runs, 1);
}

/* late cycles stay in the order they began, whatever order their runs closed in */
static void
late_cycles_in_order(void **state)
{
	int64_t b3 = B0 + 3 * P, b4 = B0 + 4 * P;

	(void)state;
	waking(SLOW, b3 + 10 * US);
	sw(b3 + 20 * US, 0, 0, SLOW, "slow");
	/* fine's run of cycle 4 ends (late) before slow's of cycle 3 */
	run(FINE, b4, 10 * US, P + 100 * US, P + 200 * US);
	sw(b3 + 3 * P, SLOW, 1, 0, "swapper/0");
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 2);
	assert_int_equal(g.late[0].start_ns, 3 * P);
	assert_int_equal(g.late[1].start_ns, 4 * P);
	assert_non_null(cause_named(&g.late[0], "slow"));
	assert_non_null(cause_named(&g.late[1], "fine"));
}

/* an IRQ, softirq or vector event on cpu at t (a: the IRQ number or vector, name: the handler) */
static void
irq_ev(int type, int cpu, int64_t t, int a, const char *name)
{
	struct cev e = { .ts_ns = t, .type = (uint8_t)type, .cpu = (int16_t)cpu, .a = a, .target = -1 };

	snprintf(e.comm, sizeof(e.comm), "%s", name);
	replay(c, &e);
}

static void
sw_on(int cpu, int64_t t, int prev, int64_t state, int next, const char *next_comm)
{
	struct cev e = { .ts_ns = t, .type = EV_SWITCH, .cpu = (int16_t)cpu, .a = prev, .b = next,
			 .prev_state = state };

	snprintf(e.comm, sizeof(e.comm), "%s", next_comm);
	replay(c, &e);
}

static void
waking_on(int tid, int64_t t, int target)
{
	struct cev e = { .ts_ns = t, .type = EV_WAKING, .a = tid, .cpu = 0, .target = (int16_t)target };

	replay(c, &e);
}

/* the cause of that kind and name */
static const struct al_graph_cause *
cause_of(const struct al_late_cycle *lc, int kind, const char *name)
{
	for (int k = 0; k < lc->n_causes; k++)
		if (lc->causes[k].kind == kind && !strcmp(lc->causes[k].name, name))
			return &lc->causes[k];
	return NULL;
}

/* fine runs on CPU 1; IRQ 25 takes 2.5 ms of it: fine runs past, the IRQ is named for 2.5 ms */
static void
irq_in_a_run_is_charged(void **state)
{
	const struct al_graph_cause *cf, *ci;
	int64_t b = B0 + 2 * P;

	(void)state;
	waking_on(FINE, b + 10 * US, 1);
	sw_on(1, b + 20 * US, 0, 0, FINE, "fine");
	irq_ev(EV_IRQ, 1, b + 1000 * US, 25, "virtio2-input.0");
	irq_ev(EV_IRQ_EXIT, 1, b + 3500 * US, 25, "");
	irq_ev(EV_IRQ, 0, b + 4000 * US, 26, "elsewhere"); /* another CPU's: not fine's */
	irq_ev(EV_IRQ_EXIT, 0, b + 5000 * US, 26, "");
	sw_on(1, b + P + 300 * US, FINE, 1, 0, "swapper/1");
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 1);
	cf = cause_named(&g.late[0], "fine");
	ci = cause_of(&g.late[0], AL_CAUSE_IRQ, "virtio2-input.0");
	assert_non_null(cf);
	assert_non_null(ci);
	assert_int_equal(cf->kind, AL_CAUSE_TASK);
	assert_int_equal(ci->status, AL_NODE_PREEMPTING);
	assert_int_equal(ci->id, 25);
	assert_int_equal(ci->busy_ns, 2500 * US);
	assert_null(cause_named(&g.late[0], "elsewhere"));
	assert_string_equal(al_cause_kind_name(ci->kind), "irq");
	assert_string_equal(al_cause_kind_name(cf->kind), "task");
}

/*
 * fine is woken onto CPU 1 while NET_RX runs there (begun before the
 * wake-up): from its wake-up to the softirq's end, 4 ms, is NET_RX's;
 * it gets the CPU after it and runs past the deadline
 */
static void
softirq_in_the_wake_delay_is_charged(void **state)
{
	const struct al_graph_cause *cf, *cs;
	int64_t b = B0 + 2 * P;

	(void)state;
	irq_ev(EV_SOFTIRQ, 1, b + 5 * US, 3, "");
	waking_on(FINE, b + 10 * US, 1);
	irq_ev(EV_SOFTIRQ_EXIT, 1, b + 4010 * US, 3, "");
	sw_on(1, b + 4020 * US, 0, 0, FINE, "fine");
	sw_on(1, b + P + 100 * US, FINE, 1, 0, "swapper/1");
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 1);
	cf = cause_named(&g.late[0], "fine");
	cs = cause_of(&g.late[0], AL_CAUSE_SOFTIRQ, "NET_RX");
	assert_non_null(cf);
	assert_non_null(cs);
	assert_int_equal(cf->wait_ns, 4010 * US);
	assert_int_equal(cs->status, AL_NODE_PREEMPTING);
	assert_int_equal(cs->id, 3);
	assert_int_equal(cs->busy_ns, 4000 * US);
}

/*
 * On fine's CPU a TIMER softirq (1 ms in all) is interrupted by IRQ 30
 * (0.4 ms): each is charged its own part, the longest first; an exit of
 * an IRQ never entered ends nothing (the softirq goes on); a vector
 * interrupt is an IRQ named after its vector
 */
static void
irq_nested_in_a_softirq(void **state)
{
	const struct al_graph_cause *cs, *ci, *cv;
	int64_t b = B0 + 2 * P;
	int k;

	(void)state;
	waking_on(FINE, b + 10 * US, 0);
	sw_on(0, b + 20 * US, 0, 0, FINE, "fine");
	irq_ev(EV_SOFTIRQ_EXIT, 0, b + 50 * US, 1, "");   /* its entry was not seen */
	irq_ev(EV_SOFTIRQ, 0, b + 100 * US, 1, "");
	irq_ev(EV_IRQ_EXIT, 0, b + 200 * US, 31, "");     /* nor this one's */
	irq_ev(EV_IRQ, 0, b + 300 * US, 30, "ahci");
	irq_ev(EV_IRQ_EXIT, 0, b + 700 * US, 30, "");
	irq_ev(EV_SOFTIRQ_EXIT, 0, b + 1100 * US, 1, "");
	irq_ev(EV_VEC, 0, b + 2000 * US, 0, "local_timer");
	irq_ev(EV_VEC_EXIT, 0, b + 2150 * US, 0, "local_timer");
	sw_on(0, b + P + 100 * US, FINE, 1, 0, "swapper/0");
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 1);
	cs = cause_of(&g.late[0], AL_CAUSE_SOFTIRQ, "TIMER");
	ci = cause_of(&g.late[0], AL_CAUSE_IRQ, "ahci");
	assert_non_null(cs);
	assert_non_null(ci);
	assert_int_equal(cs->busy_ns, 600 * US);
	assert_int_equal(ci->busy_ns, 400 * US);
	assert_int_equal(ci->id, 30);
	/* the client first, then what held its CPU, the longest first (two of them) */
	assert_string_equal(g.late[0].causes[0].name, "fine");
	assert_ptr_equal(cs, &g.late[0].causes[1]);
	assert_ptr_equal(ci, &g.late[0].causes[2]);
	for (k = 0; k < g.late[0].n_causes; k++)
		assert_string_not_equal(g.late[0].causes[k].name, "local_timer"); /* third */
	/* the vector alone, in another run: named, id -1 */
	memset(&g, 0, sizeof(g));
	b = B0 + 5 * P;
	waking_on(SLOW, b + 10 * US, 0);
	sw_on(0, b + 20 * US, 0, 0, SLOW, "slow");
	irq_ev(EV_VEC, 0, b + 2000 * US, 0, "local_timer");
	irq_ev(EV_VEC_EXIT, 0, b + 2150 * US, 0, "local_timer");
	sw_on(0, b + P + 100 * US, SLOW, 1, 0, "swapper/0");
	al_clients_blame(c, &g, "srv", B0);
	cv = cause_of(&g.late[g.n_late - 1], AL_CAUSE_IRQ, "local_timer");
	assert_non_null(cv);
	assert_int_equal((int)cv->id, -1);
	assert_int_equal(cv->busy_ns, 150 * US);
}

/*
 * fine preempted by a hog for 3 ms on CPU 0, an IRQ of 1 ms on top of the
 * hog: the hog 2 ms, the IRQ 1 ms (each nanosecond charged once)
 */
static void
irq_while_preempted_is_not_the_hogs(void **state)
{
	const struct al_graph_cause *ch, *ci;
	int64_t b = B0 + 2 * P;

	(void)state;
	waking_on(FINE, b + 10 * US, 0);
	sw_on(0, b + 20 * US, 0, 0, FINE, "fine");
	sw_on(0, b + 100 * US, FINE, 0, HOG, "hog");
	irq_ev(EV_IRQ, 0, b + 1000 * US, 25, "virtio2-input.0");
	irq_ev(EV_IRQ_EXIT, 0, b + 2000 * US, 25, "");
	sw_on(0, b + 3100 * US, HOG, 1, FINE, "fine");
	sw_on(0, b + P + 100 * US, FINE, 1, 0, "swapper/0");
	al_clients_blame(c, &g, "srv", B0);
	ch = cause_named(&g.late[0], "hog");
	ci = cause_of(&g.late[0], AL_CAUSE_IRQ, "virtio2-input.0");
	assert_non_null(ch);
	assert_non_null(ci);
	assert_int_equal(ch->busy_ns, 2000 * US);
	assert_int_equal(ci->busy_ns, 1000 * US);
}

/*
 * What tests/backend/jack-blame.sh saw (its failing run's events): slow,
 * pinned to CPU 0, done with its cycle's work; a real-time "audiolat" of
 * another process takes CPU 0 and a SCHED_FIFO hog comes onto CPU 0 over
 * it, for 20 ms. That task, pushed to CPU 1, cuts into our own client's
 * run there: it is charged to our client for the time it held CPU 1
 * (about the hog's time: what the hog did to it), the hog is no cause of
 * that run (it never held its CPU); slow, woken onto CPU 0 behind the hog,
 * waits ("triggered"), and no task is charged to a thread off every CPU.
 */
static void
hog_pushes_a_task_onto_another_cpu(void **state)
{
	const struct al_graph_cause *cs, *ca, *cw;
	int64_t b = B0 + 2 * P;

	(void)state;
	waking_on(SLOW, b + 10 * US, 0);
	sw_on(0, b + 20 * US, 0, 0, SLOW, "jack-slow-clien");
	waking_on(SELF, b + 3000 * US, 1);
	sw_on(1, b + 3010 * US, 0, 0, SELF, "audiolat");
	sw_on(0, b + 4300 * US, SLOW, 1, 777, "audiolat");     /* its work done */
	sw_on(0, b + 4500 * US, 777, 0, HOG, "truth-hog");     /* 777 goes to CPU 1 */
	sw_on(1, b + 4700 * US, SELF, 0, 777, "audiolat");
	sw_on(1, b + 15700 * US, 777, 1, SELF, "audiolat");
	sw_on(1, b + 16000 * US, SELF, 0, 777, "audiolat");
	sw_on(1, b + 24000 * US, 777, 1, SELF, "audiolat");
	sw_on(1, b + 24200 * US, SELF, 1, 0, "swapper/1");
	waking_on(SLOW, b + P + 10 * US, 0);                  /* behind the hog */
	sw_on(0, b + 24500 * US, HOG, 1, SLOW, "jack-slow-clien");
	sw_on(0, b + 24500 * US + 4300 * US, SLOW, 1, 0, "swapper/0");
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 2);
	/* our client's late cycle: the task pushed to its CPU, 19 ms; not the hog */
	assert_int_equal(g.late[0].start_ns, 2 * P);
	cs = cause_named(&g.late[0], "audiolat-300");
	ca = cause_named(&g.late[0], "audiolat");
	assert_non_null(cs);
	assert_non_null(ca);
	/* (its own 2.19 ms from its wake-up at 3 ms end in time: held, triggered) */
	assert_int_equal(cs->status, AL_NODE_TRIGGERED);
	assert_int_equal(ca->status, AL_NODE_PREEMPTING);
	assert_int_equal(ca->id, 777);
	assert_int_equal(ca->busy_ns, (11000 + 8000) * US);
	assert_null(cause_named(&g.late[0], "truth-hog"));
	assert_null(cause_named(&g.late[0], "jack-slow-clien"));
	/* slow's next cycle: it waited for CPU 0 until the hog was done; nothing preempted it */
	assert_int_equal(g.late[1].start_ns, 3 * P);
	cw = cause_named(&g.late[1], "slow");
	assert_non_null(cw);
	assert_int_equal(cw->status, AL_NODE_TRIGGERED);
	assert_int_equal(cw->wait_ns, 24500 * US - P - 10 * US);
	for (int k = 0; k < g.late[1].n_causes; k++)
		assert_int_not_equal(g.late[1].causes[k].status, AL_NODE_PREEMPTING);
}

/*
 * The events of two CPUs read in any order (within HOLD_NS): replayed
 * sorted, the same charges as in order
 */
static void
events_out_of_order_are_sorted(void **state)
{
	const struct al_graph_cause *cs, *ci;
	int64_t b = B0 + 2 * P;
	struct cev ev[] = {
		{ .ts_ns = b + P + 100 * US, .type = EV_SWITCH, .cpu = 1, .a = FINE, .b = 0, .prev_state = 1 },
		/* an IRQ's exit and the softirq it raised in the same nanosecond: in the order read */
		{ .ts_ns = b + 1500 * US, .type = EV_SOFTIRQ, .cpu = 1, .a = 0, .seq = 9 },
		{ .ts_ns = b + 2400 * US, .type = EV_SOFTIRQ_EXIT, .cpu = 1, .a = 0, .seq = 10 },
		{ .ts_ns = b + 1500 * US, .type = EV_IRQ_EXIT, .cpu = 1, .a = 25, .seq = 8 },
		{ .ts_ns = b + 20 * US, .type = EV_SWITCH, .cpu = 1, .a = 0, .b = FINE },
		{ .ts_ns = b + 4000 * US, .type = EV_SOFTIRQ_EXIT, .cpu = 0, .a = 3 },
		{ .ts_ns = b + 10 * US, .type = EV_WAKING, .cpu = 0, .a = FINE, .target = 1 },
		{ .ts_ns = b + 500 * US, .type = EV_IRQ, .cpu = 1, .a = 25, .comm = "virtio2-input.0" },
		{ .ts_ns = b + 2000 * US, .type = EV_SOFTIRQ, .cpu = 0, .a = 3 }, /* not fine's CPU */
		{ .ts_ns = b + 2500 * US, .type = EV_SOFTIRQ, .cpu = 1, .a = 1 },
		{ .ts_ns = b + 2800 * US, .type = EV_SOFTIRQ_EXIT, .cpu = 1, .a = 1 },
	};
	size_t n = sizeof(ev) / sizeof(ev[0]);

	(void)state;
	c->pend = calloc(n, sizeof(c->pend[0]));
	assert_non_null(c->pend);
	memcpy(c->pend, ev, sizeof(ev));
	c->n_pend = n;
	al__clients_replay_pending(c, b + P + 100 * US + HOLD_NS + 1);
	assert_int_equal(c->n_pend, 0);
	assert_int_equal(c->disordered, 0);
	free(c->pend);
	c->pend = NULL;
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 1);
	ci = cause_of(&g.late[0], AL_CAUSE_IRQ, "virtio2-input.0");
	cs = cause_of(&g.late[0], AL_CAUSE_SOFTIRQ, "HI");
	assert_non_null(ci);
	assert_non_null(cs);
	assert_int_equal(ci->busy_ns, 1000 * US);
	assert_int_equal(cs->busy_ns, 900 * US); /* begun as the IRQ ended, not ended by its exit */
	assert_null(cause_of(&g.late[0], AL_CAUSE_SOFTIRQ, "TIMER")); /* 0.3 ms: the third */
	assert_null(cause_of(&g.late[0], AL_CAUSE_SOFTIRQ, "NET_RX"));
}

/*
 * A cycle whose causes are full (two clients late, two tasks preempting
 * the first): a softirq that held the second client's CPU longer takes the
 * place of the shortest of what held a CPU, not a client's
 */
static void
full_causes_keep_the_longest(void **state)
{
	const struct al_graph_cause *cs;
	int64_t b = B0 + 2 * P;
	int k, clients = 0;

	(void)state;
	waking_on(FINE, b + 10 * US, 0);
	sw_on(0, b + 20 * US, 0, 0, FINE, "fine");
	waking_on(SLOW, b + 30 * US, 1);
	irq_ev(EV_SOFTIRQ, 1, b + 40 * US, 3, "");
	sw_on(0, b + 100 * US, FINE, 0, HOG, "hog");
	sw_on(0, b + 400 * US, HOG, 1, 777, "other-rt");
	sw_on(0, b + 600 * US, 777, 1, FINE, "fine");
	irq_ev(EV_SOFTIRQ_EXIT, 1, b + 2040 * US, 3, "");
	sw_on(1, b + 2050 * US, 0, 0, SLOW, "slow");
	sw_on(0, b + P + 100 * US, FINE, 1, 0, "swapper/0");
	sw_on(1, b + P + 300 * US, SLOW, 1, 0, "swapper/1");
	al_clients_blame(c, &g, "srv", B0);
	assert_int_equal(g.n_late, 1);
	assert_int_equal(g.late[0].n_causes, AL_GRAPH_CAUSES);
	assert_int_equal(g.late[0].n_blamed, 5);
	cs = cause_of(&g.late[0], AL_CAUSE_SOFTIRQ, "NET_RX");
	assert_non_null(cs);
	assert_int_equal(cs->busy_ns, 2000 * US);
	for (k = 0; k < g.late[0].n_causes; k++)
		clients += g.late[0].causes[k].status != AL_NODE_PREEMPTING;
	assert_int_equal(clients, 2);
	assert_non_null(cause_named(&g.late[0], "hog"));
	assert_null(cause_named(&g.late[0], "other-rt")); /* 0.2 ms: the shortest, replaced */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(slow_client_is_the_cause, setup, teardown),
		cmocka_unit_test_setup_teardown(preemptor_is_named, setup, teardown),
		cmocka_unit_test_setup_teardown(own_run_past_the_deadline_despite_a_preemption_is_running,
						setup, teardown),
		cmocka_unit_test_setup_teardown(preemptors_share_the_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(waiting_for_a_cpu_is_triggered, setup, teardown),
		cmocka_unit_test_setup_teardown(a_short_run_after_a_long_wait_is_triggered, setup, teardown),
		cmocka_unit_test_setup_teardown(no_cpu_by_the_deadline_is_triggered_however_long_its_run,
						setup, teardown),
		cmocka_unit_test_setup_teardown(woken_late_is_a_late_start, setup, teardown),
		cmocka_unit_test_setup_teardown(early_wake_belongs_to_the_boundary, setup, teardown),
		cmocka_unit_test_setup_teardown(late_cycles_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(irq_in_a_run_is_charged, setup, teardown),
		cmocka_unit_test_setup_teardown(softirq_in_the_wake_delay_is_charged, setup, teardown),
		cmocka_unit_test_setup_teardown(irq_nested_in_a_softirq, setup, teardown),
		cmocka_unit_test_setup_teardown(irq_while_preempted_is_not_the_hogs, setup, teardown),
		cmocka_unit_test_setup_teardown(hog_pushes_a_task_onto_another_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(events_out_of_order_are_sorted, setup, teardown),
		cmocka_unit_test_setup_teardown(full_causes_keep_the_longest, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
