/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * truth-midi-source PORT EVERY OUT: the MIDI truth of the truth matrix. A
 * JACK client that writes a note-on at every EVERY-th frame it runs
 * (frame-exact: 4800 at 48 kHz is 10 Hz, seed 002's rate) to PORT (while it is connected), until SIGINT/SIGTERM, then, two
 * cycles later (the reader has had them all), writes to OUT one line per
 * event: the time it went out on CLOCK_MONOTONIC (ns), i.e. the start of
 * the cycle it was written in (jack_frames_since_cycle_start() from a clock
 * read, to a frame) plus its offset in that cycle. A server that stalls
 * moves those times on with it: that is when the events really went out.
 * The stamps carry the server's wake-up jitter (up to 150 us seen on a VM):
 * between events the frames are the truth, the stamps across a stall.
 * With LIVE, also each event as it learns of it (every 10 ms), one line
 * each: its time and the start of its cycle (ns), for a fault placed
 * against the server's cycles.
 * On stderr at the end, "gap PREV_NS NEXT_NS" for every two calls of its
 * process callback more than 20 ms apart (a stalled server): when it ran
 * last before the gap and first after it, by a clock read on entry; and
 * "late PREV_NS NEXT_NS" for two calls more than a period and 1 ms apart
 * but not 20 ms (the server late by itself: a VM's jackd slips).
 */
#include <jack/midiport.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "truth-jack-client.h"

#define MAX_EVENTS 100000

static jack_client_t *client;
static jack_port_t *out;
static uint64_t pos, every;
static int64_t rate_hz;
static int64_t times_ns[MAX_EVENTS];
static int64_t cycle_ns[MAX_EVENTS];
static atomic_int n_times;     /* times_ns[] written (release: main reads them) */
static atomic_int ready;      /* client and rate_hz are set */
static atomic_int quit;       /* SIGTERM: no more events */
static atomic_int quiet_cycles; /* cycles run since */
#define MAX_GAPS 16
#define GAP_NS (20 * 1000000LL)
static int64_t gaps_ns[MAX_GAPS][2]; /* the process thread's alone until quit */
static int n_gaps;
#define MAX_LATE 4096
static int64_t late_ns[MAX_LATE][2]; /* the same, for the server's own slips */
static int n_late;
static int64_t last_entry_ns;

static int
process(jack_nframes_t n, void *arg)
{
	static const unsigned char note[3] = { 0x90, 60, 100 };
	void *buf = jack_port_get_buffer(out, n);
	jack_nframes_t since;
	int64_t start_ns;
	int k;

	int64_t entry_ns = truth_now_ns();

	(void)arg;
	if (last_entry_ns && entry_ns - last_entry_ns > GAP_NS && n_gaps < MAX_GAPS) {
		gaps_ns[n_gaps][0] = last_entry_ns;
		gaps_ns[n_gaps++][1] = entry_ns;
	} else if (last_entry_ns && atomic_load(&ready) &&
		   entry_ns - last_entry_ns > (int64_t)n * 1000000000 / rate_hz + 1000000 &&
		   n_late < MAX_LATE) {
		late_ns[n_late][0] = last_entry_ns;
		late_ns[n_late++][1] = entry_ns;
	}
	last_entry_ns = entry_ns;
	jack_midi_clear_buffer(buf);
	if (!atomic_load(&ready))
		return 0;
	if (atomic_load(&quit)) {
		atomic_fetch_add(&quiet_cycles, 1);
		return 0;
	}
	since = jack_frames_since_cycle_start(client);
	start_ns = truth_now_ns() - (int64_t)since * 1000000000 / rate_hz;
	for (jack_nframes_t i = 0; i < n; i++, pos++) {
		if (pos % every)
			continue;
		/* (an event into a port not yet connected would be lost, and counted) */
		k = atomic_load_explicit(&n_times, memory_order_relaxed);
		if (jack_port_connected(out) && jack_midi_event_write(buf, i, note, 3) == 0 &&
		    k < MAX_EVENTS) {
			times_ns[k] = start_ns + (int64_t)i * 1000000000 / rate_hz;
			cycle_ns[k] = start_ns;
			atomic_store_explicit(&n_times, k + 1, memory_order_release);
		}
	}
	return 0;
}

int
main(int argc, char **argv)
{
	FILE *f, *live = NULL;
	int shown = 0;

	if ((argc != 4 && argc != 5) || atoi(argv[2]) <= 0) {
		fprintf(stderr, "usage: truth-midi-source PORT EVERY OUT [LIVE]\n");
		return 2;
	}
	if (argc == 5 && !(live = fopen(argv[4], "w")))
		return 1;
	every = (uint64_t)atoi(argv[2]);
	client = truth_jack_open("truth-midi", JACK_DEFAULT_MIDI_TYPE, process, &out, &rate_hz);
	if (!client)
		return 1;
	atomic_store(&ready, 1);
	if (jack_connect(client, jack_port_name(out), argv[1])) {
		fprintf(stderr, "truth-midi-source: cannot play into %s\n", argv[1]);
		jack_client_close(client);
		return 1;
	}
	while (!truth_stop) {
		usleep(10000);
		for (; live && shown < atomic_load_explicit(&n_times, memory_order_acquire); shown++)
			fprintf(live, "%lld %lld\n", (long long)times_ns[shown],
				(long long)cycle_ns[shown]);
		if (live)
			fflush(live);
	}
	if (live)
		fclose(live);
	/* the reader runs in the cycle an event was written in: two more cycles and it has all */
	atomic_store(&quit, 1);
	while (atomic_load(&quiet_cycles) < 2)
		usleep(1000);
	jack_deactivate(client);
	jack_client_close(client);
	for (int i = 0; i < n_gaps; i++)
		fprintf(stderr, "gap %lld %lld\n", (long long)gaps_ns[i][0], (long long)gaps_ns[i][1]);
	for (int i = 0; i < n_late; i++)
		fprintf(stderr, "late %lld %lld\n", (long long)late_ns[i][0], (long long)late_ns[i][1]);
	f = fopen(argv[3], "w");
	if (!f)
		return 1;
	for (int i = 0; i < atomic_load(&n_times); i++)
		fprintf(f, "%lld\n", (long long)times_ns[i]);
	return fclose(f) ? 1 : 0;
}
