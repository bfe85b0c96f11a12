/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefs for this process. When the machine has not mounted it, root
 * mounts it on its usual place, opens its root and detaches the mount at
 * once (umount2 MNT_DETACH): nobody else sees it from then on, the open
 * directory keeps it alive, and libtracefs reaches it as
 * /proc/self/fd/N. When the process ends, however it ends, the last
 * reference goes and the kernel frees the mount: a SIGKILL leaves the
 * mount table as it was. (Mounted and unmounted around each use, as
 * before, a killed process left tracefs mounted for good.)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include <tracefs.h>

#include "core/text.h"
#include "tracefs-dir.h"

#define TRACEFS_MOUNT_POINT "/sys/kernel/tracing"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int own_fd = -1;

static int
mount_own(char *err, size_t err_size)
{
	char dir[32];
	int fd, rc;

	if (mount("nodev", TRACEFS_MOUNT_POINT, "tracefs", 0, NULL) < 0) {
		rc = errno;
		if (rc == EPERM || rc == EACCES)
			return al_text_err(err, err_size, -EPERM,
					   "tracing needs root: tracefs is not mounted and only root can mount it");
		return al_text_err(err, err_size, -ENOENT,
				   "no tracefs: mounting it on %s failed: %s (kernel without CONFIG_TRACING?)",
				   TRACEFS_MOUNT_POINT, strerror(rc));
	}
	fd = open(TRACEFS_MOUNT_POINT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	rc = fd < 0 ? errno : 0;
	/* detached whatever happened: the machine's mount table is left as it was */
	umount2(TRACEFS_MOUNT_POINT, MNT_DETACH);
	if (fd < 0)
		return al_text_err(err, err_size, -ENOENT, "no tracefs: %s: %s",
				   TRACEFS_MOUNT_POINT, strerror(rc));
	snprintf(dir, sizeof(dir), "/proc/self/fd/%d", fd);
	if (tracefs_set_tracing_dir(dir) < 0) {
		close(fd);
		return al_text_err(err, err_size, -ENOMEM, "out of memory");
	}
	own_fd = fd;
	return 0;
}

int
al_tracefs_ready(char *err, size_t err_size)
{
	const char *path = NULL;
	int rc = 0;

	pthread_mutex_lock(&lock);
	if (own_fd < 0) {
		/* false: only look (with true, libtracefs mounts it for good) */
		rc = tracefs_tracing_dir_is_mounted(false, &path);
		if (rc == 0)
			rc = geteuid() != 0
				     ? al_text_err(err, err_size, -EPERM,
						   "tracing needs root: tracefs is not mounted and only root can mount it")
				     : mount_own(err, err_size);
		else if (rc < 0 || !path)
			rc = al_text_err(err, err_size, -ENOENT,
					 "no tracefs (kernel without CONFIG_TRACING?)");
		else
			rc = 0;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}
