/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mem: N workers (default one per load CPU), each with a working set
 * larger than the last-level cache (default 4 x LLC, at least 64 MiB, at
 * most 512 MiB; --mem-size), alternately rewritten line by line and
 * copied half onto half. bytes_per_s counts bytes read plus written.
 */
#define AL_LOAD_PRIVATE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "core/clock.h"
#include "load-private.h"

#define MiB (1024LL * 1024)
#define CHUNK_BYTES (1024 * 1024)
#define LINE_BYTES 64

/* Size of the highest-level cache of CPU 0 in bytes, or 0. */
static int64_t
llc_bytes(void)
{
	char path[128], buf[32];
	int64_t best = 0, size;
	int level, best_level = 0, i;
	long long v;
	char unit;
	FILE *f;

	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		f = fopen(path, "re");
		if (!f)
			break;
		level = 0;
		if (fscanf(f, "%d", &level) != 1)
			level = 0;
		fclose(f);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		f = fopen(path, "re");
		if (!f)
			continue;
		size = 0;
		unit = 0;
		if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%lld%c", &v, &unit) >= 1) {
			size = v;
			if (unit == 'K')
				size *= 1024;
			else if (unit == 'M')
				size *= MiB;
		}
		fclose(f);
		if (level > best_level || (level == best_level && size > best)) {
			best_level = level;
			best = size;
		}
	}
	return best;
}

int64_t
al__load_mem_bytes(const struct al_load_opts *o)
{
	int64_t b;

	if (o->mem_bytes > 0)
		return o->mem_bytes;
	b = 4 * llc_bytes();
	if (b < 64 * MiB)
		b = 64 * MiB;
	if (b > 512 * MiB)
		b = 512 * MiB;
	return b;
}

static int
mem_workers(const struct al_load_opts *o)
{
	return o->workers > 0 ? o->workers : al__load_ncpus(o);
}

static int
mem_worker(struct al_load_ctx *c)
{
	size_t size = (size_t)al__load_mem_bytes(c->opts), half, off, p, n;
	uint64_t v = (uint64_t)c->index;
	unsigned char *buf;

	al__load_set_comm("mem");
	size &= ~(size_t)(2 * LINE_BYTES - 1);
	buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return al_load_fail(c->shm, -errno, "mmap %zu bytes: %s", size, strerror(errno));
	half = size / 2;
	al__load_work_started(c->shm);
	for (;;) {
		/* rewrite every cache line */
		for (off = 0; off < size; off += n) {
			n = size - off < CHUNK_BYTES ? size - off : CHUNK_BYTES;
			for (p = off; p < off + n; p += LINE_BYTES)
				*(volatile uint64_t *)(buf + p) = v++;
			al__load_add(c->shm, 0, n);
		}
		/* copy the first half onto the second */
		for (off = 0; off < half; off += n) {
			n = half - off < CHUNK_BYTES ? half - off : CHUNK_BYTES;
			memcpy(buf + half + off, buf + off, n);
			al__load_add(c->shm, 0, 2 * n);
		}
	}
	return 0;
}

static void
mem_describe(const struct al_load_opts *o, const char *arg, char *buf, size_t size)
{
	(void)arg;
	snprintf(buf, size, "workers=%d size_bytes=%lld", mem_workers(o), (long long)al__load_mem_bytes(o));
}

static int
mem_metrics(const struct al_load_shm *shm, int64_t work_ns, struct al_metric *m, int max)
{
	if (max < 1)
		return 0;
	al__load_metric(&m[0], "bytes_per_s", al__load_per_s(shm, 0, work_ns), "B/s");
	return 1;
}

const struct al_load_ops al_load_mem = {
	.name = "mem",
	.summary = "workers rewriting and copying a working set larger than the last-level cache",
	.option_names = "workers mem-size",
	.metric_names = "bytes_per_s",
	.workers = mem_workers,
	.worker = mem_worker,
	.describe = mem_describe,
	.metrics = mem_metrics,
};
