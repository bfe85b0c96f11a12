/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * truth-slow-filter [-n NAME] [-e N] [-l PATTERN] (-u BUSY_US | -q FACTOR): a node of
 * known slowness in a PipeWire graph, for the truth matrix and the blame
 * tests. A pw_filter (its process in the data thread, PW_FILTER_FLAG_RT_PROCESS)
 * with one DSP output port, NAME:out, that spins in every Nth cycle (every
 * cycle without -e): BUSY_US microseconds, or FACTOR times the cycle's
 * quantum (-q 1.5: one and a half quanta). Whatever reads NAME:out (link it
 * with pw-link) is scheduled after it. Prints "ready node=ID" once it
 * runs, and on SIGTERM/SIGINT one line of what it really spent:
 *   cycles=N slow=N busy_mean_ns=N busy_max_ns=N slow_mean_ns=N slow_min_ns=N end_p50_ns=N
 * (busy_*: every cycle's time in process; slow_*: the cycles it spun in;
 * end_p50: when it let the graph go on in a cycle it spun in, from the
 * driver's clock.nsec, the cycle's start, at the median, or null).
 * With -l PATTERN it links NAME:out itself, at once, to the first input
 * port whose "NODE:PORT" name matches PATTERN (a POSIX extended regular
 * expression, as pw-link -i lists them) when that port appears in the
 * registry: started before the node it is to be ahead of, the lateness
 * is there from that node's first cycles (the truth matrix's lateness
 * from the start; pw-link, polled from a script, came 60 ms late), and
 * says "linked" when the link is made.
 * Exits 1 when PipeWire cannot be reached.
 */
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pipewire/filter.h>
#include <pipewire/pipewire.h>

#include "truth-ends.h"

struct slow {
	struct pw_main_loop *loop;
	struct pw_context *context;
	struct pw_core *core;
	struct pw_filter *filter;
	struct spa_hook filter_listener;
	void *out;
	long every;
	int64_t busy_ns;      /* -u */
	double factor;        /* -q */
	atomic_ullong cycles, slow, busy_sum, busy_max, slow_sum, slow_min;
	atomic_int ready;
	/* -l: linking ourselves to the first input port matching link_re */
	int linking;
	regex_t link_re;
	struct pw_registry *registry;
	struct spa_hook registry_listener;
	const char *name;                         /* our node's name (-n) */
	uint32_t out_node_id, out_port_id;        /* our out port's global ids, once seen */
	uint32_t in_node_id, in_port_id;          /* the port to feed, once seen */
	struct { uint32_t id; char name[128]; } nodes[64]; /* node ids and names seen */
	int n_nodes;
	struct pw_proxy *link;
};

static struct slow S;

static struct truth_ends ends; /* the spun cycles' ends, from the driver's clock.nsec */

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
on_process(void *data, struct spa_io_position *pos)
{
	struct slow *s = data;
	int64_t t0 = now_ns(), t = t0, want = 0;
	uint32_t n = pos ? (uint32_t)pos->clock.duration : 0;
	unsigned long long c = atomic_fetch_add(&s->cycles, 1) + 1, d;
	float *buf = n ? pw_filter_get_dsp_buffer(s->out, n) : NULL;

	if (buf)
		memset(buf, 0, n * sizeof(float));
	if (c % (unsigned long long)s->every == 0) {
		if (s->busy_ns)
			want = s->busy_ns;
		else if (pos && pos->clock.rate.denom)
			want = (int64_t)(s->factor * (double)n * 1e9 / (double)pos->clock.rate.denom);
		while (t - t0 < want)
			t = now_ns();
	}
	t = now_ns();
	d = (unsigned long long)(t - t0);
	atomic_fetch_add(&s->busy_sum, d);
	if (d > atomic_load(&s->busy_max))
		atomic_store(&s->busy_max, d);
	if (want && pos && pos->clock.nsec)
		truth_ends_add(&ends, t - (int64_t)pos->clock.nsec);
	if (want) {
		atomic_fetch_add(&s->slow, 1);
		atomic_fetch_add(&s->slow_sum, d);
		if (!atomic_load(&s->slow_min) || d < atomic_load(&s->slow_min))
			atomic_store(&s->slow_min, d);
	}
	atomic_store(&s->ready, 1);
}

static void
on_state(void *data, enum pw_filter_state old, enum pw_filter_state state, const char *error)
{
	struct slow *s = data;

	(void)old;
	if (state == PW_FILTER_STATE_ERROR || state == PW_FILTER_STATE_UNCONNECTED) {
		fprintf(stderr, "truth-slow-filter: %s\n", error ? error : "disconnected");
		pw_main_loop_quit(s->loop);
	}
}

