/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run document's "why" (why-doc.h, docs/json.md): written from struct al_why, read by the reports. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "doc.h"
#include "why-doc.h"

/* the evidence's figures, each -1 when not known, under their names in the document */
#define FIGURE(f_) { #f_, offsetof(struct al_why_evidence, f_) }
static const struct {
	const char *name;
	size_t offset;
} figures[] = {
	FIGURE(window_ns), FIGURE(wait_ns), FIGURE(cpu_ns), FIGURE(vcsw), FIGURE(ivcsw),
	FIGURE(minflt), FIGURE(majflt), FIGURE(steal_ns), FIGURE(irq_ns), FIGURE(irqs),
	FIGURE(irqs_expected), FIGURE(softirqs), FIGURE(softirqs_expected),
};

/* sched(7)'s policies by their number (4 is none); another number is written as null */
static const char *const policies[] = {
	"SCHED_OTHER", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH", NULL, "SCHED_IDLE",
	"SCHED_DEADLINE", "SCHED_EXT",
};

/* A fixed-size text field (it may lack its NUL): a string, null when empty and empty_null. */
static json_t *
field(const char *s, size_t size, bool empty_null)
{
	char buf[AL_WHY_TEXT];
	size_t n = strnlen(s, size);

	if (!n && empty_null)
		return json_null();
	snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) ? n : sizeof(buf) - 1), s);
	return al_json_text(buf);
}

static json_t *
evidence_json(const struct al_why_evidence *v)
{
	json_t *o = json_object();
	int64_t x;
	size_t i;

	for (i = 0; o && i < sizeof(figures) / sizeof(figures[0]); i++) {
		memcpy(&x, (const char *)v + figures[i].offset, sizeof(x));
		json_object_set_new(o, figures[i].name, al_json_int_or_null(x, -1));
	}
	json_object_set_new(o, "stopped", json_boolean(v->stopped));
	json_object_set_new(o, "cpu", al_json_int_or_null(v->cpu, -1));
	json_object_set_new(o, "policy",
			    al_json_text(v->policy >= 0 &&
						 (size_t)v->policy < sizeof(policies) / sizeof(policies[0])
					 ? policies[v->policy] : NULL));
	json_object_set_new(o, "priority", json_integer(v->priority));
	json_object_set_new(o, "busy_pct", al_json_int_or_null(v->busy_pct, -1));
	json_object_set_new(o, "rt_limit_pct", al_json_int_or_null(v->rt_limit_pct, -1));
	return o;
}

static json_t *
traced_json(const struct al_why_traced *t)
{
	if (!t->kind[0])
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:I}", "kind", field(t->kind, sizeof(t->kind), false),
			 "name", field(t->name, sizeof(t->name), false), "pid",
			 t->pid >= 0 ? json_integer(t->pid) : json_null(), "duration_ns",
			 (json_int_t)t->duration_ns);
}

static json_t *
event_json(const struct al_why_event *e)
{
	return json_pack("{s:I, s:I, s:I, s:o, s:o, s:I, s:s, s:o, s:o, s:o, s:o}", "t_ns",
			 (json_int_t)e->t_ns, "size_ns", (json_int_t)e->size_ns, "late_ns",
			 (json_int_t)e->late_ns, "work_ns", al_json_int_or_null(e->work_ns, -1),
			 "work_usual_ns", al_json_int_or_null(e->budget_ns, -1), "periods",
			 (json_int_t)e->periods, "kind", e->xrun ? "xrun" : "late", "class",
			 al_json_text(al_why_class_name(e->cls)), "because",
			 field(e->because, sizeof(e->because), false), "evidence",
			 evidence_json(&e->ev), "traced", traced_json(&e->traced));
}

static json_t *
verdict_json(const struct al_why_verdict *v)
{
	json_t *advice = json_array();
	bool sized = v->buffer_frames > 0; /* 0: no latest period to size a buffer by */

	for (int i = 0; advice && i < v->n_advice && i < 3; i++)
		json_array_append_new(advice, field(v->advice[i], sizeof(v->advice[i]), false));
	return json_pack("{s:b, s:o, s:o, s:I, s:o, s:I, s:o, s:o, s:o}", "suitable", v->suitable,
			 "line", field(v->line, sizeof(v->line), false), "buffer_frames",
			 sized ? json_integer(v->buffer_frames) : json_null(), "rate_hz",
			 (json_int_t)v->rate_hz, "margin_ns",
			 sized ? json_integer(v->margin_ns) : json_null(), "xruns",
			 (json_int_t)v->xruns, "dominant",
			 al_json_text(al_why_class_name((enum al_why_class)v->dominant)),
			 "dominant_share",
			 v->dominant >= 0 ? al_json_real_or_null(v->dominant_share) : json_null(),
			 "advice", advice);
}

