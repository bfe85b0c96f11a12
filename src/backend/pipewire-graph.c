/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PipeWire's graph as the backend sees it (pipewire-private.h): the
 * connection (our own main loop, the context, the core), the registry's
 * nodes and ports, the default sink and source, the links we make, and
 * audiolat devices. Shared by the stream of audiolat run (pipewire.c) and
 * the duplex stream of audiolat roundtrip (duplex-pipewire.c).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* (the extensions need pipewire.h first) */
#include <pipewire/pipewire.h>
#include <pipewire/extensions/metadata.h>
#include <pipewire/extensions/profiler.h>

#define AL_PIPEWIRE_PRIVATE
#include "pipewire-private.h"
#include "pipewire-json.h"

/* --- the registry ------------------------------------------------------ */

static const char *
dict_get(const struct spa_dict *props, const char *key)
{
	const char *v = props ? spa_dict_lookup(props, key) : NULL;

	return v ? v : "";
}

static int
on_metadata(void *data, uint32_t subject, const char *key, const char *type, const char *value)
{
	struct pwg *g = data;

	(void)type;
	if (subject != PW_ID_CORE || !key)
		return 0;
	if (!strcmp(key, "default.audio.sink"))
		al__pw_json_name(value, g->default_sink, sizeof(g->default_sink));
	else if (!strcmp(key, "default.audio.source"))
		al__pw_json_name(value, g->default_source, sizeof(g->default_source));
	return 0;
}

static const struct pw_metadata_events metadata_events = {
	PW_VERSION_METADATA_EVENTS,
	.property = on_metadata,
};

static void
on_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version,
	  const struct spa_dict *props)
{
	struct pwg *g = data;

	(void)permissions;
	(void)version;
	if (!strcmp(type, PW_TYPE_INTERFACE_Node) && g->n_nodes < PWG_NODES_MAX) {
		struct pw_obj_node *n = &g->nodes[g->n_nodes++];

		memset(n, 0, sizeof(*n));
		n->id = id;
		n->serial = strtoull(dict_get(props, PW_KEY_OBJECT_SERIAL), NULL, 10);
		n->driver = !strcmp(dict_get(props, "node.driver"), "true");
		snprintf(n->name, sizeof(n->name), "%s", dict_get(props, PW_KEY_NODE_NAME));
		snprintf(n->desc, sizeof(n->desc), "%s", dict_get(props, PW_KEY_NODE_DESCRIPTION));
		snprintf(n->media_class, sizeof(n->media_class), "%s",
			 dict_get(props, PW_KEY_MEDIA_CLASS));
	} else if (!strcmp(type, PW_TYPE_INTERFACE_Port) && g->n_ports < PWG_PORTS_MAX) {
		struct pw_obj_port *p = &g->ports[g->n_ports++];

		memset(p, 0, sizeof(*p));
		p->id = id;
		p->node_id = (uint32_t)strtoul(dict_get(props, PW_KEY_NODE_ID), NULL, 10);
		p->output = !strcmp(dict_get(props, PW_KEY_PORT_DIRECTION), "out");
		p->monitor = !strcmp(dict_get(props, PW_KEY_PORT_MONITOR), "true");
		snprintf(p->name, sizeof(p->name), "%s", dict_get(props, PW_KEY_PORT_NAME));
	} else if (!strcmp(type, PW_TYPE_INTERFACE_Metadata) && !g->metadata &&
		   !strcmp(dict_get(props, "metadata.name"), "default")) {
		g->metadata = pw_registry_bind(g->registry, id, PW_TYPE_INTERFACE_Metadata,
					       PW_VERSION_METADATA, 0);
		if (g->metadata)
			pw_metadata_add_listener((struct pw_metadata *)g->metadata,
						 &g->metadata_listener, &metadata_events, g);
	} else if (!strcmp(type, PW_TYPE_INTERFACE_Profiler) && g->blame) {
		pwb_blame_bind(g->blame, g->registry, id);
	}
	pw_thread_loop_signal(g->loop, false);
}

static void
on_global_remove(void *data, uint32_t id)
{
	struct pwg *g = data;
	int i;

	for (i = 0; i < g->n_nodes; i++)
		if (g->nodes[i].id == id)
			g->nodes[i] = g->nodes[--g->n_nodes];
	for (i = 0; i < g->n_ports; i++)
		if (g->ports[i].id == id)
			g->ports[i] = g->ports[--g->n_ports];
}

static const struct pw_registry_events registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = on_global,
	.global_remove = on_global_remove,
};

static void
on_core_info(void *data, const struct pw_core_info *info)
{
	struct pwg *g = data;

	snprintf(g->server_name, sizeof(g->server_name), "%s", info->name ? info->name : "");
	snprintf(g->server_version, sizeof(g->server_version), "%s",
		 info->version ? info->version : "");
}

