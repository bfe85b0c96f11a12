/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The store tests' fixture: a temporary directory (dir) and a database path in it (db_path). */
#ifndef AL_TESTS_STORE_TMP_H
#define AL_TESTS_STORE_TMP_H

#include <stdio.h>
#include <stdlib.h>

static char dir[256];
static char db_path[300];

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/audiolat-store.XXXXXX", getenv("TMPDIR") ?: "/tmp");
	if (!mkdtemp(dir))
		return -1;
	snprintf(db_path, sizeof(db_path), "%s/results.db", dir);
	return 0;
}

static int
teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

#endif