json_t *
al_doc_why_json(const struct al_why *w)
{
	size_t kept, i;
	json_t *classes, *events;

	if (!w)
		return json_null();
	classes = json_object();
	for (i = 0; classes && i < AL_WHY_CLASSES; i++)
		if (w->count[i])
			json_object_set_new(classes, al_why_class_name((enum al_why_class)i),
					    json_integer((json_int_t)w->count[i]));
	kept = w->n_events < AL_WHY_EVENTS_MAX ? w->n_events : AL_WHY_EVENTS_MAX;
	events = json_array();
	for (i = 0; events && i < kept; i++)
		json_array_append_new(events, event_json(&w->events[i]));
	return json_pack("{s:I, s:I, s:I, s:I, s:{s:b, s:b, s:b}, s:o, s:o, s:o, s:I, s:o}",
			 "threshold_ns", (json_int_t)w->threshold_ns, "sample_ns",
			 (json_int_t)w->sample_ns, "events_total", (json_int_t)w->total,
			 "events_dropped", (json_int_t)w->dropped, "sources", "schedstat",
			 w->has_schedstat, "steal", w->has_steal, "interrupts", w->has_irqs, "note",
			 field(w->note, sizeof(w->note), true), "classes", classes, "events", events,
			 "events_kept", (json_int_t)kept, "verdict", verdict_json(&w->verdict));
}

/* the classes with a count above 0 into out, most first, at most max; how many */
static size_t
classes(const json_t *why, struct al_doc_why_count *out, size_t max)
{
	const char *name;
	const json_t *v;
	size_t n = 0, j;

	json_object_foreach((json_t *)json_object_get(why, "classes"), name, v) {
		if (!json_is_integer(v) || json_integer_value(v) <= 0)
			continue;
		/* insertion by count: the one sorted in goes after those of its count */
		for (j = n < max ? n : max; j > 0 && out[j - 1].n < json_integer_value(v); j--)
			if (j < max)
				out[j] = out[j - 1];
		if (j < max) {
			out[j] = (struct al_doc_why_count){ name, json_integer_value(v) };
			if (n < max)
				n++;
		}
	}
	return n;
}

/* printf to buf at *len, never past size */
static void
add(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

bool
al_doc_why_summary(const json_t *doc, al_doc_dur_fn dur, struct al_doc_why_summary *s)
{
	const json_t *why = json_object_get(doc, "why");
	int64_t total = al_doc_int(why, "events_total", 0), dropped;
	int64_t threshold = al_doc_int(why, "threshold_ns", 0);
	int64_t period = al_doc_int(doc, "config.period_ns", 0);
	size_t size = sizeof(s->head), len = 0, i;
	char *buf = s->head, t[32];

	if (!json_is_object(why))
		return false;
	s->why = why;
	s->n_classes = classes(why, s->classes, AL_WHY_CLASSES);
	buf[0] = '\0';
	dur(threshold, t, sizeof(t));
	if (total > 0)
		add(buf, size, &len, "%" PRId64 " event%s later than %s", total, total == 1 ? "" : "s",
		    t);
	else
		add(buf, size, &len, "no period later than %s", t);
	if (period > 0 && threshold == period)
		add(buf, size, &len, " (one period)");
	else if (period > 0 && threshold > 0 && threshold % period == 0)
		add(buf, size, &len, " (%" PRId64 " periods)", threshold / period);
	add(buf, size, &len, total > 0 ? " or xruns" : " and no xrun");
	for (i = 0; i < s->n_classes; i++)
		add(buf, size, &len, "%s %s %" PRId64, i ? "," : ":", s->classes[i].name,
		    s->classes[i].n);
	dropped = al_doc_int(why, "events_dropped", 0);
	if (dropped > 0)
		add(buf, size, &len, "%s %" PRId64 " not classified", s->n_classes ? "," : ":",
		    dropped);
	return true;
}
