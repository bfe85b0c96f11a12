/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt.h"

void
al_rt_init(struct al_rt *rt)
{
	rt->locked = false;
	rt->dma_fd = -1;
	rt->dma_latency_us = -1;
}

int
al_rt_lock_memory(struct al_rt *rt)
{
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		return -errno;
	rt->locked = true;
	return 0;
}

int
al_rt_dma_latency_set(struct al_rt *rt, int us)
{
	int32_t v = us;
	int fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (write(fd, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
		int e = errno ? -errno : -EIO;

		close(fd);
		return e;
	}
	rt->dma_fd = fd;
	rt->dma_latency_us = us;
	return 0;
}

void
al_rt_restore(struct al_rt *rt)
{
	if (rt->dma_fd >= 0) {
		close(rt->dma_fd); /* closing the fd withdraws the PM QoS request */
		rt->dma_fd = -1;
	}
	if (rt->locked) {
		munlockall();
		rt->locked = false;
	}
}

int
al_rt_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg, int prio, int cpu)
{
	struct sched_param sp = { .sched_priority = prio };
	pthread_attr_t attr;
	cpu_set_t set;
	int rc;

	rc = pthread_attr_init(&attr);
	if (rc)
		return -rc;
	pthread_attr_setstacksize(&attr, 1 << 20);
	if (prio > 0) {
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		pthread_attr_setschedparam(&attr, &sp);
	}
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	rc = pthread_create(thread, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return -rc;
}

void
al_rt_prefault_stack(size_t size)
{
	volatile unsigned char *p = __builtin_alloca(size);
	size_t i;

	for (i = 0; i < size; i += 4096)
		p[i] = 0;
}

void
al_rt_prefault(void *buf, size_t size)
{
	volatile unsigned char *p = buf;
	size_t i;

	for (i = 0; i < size; i += 4096)
		p[i] = p[i];
	if (size)
		p[size - 1] = p[size - 1];
}
