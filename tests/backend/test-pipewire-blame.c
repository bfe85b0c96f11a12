/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PipeWire backend's graph blame without a server: the profiler's
 * points as libpipewire-module-profiler (0.3.65) builds them, SPA pods of
 * a Struct of Profiler objects, handed to the profile event of
 * pipewire-blame.c (compiled in for its static functions), and what
 * core/graph.h makes of them: the slow node named with its BUSY, ours
 * with its WAIT, the driver's xrun counter; the points before our node
 * was known are not counted, a point without its clock is a bad one. And
 * the registry's nodes (pipewire-graph.c, compiled in): the node -D names
 * by its name, serial or id, the default sink, a port by pw-link's
 * "NODE:PORT", the default from the metadata's JSON.
 */
#include "../../src/backend/pipewire-blame.c"
#include "../../src/backend/pipewire-graph.c"

#include <spa/pod/builder.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define Q_NS 5333333 /* 256 frames at 48 kHz */
#define S0 1000000000LL
#define N0 (S0 - 23341) /* the clock.nsec of the cycle begun at S0 */
#define S1 (S0 + 5330735)
#define S2 (S1 + 5336673)

struct blk {
	int32_t id;
	const char *name;
	int64_t prev, sig, awake, fin;
	int32_t st;
};

static struct pwb_blame b;
static uint8_t pod_buf[16384];
static struct spa_pod_builder bld;
static struct spa_pod_frame batch;

static int
setup(void **state)
{
	(void)state;
	memset(&b, 0, sizeof(b));
	assert_int_equal(pwb_blame_init(&b), 0);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	pwb_blame_fini(&b);
	return 0;
}

static void
batch_begin(void)
{
	bld = SPA_POD_BUILDER_INIT(pod_buf, sizeof(pod_buf));
	spa_pod_builder_push_struct(&bld, &batch);
}

static void
put_block(uint32_t key, const struct blk *k)
{
	spa_pod_builder_prop(&bld, key, 0);
	spa_pod_builder_add_struct(&bld, SPA_POD_Int(k->id), SPA_POD_String(k->name),
				   SPA_POD_Long(k->prev), SPA_POD_Long(k->sig), SPA_POD_Long(k->awake),
				   SPA_POD_Long(k->fin), SPA_POD_Int(k->st),
				   SPA_POD_Fraction(&SPA_FRACTION(0, 1)));
}

/* One Profiler object, as the module's do_profile() writes it. */
static void
put_point(int64_t counter, int32_t xruns, bool with_clock, int64_t nsec, struct blk d,
	  struct blk slow, struct blk self)
{
	struct spa_pod_frame o;

	spa_pod_builder_push_object(&bld, &o, SPA_TYPE_OBJECT_Profiler, 0);
	spa_pod_builder_prop(&bld, SPA_PROFILER_info, 0);
	spa_pod_builder_add_struct(&bld, SPA_POD_Long(counter), SPA_POD_Float(0.1f),
				   SPA_POD_Float(0.1f), SPA_POD_Float(0.1f), SPA_POD_Int(xruns));
	if (with_clock) {
		spa_pod_builder_prop(&bld, SPA_PROFILER_clock, 0);
		spa_pod_builder_add_struct(&bld, SPA_POD_Int(0), SPA_POD_Int(d.id),
					   SPA_POD_String(d.name), SPA_POD_Long(nsec),
					   SPA_POD_Fraction(&SPA_FRACTION(1, 48000)),
					   SPA_POD_Long(counter * 256), SPA_POD_Long(256),
					   SPA_POD_Long(0), SPA_POD_Double(1.0),
					   SPA_POD_Long(nsec + Q_NS));
	}
	put_block(SPA_PROFILER_driverBlock, &d);
	put_block(SPA_PROFILER_followerBlock, &slow);
	put_block(SPA_PROFILER_followerBlock, &self);
	spa_pod_builder_pop(&bld, &o);
}

static void
batch_send(void)
{
	on_profile(&b, spa_pod_builder_pop(&bld, &batch));
}

