/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * truth-slow-client BUSY_US PORT...: a sustained lateness of known size for
 * the truth matrix. A JACK client (of $JACK_DEFAULT_SERVER) whose output
 * feeds each PORT: JACK runs it before their clients, every cycle, and it
 * spins BUSY_US microseconds in every cycle, so whatever reads PORT starts
 * BUSY_US later than it would. Runs until SIGTERM/SIGINT; prints, on one
 * line when it ends:
 *   cycles=N busy_mean_ns=N busy_max_ns=N
 * what it really spent. Exits 1 when it cannot reach the server or a port.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "truth-jack-client.h"

static jack_port_t *out;
static int64_t busy_ns;
static atomic_ullong cycles, busy_sum, busy_max;

static int
process(jack_nframes_t n, void *arg)
{
	int64_t t0 = truth_now_ns(), t;

	(void)arg;
	memset(jack_port_get_buffer(out, n), 0, n * sizeof(float));
	do
		t = truth_now_ns();
	while (t - t0 < busy_ns);
	atomic_fetch_add(&cycles, 1);
	atomic_fetch_add(&busy_sum, (unsigned long long)(t - t0));
	if ((unsigned long long)(t - t0) > atomic_load(&busy_max))
		atomic_store(&busy_max, (unsigned long long)(t - t0));
	return 0;
}

int
main(int argc, char **argv)
{
	jack_client_t *c;
	unsigned long long n;
	char *end;
	long us;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: truth-slow-client BUSY_US PORT...\n");
		return 2;
	}
	us = strtol(argv[1], &end, 10);
	if (*end || us < 0 || us > 1000000)
		return 2;
	busy_ns = (int64_t)us * 1000;
	c = truth_jack_open("truth-slow", JACK_DEFAULT_AUDIO_TYPE, process, &out);
	if (!c)
		return 1;
	for (i = 2; i < argc; i++)
		if (jack_connect(c, jack_port_name(out), argv[i])) {
			fprintf(stderr, "truth-slow-client: cannot connect to %s\n", argv[i]);
			jack_client_close(c);
			return 1;
		}
	while (!truth_stop)
		usleep(20000);
	jack_deactivate(c);
	jack_client_close(c);
	n = atomic_load(&cycles);
	printf("cycles=%llu busy_mean_ns=%llu busy_max_ns=%llu\n", n,
	       n ? atomic_load(&busy_sum) / n : 0, atomic_load(&busy_max));
	return 0;
}
