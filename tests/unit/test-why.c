/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The causes of a dropout (src/core/why.c) on evidence whose answer is
 * known: each class from the numbers that decide it, the order in which
 * they are weighed, what is not known (-1) deciding nothing, the one-line
 * explanations, and the verdict's buffer, margin and dominant class.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/result.h"
#include "core/why.h"

#define MS 1000000LL
#define PERIOD_NS 1333333LL

/* a late period of 2 ms at SCHED_FIFO 80 with nothing known about it */
static struct al_why_event
late(void)
{
	struct al_why_event e = {
		.t_ns = 100 * MS, .size_ns = 2 * MS, .late_ns = 2 * MS, .work_ns = MS,
		.budget_ns = MS, .periods = 1,
		.ev = { .window_ns = 10 * MS, .wait_ns = 0, .cpu_ns = 5 * MS, .vcsw = 4, .ivcsw = 0,
			.minflt = 0, .majflt = 0, .steal_ns = 0, .irq_ns = 0, .irqs = 5,
			.irqs_expected = 5, .softirqs = 2, .softirqs_expected = 2, .busy_pct = 60,
			.rt_limit_pct = 95, .cpu = 1, .policy = 1, .priority = 80 },
	};
	return e;
}

static void
test_names(void **state)
{
	(void)state;
	for (int c = 0; c < AL_WHY_CLASSES; c++) {
		assert_non_null(al_why_class_name(c));
		assert_int_equal(al_why_class_of(al_why_class_name(c)), c);
	}
	assert_null(al_why_class_name(AL_WHY_CLASSES));
	assert_int_equal(al_why_class_of("nonsense"), -1);
	assert_int_equal(al_why_class_of(NULL), -1);
	assert_string_equal(al_why_class_name(AL_WHY_LATE_WAKE), "late-wake");
}

static void
test_preempted_and_late_wake(void **state)
{
	struct al_why_event e = late();

	(void)state;
	e.ev.wait_ns = MS; /* exactly half of 2 ms covers it */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_PREEMPTED);
	e.ev.policy = 2; /* SCHED_RR is real-time too */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_PREEMPTED);
	e.ev.policy = 0;
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_LATE_WAKE);
	e.ev.policy = 1;
	e.ev.wait_ns = MS - 1; /* less than half: not this */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_UNATTRIBUTED);
	e.ev.wait_ns = -1; /* not known decides nothing */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_UNATTRIBUTED);
}

static void
test_throttled(void **state)
{
	struct al_why_event e = late();

	(void)state;
	e.ev.wait_ns = 2 * MS;
	e.ev.busy_pct = 90; /* within 5 of the 95 % limit: the kernel throttled it */
	assert_int_equal(e.cls = al_why_classify(&e, PERIOD_NS), AL_WHY_OWN_WORK);
	al_why_explain(&e, PERIOD_NS);
	assert_non_null(strstr(e.because, "throttled"));
	e.ev.busy_pct = 89; /* an 80 % load beside a hog read 85: not throttled */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_PREEMPTED);
	e.ev.busy_pct = 99;
	e.ev.rt_limit_pct = -1; /* no limit: no throttling */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_PREEMPTED);
	e.ev.rt_limit_pct = 95;
	e.ev.policy = 0; /* SCHED_OTHER is not throttled as real-time */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_LATE_WAKE);
}

static void
test_order(void **state)
{
	struct al_why_event e = late();

	(void)state;
	/* stopped before everything */
	e.ev.stopped = true;
	e.ev.wait_ns = 2 * MS;
	e.ev.minflt = 3;
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_STOPPED);
	/* the wait before steal and faults */
	e.ev.stopped = false;
	e.ev.steal_ns = 2 * MS;
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_PREEMPTED);
	/* steal before faults */
	e.ev.wait_ns = 0;
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_HOST);
	e.ev.steal_ns = 0;
	/* 3 minor faults cannot have cost 1 ms of a 2 ms lateness; 100 can */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_UNATTRIBUTED);
	e.ev.minflt = 100;
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_PAGE_FAULT);
	e.ev.minflt = 99;
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_UNATTRIBUTED);
	e.ev.minflt = 0;
	e.ev.majflt = 1; /* a major fault can */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_PAGE_FAULT);
	e.ev.majflt = -1; /* not known: no fault */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_UNATTRIBUTED);
}

static void
test_own_work(void **state)
{
	struct al_why_event e = late();

	(void)state;
	e.work_ns = PERIOD_NS + 1;
	e.budget_ns = PERIOD_NS; /* its usual work: within 1.1 times */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_OWN_WORK);
	e.work_ns = PERIOD_NS; /* not over the period */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_UNATTRIBUTED);
	/* an 82 % load a host stretched just over the period: not its work */
	e.budget_ns = PERIOD_NS * 82 / 100;
	e.work_ns = PERIOD_NS * 101 / 100;
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_UNATTRIBUTED);
	/* slowed past 1.1 times its usual: time taken, not work */
	e.work_ns = 2 * MS;
	e.budget_ns = 1818182; /* 2 ms is 1.1 times this, within a ns */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_OWN_WORK);
	e.budget_ns = 1818181;
	assert_int_equal(e.cls = al_why_classify(&e, PERIOD_NS), AL_WHY_UNATTRIBUTED);
	al_why_explain(&e, PERIOD_NS);
	assert_non_null(strstr(e.because, "its usual"));
	e.budget_ns = -1; /* usual not known: the period decides */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_OWN_WORK);
}

