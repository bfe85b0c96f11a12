/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sysinfo.h"

static void
copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

int
al_read_file(const char *root, const char *path, char *buf, size_t size)
{
	char full[4096];
	ssize_t n, total = 0;
	int fd;

	if (!size)
		return -EINVAL;
	buf[0] = '\0';
	snprintf(full, sizeof(full), "%s%s", (root && strcmp(root, "/")) ? root : "", path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total < size - 1) {
		n = read(fd, buf + total, size - 1 - (size_t)total);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return (int)n;
		}
		if (!n)
			break;
		total += n;
	}
	close(fd);
	buf[total] = '\0';
	while (total > 0 && (buf[total - 1] == '\n' || buf[total - 1] == '\r'))
		buf[--total] = '\0';
	return (int)total;
}

/* Look for "KEY=VALUE" of a kernel config line in a config file below root. */
static int
config_has(const char *root, const char *release, const char *key)
{
	char path[512], full[4096], line[256];
	size_t klen = strlen(key);
	int found = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	snprintf(full, sizeof(full), "%s%s", (root && strcmp(root, "/")) ? root : "", path);
	f = fopen(full, "re");
	if (!f)
		return -errno;
	found = 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == '=' && line[klen + 1] == 'y')
			found = 1;
	fclose(f);
	return found;
}

int
al_sysinfo_preempt_model(const char *root, const char *release, const char *uname_version,
			 char *model, size_t model_size, char *source, size_t source_size)
{
	char buf[256], *open_b, *close_b;

	if (al_read_file(root, "/sys/kernel/realtime", buf, sizeof(buf)) > 0 && buf[0] == '1') {
		copy_str(model, model_size, "PREEMPT_RT");
		copy_str(source, source_size, "/sys/kernel/realtime");
		return 0;
	}
	if (uname_version && strstr(uname_version, "PREEMPT_RT")) {
		copy_str(model, model_size, "PREEMPT_RT");
		copy_str(source, source_size, "uname -v");
		return 0;
	}
	if (al_read_file(root, "/sys/kernel/debug/sched/preempt", buf, sizeof(buf)) > 0 &&
	    (open_b = strchr(buf, '(')) && (close_b = strchr(open_b, ')'))) {
		*close_b = '\0';
		copy_str(model, model_size, open_b + 1);
		copy_str(source, source_size, "/sys/kernel/debug/sched/preempt");
		return 0;
	}
	if (release && *release) {
		static const struct {
			const char *key, *model;
		} cfg[] = {
			{ "CONFIG_PREEMPT_RT", "PREEMPT_RT" },
			{ "CONFIG_PREEMPT_DYNAMIC", NULL },
			{ "CONFIG_PREEMPT", "full" },
			{ "CONFIG_PREEMPT_VOLUNTARY", "voluntary" },
			{ "CONFIG_PREEMPT_NONE", "none" },
		};
		size_t i;

		for (i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++) {
			if (config_has(root, release, cfg[i].key) != 1)
				continue;
			if (!cfg[i].model)
				break; /* dynamic: the config gives only the boot default */
			copy_str(model, model_size, cfg[i].model);
			snprintf(source, source_size, "/boot/config-%.40s", release);
			return 0;
		}
	}
	if (uname_version && strstr(uname_version, "PREEMPT_DYNAMIC")) {
		copy_str(model, model_size, "dynamic");
		copy_str(source, source_size, "uname -v (mount debugfs to read the mode)");
	} else if (uname_version && strstr(uname_version, "PREEMPT")) {
		copy_str(model, model_size, "full");
		copy_str(source, source_size, "uname -v");
	} else {
		copy_str(model, model_size, "unknown");
		copy_str(source, source_size, "");
	}
	return 0;
}

static void
read_cpu_model(const char *root, char *buf, size_t size)
{
	char full[4096], line[512], *colon, *v;
	FILE *f;

	snprintf(full, sizeof(full), "%s/proc/cpuinfo", (root && strcmp(root, "/")) ? root : "");
	f = fopen(full, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) && strncmp(line, "Hardware", 8) &&
		    strncmp(line, "cpu model", 9))
			continue;
		colon = strchr(line, ':');
		if (!colon)
			continue;
		for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
			;
		v[strcspn(v, "\n")] = '\0';
		copy_str(buf, size, v);
		break;
	}
	fclose(f);
}

int
al_sysinfo_read(const char *root, struct al_sysinfo *si)
{
	struct utsname u;
	long n;

	memset(si, 0, sizeof(*si));
	if (!uname(&u)) {
		copy_str(si->sysname, sizeof(si->sysname), u.sysname);
		copy_str(si->nodename, sizeof(si->nodename), u.nodename);
		copy_str(si->release, sizeof(si->release), u.release);
		copy_str(si->version, sizeof(si->version), u.version);
		copy_str(si->machine, sizeof(si->machine), u.machine);
	}
	al_sysinfo_preempt_model(root, si->release, si->version, si->preempt, sizeof(si->preempt),
				 si->preempt_source, sizeof(si->preempt_source));
	read_cpu_model(root, si->cpu_model, sizeof(si->cpu_model));
	n = sysconf(_SC_NPROCESSORS_ONLN);
	si->cpus = n > 0 ? (int)n : 0;
	al_read_file(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
		     si->clocksource, sizeof(si->clocksource));
	return 0;
}
