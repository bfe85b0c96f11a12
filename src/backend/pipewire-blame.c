/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PipeWire backend's graph blame: a client of the profiler module
 * (libpipewire-module-profiler, the interface pw-top and pw-profiler use).
 * The module keeps one point per driver cycle and sends them in batches
 * (when 16 KiB gathered, at least once a second): a Struct of Profiler
 * objects, each with an info struct (counter, the driver's DSP load, its
 * xrun counter), the driver's clock (flags, id, name, nsec, rate,
 * position, duration, delay, rate_diff, next_nsec), the driver's block
 * and one block per follower (id, name, prev_signal, signal, awake,
 * finish, status, latency). Times are the server's CLOCK_MONOTONIC: ours.
 * Each point goes to core/graph.h, which keeps the per-node WAIT/BUSY
 * distributions and names the nodes of every late cycle.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* (the extensions need pipewire.h first) */
#include <pipewire/pipewire.h>
#include <pipewire/extensions/profiler.h>
#include <pipewire/impl.h>
#include <spa/param/profiler.h>
#include <spa/pod/iter.h>
#include <spa/pod/parser.h>

#define AL_PIPEWIRE_PRIVATE
#include "core/clock.h"
#include "pipewire-private.h"

/* The driver's clock as the point gives it. */
static int
parse_clock(const struct spa_pod *pod, struct al_graph_point *p)
{
	struct spa_pod_parser prs;
	struct spa_pod_frame f;
	struct spa_fraction rate = { 0, 0 };
	int32_t flags = 0, id = 0;
	int64_t nsec = 0, position = 0, duration = 0, delay = 0, next_nsec = 0;
	double rate_diff = 1.0;
	const char *name = NULL;

	spa_pod_parser_pod(&prs, pod);
	if (spa_pod_parser_push_struct(&prs, &f) < 0 ||
	    spa_pod_parser_get(&prs, SPA_POD_Int(&flags), SPA_POD_Int(&id), SPA_POD_String(&name),
			       SPA_POD_Long(&nsec), SPA_POD_Fraction(&rate), SPA_POD_Long(&position),
			       SPA_POD_Long(&duration), SPA_POD_Long(&delay),
			       SPA_POD_Double(&rate_diff), SPA_POD_Long(&next_nsec), NULL) < 0)
		return -EINVAL;
	p->clock_nsec = nsec;
	p->position = position;
	p->duration_frames = duration;
	p->rate_hz = rate.denom;
	p->rate_diff = rate_diff;
	p->delay_frames = delay;
	return 0;
}

/* The counter and xrun count (the DSP loads are not used). */
static int
parse_info(const struct spa_pod *pod, struct al_graph_point *p)
{
	struct spa_pod_parser prs;
	struct spa_pod_frame f;
	int64_t counter = 0;
	float l0 = 0, l1 = 0, l2 = 0;
	int32_t xruns = 0;

	spa_pod_parser_pod(&prs, pod);
	if (spa_pod_parser_push_struct(&prs, &f) < 0 ||
	    spa_pod_parser_get(&prs, SPA_POD_Long(&counter), SPA_POD_Float(&l0), SPA_POD_Float(&l1),
			       SPA_POD_Float(&l2), NULL) < 0)
		return -EINVAL;
	/* the xrun count came later than the loads (0.3.x): optional */
	if (spa_pod_parser_get(&prs, SPA_POD_Int(&xruns), NULL) >= 0)
		p->xrun_count = (uint32_t)xruns;
	return 0;
}

static int
parse_block(const struct spa_pod *pod, struct al_graph_block *b)
{
	struct spa_pod_parser prs;
	struct spa_pod_frame f;
	int32_t id = 0, status = 0;
	int64_t prev_signal = 0, signal = 0, awake = 0, finish = 0;
	const char *name = NULL;

	spa_pod_parser_pod(&prs, pod);
	if (spa_pod_parser_push_struct(&prs, &f) < 0 ||
	    spa_pod_parser_get(&prs, SPA_POD_Int(&id), SPA_POD_String(&name),
			       SPA_POD_Long(&prev_signal), SPA_POD_Long(&signal), SPA_POD_Long(&awake),
			       SPA_POD_Long(&finish), SPA_POD_Int(&status), NULL) < 0)
		return -EINVAL;
	*b = (struct al_graph_block){
		.id = (uint32_t)id, .name = name, .prev_signal_ns = prev_signal,
		.signal_ns = signal, .awake_ns = awake, .finish_ns = finish, .status = status,
	};
	return 0;
}

/* One Profiler object: one point. 0, or -EINVAL when a part would not parse. */
static int
parse_point(const struct spa_pod_object *o, struct al_graph_point *p)
{
	struct spa_pod_prop *prop;
	bool clock = false, driver = false;
	int rc = 0;

	memset(p, 0, offsetof(struct al_graph_point, followers));
	p->n_followers = 0;
	SPA_POD_OBJECT_FOREACH(o, prop) {
		switch (prop->key) {
		case SPA_PROFILER_info:
			rc = parse_info(&prop->value, p);
			break;
		case SPA_PROFILER_clock:
			rc = parse_clock(&prop->value, p);
			clock = rc == 0;
			break;
		case SPA_PROFILER_driverBlock:
			rc = parse_block(&prop->value, &p->driver);
			driver = rc == 0;
			break;
		case SPA_PROFILER_followerBlock:
			if (p->n_followers < AL_GRAPH_POINT_FOLLOWERS &&
			    parse_block(&prop->value, &p->followers[p->n_followers]) == 0)
				p->n_followers++;
			break;
		default:
			break;
		}
		if (rc < 0)
			return rc;
	}
	return clock && driver ? 0 : -EINVAL;
}