static void
test_irq(void **state)
{
	struct al_why_event e = late();

	(void)state;
	e.ev.irqs = 4 * 5; /* 4 times, but only 15 more */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_UNATTRIBUTED);
	e.ev.irqs = 25; /* 5 times and 20 more */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_IRQ);
	e.ev.irqs = 5;
	e.ev.softirqs_expected = 10;
	e.ev.softirqs = 40;
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_IRQ);
	e.ev.softirqs = 39;
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_UNATTRIBUTED);
	e.ev.irq_ns = MS; /* their time covers half */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_IRQ);
	e.ev.irq_ns = 0;
	e.ev.irqs = 100;
	e.ev.irqs_expected = -1; /* no rate known: no storm */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_UNATTRIBUTED);
}

static void
test_device(void **state)
{
	struct al_why_event e = late();

	(void)state;
	e.xrun = true;
	e.late_ns = PERIOD_NS - 1; /* woke within a period, worked within it */
	e.size_ns = 5 * MS;
	assert_int_equal(e.cls = al_why_classify(&e, PERIOD_NS), AL_WHY_DEVICE);
	al_why_explain(&e, PERIOD_NS);
	assert_non_null(strstr(e.because, "device or the server"));
	e.late_ns = PERIOD_NS; /* a period late: not on time */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_UNATTRIBUTED);
	e.late_ns = 0;
	e.xrun = false; /* no xrun: a late period is never the device's */
	assert_int_equal(al_why_classify(&e, PERIOD_NS), AL_WHY_UNATTRIBUTED);
}

static void
test_explain(void **state)
{
	struct al_why_event e = late();

	(void)state;
	e.ev.wait_ns = 2 * MS;
	e.ev.ivcsw = 3;
	e.cls = al_why_classify(&e, PERIOD_NS);
	al_why_explain(&e, PERIOD_NS);
	assert_string_equal(e.because, "waited 2.00 ms to run on CPU 1 at SCHED_FIFO 80: a task of "
				       "equal or higher priority held it (3 involuntary switches)");
	e.ev.ivcsw = 1;
	al_why_explain(&e, PERIOD_NS);
	assert_non_null(strstr(e.because, "(1 involuntary switch)"));
	e = late();
	e.ev.steal_ns = -1;
	e.ev.irqs = -1;
	e.cls = al_why_classify(&e, PERIOD_NS);
	al_why_explain(&e, PERIOD_NS);
	assert_string_equal(e.because, "no evidence in the 10.0 ms around it: waited 0.00 ms, ran 5.00 ms, no fault");
	e = late();
	e.ev.minflt = 400;
	e.cls = al_why_classify(&e, PERIOD_NS);
	al_why_explain(&e, PERIOD_NS);
	assert_string_equal(e.because, "the thread faulted 400 pages (400 minor, 0 major) in the "
				       "10.0 ms around it");
	e = late();
	e.ev.window_ns = 0;
	e.cls = al_why_classify(&e, PERIOD_NS);
	al_why_explain(&e, PERIOD_NS);
	assert_non_null(strstr(e.because, "no two samples"));
}

static void
test_verdict_suitable(void **state)
{
	static struct al_why w;

	(void)state;
	memset(&w, 0, sizeof(w));
	/* the latest period served 1.5 periods late: 3 periods needed, 4 ran */
	al_why_verdict(&w, 64, 48000, 4, PERIOD_NS * 3 / 2, 0, true, true);
	assert_true(w.verdict.suitable);
	assert_int_equal(w.verdict.buffer_frames, 3 * 64);
	assert_int_equal(w.verdict.margin_ns, 4 * PERIOD_NS - (PERIOD_NS * 3 / 2 + PERIOD_NS));
	assert_int_equal(w.verdict.dominant, -1);
	assert_int_equal(w.verdict.n_advice, 0);
	assert_non_null(strstr(w.verdict.line, "suitable for 192 frames at 48000 Hz"));
	/* a suitable run with events of its own gets no advice */
	w.count[AL_WHY_PREEMPTED] = 2;
	al_why_verdict(&w, 64, 48000, 4, PERIOD_NS * 3 / 2, 0, true, true);
	assert_true(w.verdict.suitable);
	assert_int_equal(w.verdict.n_advice, 0);
	w.count[AL_WHY_PREEMPTED] = 0;
	/* never less than 2 periods */
	al_why_verdict(&w, 64, 48000, 3, 0, 0, true, true);
	assert_int_equal(w.verdict.buffer_frames, 128);
	/* no xrun at the buffer it ran: no more than it, and no negative spare */
	al_why_verdict(&w, 64, 48000, 2, 3 * PERIOD_NS, 0, true, true);
	assert_true(w.verdict.suitable);
	assert_int_equal(w.verdict.buffer_frames, 128);
	assert_int_equal(w.verdict.margin_ns, 0);
	/* nothing measured: not suitable, no buffer */
	al_why_verdict(&w, 64, 48000, 3, -1, 0, true, true);
	assert_false(w.verdict.suitable);
	assert_int_equal(w.verdict.buffer_frames, 0);
}