static void
on_core_done(void *data, uint32_t id, int seq)
{
	struct pwg *g = data;

	if (id == PW_ID_CORE && seq == g->sync_seq) {
		g->synced = true;
		pw_thread_loop_signal(g->loop, false);
	}
}

static void
on_core_error(void *data, uint32_t id, int seq, int res, const char *message)
{
	struct pwg *g = data;

	(void)seq;
	if (id == PW_ID_CORE && res == -EPIPE) {
		/* the connection is gone: the server died or dropped us */
		atomic_store(&g->dead, 1);
		if (g->on_dead)
			g->on_dead(g->owner);
		if (!g->error[0])
			snprintf(g->error, sizeof(g->error), "PipeWire: the server went away (%s)",
				 message ? message : "connection lost");
	}
	pw_thread_loop_signal(g->loop, false);
}

static const struct pw_core_events core_events = {
	PW_VERSION_CORE_EVENTS,
	.info = on_core_info,
	.done = on_core_done,
	.error = on_core_error,
};

/* Wait (the lock held) until *flag, the server's death or PWG_WAIT_S. */
bool
pwg_wait(struct pwg *g, const bool *flag, const atomic_int *count, int want)
{
	struct timespec until;

	pw_thread_loop_get_time(g->loop, &until, PWG_WAIT_S * SPA_NSEC_PER_SEC);
	for (;;) {
		struct timespec step;

		if ((flag && *flag) || (count && atomic_load(count) >= want))
			return true;
		if (atomic_load(&g->dead))
			return false;
		/* the data thread cannot signal the loop: look every 10 ms */
		pw_thread_loop_get_time(g->loop, &step, 10 * SPA_NSEC_PER_MSEC);
		if (step.tv_sec > until.tv_sec ||
		    (step.tv_sec == until.tv_sec && step.tv_nsec >= until.tv_nsec))
			return (flag && *flag) || (count && atomic_load(count) >= want);
		pw_thread_loop_timed_wait_full(g->loop, &step);
	}
}

/* A round trip to the server: every global it had is in the registry. */
bool
pwg_sync(struct pwg *g)
{
	g->synced = false;
	g->sync_seq = pw_core_sync(g->core, PW_ID_CORE, g->sync_seq);
	return pwg_wait(g, &g->synced, NULL, 0);
}

void
pwg_disconnect(struct pwg *g)
{
	int i;

	if (g->loop)
		pw_thread_loop_lock(g->loop);
	for (i = 0; i < g->n_links; i++)
		if (g->links[i]) {
			spa_hook_remove(&g->link_listeners[i]);
			pw_proxy_destroy(g->links[i]);
		}
	g->n_links = 0;
	if (g->metadata) {
		spa_hook_remove(&g->metadata_listener);
		pw_proxy_destroy(g->metadata);
	}
	g->metadata = NULL;
	if (g->registry) {
		spa_hook_remove(&g->registry_listener);
		pw_proxy_destroy((struct pw_proxy *)g->registry);
	}
	g->registry = NULL;
	if (g->core) {
		spa_hook_remove(&g->core_listener);
		pw_core_disconnect(g->core);
	}
	g->core = NULL;
	if (g->loop)
		pw_thread_loop_unlock(g->loop);
	if (g->loop)
		pw_thread_loop_stop(g->loop);
	if (g->context)
		pw_context_destroy(g->context);
	g->context = NULL;
	if (g->loop)
		pw_thread_loop_destroy(g->loop);
	g->loop = NULL;
	free(g->nodes);
	free(g->ports);
	g->nodes = NULL;
	g->ports = NULL;
	if (g->inited)
		pw_deinit();
	g->inited = false;
}

/*
 * Reach the server: our loop, a context, the core, the registry, a round
 * trip. Returns 0 with the loop locked, or -ECONNREFUSED (not running, or
 * no answer) / -errno with g->error set and everything undone.
 */