/*
 * $AUDIOLAT_PW_PROFILE_DUMP: every point as one line, times relative to
 * the driver's signal (a diagnosis aid: docs/pipewire.md).
 */
static void
dump_point(FILE *f, const struct al_graph_point *p)
{
	const struct al_graph_block *d = &p->driver;
	int i;

	fprintf(f, "xruns=%u nsec=%lld pos=%lld dur=%lld rate=%lld driver=%u:%s prev=%lld signal=%lld "
		"awake=%+lld finish=%+lld status=%d", p->xrun_count, (long long)p->clock_nsec,
		(long long)p->position, (long long)p->duration_frames, (long long)p->rate_hz, d->id,
		d->name ? d->name : "", (long long)(d->prev_signal_ns - d->signal_ns),
		(long long)d->signal_ns, (long long)(d->awake_ns - d->signal_ns),
		(long long)(d->finish_ns - d->signal_ns), d->status);
	for (i = 0; i < p->n_followers; i++) {
		const struct al_graph_block *b = &p->followers[i];

		fprintf(f, " | %u:%s signal=%+lld awake=%+lld finish=%+lld status=%d", b->id,
			b->name ? b->name : "", (long long)(b->signal_ns - d->signal_ns),
			(long long)(b->awake_ns - d->signal_ns), (long long)(b->finish_ns - d->signal_ns),
			b->status);
	}
	fprintf(f, "\n");
}

static void
on_profile(void *data, const struct spa_pod *pod)
{
	struct pwb_blame *b = data;
	struct spa_pod *o;

	if (!spa_pod_is_struct(pod))
		return;
	b->batches++;
	SPA_POD_STRUCT_FOREACH(pod, o) {
		if (!spa_pod_is_object_type(o, SPA_TYPE_OBJECT_Profiler))
			continue;
		if (parse_point((const struct spa_pod_object *)o, b->point)) {
			b->bad_points++;
			continue;
		}
		if (b->dump)
			dump_point(b->dump, b->point);
		al_graph_add_point(b->graph, b->point);
		if (b->point->driver.signal_ns > b->last_point_ns)
			b->last_point_ns = b->point->driver.signal_ns;
	}
}

static const struct pw_profiler_events profiler_events = {
	PW_VERSION_PROFILER_EVENTS,
	.profile = on_profile,
};

void
pwb_blame_load(struct pwb_blame *b, struct pw_context *context)
{
	/* the marshalling of the Profiler interface lives in the module */
	b->loaded = pw_context_load_module(context, PW_EXTENSION_MODULE_PROFILER, NULL, NULL) != NULL;
	if (!b->loaded)
		snprintf(b->note, sizeof(b->note), "libpipewire-module-profiler could not be loaded "
			 "in audiolat's context: %s", strerror(errno));
}

int
pwb_blame_init(struct pwb_blame *b)
{
	b->graph = calloc(1, sizeof(*b->graph));
	b->point = calloc(1, sizeof(*b->point));
	if (!b->graph || !b->point) {
		pwb_blame_fini(b);
		return -ENOMEM;
	}
	al_graph_init(b->graph, 0, AL_NS_PER_MS);
	snprintf(b->graph->source, sizeof(b->graph->source), "pipewire-profiler");
	if (getenv("AUDIOLAT_PW_PROFILE_DUMP") && *getenv("AUDIOLAT_PW_PROFILE_DUMP"))
		b->dump = fopen(getenv("AUDIOLAT_PW_PROFILE_DUMP"), "we");
	return 0;
}

int
pwb_blame_bind(struct pwb_blame *b, struct pw_registry *registry, uint32_t id)
{
	if (b->bound || !b->graph)
		return 0;
	if (!b->loaded)
		return -ENOTSUP;
	b->proxy = pw_registry_bind(registry, id, PW_TYPE_INTERFACE_Profiler, PW_VERSION_PROFILER, 0);
	if (!b->proxy) {
		snprintf(b->note, sizeof(b->note), "the profiler (global %u) could not be bound: %s",
			 id, strerror(errno));
		return -errno;
	}
	pw_proxy_add_object_listener(b->proxy, &b->listener, &profiler_events, b);
	b->bound = true;
	return 0;
}

void
pwb_blame_window(struct pwb_blame *b, uint32_t self_id, int64_t t0_ns, int64_t t1_ns)
{
	if (!b->graph)
		return;
	if (self_id && b->graph->self_id != self_id) {
		/* the points before we knew ourselves: not ours to count */
		al_graph_init(b->graph, self_id, AL_NS_PER_MS);
		snprintf(b->graph->source, sizeof(b->graph->source), "pipewire-profiler");
	}
	al_graph_window(b->graph, t0_ns, t1_ns);
}

void
pwb_blame_fini(struct pwb_blame *b)
{
	if (b->proxy) {
		spa_hook_remove(&b->listener);
		pw_proxy_destroy(b->proxy);
	}
	b->proxy = NULL;
	b->bound = false;
	if (b->dump)
		fclose(b->dump);
	b->dump = NULL;
	free(b->graph);
	free(b->point);
	b->graph = NULL;
	b->point = NULL;
}
