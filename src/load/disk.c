/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * disk-write, disk-copy, disk-read: one worker each, on anonymous files in
 * --load-dir (unlinked as soon as they are open, so nothing is left
 * behind whatever kills the load).
 *
 * disk-write rewrites its file over and over, fdatasync() after each pass.
 * disk-copy fills a source file once, then copies it chunk by chunk with
 *   read()/write() into a second file, fdatasync() after each pass.
 * disk-read fills its file once, then reads it sequentially.
 * The page cache is defeated without a file larger than memory: before
 * every read pass the file's (clean) cached pages are dropped with
 * posix_fadvise(POSIX_FADV_DONTNEED); --direct uses O_DIRECT instead.
 * Filling the files is preparation: bytes_per_s counts from the first
 * measured pass on.
 */
#define AL_LOAD_PRIVATE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "load-private.h"

#define CHUNK_BYTES (1024 * 1024)
#define ALIGN_BYTES 4096

enum { DISK_WRITE, DISK_COPY, DISK_READ };

/* Set up in the supervisor (one load per supervisor), inherited by the worker. */
static struct {
	int fd[2];
	int64_t size_bytes;
} disk;

static int64_t
file_bytes(const struct al_load_opts *o)
{
	int64_t b = al_load_file_size_bytes(o);

	b &= ~(int64_t)(ALIGN_BYTES - 1);
	return b < ALIGN_BYTES ? ALIGN_BYTES : b;
}

static int
disk_setup(struct al_load_ctx *c, int n_files)
{
	int i, r;

	disk.size_bytes = file_bytes(c->opts);
	for (i = 0; i < n_files; i++) {
		r = al__load_tmpfile(c->opts->dir, c->opts->direct, &disk.fd[i]);
		if (r == -EINVAL && c->opts->direct)
			return al_load_fail(c->shm, r, "--direct: %s does not support O_DIRECT",
					    c->opts->dir);
		if (r)
			return al_load_fail(c->shm, r, "cannot create a file in %s: %s",
					    c->opts->dir, strerror(-r));
	}
	return 0;
}

static int
setup_write(struct al_load_ctx *c)
{
	return disk_setup(c, 1);
}

static int
setup_copy(struct al_load_ctx *c)
{
	return disk_setup(c, 2);
}

static int
setup_read(struct al_load_ctx *c)
{
	return disk_setup(c, 1);
}

static void *
chunk_buffer(uint64_t seed)
{
	uint64_t *p, x = seed | 1;
	size_t i;

	if (posix_memalign((void **)&p, ALIGN_BYTES, CHUNK_BYTES))
		return NULL;
	/* incompressible data */
	for (i = 0; i < CHUNK_BYTES / sizeof(*p); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = x;
	}
	return p;
}

static size_t
chunk_at(int64_t off, int64_t size)
{
	return size - off < CHUNK_BYTES ? (size_t)(size - off) : CHUNK_BYTES;
}

