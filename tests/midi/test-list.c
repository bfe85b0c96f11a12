/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MIDI ports audiolat devices lists (list.c, compiled in), without a
 * server or a card: the few libjack and alsa-lib calls it makes are
 * answered here (a definition in the executable wins over the
 * library's): no card, no sequencer, a JACK server with a MIDI output
 * and a MIDI input. Each port is a row named as -p/--in/--out take it,
 * its direction said; the list says the MIDI ports were asked for.
 */
#include "../../src/midi/list.c"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* ---- alsa-lib: no card, no sequencer ---- */
int
snd_card_next(int *rank)
{
	*rank = -1;
	return 0;
}

int
snd_seq_open(snd_seq_t **handle, const char *name, int streams, int mode)
{
	(void)handle, (void)name, (void)streams, (void)mode;
	return -ENOENT;
}

/* ---- libjack: a server with two MIDI ports ---- */
static const char *ports[] = { "system:midi_capture_1", "synth:midi_in", NULL };
static const int flags[] = { JackPortIsOutput | JackPortIsPhysical, JackPortIsInput };
static int fake_client, fake_ports[2];

jack_client_t *
jack_client_open(const char *client_name, jack_options_t options, jack_status_t *status, ...)
{
	(void)client_name;
	assert_true(options & JackNoStartServer);
	*status = 0;
	return (jack_client_t *)&fake_client;
}

const char **
jack_get_ports(jack_client_t *client, const char *port_name_pattern, const char *type_name_pattern,
	       unsigned long f)
{
	(void)client, (void)port_name_pattern, (void)f;
	assert_string_equal(type_name_pattern, JACK_DEFAULT_MIDI_TYPE);
	return ports;
}

jack_port_t *
jack_port_by_name(jack_client_t *client, const char *port_name)
{
	(void)client;
	for (int i = 0; ports[i]; i++)
		if (!strcmp(ports[i], port_name))
			return (jack_port_t *)&fake_ports[i];
	return NULL;
}

int
jack_port_flags(const jack_port_t *port)
{
	return flags[(const int *)port - fake_ports];
}

void
jack_free(void *ptr)
{
	(void)ptr;
}

int
jack_client_close(jack_client_t *client)
{
	(void)client;
	return 0;
}

static void
jack_midi_ports(void **state)
{
	struct al_device_list l = { 0 };

	(void)state;
	unsetenv("JACK_DEFAULT_SERVER");
	assert_int_equal(al_midi_list_devices(&l), 2);
	assert_true(l.with_midi);
	assert_int_equal(l.n_midi, 2);
	assert_string_equal(l.midi[0].kind, "jack");
	assert_string_equal(l.midi[0].name, "system:midi_capture_1");
	assert_string_equal(l.midi[0].description, "JACK MIDI output on server default");
	assert_string_equal(l.midi[1].name, "synth:midi_in");
	assert_string_equal(l.midi[1].description, "JACK MIDI input on server default");
	al_device_list_free(&l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(jack_midi_ports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