/* The four points of one slow cycle (tests/unit/test-graph.c: PipeWire 0.3.65 on the VM). */
static void
slow_cycle(void)
{
	batch_begin();
	put_point(10, 0, true, N0, (struct blk){ 30, "null-sink", S0 - 5333840, S0, S0 + 46169, S0 + 46850, 3 },
		  (struct blk){ 41, "slow", 0, S0 + 80, S0 + 26966, S0 + 27186, 3 },
		  (struct blk){ 42, "audiolat", 0, S0 + 7471, S0 + 34842, S0 + 35212, 3 });
	put_point(11, 0, true, N0 + 2 * Q_NS, (struct blk){ 30, "null-sink", S0, S0, S0 + 46169, S1, 3 },
		  (struct blk){ 41, "slow", 0, S1 + 50, S1 + 27607, S0 + 27186, 2 },
		  (struct blk){ 42, "audiolat", 0, S1 + 7260, S1 + 34741, S1 + 35092, 3 });
	put_point(11, 1, true, N0 + 2 * Q_NS, (struct blk){ 30, "null-sink", S0, S1, S1 + 5335121, S1 + 5336173, 3 },
		  (struct blk){ 41, "slow", 0, S1 + 50, S1 + 27607, S0 + 27186, 2 },
		  (struct blk){ 42, "audiolat", 0, S1 + 7260, S1 + 34741, S1 + 35092, 3 });
	batch_send();
	/* the module sends a batch at least once a second: the last point in another */
	batch_begin();
	put_point(12, 1, true, N0 + 2 * Q_NS, (struct blk){ 30, "null-sink", S1, S2, S2 + 2715943, S2 + 2719518, 3 },
		  (struct blk){ 41, "slow", 0, S2 + 50, S2 + 2702869, S2 + 2703150, 3 },
		  (struct blk){ 42, "audiolat", 0, S2 + 751, S2 + 6640, S2 + 7061, 3 });
	batch_send();
}

/* The slow node is blamed with its BUSY from its awake in C1 to its next run's awake. */
static void
slow_node_named_with_its_busy(void **state)
{
	const struct al_graph_node *slow, *self;
	const struct al_late_cycle *lc;
	struct al_graph *g = b.graph;

	(void)state;
	pwb_blame_window(&b, 42, S0 - Q_NS, 0);
	slow_cycle();
	assert_int_equal(b.batches, 2);
	assert_int_equal(b.bad_points, 0);
	/* the latest cycle start seen: what audiolat's stop waits for */
	assert_int_equal(b.last_point_ns, S2);
	al_graph_finish(g, 0);
	assert_true(g->active);
	assert_int_equal(g->driver_id, 30);
	assert_string_equal(g->driver_name, "null-sink");
	assert_int_equal(g->n_late, 1);
	lc = &g->late[0];
	assert_int_equal(lc->start_ns, S1);
	assert_int_equal(lc->quantum_ns, Q_NS);
	assert_true(lc->kind & AL_LATE_OVERRUN);
	/*
	 * the slow node by its name, its run from its awake in C1 to its C2
	 * run's awake (the finish seen in C2 is that run's)
	 */
	assert_int_equal(lc->n_causes, 1);
	assert_string_equal(lc->causes[0].name, "slow");
	assert_int_equal(lc->causes[0].busy_ns, (S2 + 2702869) - (S1 + 27607));
	assert_int_equal(lc->late_ns, (S2 + 2702869) - (N0 + 2 * Q_NS));
	/* the driver counted one xrun with it */
	assert_int_equal(g->driver_xruns, 1);
	slow = al_graph_node_of(g, 41);
	self = al_graph_node_of(g, 42);
	assert_true(slow && self && self->self);
	assert_int_equal(slow->blamed + self->blamed, 1);
	/* our node's WAIT (signal to awake) and BUSY (awake to finish), exact at the extremes */
	assert_int_equal(self->runs, 3);
	assert_int_equal(self->wait_ns.max_ns, 34741 - 7260);
	assert_int_equal(self->wait_ns.min_ns, 6640 - 751);
	assert_int_equal(self->busy_ns.max_ns, 7061 - 6640);
	assert_int_equal(self->busy_ns.min_ns, 35092 - 34741);
}

/* Points that came before we knew our node's id are not ours to count. */
static void
points_before_our_id_are_dropped(void **state)
{
	struct al_graph *g;

	(void)state;
	slow_cycle();
	assert_true(b.graph->points > 0);
	pwb_blame_window(&b, 42, S0 - Q_NS, 0);
	g = b.graph;
	assert_int_equal(g->self_id, 42);
	assert_int_equal(g->points, 0);
	assert_int_equal(g->n_nodes, 0);
}

/* A point without its clock would not parse: counted, not fed to the analysis. */
static void
a_point_without_its_clock_is_bad(void **state)
{
	(void)state;
	pwb_blame_window(&b, 42, S0 - Q_NS, 0);
	batch_begin();
	put_point(10, 0, false, N0, (struct blk){ 30, "null-sink", S0 - Q_NS, S0, S0 + 46169, S0 + 46850, 3 },
		  (struct blk){ 41, "slow", 0, S0 + 80, S0 + 26966, S0 + 27186, 3 },
		  (struct blk){ 42, "audiolat", 0, S0 + 7471, S0 + 34842, S0 + 35212, 3 });
	batch_send();
	assert_int_equal(b.batches, 1);
	assert_int_equal(b.bad_points, 1);
	assert_int_equal(b.graph->points, 0);
	assert_int_equal(b.last_point_ns, 0);
}

/* ---- the registry's nodes and ports ---- */

static struct pwg reg;

