/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What system a result came from: kernel, preempt model, CPU, clock. */
#ifndef AL_CORE_SYSINFO_H
#define AL_CORE_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>

struct al_sysinfo {
	char sysname[65];
	char nodename[65];
	char release[65];
	char version[129];
	char machine[65];
	char preempt[32];    /* "PREEMPT_RT", "full", "lazy", "voluntary", "none", "unknown" */
	char preempt_source[64]; /* where the model was read from */
	char cpu_model[128];
	int cpus;            /* online CPUs */
	char clocksource[32];
};

/*
 * Fill si from the running system; files are read below root ("/" for the
 * real system, a fixture tree in tests). Fields that cannot be read are
 * left empty ("unknown" for preempt). Returns 0.
 */
int al_sysinfo_read(const char *root, struct al_sysinfo *si);

/*
 * The preemption model, read in order of reliability:
 * 1. root/sys/kernel/realtime = 1 or "PREEMPT_RT" in uname_version -> PREEMPT_RT
 * 2. root/sys/kernel/debug/sched/preempt, the bracketed entry
 *    ("none voluntary (full) lazy") -> "full" etc. (PREEMPT_DYNAMIC)
 * 3. the kernel config (root/proc/config.gz is not read; root/boot/config-RELEASE)
 *    CONFIG_PREEMPT_RT / CONFIG_PREEMPT / CONFIG_PREEMPT_VOLUNTARY / CONFIG_PREEMPT_NONE
 * 4. uname_version: "PREEMPT_DYNAMIC" -> "dynamic" (model unknown without
 *    debugfs), "PREEMPT" -> "full", else "unknown".
 * Writes the model to model (size model_size) and where it came from to
 * source. release may be NULL (then step 3 is skipped). Returns 0.
 */
int al_sysinfo_preempt_model(const char *root, const char *release,
			     const char *uname_version, char *model, size_t model_size,
			     char *source, size_t source_size);

/*
 * Open root/path read-only, only when it is a regular file (procfs and
 * sysfs files are): a FIFO or a device in a fixture tree never blocks.
 * Returns the fd, or -errno (-EINVAL for anything but a regular file).
 */
int al_open_regular(const char *root, const char *path);

/*
 * Read a small text file below root into buf (NUL-terminated, trailing
 * newline stripped). Returns the length, or a negative errno.
 */
int al_read_file(const char *root, const char *path, char *buf, size_t size);

#endif