/* All n bytes at off, written from buf or read into it: 0 or -errno (said in shm). */
static int
pio_all(struct al_load_ctx *c, int fd, void *buf, size_t n, int64_t off, bool writing)
{
	const char *what = writing ? "writing" : "reading";
	char *p = buf;
	ssize_t r;

	while (n) {
		r = writing ? pwrite(fd, p, n, off) : pread(fd, p, n, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return al_load_fail(c->shm, -errno, "%s a file in %s: %s", what, c->opts->dir,
					    strerror(errno));
		if (r == 0)
			return al_load_fail(c->shm, -EIO, "%s a file in %s: %s", what, c->opts->dir,
					    writing ? "no progress" : "unexpected end");
		p += r;
		n -= (size_t)r;
		off += r;
	}
	return 0;
}

static int
sync_fd(struct al_load_ctx *c, int fd)
{
	if (fdatasync(fd) && errno != EINVAL && errno != EROFS)
		return al_load_fail(c->shm, -errno, "fdatasync in %s: %s", c->opts->dir,
				    strerror(errno));
	return 0;
}

/* Write the whole file once; counts into counter 0 when count is set. */
static int
fill(struct al_load_ctx *c, int fd, void *buf, bool count)
{
	int64_t off;
	size_t n;
	int r;

	for (off = 0; off < disk.size_bytes; off += (int64_t)n) {
		n = chunk_at(off, disk.size_bytes);
		r = pio_all(c, fd, buf, n, off, true);
		if (r)
			return r;
		if (count)
			al__load_add(c->shm, 0, n);
	}
	return sync_fd(c, fd);
}

static void
drop_cache(int fd)
{
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

static int
disk_worker(struct al_load_ctx *c, int kind, const char *comm)
{
	void *buf = chunk_buffer(0x2545f4914f6cdd1dULL + (uint64_t)kind);
	int64_t off;
	size_t n;
	int r;

	al__load_set_comm(comm);
	if (!buf)
		return al_load_fail(c->shm, -ENOMEM, "out of memory");
	if (kind != DISK_WRITE) {
		r = fill(c, disk.fd[0], buf, false);
		if (r)
			return r;
	}
	al__load_work_started(c->shm);
	for (;;) {
		switch (kind) {
		case DISK_WRITE:
			r = fill(c, disk.fd[0], buf, true);
			if (r)
				return r;
			drop_cache(disk.fd[0]);
			break;
		case DISK_COPY:
			drop_cache(disk.fd[0]);
			for (off = 0; off < disk.size_bytes; off += (int64_t)n) {
				n = chunk_at(off, disk.size_bytes);
				r = pio_all(c, disk.fd[0], buf, n, off, false);
				if (!r)
					r = pio_all(c, disk.fd[1], buf, n, off, true);
				if (r)
					return r;
				al__load_add(c->shm, 0, n);
			}
			r = sync_fd(c, disk.fd[1]);
			if (r)
				return r;
			drop_cache(disk.fd[1]);
			break;
		default:
			drop_cache(disk.fd[0]);
			for (off = 0; off < disk.size_bytes; off += (int64_t)n) {
				n = chunk_at(off, disk.size_bytes);
				r = pio_all(c, disk.fd[0], buf, n, off, false);
				if (r)
					return r;
				al__load_add(c->shm, 0, n);
			}
			break;
		}
		al__load_add(c->shm, 1, 1);
	}
	return 0;
}

static int
worker_write(struct al_load_ctx *c)
{
	return disk_worker(c, DISK_WRITE, "disk-write");
}

static int
worker_copy(struct al_load_ctx *c)
{
	return disk_worker(c, DISK_COPY, "disk-copy");
}

static int
worker_read(struct al_load_ctx *c)
{
	return disk_worker(c, DISK_READ, "disk-read");
}

static void
disk_describe(const struct al_load_opts *o, const char *arg, char *buf, size_t size)
{
	(void)arg;
	snprintf(buf, size, "file_size_bytes=%lld dir=%s direct=%s", (long long)file_bytes(o),
		 o->dir, o->direct ? "yes" : "no");
}

static int
disk_metrics(const struct al_load_shm *shm, int64_t work_ns, struct al_metric *m, int max)
{
	if (max < 2)
		return 0;
	al__load_metric(&m[0], "bytes_per_s", al__load_per_s(shm, 0, work_ns), "B/s");
	al__load_metric(&m[1], "passes", (double)al__load_get(shm, 1), "");
	return 2;
}

const struct al_load_ops al_load_disk_write = {
	.name = "disk-write",
	.summary = "rewrite a file in --load-dir, fdatasync after each pass",
	.option_names = "load-dir file-size direct",
	.metric_names = "bytes_per_s passes",
	.setup = setup_write,
	.worker = worker_write,
	.describe = disk_describe,
	.metrics = disk_metrics,
};

const struct al_load_ops al_load_disk_copy = {
	.name = "disk-copy",
	.summary = "copy a file to another in --load-dir with read/write",
	.option_names = "load-dir file-size direct",
	.metric_names = "bytes_per_s passes",
	.setup = setup_copy,
	.worker = worker_copy,
	.describe = disk_describe,
	.metrics = disk_metrics,
};

const struct al_load_ops al_load_disk_read = {
	.name = "disk-read",
	.summary = "read a file in --load-dir sequentially, page cache dropped each pass",
	.option_names = "load-dir file-size direct",
	.metric_names = "bytes_per_s passes",
	.setup = setup_read,
	.worker = worker_read,
	.describe = disk_describe,
	.metrics = disk_metrics,
};
