/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's hist file of audiolat's wake-to-run synthetic event
 * (src/trace/khist-parse.c, --trace): al_khist_parse() returns 0 or
 * -EPROTO, reads nothing past the input (given unterminated, in a buffer
 * of exactly its size), and on success its figures are in order: p50 <=
 * p99 <= max, all whole microseconds, none without a count.
 */
#include "fuzz.h"
#include "trace/trace.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct al_kernel_wake k;
	char *copy = malloc(size ? size : 1);
	int rc;

	if (!copy)
		abort();
	if (size)
		memcpy(copy, data, size);
	rc = al_khist_parse(copy, size, &k);
	free(copy);
	FUZZ_CHECK(rc == 0 || rc == -EPROTO, "rc %d", rc);
	if (rc) {
		FUZZ_CHECK(!k.measured && !k.count, "failed with measured %d", k.measured);
		return 0;
	}
	FUZZ_CHECK(k.measured, "%s", "not measured");
	FUZZ_CHECK(k.p50_ns >= 0 && k.p50_ns <= k.p99_ns && k.p99_ns <= k.max_ns,
		   "p50 %lld p99 %lld max %lld", (long long)k.p50_ns, (long long)k.p99_ns,
		   (long long)k.max_ns);
	FUZZ_CHECK(k.max_ns % 1000 == 0 && k.p50_ns % 1000 == 0, "max %lld", (long long)k.max_ns);
	FUZZ_CHECK(k.count || (!k.max_ns && !k.p50_ns), "count 0, max %lld", (long long)k.max_ns);
	return 0;
}
