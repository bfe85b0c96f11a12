/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * al_run_parse_args(): the input split on NUL and newline bytes is the
 * argument list after "run" (one trailing separator ends the last
 * argument). Checks: 0 or -EINVAL; on success the configuration is within
 * the documented ranges (rate 1000..768000, period 1..1048576, periods
 * 2..1024, cpu load 0..100, priority 0..99, affinity -1 or 0..4095, DMA
 * latency -1 or 0..2000000000 us, duration > 0, max latency >= 0, a known
 * backend, terminated strings) and err is empty; on failure err is one
 * non-empty line; a second parse of the same arguments (getopt state
 * reset) gives the same result, and a small err buffer is never overrun.
 */
#include <errno.h>
#include <inttypes.h>

#include "args/run-opts.h"
#include "backend/backend.h"
#include "fuzz.h"

#define MAX_ARGS 256
#define ERR_SIZE 512

static void
check_ok(const struct al_run_cli *p)
{
	const struct al_config *c = &p->cfg;

	FUZZ_CHECK(memchr(c->backend, '\0', sizeof(c->backend)), "%s", "backend unterminated");
	FUZZ_CHECK(al_backend_find(c->backend), "unknown backend '%s' accepted", c->backend);
	FUZZ_CHECK(memchr(c->device, '\0', sizeof(c->device)), "%s", "device unterminated");
	FUZZ_CHECK(c->rate_hz >= 1000 && c->rate_hz <= 768000, "rate %" PRId64, c->rate_hz);
	FUZZ_CHECK(c->period_frames >= 1 && c->period_frames <= 1048576, "period %" PRId64,
		   c->period_frames);
	FUZZ_CHECK(c->periods >= 2 && c->periods <= 1024, "periods %d", c->periods);
	FUZZ_CHECK(c->cpu_load_pct >= 0 && c->cpu_load_pct <= 1000, "cpu load %d",
		   c->cpu_load_pct);
	FUZZ_CHECK(c->priority >= 0 && c->priority <= 99, "priority %d", c->priority);
	FUZZ_CHECK(c->affinity_cpu == -1 || (c->affinity_cpu >= 0 && c->affinity_cpu <= 4095),
		   "affinity %d", c->affinity_cpu);
	FUZZ_CHECK(c->dma_latency_us == -1 ||
			   (c->dma_latency_us >= 0 && c->dma_latency_us <= 2000000000),
		   "dma latency %d", c->dma_latency_us);
	FUZZ_CHECK(c->duration_ns > 0, "duration %" PRId64, c->duration_ns);
	FUZZ_CHECK(c->max_latency_ns >= 0, "max latency %" PRId64, c->max_latency_ns);
}

static int
parse(char *const *args, int argc, struct al_run_cli *p, char *err, size_t err_size)
{
	char *argv[MAX_ARGS + 1];

	/* getopt_long permutes argv: give it a fresh copy each time */
	memcpy(argv, args, (size_t)argc * sizeof(*argv));
	argv[argc] = NULL;
	return al_run_parse_args(argc, argv, p, err, err_size);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size), *args[MAX_ARGS + 1];
	static struct al_run_cli p, p2;
	char err[ERR_SIZE], err2[ERR_SIZE], small[8];
	int argc, r, r2;

	argc = fuzz_split_args("run", s, size, args, MAX_ARGS);
	memset(err, 'X', sizeof(err));
	r = parse(args, argc, &p, err, sizeof(err));
	FUZZ_CHECK(r == 0 || r == -EINVAL, "returned %d", r);
	if (r) {
		fuzz_check_err(err, sizeof(err), 0);
	} else {
		FUZZ_CHECK(err[0] == '\0', "success with error text '%.*s'", ERR_SIZE - 1, err);
		check_ok(&p);
	}

	/* the same again: getopt's global state must not leak between calls */
	memset(err2, 'X', sizeof(err2));
	r2 = parse(args, argc, &p2, err2, sizeof(err2));
	FUZZ_CHECK(r2 == r, "second parse returned %d, first %d", r2, r);
	FUZZ_CHECK(!strcmp(err, err2), "second parse said '%s', first '%s'", err2, err);
	if (!r) {
		FUZZ_CHECK(!memcmp(&p.cfg, &p2.cfg, sizeof(p.cfg)), "%s",
			   "second parse gave another config");
		FUZZ_CHECK(p.quiet == p2.quiet && p.verbose == p2.verbose &&
				   p.no_histogram == p2.no_histogram && p.help == p2.help &&
				   !p.json_path == !p2.json_path &&
				   (!p.json_path || !strcmp(p.json_path, p2.json_path)),
			   "%s", "second parse gave other flags");
	}

	/* a small error buffer: truncated, never overrun */
	memset(small, 'X', sizeof(small));
	r2 = parse(args, argc, &p2, small, 5);
	FUZZ_CHECK(r2 == r, "parse with a small buffer returned %d, first %d", r2, r);
	FUZZ_CHECK(small[5] == 'X' && small[6] == 'X' && small[7] == 'X', "%s",
		   "error text overran its buffer");
	FUZZ_CHECK(memchr(small, '\0', 5), "%s", "small error text unterminated");

	free(s);
	return 0;
}