int
pwg_connect(struct pwg *g)
{
	const char *remote = getenv("PIPEWIRE_REMOTE");
	int err;

	pw_init(NULL, NULL);
	g->inited = true;
	g->nodes = calloc(PWG_NODES_MAX, sizeof(*g->nodes));
	g->ports = calloc(PWG_PORTS_MAX, sizeof(*g->ports));
	g->loop = pw_thread_loop_new("audiolat-pw", NULL);
	if (!g->nodes || !g->ports || !g->loop) {
		pwg_disconnect(g);
		return -ENOMEM;
	}
	/* client-rt.conf: PipeWire's RT module raises the data thread (-p then adjusts it) */
	g->context = pw_context_new(pw_thread_loop_get_loop(g->loop),
				    pw_properties_new(PW_KEY_CONFIG_NAME, "client-rt.conf", NULL), 0);
	if (!g->context) {
		err = -errno;
		snprintf(g->error, sizeof(g->error), "PipeWire: no context: %s", strerror(-err));
		pwg_disconnect(g);
		return err ? err : -EIO;
	}
	if (g->blame)
		pwb_blame_load(g->blame, g->context);
	if (pw_thread_loop_start(g->loop) < 0) {
		snprintf(g->error, sizeof(g->error), "PipeWire: the loop thread did not start");
		pwg_disconnect(g);
		return -EIO;
	}
	pw_thread_loop_lock(g->loop);
	g->core = pw_context_connect(g->context, NULL, 0);
	if (!g->core) {
		err = errno;
		pw_thread_loop_unlock(g->loop);
		snprintf(g->error, sizeof(g->error), "PipeWire server '%.64s': not running (%s)",
			 remote && *remote ? remote : "pipewire-0", strerror(err));
		pwg_disconnect(g);
		return -ECONNREFUSED;
	}
	pw_core_add_listener(g->core, &g->core_listener, &core_events, g);
	g->registry = pw_core_get_registry(g->core, PW_VERSION_REGISTRY, 0);
	if (!g->registry) {
		pw_thread_loop_unlock(g->loop);
		snprintf(g->error, sizeof(g->error), "PipeWire: no registry");
		pwg_disconnect(g);
		return -EIO;
	}
	pw_registry_add_listener(g->registry, &g->registry_listener, &registry_events, g);
	/* twice: the globals, then what binding the default metadata told */
	if (!pwg_sync(g) || !pwg_sync(g)) {
		pw_thread_loop_unlock(g->loop);
		snprintf(g->error, sizeof(g->error), "PipeWire server '%.64s': no answer in %d s",
			 remote && *remote ? remote : "pipewire-0", PWG_WAIT_S);
		pwg_disconnect(g);
		return -ECONNREFUSED;
	}
	return 0;
}

/* The node -D names (its name, description, serial or id), or the default. */
struct pw_obj_node *
pwg_target(struct pwg *g, const char *want, bool capture)
{
	const char *def = capture ? g->default_source : g->default_sink;
	char *end;
	unsigned long long num = want && *want ? strtoull(want, &end, 10) : 0;
	bool numeric = want && *want && !*end;
	int i;

	for (i = 0; want && *want && i < g->n_nodes; i++) {
		struct pw_obj_node *n = &g->nodes[i];

		if (!strcmp(n->name, want) || !strcmp(n->desc, want) ||
		    (numeric && (n->id == num || n->serial == num)))
			return n;
	}
	if (want && *want)
		return NULL;
	for (i = 0; *def && i < g->n_nodes; i++)
		if (!strcmp(g->nodes[i].name, def))
			return &g->nodes[i];
	for (i = 0; i < g->n_nodes; i++)
		if (!strcmp(g->nodes[i].media_class, capture ? "Audio/Source" : "Audio/Sink"))
			return &g->nodes[i];
	for (i = 0; capture && i < g->n_nodes; i++)
		if (!strcmp(g->nodes[i].media_class, "Audio/Sink"))
			return &g->nodes[i];
	return NULL;
}

/*
 * The k-th port of node for a link: its inputs (non-monitor) for our
 * playback; for our capture its outputs, a sink's monitor ones. In the
 * order the server listed them (FL, FR, ...).
 */
const struct pw_obj_port *
pwg_node_port(struct pwg *g, uint32_t node_id, bool output, int k)
{
	int i, seen = 0, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < g->n_ports; i++) {
			const struct pw_obj_port *p = &g->ports[i];

			if (p->node_id != node_id || p->output != output)
				continue;
			/* outputs: the real ones first, then the monitors */
			if (output && p->monitor != (pass == 1))
				continue;
			if (!output && (p->monitor || pass == 1))
				continue;
			if (seen++ == k)
				return p;
		}
	return NULL;
}

static void
on_link_bound(void *data, uint32_t global_id)
{
	struct pwg *g = data;

	(void)global_id;
	atomic_fetch_add(&g->links_bound, 1);
	pw_thread_loop_signal(g->loop, false);
}

static void
on_link_error(void *data, int seq, int res, const char *message)
{
	struct pwg *g = data;

	(void)seq;
	(void)res;
	(void)message;
	atomic_fetch_add(&g->links_failed, 1);
	pw_thread_loop_signal(g->loop, false);
}

/* A link of ours went away while it ran (pw-link -d, the peer gone). */
static void
on_link_removed(void *data)
{
	struct pwg *g = data;

	atomic_fetch_add(&g->links_removed, 1);
	pw_thread_loop_signal(g->loop, false);
}

