/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat check: is this system set up for low-latency audio?
 *
 * Every check reads its files below a root directory ("/" for the running
 * system, a fixture tree in tests) and gives one struct al_syscheck:
 * status "ok", "warn", "fail" or "skip", a one-line message and the exact
 * command or setting that fixes it ("" when ok). Nothing is printed,
 * nothing on the system is changed.
 */
#ifndef AL_CHECK_CHECK_H
#define AL_CHECK_CHECK_H

#include <stddef.h>

#include "core/result.h"

struct al_check_opts {
	/* Root of the tree to inspect; NULL or "/" is the live system. */
	const char *root;
	/*
	 * Try to run a short-lived thread at SCHED_FIFO prio; return 0 when
	 * it really ran at that policy, -errno otherwise. NULL: on the live
	 * system a real thread is tried (the caller's own scheduling is never
	 * touched); below any other root the sched_fifo check is skipped.
	 * Tests set it to drive that check through its results.
	 */
	int (*try_fifo)(int prio);
};

/*
 * Run every check and write one result per check, in a fixed order, to
 * out[0..cap). AL_SYSCHECKS_MAX is always enough. Returns the number of
 * results, -ENOSPC when cap is too small (nothing is written), -ENOTDIR
 * or -ENOENT when root is not a directory.
 */
int al_check_run(const struct al_check_opts *o, struct al_syscheck *out, size_t cap);

/*
 * Can root be checked (a directory, a name stat() accepts)? 0, or -EINVAL
 * with one line in err ("--root: 'x' is not a directory").
 */
int al_check_root(const char *root, char *err, size_t err_size);

/* al_check_tally() counts the statuses of the results (core/result.h). */

#endif