static const struct pw_filter_events filter_events = {
	PW_VERSION_FILTER_EVENTS,
	.state_changed = on_state,
	.process = on_process,
};

static const char *
node_name(const struct slow *s, uint32_t id)
{
	int i;

	for (i = 0; i < s->n_nodes; i++)
		if (s->nodes[i].id == id)
			return s->nodes[i].name;
	return NULL;
}

/* both ends known and no link yet: the link, made by the server's link factory */
static void
link_when_ready(struct slow *s)
{
	char out_node[16], out_port[16], in_node[16], in_port[16];

	if (s->link || !s->out_port_id || !s->in_port_id)
		return;
	snprintf(out_node, sizeof(out_node), "%u", s->out_node_id);
	snprintf(out_port, sizeof(out_port), "%u", s->out_port_id);
	snprintf(in_node, sizeof(in_node), "%u", s->in_node_id);
	snprintf(in_port, sizeof(in_port), "%u", s->in_port_id);
	s->link = pw_core_create_object(s->core, "link-factory", PW_TYPE_INTERFACE_Link,
					PW_VERSION_LINK,
					&SPA_DICT_INIT_ARRAY(((struct spa_dict_item[]){
						{ PW_KEY_LINK_OUTPUT_NODE, out_node },
						{ PW_KEY_LINK_OUTPUT_PORT, out_port },
						{ PW_KEY_LINK_INPUT_NODE, in_node },
						{ PW_KEY_LINK_INPUT_PORT, in_port },
						{ PW_KEY_OBJECT_LINGER, "false" } })),
					0);
	if (s->link) {
		printf("linked %s:%s -> %s:%s\n", out_node, out_port, in_node, in_port);
		fflush(stdout);
	}
}

static void
on_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version,
	  const struct spa_dict *props)
{
	struct slow *s = data;
	const char *v, *dir, *port, *nname;
	uint32_t node;
	char full[300];

	(void)permissions;
	(void)version;
	if (!props)
		return;
	if (!strcmp(type, PW_TYPE_INTERFACE_Node)) {
		v = spa_dict_lookup(props, PW_KEY_NODE_NAME);
		if (v && s->n_nodes < (int)(sizeof(s->nodes) / sizeof(s->nodes[0]))) {
			s->nodes[s->n_nodes].id = id;
			snprintf(s->nodes[s->n_nodes].name, sizeof(s->nodes[0].name), "%s", v);
			s->n_nodes++;
		}
		return;
	}
	if (strcmp(type, PW_TYPE_INTERFACE_Port))
		return;
	v = spa_dict_lookup(props, PW_KEY_NODE_ID);
	dir = spa_dict_lookup(props, PW_KEY_PORT_DIRECTION);
	port = spa_dict_lookup(props, PW_KEY_PORT_NAME);
	if (!v || !dir || !port)
		return;
	node = (uint32_t)strtoul(v, NULL, 10);
	nname = node_name(s, node);
	if (!nname)
		return;
	if (!strcmp(nname, s->name) && !strcmp(dir, "out")) {
		s->out_node_id = node;
		s->out_port_id = id;
	} else if (!strcmp(dir, "in") && !s->in_port_id) {
		snprintf(full, sizeof(full), "%s:%s", nname, port);
		if (!regexec(&s->link_re, full, 0, NULL, 0)) {
			s->in_node_id = node;
			s->in_port_id = id;
		}
	}
	link_when_ready(s);
}

static const struct pw_registry_events registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = on_global,
};

static void
on_signal(void *data, int sig)
{
	(void)sig;
	pw_main_loop_quit(((struct slow *)data)->loop);
}

static void
on_tick(void *data, uint64_t expirations)
{
	struct slow *s = data;
	static int said;

	(void)expirations;
	if (!said && atomic_load(&s->ready)) {
		printf("ready node=%u\n", pw_filter_get_node_id(s->filter));
		fflush(stdout);
		said = 1;
	}
}