static int
reg_setup(void **state)
{
	static const struct pw_obj_node nodes[] = {
		{ .id = 30, .serial = 3030, .driver = true, .name = "alsa_output.pci", .desc = "Built-in Audio",
		  .media_class = "Audio/Sink" },
		{ .id = 31, .serial = 31, .name = "null-sink", .desc = "Null Output", .media_class = "Audio/Sink" },
		{ .id = 57, .serial = 30, .name = "null-sink-2", .desc = "Second Null", .media_class = "Audio/Sink" },
		{ .id = 60, .serial = 6060, .name = "mic", .desc = "Microphone", .media_class = "Audio/Source" },
	};
	static const struct pw_obj_port ports[] = {
		{ .id = 100, .node_id = 31, .output = false, .name = "playback_FL" },
		{ .id = 101, .node_id = 31, .output = true, .monitor = true, .name = "monitor_FL" },
		{ .id = 102, .node_id = 57, .output = true, .monitor = true, .name = "monitor_FL" },
		{ .id = 103, .node_id = 60, .output = true, .name = "capture_FL" },
		{ .id = 104, .node_id = 31, .output = false, .name = "playback_FR" },
	};

	(void)state;
	memset(&reg, 0, sizeof(reg));
	reg.nodes = calloc(PWG_NODES_MAX, sizeof(*reg.nodes));
	reg.ports = calloc(PWG_PORTS_MAX, sizeof(*reg.ports));
	assert_non_null(reg.nodes);
	assert_non_null(reg.ports);
	memcpy(reg.nodes, nodes, sizeof(nodes));
	memcpy(reg.ports, ports, sizeof(ports));
	reg.n_nodes = 4;
	reg.n_ports = 5;
	return 0;
}

static int
reg_teardown(void **state)
{
	(void)state;
	free(reg.nodes);
	free(reg.ports);
	return 0;
}

static void
node_by_name_serial_or_id(void **state)
{
	(void)state;
	assert_int_equal(pwg_target(&reg, "null-sink", false)->id, 31);
	assert_int_equal(pwg_target(&reg, "Second Null", false)->id, 57);
	/* a number is an id or a serial: 57 the id, 6060 the serial */
	assert_int_equal(pwg_target(&reg, "57", false)->id, 57);
	assert_int_equal(pwg_target(&reg, "6060", true)->id, 60);
	/* a name -D gives that is not there: none, not the default */
	assert_null(pwg_target(&reg, "null", false));
	assert_null(pwg_target(&reg, "31x", false));
}

/* The metadata's default ("{ "name": "null-sink" }"), else the first sink (source). */
static void
the_default_from_the_metadata(void **state)
{
	(void)state;
	assert_int_equal(pwg_target(&reg, NULL, false)->id, 30);
	on_metadata(&reg, PW_ID_CORE, "default.audio.sink", "Spa:String:JSON",
		    "{ \"name\": \"null-sink\" }");
	assert_string_equal(reg.default_sink, "null-sink");
	assert_int_equal(pwg_target(&reg, "", false)->id, 31);
	on_metadata(&reg, PW_ID_CORE, "default.audio.source", "Spa:String:JSON",
		    "{ \"name\": \"mic\" }");
	assert_int_equal(pwg_target(&reg, NULL, true)->id, 60);
	/* another subject's: not the server's default */
	on_metadata(&reg, 77, "default.audio.sink", "Spa:String:JSON", "{ \"name\": \"mic\" }");
	assert_string_equal(reg.default_sink, "null-sink");
}

static void
ports_by_pw_link_name(void **state)
{
	char label[64];

	(void)state;
	assert_int_equal(pwg_port_named(&reg, "null-sink:monitor_FL", true)->id, 101);
	assert_int_equal(pwg_port_named(&reg, "null-sink-2:monitor_FL", true)->id, 102);
	assert_null(pwg_port_named(&reg, "null-sink:monitor_FL", false));
	assert_null(pwg_port_named(&reg, "null:monitor_FL", true));
	/* a playback link: the node's inputs, in the server's order; capture: its monitors */
	assert_int_equal(pwg_node_port(&reg, 31, false, 0)->id, 100);
	assert_int_equal(pwg_node_port(&reg, 31, false, 1)->id, 104);
	assert_null(pwg_node_port(&reg, 31, false, 2));
	assert_int_equal(pwg_node_port(&reg, 31, true, 0)->id, 101);
	pwg_port_label(&reg, &reg.ports[2], label, sizeof(label));
	assert_string_equal(label, "null-sink-2:monitor_FL");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(slow_node_named_with_its_busy, setup, teardown),
		cmocka_unit_test_setup_teardown(points_before_our_id_are_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(a_point_without_its_clock_is_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(node_by_name_serial_or_id, reg_setup, reg_teardown),
		cmocka_unit_test_setup_teardown(the_default_from_the_metadata, reg_setup, reg_teardown),
		cmocka_unit_test_setup_teardown(ports_by_pw_link_name, reg_setup, reg_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