static void
test_verdict_not_suitable(void **state)
{
	static struct al_why w;

	(void)state;
	memset(&w, 0, sizeof(w));
	w.count[AL_WHY_PREEMPTED] = 9;
	w.count[AL_WHY_UNATTRIBUTED] = 3;
	al_why_verdict(&w, 64, 48000, 3, 10 * MS, 5, true, true);
	assert_false(w.verdict.suitable);
	assert_int_equal(w.verdict.dominant, AL_WHY_PREEMPTED);
	assert_true(w.verdict.dominant_share > 0.749 && w.verdict.dominant_share < 0.751);
	assert_string_equal(w.verdict.line,
			    "not suitable: 5 xruns, dominant cause preempted (75 % of 12 events)");
	assert_true(w.verdict.n_advice >= 1);
	assert_non_null(strstr(w.verdict.advice[0], "priority"));
	/* own work over the period: not suitable even without an xrun */
	memset(&w, 0, sizeof(w));
	w.count[AL_WHY_OWN_WORK] = 7;
	al_why_verdict(&w, 64, 48000, 3, MS / 2, 0, true, true);
	assert_false(w.verdict.suitable);
	assert_non_null(strstr(w.verdict.line, "overran the period 7 times"));
	/* the advice follows what the system checks said */
	memset(&w, 0, sizeof(w));
	w.count[AL_WHY_PAGE_FAULT] = 2;
	al_why_verdict(&w, 64, 48000, 3, 10 * MS, 2, false, true);
	assert_non_null(strstr(w.verdict.advice[0], "memlock"));
	al_why_verdict(&w, 64, 48000, 3, 10 * MS, 2, true, true);
	assert_null(strstr(w.verdict.advice[0], "memlock"));
	/* xruns and no event classified */
	memset(&w, 0, sizeof(w));
	al_why_verdict(&w, 64, 48000, 3, 10 * MS, 1, true, true);
	assert_string_equal(w.verdict.line, "not suitable: 1 xruns, no cause classified");
}

/* --trace's spikes name what held the CPU: the spike overlapping most, its longest cause not the thread */
static void
test_name_from_trace(void **state)
{
	static struct al_why w;
	struct al_spike sp[3] = { 0 };

	(void)state;
	memset(&w, 0, sizeof(w));
	w.events[0] = late();                  /* 100 ms, 2 ms: window 98.67 .. 102 ms */
	w.events[0].cls = AL_WHY_PREEMPTED;
	snprintf(w.events[0].because, sizeof(w.events[0].because), "waited");
	w.events[1] = late();
	w.events[1].t_ns = 500 * MS;           /* no spike near it */
	w.events[2] = late();
	w.events[2].t_ns = 900 * MS;           /* a spike with only the thread's own time */
	w.n_events = 3;
	/* a small overlap with a timer, a large one with the hog */
	sp[0] = (struct al_spike){ .t_ns = 97 * MS, .latency_ns = 2 * MS, .n_causes = 1,
				   .causes = { { "timer", "tick_sched_timer", -1, 100000 } } };
	sp[1] = (struct al_spike){ .t_ns = 100 * MS, .latency_ns = 2 * MS, .n_causes = 2,
				   .causes = { { "self", "audiolat", 7, 2500000 },
					       { "task", "why-hog", 42, 2010000 } } };
	sp[2] = (struct al_spike){ .t_ns = 900 * MS, .latency_ns = 2 * MS, .n_causes = 1,
				   .causes = { { "self", "audiolat", 7, 2000000 } } };
	assert_int_equal(al_why_name_from_trace(&w, sp, 3, PERIOD_NS), 1);
	assert_string_equal(w.events[0].traced.kind, "task");
	assert_string_equal(w.events[0].traced.name, "why-hog");
	assert_int_equal(w.events[0].traced.pid, 42);
	assert_int_equal(w.events[0].traced.duration_ns, 2010000);
	assert_int_equal(w.events[0].cls, AL_WHY_PREEMPTED); /* the class stays the evidence's */
	assert_string_equal(w.events[0].because, "waited; traced: task why-hog:42 held the CPU 2.01 ms");
	assert_string_equal(w.events[1].traced.kind, "");
	assert_string_equal(w.events[2].traced.kind, "");
	/* no spikes, no why: nothing named */
	assert_int_equal(al_why_name_from_trace(&w, sp, 0, PERIOD_NS), 0);
	assert_int_equal(al_why_name_from_trace(NULL, sp, 3, PERIOD_NS), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_preempted_and_late_wake),
		cmocka_unit_test(test_throttled),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_own_work),
		cmocka_unit_test(test_irq),
		cmocka_unit_test(test_device),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_verdict_suitable),
		cmocka_unit_test(test_verdict_not_suitable),
		cmocka_unit_test(test_name_from_trace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