int
main(int argc, char **argv)
{
	const char *name = "truth-slow";
	struct timespec tick = { 0, 50 * 1000 * 1000 };
	struct spa_source *timer;
	unsigned long long n, k;
	char *end;
	int opt;

	S.every = 1;
	while ((opt = getopt(argc, argv, "n:e:u:q:l:")) != -1) {
		switch (opt) {
		case 'l':
			if (regcomp(&S.link_re, optarg, REG_EXTENDED | REG_NOSUB))
				return 2;
			S.linking = 1;
			break;
		case 'n':
			name = optarg;
			break;
		case 'e':
			S.every = strtol(optarg, &end, 10);
			if (*end || S.every < 1)
				return 2;
			break;
		case 'u':
			S.busy_ns = strtoll(optarg, &end, 10) * 1000;
			if (*end || S.busy_ns < 0)
				return 2;
			break;
		case 'q':
			S.factor = strtod(optarg, &end);
			if (*end || S.factor <= 0)
				return 2;
			break;
		default:
			fprintf(stderr, "usage: truth-slow-filter [-n NAME] [-e N] [-l PATTERN] (-u BUSY_US | -q FACTOR)\n");
			return 2;
		}
	}
	if (!S.busy_ns && S.factor <= 0) {
		fprintf(stderr, "truth-slow-filter: -u or -q\n");
		return 2;
	}
	S.name = name;
	pw_init(&argc, &argv);
	S.loop = pw_main_loop_new(NULL);
	if (!S.loop)
		return 1;
	pw_loop_add_signal(pw_main_loop_get_loop(S.loop), SIGINT, on_signal, &S);
	pw_loop_add_signal(pw_main_loop_get_loop(S.loop), SIGTERM, on_signal, &S);
	/* client-rt.conf: PipeWire's RT module makes the data thread SCHED_FIFO, as a real plugin host's */
	S.context = pw_context_new(pw_main_loop_get_loop(S.loop),
				   pw_properties_new(PW_KEY_CONFIG_NAME, "client-rt.conf", NULL), 0);
	S.core = S.context ? pw_context_connect(S.context, NULL, 0) : NULL;
	if (!S.core) {
		fprintf(stderr, "truth-slow-filter: cannot connect to PipeWire\n");
		return 1;
	}
	S.filter = pw_filter_new(S.core, name,
				 pw_properties_new(PW_KEY_MEDIA_TYPE, "Audio",
						   PW_KEY_MEDIA_CATEGORY, "Filter",
						   PW_KEY_MEDIA_ROLE, "DSP",
						   PW_KEY_NODE_NAME, name,
						   PW_KEY_NODE_AUTOCONNECT, "false",
						   PW_KEY_NODE_ALWAYS_PROCESS, "true", NULL));
	if (!S.filter)
		return 1;
	pw_filter_add_listener(S.filter, &S.filter_listener, &filter_events, &S);
	S.out = pw_filter_add_port(S.filter, PW_DIRECTION_OUTPUT, PW_FILTER_PORT_FLAG_MAP_BUFFERS, 0,
				   pw_properties_new(PW_KEY_FORMAT_DSP, "32 bit float mono audio",
						     PW_KEY_PORT_NAME, "out", NULL),
				   NULL, 0);
	if (!S.out || pw_filter_connect(S.filter, PW_FILTER_FLAG_RT_PROCESS, NULL, 0) < 0) {
		fprintf(stderr, "truth-slow-filter: cannot connect to PipeWire\n");
		return 1;
	}
	if (S.linking) {
		S.registry = pw_core_get_registry(S.core, PW_VERSION_REGISTRY, 0);
		if (!S.registry)
			return 1;
		pw_registry_add_listener(S.registry, &S.registry_listener, &registry_events, &S);
	}
	timer = pw_loop_add_timer(pw_main_loop_get_loop(S.loop), on_tick, &S);
	pw_loop_update_timer(pw_main_loop_get_loop(S.loop), timer, &tick, &tick, false);
	pw_main_loop_run(S.loop);
	if (S.link)
		pw_proxy_destroy(S.link);
	if (S.registry) {
		spa_hook_remove(&S.registry_listener);
		pw_proxy_destroy((struct pw_proxy *)S.registry);
	}
	if (S.linking)
		regfree(&S.link_re);
	spa_hook_remove(&S.filter_listener);
	pw_filter_destroy(S.filter);
	pw_core_disconnect(S.core);
	pw_context_destroy(S.context);
	pw_main_loop_destroy(S.loop);
	n = atomic_load(&S.cycles);
	k = atomic_load(&S.slow);
	printf("cycles=%llu slow=%llu busy_mean_ns=%llu busy_max_ns=%llu slow_mean_ns=%llu "
	       "slow_min_ns=%llu end_p50_ns=", n, k, n ? atomic_load(&S.busy_sum) / n : 0,
	       atomic_load(&S.busy_max), k ? atomic_load(&S.slow_sum) / k : 0,
	       atomic_load(&S.slow_min));
	truth_ends_print_p50(stdout, &ends);
	pw_deinit();
	return atomic_load(&S.ready) ? 0 : 1;
}
