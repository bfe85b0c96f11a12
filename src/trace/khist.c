/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's own wake-to-run histogram of one thread (trace.h,
 * docs/trace.md): hist triggers in an ftrace instance of ours save
 * sched_waking's timestamp of the thread, and the sched_switch onto it
 * fires a synthetic event carrying the difference in microseconds, which
 * a third hist trigger counts by value. Nothing is recorded in a buffer:
 * the triggers keep the events soft-disabled. The synthetic event is named
 * after the instance ("audiolat_<pid>[_<n>]_w2r"), so a later run removes
 * what a killed one left (al__khist_remove_stale, after the instances).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "core/text.h"
#include "trace.h"
#include "tracefs-dir.h"

#define SYNTH_PREFIX "audiolat_"
#define SYNTH_SUFFIX "_w2r"
#define HIST_SIZE 8192 /* distinct microsecond values the kernel keeps */

struct al_khist {
	struct tracefs_instance *inst;
	char name[64];   /* the instance */
	char synth[80];  /* the synthetic event */
	char waking[160], switched[320], counted[160]; /* the three triggers */
	bool synth_made, waking_set, switched_set, counted_set;
};

/* "audiolat_<pid>[_<n>]_w2r": 0 and pid; -1 for other names */
static int
parse_synth_name(const char *name, size_t len, long *pid)
{
	char buf[80], *end;
	size_t n = strlen(SYNTH_PREFIX), s = strlen(SYNTH_SUFFIX);

	if (len >= sizeof(buf) || len <= n + s || strncmp(name, SYNTH_PREFIX, n) ||
	    strncmp(name + len - s, SYNTH_SUFFIX, s))
		return -1;
	memcpy(buf, name + n, len - n - s);
	buf[len - n - s] = '\0';
	if (!isdigit((unsigned char)buf[0]))
		return -1;
	errno = 0;
	*pid = strtol(buf, &end, 10);
	if (errno || *pid <= 0 || *pid > INT_MAX)
		return -1;
	if (*end == '_') {
		if (!isdigit((unsigned char)end[1]))
			return -1;
		strtol(end + 1, &end, 10);
	}
	return *end ? -1 : 0;
}

void
al__khist_remove_stale(void)
{
	char *list = tracefs_instance_file_read(NULL, "synthetic_events", NULL), *line, *save = NULL;
	char cmd[96];
	long pid;

	if (!list)
		return;
	for (line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t len = strcspn(line, " \t");

		if (parse_synth_name(line, len, &pid) || pid == getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(cmd, sizeof(cmd), "!%.*s", (int)len, line);
		tracefs_instance_file_append(NULL, "synthetic_events", cmd);
	}
	free(list);
}

/*
 * Every trigger in file of inst removed ("!" and its line less the
 * " [active]" or " [paused]" the kernel shows): a killed run's, before its
 * instance and synthetic event can go (both are busy while in use).
 */
static void
clear_triggers(struct tracefs_instance *inst, const char *file)
{
	char *text = tracefs_instance_file_read(inst, file, NULL), *line, *save = NULL, *b;
	char cmd[1024];

	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || !line[0])
			continue;
		if ((b = strstr(line, " [")))
			*b = '\0';
		snprintf(cmd, sizeof(cmd), "!%s", line);
		tracefs_instance_file_append(inst, file, cmd);
	}
	free(text);
}

void
al__khist_clear(struct tracefs_instance *inst, const char *name)
{
	char synth[80], file[160];
	size_t i;

	snprintf(synth, sizeof(synth), "%s%s", name, SYNTH_SUFFIX);
	for (i = 0; synth[i]; i++)
		if (synth[i] == '-')
			synth[i] = '_';
	snprintf(file, sizeof(file), "events/synthetic/%s/trigger", synth);
	if (tracefs_file_exists(inst, file))
		clear_triggers(inst, file);
	clear_triggers(inst, "events/sched/sched_switch/trigger");
	clear_triggers(inst, "events/sched/sched_waking/trigger");
}

/* append cmd to file (NULL inst: the top level); 0 or -errno with a line in err */
static int
append(struct tracefs_instance *inst, const char *file, const char *cmd, char *err,
       size_t err_size)
{
	if (tracefs_instance_file_append(inst, file, cmd) < 0) {
		int rc = errno ? -errno : -EIO;

		return al_text_err(err, err_size, rc, "%s: writing '%s': %s", file, cmd,
				   strerror(-rc));
	}
	return 0;
}

