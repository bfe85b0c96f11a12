/* SPDX-License-Identifier: GPL-2.0-or-later */
/* System information read through a fixture root: the preemption model. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/sysinfo.h"

static char root[PATH_MAX];

static void
put(const char *path, const char *text)
{
	char full[PATH_MAX * 2], dir[PATH_MAX * 2], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(dir, sizeof(dir), "%s", full);
	for (slash = dir + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(full, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "%s/al-sysinfo-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int
teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void
model(const char *release, const char *version, const char *want, const char *want_source)
{
	char m[32], src[64];

	assert_int_equal(al_sysinfo_preempt_model(root, release, version, m, sizeof(m), src,
						  sizeof(src)),
			 0);
	assert_string_equal(m, want);
	if (want_source)
		assert_string_equal(src, want_source);
}

static void
rt_from_sysfs_or_uname(void **state)
{
	(void)state;
	model("6.1", "#1 SMP PREEMPT_DYNAMIC", "dynamic", NULL);
	model("6.1", "#1 SMP PREEMPT_RT", "PREEMPT_RT", "uname -v");
	put("/sys/kernel/realtime", "1\n");
	model("6.1", "#1 SMP PREEMPT_DYNAMIC", "PREEMPT_RT", "/sys/kernel/realtime");
}

static void
debugfs_names_the_mode_in_force(void **state)
{
	(void)state;
	put("/sys/kernel/debug/sched/preempt", "none voluntary (full) lazy\n");
	model("6.1", "#1 SMP PREEMPT_DYNAMIC", "full", "/sys/kernel/debug/sched/preempt");
	put("/sys/kernel/debug/sched/preempt", "(none) voluntary full\n");
	model("6.1", "#1 SMP PREEMPT_DYNAMIC", "none", NULL);
}

static void
dynamic_without_debugfs(void **state)
{
	(void)state;
	put("/boot/config-6.1", "CONFIG_PREEMPT_DYNAMIC=y\nCONFIG_PREEMPT_VOLUNTARY=y\n");
	model("6.1", "#1 SMP PREEMPT_DYNAMIC", "voluntary", "boot default in /boot/config-6.1");
	put("/proc/cmdline", "root=/dev/sda1 preempt=full quiet\n");
	model("6.1", "#1 SMP PREEMPT_DYNAMIC", "full", "preempt= in /proc/cmdline");
	put("/proc/cmdline", "root=/dev/sda1 preempt=bogus\n");
	model("6.1", "#1 SMP PREEMPT_DYNAMIC", "voluntary", NULL);
}

static void
static_models_from_the_config(void **state)
{
	(void)state;
	put("/boot/config-6.1", "# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_NONE=y\n");
	model("6.1", "#1 SMP", "none", "/boot/config-6.1");
	put("/boot/config-6.1", "CONFIG_PREEMPT_LAZY=y\n");
	model("6.1", "#1 SMP", "lazy", NULL);
	put("/boot/config-6.1", "CONFIG_PREEMPT_RT=y\n");
	model("6.1", "#1 SMP", "PREEMPT_RT", NULL);
	model(NULL, "#1 SMP PREEMPT", "full", "uname -v");
	model(NULL, "#1 SMP", "unknown", NULL);
}

static void
fifos_and_directories_never_block(void **state)
{
	char path[PATH_MAX + 64], buf[64];

	(void)state;
	put("/sys/kernel/x", "");
	snprintf(path, sizeof(path), "%s/sys/kernel/realtime", root);
	assert_int_equal(mkfifo(path, 0644), 0);
	snprintf(path, sizeof(path), "%s/sys/kernel/debug/sched/preempt", root);
	put("/sys/kernel/debug/sched/y", "");
	assert_int_equal(mkdir(path, 0755), 0);
	model("6.1", "#1 SMP PREEMPT_DYNAMIC", "dynamic", NULL);
	assert_true(al_read_file(root, "/sys/kernel/realtime", buf, sizeof(buf)) < 0);
	assert_true(al_read_file(root, "/nonexistent", buf, sizeof(buf)) == -ENOENT);
}

static void
read_file_strips_the_newline_and_truncates(void **state)
{
	char buf[8];

	(void)state;
	put("/f", "tsc\n");
	assert_int_equal(al_read_file(root, "/f", buf, sizeof(buf)), 3);
	assert_string_equal(buf, "tsc");
	put("/g", "0123456789abcdef");
	assert_int_equal(al_read_file(root, "/g", buf, sizeof(buf)), 7);
	assert_string_equal(buf, "0123456");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(rt_from_sysfs_or_uname, setup, teardown),
		cmocka_unit_test_setup_teardown(debugfs_names_the_mode_in_force, setup, teardown),
		cmocka_unit_test_setup_teardown(dynamic_without_debugfs, setup, teardown),
		cmocka_unit_test_setup_teardown(static_models_from_the_config, setup, teardown),
		cmocka_unit_test_setup_teardown(fifos_and_directories_never_block, setup, teardown),
		cmocka_unit_test_setup_teardown(read_file_strips_the_newline_and_truncates, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
