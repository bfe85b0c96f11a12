/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * softirq-storm SECONDS SOCKETS GAP_US: NET_RX softirqs of a known shape
 * for the JACK blame test (tests/backend/jack-blame.sh). Opens SOCKETS raw
 * UDP sockets, each with a socket filter that drops everything, and sends
 * a small UDP datagram over loopback every GAP_US to a socket of its own
 * (drained; when it was held up it goes on from then, without a burst to
 * catch up). The kernel receives each datagram in a NET_RX softirq, on the
 * CPU that lo's receive packet steering names (the test sets
 * /sys/class/net/lo/queues/rx-0/rps_cpus), and there hands a copy to every
 * raw socket, whose filter drops it: the softirq lasts about SOCKETS times
 * the cost of one copy (230 us for 1000 here). Runs SECONDS or until
 * SIGTERM/SIGINT, then prints "packets=N". Exits 1 when it cannot open
 * the sockets (raw sockets need root).
 */
#include <errno.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int
main(int argc, char **argv)
{
	struct sock_filter drop[] = { { BPF_RET | BPF_K, 0, 0, 0 } };
	struct sock_fprog prog = { 1, drop };
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	struct timespec next, end, now;
	struct rlimit rl;
	unsigned long long packets = 0;
	char buf[64];
	long secs, n, gap_us;
	int rx, tx, i;

	if (argc != 4 || (secs = atol(argv[1])) <= 0 || (n = atol(argv[2])) <= 0 ||
	    (gap_us = atol(argv[3])) <= 0) {
		fprintf(stderr, "usage: softirq-storm SECONDS SOCKETS GAP_US\n");
		return 2;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (i = 0; i < n; i++) {
		int r = socket(AF_INET, SOCK_RAW, IPPROTO_UDP);

		if (r < 0 || setsockopt(r, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog))) {
			fprintf(stderr, "softirq-storm: raw socket %d: %s\n", i, strerror(errno));
			return 1;
		}
	}
	rx = socket(AF_INET, SOCK_DGRAM, 0);
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(rx, (struct sockaddr *)&a, &alen)) {
		fprintf(stderr, "softirq-storm: UDP over loopback: %s\n", strerror(errno));
		return 1;
	}
	memset(buf, 0x5a, sizeof(buf));
	clock_gettime(CLOCK_MONOTONIC, &next);
	end = next;
	end.tv_sec += secs;
	while (!stop && (next.tv_sec < end.tv_sec ||
			 (next.tv_sec == end.tv_sec && next.tv_nsec < end.tv_nsec))) {
		if (sendto(tx, buf, sizeof(buf), MSG_DONTWAIT, (struct sockaddr *)&a, sizeof(a)) > 0)
			packets++;
		while (recv(rx, buf, sizeof(buf), MSG_DONTWAIT) > 0)
			;
		next.tv_nsec += gap_us * 1000;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		/* held up: from now on (no burst to catch up) */
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > next.tv_sec || (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec))
			next = now;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	printf("packets=%llu\n", packets);
	return 0;
}
