/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procfs: what top does, in a tight loop: read /proc/PID/stat and
 * /proc/PID/status of every process. N workers (--workers, default 1).
 */
#define AL_LOAD_PRIVATE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "load-private.h"

static int
procfs_workers(const struct al_load_opts *o)
{
	return o->workers > 0 ? o->workers : 1;
}

/* 1 when the file was read, 0 when the process is gone. */
static int
read_one(int dir_fd, const char *name, char *buf, size_t size)
{
	int fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	do
		n = read(fd, buf, size);
	while (n < 0 && errno == EINTR);
	close(fd);
	return n >= 0;
}

static int
procfs_worker(struct al_load_ctx *c)
{
	static const char *const files[] = { "stat", "status" };
	struct dirent *de;
	char buf[4096];
	uint64_t reads;
	size_t i;
	DIR *proc;
	int fd;

	al__load_set_comm("procfs");
	al__load_work_started(c->shm);
	for (;;) {
		proc = opendir("/proc");
		if (!proc)
			return al_load_fail(c->shm, -errno, "opendir /proc: %s", strerror(errno));
		reads = 0;
		while ((de = readdir(proc))) {
			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			fd = openat(dirfd(proc), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0)
				continue;
			for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
				reads += (uint64_t)read_one(fd, files[i], buf, sizeof(buf));
			close(fd);
		}
		closedir(proc);
		al__load_add(c->shm, 0, reads);
		al__load_add(c->shm, 1, 1);
	}
	return 0;
}

static void
procfs_describe(const struct al_load_opts *o, const char *arg, char *buf, size_t size)
{
	(void)arg;
	snprintf(buf, size, "workers=%d", procfs_workers(o));
}

static int
procfs_metrics(const struct al_load_shm *shm, int64_t work_ns, struct al_metric *m, int max)
{
	if (max < 2)
		return 0;
	al__load_metric(&m[0], "reads_per_s", al__load_per_s(shm, 0, work_ns), "1/s");
	al__load_metric(&m[1], "scans_per_s", al__load_per_s(shm, 1, work_ns), "1/s");
	return 2;
}

const struct al_load_ops al_load_procfs = {
	.name = "procfs",
	.summary = "read /proc/PID/stat and status of every process in a loop, as top does",
	.option_names = "workers",
	.metric_names = "reads_per_s scans_per_s",
	.workers = procfs_workers,
	.worker = procfs_worker,
	.describe = procfs_describe,
	.metrics = procfs_metrics,
};