static const struct pw_proxy_events link_events = {
	PW_VERSION_PROXY_EVENTS,
	.bound = on_link_bound,
	.removed = on_link_removed,
	.error = on_link_error,
};

void
pwg_link(struct pwg *g, uint32_t out_node, uint32_t out_port, uint32_t in_node, uint32_t in_port)
{
	char on[16], op[16], in[16], ip[16];
	struct spa_dict_item items[5];
	struct spa_dict dict;
	struct pw_proxy *p;

	if (g->n_links >= PWG_LINKS_MAX)
		return;
	snprintf(on, sizeof(on), "%u", out_node);
	snprintf(op, sizeof(op), "%u", out_port);
	snprintf(in, sizeof(in), "%u", in_node);
	snprintf(ip, sizeof(ip), "%u", in_port);
	items[0] = SPA_DICT_ITEM_INIT(PW_KEY_LINK_OUTPUT_NODE, on);
	items[1] = SPA_DICT_ITEM_INIT(PW_KEY_LINK_OUTPUT_PORT, op);
	items[2] = SPA_DICT_ITEM_INIT(PW_KEY_LINK_INPUT_NODE, in);
	items[3] = SPA_DICT_ITEM_INIT(PW_KEY_LINK_INPUT_PORT, ip);
	/* ours: gone with us */
	items[4] = SPA_DICT_ITEM_INIT(PW_KEY_OBJECT_LINGER, "false");
	dict = SPA_DICT_INIT(items, 5);
	p = pw_core_create_object(g->core, "link-factory", PW_TYPE_INTERFACE_Link, PW_VERSION_LINK,
				  &dict, 0);
	if (!p) {
		atomic_fetch_add(&g->links_failed, 1);
		return;
	}
	pw_proxy_add_listener(p, &g->link_listeners[g->n_links], &link_events, g);
	g->links[g->n_links++] = p;
}

/* --- audiolat devices ----------------------------------------------------- */

int
pwg_list(al_device_emit_fn emit, void *ud)
{
	struct pwg *g = calloc(1, sizeof(*g));
	char desc[160], detail[96];
	int rc, i;

	if (!g)
		return -ENOMEM;
	rc = pwg_connect(g);
	if (rc) {
		free(g);
		return rc == -ENOMEM ? rc : -ENODEV; /* nothing reachable */
	}
	snprintf(desc, sizeof(desc), "PipeWire %s (library %s)", g->server_version,
		 pw_get_library_version());
	emit(ud, &(struct al_device){ .kind = "pipewire-server", .name = g->server_name,
				      .description = desc, .detail = "running" });
	for (i = 0; i < g->n_nodes; i++) {
		const struct pw_obj_node *n = &g->nodes[i];
		bool audio = !strncmp(n->media_class, "Audio/", 6);

		if (!audio && !n->driver)
			continue;
		snprintf(detail, sizeof(detail), "%s%s%s%s", audio ? n->media_class : "driver",
			 audio && n->driver ? ",driver" : "",
			 !strcmp(n->name, g->default_sink) ? ",default-sink" : "",
			 !strcmp(n->name, g->default_source) ? ",default-source" : "");
		snprintf(desc, sizeof(desc), "%s (id %u)", n->desc[0] ? n->desc : n->name, n->id);
		emit(ud, &(struct al_device){ .kind = audio ? "pipewire-node" : "pipewire-driver",
					      .name = n->name, .description = desc,
					      .detail = detail });
	}
	pw_thread_loop_unlock(g->loop);
	pwg_disconnect(g);
	free(g);
	return 0;
}

/* The port "NODE:PORT" (pw-link's names) in that direction, or NULL. */
const struct pw_obj_port *
pwg_port_named(struct pwg *g, const char *name, bool output)
{
	int i, k;

	for (i = 0; i < g->n_ports; i++) {
		const struct pw_obj_port *p = &g->ports[i];

		if (p->output != output)
			continue;
		for (k = 0; k < g->n_nodes; k++) {
			const struct pw_obj_node *n = &g->nodes[k];
			size_t len = strlen(n->name);

			if (n->id == p->node_id && !strncmp(name, n->name, len) &&
			    name[len] == ':' && !strcmp(name + len + 1, p->name))
				return p;
		}
	}
	return NULL;
}

/* "NODE:PORT" of a port in the registry ("?:PORT" when its node is not known). */
void
pwg_port_label(struct pwg *g, const struct pw_obj_port *p, char *buf, size_t size)
{
	int k;

	for (k = 0; k < g->n_nodes; k++)
		if (g->nodes[k].id == p->node_id) {
			snprintf(buf, size, "%s:%s", g->nodes[k].name, p->name);
			return;
		}
	snprintf(buf, size, "?:%s", p->name);
}