int
al_khist_open(struct al_khist **out, pid_t tid, char *err, size_t err_size)
{
	struct al_khist *h;
	char cmd[192], file[160];
	int rc;
	size_t i;

	*out = NULL;
	if (tid <= 0)
		return al_text_err(err, err_size, -EINVAL, "no thread to follow");
	rc = al_tracefs_ready(err, err_size);
	if (rc)
		return rc;
	if (!tracefs_file_exists(NULL, "synthetic_events"))
		return al_text_err(err, err_size, -ENOTSUP,
				   "the kernel has no synthetic events (CONFIG_SYNTH_EVENTS)");
	if (!tracefs_file_exists(NULL, "events/sched/sched_waking/hist"))
		return al_text_err(err, err_size, -ENOTSUP,
				   "the kernel has no hist triggers (CONFIG_HIST_TRIGGERS)");
	h = calloc(1, sizeof(*h));
	if (!h)
		return al_text_err(err, err_size, -ENOMEM, "out of memory");
	al__trace_remove_stale();
	rc = al__trace_new_instance(h->name, sizeof(h->name), &h->inst, err, err_size);
	if (rc) {
		free(h);
		return rc;
	}
	/* tracing off: the triggers still fire (nothing is recorded anyway) */
	tracefs_trace_off(h->inst);
	snprintf(h->synth, sizeof(h->synth), "%s%s", h->name, SYNTH_SUFFIX);
	for (i = 0; h->synth[i]; i++)
		if (h->synth[i] == '-')
			h->synth[i] = '_';
	/* a predecessor with our pid may have left one of this name */
	snprintf(cmd, sizeof(cmd), "!%s", h->synth);
	tracefs_instance_file_append(NULL, "synthetic_events", cmd);
	snprintf(cmd, sizeof(cmd), "%s u64 lat_us", h->synth);
	rc = append(NULL, "synthetic_events", cmd, err, err_size);
	if (rc)
		goto fail;
	h->synth_made = true;
	snprintf(h->waking, sizeof(h->waking), "hist:keys=pid:ts0=common_timestamp.usecs if pid == %d",
		 (int)tid);
	rc = append(h->inst, "events/sched/sched_waking/trigger", h->waking, err, err_size);
	if (rc)
		goto fail;
	h->waking_set = true;
	snprintf(h->switched, sizeof(h->switched),
		 "hist:keys=next_pid:w2r=common_timestamp.usecs-$ts0:"
		 "onmatch(sched.sched_waking).trace(%s,$w2r) if next_pid == %d",
		 h->synth, (int)tid);
	rc = append(h->inst, "events/sched/sched_switch/trigger", h->switched, err, err_size);
	if (rc)
		goto fail;
	h->switched_set = true;
	/* paused until the stream starts (al_khist_count) */
	snprintf(h->counted, sizeof(h->counted), "hist:keys=lat_us:sort=lat_us:size=%d", HIST_SIZE);
	snprintf(file, sizeof(file), "events/synthetic/%s/trigger", h->synth);
	snprintf(cmd, sizeof(cmd), "%s:pause", h->counted);
	rc = append(h->inst, file, cmd, err, err_size);
	if (rc)
		goto fail;
	h->counted_set = true;
	*out = h;
	return 0;
fail:
	al_khist_close(h);
	return rc;
}

int
al_khist_count(struct al_khist *h, bool on)
{
	char cmd[192], file[160];

	if (!h || !h->counted_set)
		return -EINVAL;
	snprintf(file, sizeof(file), "events/synthetic/%s/trigger", h->synth);
	snprintf(cmd, sizeof(cmd), "%s:%s", h->counted, on ? "cont" : "pause");
	return tracefs_instance_file_append(h->inst, file, cmd) < 0 ? (errno ? -errno : -EIO) : 0;
}

int
al_khist_read(struct al_khist *h, struct al_kernel_wake *out)
{
	char file[160], *text;
	int rc;

	if (!h || !h->counted_set)
		return -EINVAL;
	snprintf(file, sizeof(file), "events/synthetic/%s/hist", h->synth);
	text = tracefs_instance_file_read(h->inst, file, NULL);
	if (!text)
		return errno ? -errno : -EIO;
	rc = al_khist_parse(text, strlen(text), out);
	free(text);
	return rc;
}

void
al_khist_close(struct al_khist *h)
{
	char cmd[352], file[160];

	if (!h)
		return;
	/* the triggers first (the synthetic event is busy while they use it) */
	if (h->counted_set) {
		snprintf(file, sizeof(file), "events/synthetic/%s/trigger", h->synth);
		snprintf(cmd, sizeof(cmd), "!%s", h->counted);
		tracefs_instance_file_append(h->inst, file, cmd);
	}
	if (h->switched_set) {
		snprintf(cmd, sizeof(cmd), "!%s", h->switched);
		tracefs_instance_file_append(h->inst, "events/sched/sched_switch/trigger", cmd);
	}
	if (h->waking_set) {
		snprintf(cmd, sizeof(cmd), "!%s", h->waking);
		tracefs_instance_file_append(h->inst, "events/sched/sched_waking/trigger", cmd);
	}
	if (h->inst) {
		tracefs_instance_destroy(h->inst);
		tracefs_instance_free(h->inst);
	}
	if (h->synth_made) {
		snprintf(cmd, sizeof(cmd), "!%s", h->synth);
		tracefs_instance_file_append(NULL, "synthetic_events", cmd);
	}
	free(h);
}
