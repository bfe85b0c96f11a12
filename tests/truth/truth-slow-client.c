/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * truth-slow-client BUSY_US PORT...: a sustained lateness of known size for
 * the truth matrix. A JACK client (of $JACK_DEFAULT_SERVER) whose output
 * feeds each PORT: JACK runs it before their clients, every cycle, and it
 * spins BUSY_US microseconds in every cycle, so whatever reads PORT starts
 * BUSY_US later than it would. Runs until SIGTERM/SIGINT; prints, on one
 * line when it ends:
 *   cycles=N busy_mean_ns=N busy_max_ns=N end_p50_ns=N
 * what it really spent, and the median of when it let the graph go on,
 * from its cycle's start (jack_frames_since_cycle_start(), the start
 * audiolat's JACK backend reads too): its own wake-up and its spin, the
 * lateness whatever reads PORT cannot start before, measured apart from
 * audiolat. With $TRUTH_SLOW_OUT set, the same line is also written to
 * that file every 250 ms while it runs (a `cmd` load is killed, not asked
 * to end). Exits 1 when it cannot reach the server or a port.
 *
 * truth-slow-client BUSY_US -w PATTERN: started before the client it is to
 * be ahead of, waits (10 s at most) for an input port matching PATTERN
 * (jack_get_ports' regular expression) and connects to it as soon as its
 * owner is active (jackd refuses a connection to an inactive client: tried
 * again every 0.5 ms), so that the lateness is there from that client's
 * first cycles: the truth matrix's lateness from the start.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "truth-ends.h"
#include "truth-jack-client.h"

static jack_port_t *out;
static int64_t busy_ns, rate_hz;
static atomic_ullong cycles, busy_sum, busy_max;
static struct truth_ends ends; /* each cycle's end, from its start */

static jack_client_t *_Atomic c; /* set once truth_jack_open returns: it is active by then */

static int
process(jack_nframes_t n, void *arg)
{
	int64_t t0 = truth_now_ns(), t, start_ns;
	jack_client_t *self = atomic_load(&c);

	(void)arg;
	if (!self)
		return 0; /* the first cycles, before it feeds anything */
	start_ns = t0 - (int64_t)jack_frames_since_cycle_start(self) * 1000000000 / rate_hz;
	memset(jack_port_get_buffer(out, n), 0, n * sizeof(float));
	do
		t = truth_now_ns();
	while (t - t0 < busy_ns);
	atomic_fetch_add(&cycles, 1);
	truth_ends_add(&ends, t - start_ns);
	atomic_fetch_add(&busy_sum, (unsigned long long)(t - t0));
	if ((unsigned long long)(t - t0) > atomic_load(&busy_max))
		atomic_store(&busy_max, (unsigned long long)(t - t0));
	return 0;
}

/* the closing line, from what the process callback recorded so far */
static void
report(FILE *f)
{
	unsigned long long n = atomic_load(&cycles);

	fprintf(f, "cycles=%llu busy_mean_ns=%llu busy_max_ns=%llu end_p50_ns=", n,
		n ? atomic_load(&busy_sum) / n : 0, atomic_load(&busy_max));
	truth_ends_print_p50(f, &ends);
}

static void
report_to(const char *path)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	report(f);
	if (fclose(f) == 0)
		rename(tmp, path);
}

static void
silent(const char *msg)
{
	(void)msg;
}

static void
to_stderr(const char *msg)
{
	fprintf(stderr, "%s\n", msg);
}

/* -w PATTERN: the first input port matching it, connected once its owner is
 * active (jackd's refusals meanwhile are not printed) */
static int
connect_when_there(jack_client_t *self, const char *pattern)
{
	int64_t until_ns = truth_now_ns() + 10 * (int64_t)1000000000;
	const char **ports;
	int rc = -1;

	jack_set_error_function(silent);
	while (rc && !truth_stop && truth_now_ns() < until_ns) {
		ports = jack_get_ports(self, pattern, JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput);
		if (ports && ports[0])
			rc = jack_connect(self, jack_port_name(out), ports[0]);
		jack_free(ports);
		if (rc)
			usleep(500);
	}
	jack_set_error_function(to_stderr);
	if (rc)
		fprintf(stderr, "truth-slow-client: no active port matching '%s' to connect to in 10 s\n",
			pattern);
	return rc;
}

int
main(int argc, char **argv)
{
	const char *path = getenv("TRUTH_SLOW_OUT");
	int64_t next_ns = 0;
	char *end;
	long us;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: truth-slow-client BUSY_US PORT... | -w PATTERN\n");
		return 2;
	}
	us = strtol(argv[1], &end, 10);
	if (*end || us < 0 || us > 1000000)
		return 2;
	busy_ns = (int64_t)us * 1000;
	c = truth_jack_open("truth-slow", JACK_DEFAULT_AUDIO_TYPE, process, &out, &rate_hz);
	if (!c)
		return 1;
	if (argc == 4 && !strcmp(argv[2], "-w")) {
		if (connect_when_there(c, argv[3])) {
			jack_client_close(c);
			return 1;
		}
		argc = 2; /* connected: no PORT left */
	}
	for (i = 2; i < argc; i++)
		if (jack_connect(c, jack_port_name(out), argv[i])) {
			fprintf(stderr, "truth-slow-client: cannot connect to %s\n", argv[i]);
			jack_client_close(c);
			return 1;
		}
	while (!truth_stop) {
		usleep(20000);
		if (path && truth_now_ns() >= next_ns) {
			report_to(path);
			next_ns = truth_now_ns() + 250000000;
		}
	}
	jack_deactivate(c);
	jack_client_close(c);
	if (path)
		report_to(path);
	report(stdout);
	return 0;
}
