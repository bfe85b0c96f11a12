/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sysinfo.h"

static void
copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

int
al_open_regular(const char *root, const char *path)
{
	char full[4096];
	struct stat st;
	int fd;

	if ((size_t)snprintf(full, sizeof(full), "%s%s", (root && strcmp(root, "/")) ? root : "",
			     path) >= sizeof(full))
		return -ENAMETOOLONG;
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int
al_read_file(const char *root, const char *path, char *buf, size_t size)
{
	ssize_t n, total = 0;
	int fd;

	if (!size)
		return -EINVAL;
	buf[0] = '\0';
	fd = al_open_regular(root, path);
	if (fd < 0)
		return fd;
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

/* Whether the kernel config below root has "KEY=y": 1, 0, or -errno (no config). */
static int
config_has(const char *root, const char *release, const char *key)
{
	char path[512], line[256];
	size_t klen = strlen(key);
	int found = 0, fd;
	FILE *f;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	fd = al_open_regular(root, path);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == '=' && line[klen + 1] == 'y')
			found = 1;
	fclose(f);
	return found;
}

static bool
valid_mode(const char *m)
{
	return !strcmp(m, "none") || !strcmp(m, "voluntary") || !strcmp(m, "full") ||
	       !strcmp(m, "lazy");
}

/* The value of "name=value" on root/proc/cmdline (the last one wins, as in the kernel). */
static bool
cmdline_value(const char *root, const char *name, char *val, size_t size)
{
	char buf[4096];
	size_t nlen = strlen(name);
	const char *p = buf;
	bool found = false;

	if (al_read_file(root, "/proc/cmdline", buf, sizeof(buf)) <= 0)
		return false;
	while (*p) {
		size_t tlen;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		tlen = strcspn(p, " \t\n");
		if (!tlen || (tlen == 2 && !strncmp(p, "--", 2)))
			break; /* the rest is for init */
		if (tlen > nlen && !strncmp(p, name, nlen) && p[nlen] == '=') {
			snprintf(val, size, "%.*s", (int)(tlen - nlen - 1), p + nlen + 1);
			found = true;
		}
		p += tlen;
	}
	return found;
}

int
al_sysinfo_preempt_model(const char *root, const char *release, const char *uname_version,
			 char *model, size_t model_size, char *source, size_t source_size)
{
	static const struct {
		const char *key, *model;
	} cfg[] = {
		{ "CONFIG_PREEMPT_LAZY", "lazy" },
		{ "CONFIG_PREEMPT", "full" },
		{ "CONFIG_PREEMPT_VOLUNTARY", "voluntary" },
		{ "CONFIG_PREEMPT_NONE", "none" },
	};
	char buf[256], *open_b, *close_b;
	bool dynamic, have_config;
	size_t i;

	if (!uname_version)
		uname_version = "";
	if (al_read_file(root, "/sys/kernel/realtime", buf, sizeof(buf)) > 0 && buf[0] == '1') {
		copy_str(model, model_size, "PREEMPT_RT");
		copy_str(source, source_size, "/sys/kernel/realtime");
		return 0;
	}
	if (strstr(uname_version, "PREEMPT_RT")) {
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
	have_config = release && *release && config_has(root, release, "CONFIG_PREEMPT") >= 0;
	if (have_config && config_has(root, release, "CONFIG_PREEMPT_RT") == 1) {
		copy_str(model, model_size, "PREEMPT_RT");
		snprintf(source, source_size, "/boot/config-%.40s", release);
		return 0;
	}
	dynamic = strstr(uname_version, "PREEMPT_DYNAMIC") ||
		  (have_config && config_has(root, release, "CONFIG_PREEMPT_DYNAMIC") == 1);
	/* PREEMPT_DYNAMIC without debugfs: preempt= wins, else the config's boot default */
	if (dynamic && cmdline_value(root, "preempt", buf, sizeof(buf)) && valid_mode(buf)) {
		copy_str(model, model_size, buf);
		copy_str(source, source_size, "preempt= in /proc/cmdline");
		return 0;
	}
	for (i = 0; have_config && i < sizeof(cfg) / sizeof(cfg[0]); i++) {
		if (config_has(root, release, cfg[i].key) != 1)
			continue;
		copy_str(model, model_size, cfg[i].model);
		snprintf(source, source_size, "%s/boot/config-%.40s",
			 dynamic ? "boot default in " : "", release);
		return 0;
	}
	if (dynamic) {
		copy_str(model, model_size, "dynamic");
		copy_str(source, source_size, "uname -v (mount debugfs to read the mode)");
	} else if (strstr(uname_version, "PREEMPT_LAZY")) {
		copy_str(model, model_size, "lazy");
		copy_str(source, source_size, "uname -v");
	} else if (strstr(uname_version, "PREEMPT")) {
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
	char line[512], *colon, *v;
	int fd = al_open_regular(root, "/proc/cpuinfo");
	FILE *f;

	if (fd < 0)
		return;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return;
	}
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
