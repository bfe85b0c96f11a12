/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Roundtrip's PipeWire duplex stream (duplex-pipewire.c, compiled in for
 * its static functions) without a server: its process callback on the
 * driver's position as the graph hands it (the filter's buffers answered
 * here), and the ends of the loop cable in a made-up registry. Cycles
 * back to back are no xrun; the same driver's position past the previous
 * quantum is one; a move to another driver (linking does that) is not.
 * The cable goes out of -D's node's first input and back from its first
 * output, a sink's monitor; a port named by pw-link's NODE:PORT must be
 * of the right direction.
 */
#include "../../src/backend/duplex-pipewire.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define Q 256

static float buf_in[Q], buf_out[Q];
static int port_in, port_out;

void *
pw_filter_get_dsp_buffer(void *port_data, uint32_t n_samples)
{
	assert_int_equal(n_samples, Q);
	return port_data == &port_in ? buf_in : buf_out;
}

static void
silence(void *ctx, const float *in, float *out, uint32_t nframes)
{
	(void)ctx, (void)in;
	memset(out, 0, nframes * sizeof(float));
}

static void
cycle(struct dpw *d, struct spa_io_position *pos, uint32_t clock_id, uint64_t adv)
{
	pos->clock.id = clock_id;
	pos->clock.position += adv;
	on_process(d, pos);
}

static void
cycles_missed_on_the_same_driver(void **state)
{
	struct dpw *d = calloc(1, sizeof(*d));
	struct spa_io_position pos = { .clock = { .duration = Q, .position = 48000,
						  .rate = SPA_FRACTION(1, 48000) } };
	struct al_duplex_status st;

	(void)state;
	assert_non_null(d);
	d->in = &port_in;
	d->out = &port_out;
	d->fn = silence;
	d->period_frames = Q;
	atomic_store(&d->armed, 1);
	cycle(d, &pos, 30, 0);
	cycle(d, &pos, 30, Q);
	cycle(d, &pos, 30, Q);
	dp_status(d, &st);
	assert_int_equal(st.periods, 3);
	assert_int_equal(st.xruns, 0);
	/* three quanta later: the driver ran two cycles without us */
	cycle(d, &pos, 30, 3 * Q);
	dp_status(d, &st);
	assert_int_equal(st.xruns, 1);
	/* linked: another driver, its own position */
	cycle(d, &pos, 57, 1000 * Q);
	cycle(d, &pos, 57, Q);
	dp_status(d, &st);
	assert_int_equal(st.xruns, 1);
	assert_int_equal(st.periods, 6);
	assert_false(st.period_changed);
	free(d);
}

static void
the_cable_ends(void **state)
{
	static const struct pw_obj_node nodes[] = {
		{ .id = 31, .name = "null-sink", .media_class = "Audio/Sink" },
		{ .id = 60, .name = "mic", .media_class = "Audio/Source" },
	};
	static const struct pw_obj_port ports[] = {
		{ .id = 100, .node_id = 31, .output = false, .name = "playback_FL" },
		{ .id = 101, .node_id = 31, .output = true, .monitor = true, .name = "monitor_FL" },
		{ .id = 103, .node_id = 60, .output = true, .name = "capture_FL" },
	};
	struct al_duplex_config cfg = { .device = "null-sink" };
	struct dpw *d = calloc(1, sizeof(*d));
	char label[128], why[200];

	(void)state;
	assert_non_null(d);
	d->g.nodes = (struct pw_obj_node *)nodes;
	d->g.ports = (struct pw_obj_port *)ports;
	d->g.n_nodes = 2;
	d->g.n_ports = 3;
	/* -D null-sink: out of its input, back from its monitor */
	assert_int_equal(cable_end(d, &cfg, false, label, sizeof(label), why, sizeof(why)), 0);
	assert_int_equal(d->dst_port, 100);
	assert_string_equal(label, "null-sink:playback_FL");
	assert_int_equal(cable_end(d, &cfg, true, label, sizeof(label), why, sizeof(why)), 0);
	assert_int_equal(d->src_node, 31);
	assert_int_equal(d->src_port, 101);
	/* --in-port naming an input: the wrong direction, said so */
	cfg.in_port = "null-sink:playback_FL";
	assert_int_equal(cable_end(d, &cfg, true, label, sizeof(label), why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "PipeWire port 'null-sink:playback_FL' is not an output (a capture "
			    "or monitor port)");
	cfg.in_port = "mic:capture_FL";
	assert_int_equal(cable_end(d, &cfg, true, label, sizeof(label), why, sizeof(why)), 0);
	assert_int_equal(d->src_port, 103);
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cycles_missed_on_the_same_driver),
		cmocka_unit_test(the_cable_ends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
