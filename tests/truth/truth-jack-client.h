/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the truth matrix's JACK clients share: the clock, the stop flag set
 * by SIGTERM/SIGINT, and opening a client with one output port that runs a
 * process callback.
 */
#ifndef TRUTH_JACK_CLIENT_H
#define TRUTH_JACK_CLIENT_H

#include <jack/jack.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static volatile sig_atomic_t truth_stop;

static inline int64_t
truth_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
truth_on_signal(int sig)
{
	(void)sig;
	truth_stop = 1;
}

/*
 * A client NAME of $JACK_DEFAULT_SERVER with an output port "out" of TYPE,
 * PROCESS as its callback, active; SIGTERM/SIGINT set truth_stop; the
 * server's sample rate in *rate_hz (set before PROCESS first runs). NULL
 * (and a line on stderr) when the server or the port is not there.
 */
static inline jack_client_t *
truth_jack_open(const char *name, const char *type, JackProcessCallback process,
		jack_port_t **out, int64_t *rate_hz)
{
	jack_client_t *c;

	signal(SIGTERM, truth_on_signal);
	signal(SIGINT, truth_on_signal);
	c = jack_client_open(name, JackNoStartServer, NULL);
	if (!c) {
		fprintf(stderr, "%s: no JACK server\n", name);
		return NULL;
	}
	*rate_hz = jack_get_sample_rate(c);
	*out = jack_port_register(c, "out", type, JackPortIsOutput, 0);
	if (!*out || jack_set_process_callback(c, process, NULL) || jack_activate(c)) {
		fprintf(stderr, "%s: cannot register or activate\n", name);
		jack_client_close(c);
		return NULL;
	}
	return c;
}

#endif
