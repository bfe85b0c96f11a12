/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jack-slow-client NAME EVERY FACTOR[+] [PORT]: a JACK client of known
 * slowness for the JACK blame test (tests/backend/jack-blame.sh). A client
 * NAME of $JACK_DEFAULT_SERVER with one output port, connected to PORT
 * (when given), whose process callback spins FACTOR periods (1.5: one and
 * a half) in every EVERYth cycle and does nothing else. Its spin reads the
 * clock in a loop: a gap over 10 us between two reads is time stolen from
 * it (an interrupt, a softirq, a task that preempted it, the host); with
 * FACTOR+ the spin makes that time up (FACTOR periods of its own). Prints
 * "ready pid=PID" once it runs, and on SIGTERM/SIGINT one line of what it
 * really spent:
 *   cycles=N slow=N slow_mean_ns=N slow_min_ns=N slow_max_ns=N slow_median_ns=N
 *   late=N late_stolen_median_ns=N
 * (slow_median_ns: the median of the first 4096 slow cycles; late: the
 * slow cycles that took longer than a period, late_stolen_median_ns: the
 * median of the time stolen from the first 4096 of them).
 * Exits 1 when it cannot reach the server or the port.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../truth/truth-jack-client.h"

static jack_port_t *out;
static long every;
static int64_t spin_ns, period_ns, rate_hz;
static int own;       /* FACTOR+: the time stolen is made up */
static atomic_ullong cycles, slow, slow_sum, slow_min = ~0ull, slow_max, late;
#define KEPT 4096
#define GAP_NS 10000
static unsigned long long kept[KEPT]; /* the slow cycles' durations, read after the client closed */
static unsigned long long stolen[KEPT]; /* the late cycles' time stolen */

static int
process(jack_nframes_t n, void *arg)
{
	unsigned long long c = atomic_fetch_add(&cycles, 1) + 1, d;
	int64_t t0 = truth_now_ns(), t = t0, prev = t0, gaps = 0;

	(void)arg;
	memset(jack_port_get_buffer(out, n), 0, n * sizeof(float));
	if (c % (unsigned long long)every)
		return 0;
	while (t - t0 - (own ? gaps : 0) < spin_ns) {
		t = truth_now_ns();
		if (t - prev > GAP_NS)
			gaps += t - prev;
		prev = t;
	}
	d = (unsigned long long)(t - t0);
	if ((int64_t)d > period_ns) {
		if (atomic_load(&late) < KEPT)
			stolen[atomic_load(&late)] = (unsigned long long)gaps;
		atomic_fetch_add(&late, 1);
	}
	if (atomic_load(&slow) < KEPT)
		kept[atomic_load(&slow)] = d;
	atomic_fetch_add(&slow, 1);
	atomic_fetch_add(&slow_sum, d);
	if (d < atomic_load(&slow_min))
		atomic_store(&slow_min, d);
	if (d > atomic_load(&slow_max))
		atomic_store(&slow_max, d);
	return 0;
}

static int
cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	jack_client_t *c;
	unsigned long long s, l;
	double factor;
	char *end;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: jack-slow-client NAME EVERY FACTOR[+] [PORT]\n");
		return 2;
	}
	every = strtol(argv[2], &end, 10);
	if (*end || every < 1)
		return 2;
	factor = strtod(argv[3], &end);
	own = *end == '+';
	if (end[own] || factor <= 0 || factor > 100)
		return 2;
	c = truth_jack_open(argv[1], JACK_DEFAULT_AUDIO_TYPE, process, &out, &rate_hz);
	if (!c)
		return 1;
	period_ns = (int64_t)((double)jack_get_buffer_size(c) * 1e9 / (double)jack_get_sample_rate(c));
	spin_ns = (int64_t)(factor * (double)period_ns);
	if (argc == 5 && jack_connect(c, jack_port_name(out), argv[4])) {
		fprintf(stderr, "jack-slow-client: cannot connect to %s\n", argv[4]);
		jack_client_close(c);
		return 1;
	}
	printf("ready pid=%d\n", (int)getpid());
	fflush(stdout);
	while (!truth_stop)
		usleep(20000);
	jack_deactivate(c);
	jack_client_close(c);
	s = atomic_load(&slow);
	l = atomic_load(&late);
	qsort(kept, s < KEPT ? s : KEPT, sizeof(kept[0]), cmp_ull);
	qsort(stolen, l < KEPT ? l : KEPT, sizeof(stolen[0]), cmp_ull);
	printf("cycles=%llu slow=%llu slow_mean_ns=%llu slow_min_ns=%llu slow_max_ns=%llu "
	       "slow_median_ns=%llu late=%llu late_stolen_median_ns=%llu\n", atomic_load(&cycles), s,
	       s ? atomic_load(&slow_sum) / s : 0, s ? atomic_load(&slow_min) : 0,
	       atomic_load(&slow_max), s ? kept[(s < KEPT ? s : KEPT) / 2] : 0, l,
	       l ? stolen[(l < KEPT ? l : KEPT) / 2] : 0);
	return 0;
}
