/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rest of the system: swap, irqbalance, IRQ thread priorities, shared
 * interrupt lines, USB autosuspend of audio devices, atime updates and the
 * audio servers that run (and at what priority).
 */
#define AL_CHECK_INTERNAL
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-private.h"

#define USB_AUDIO_MAX 16
#define REPORT_MAX 3   /* items named in one message */

static const char *
policy_name(int policy)
{
	switch (policy) {
	case SCHED_FIFO:
		return "FIFO";
	case SCHED_RR:
		return "RR";
	case SCHED_OTHER:
		return "OTHER";
	default:
		return "?";
	}
}

/* Append "text" to buf (", "-separated), "..." once it no longer fits. */
static void
append_item(char *buf, size_t size, const char *text)
{
	size_t len = strlen(buf);
	int w;

	if (len >= 3 && !strcmp(buf + len - 3, "..."))
		return;
	w = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", text);
	if (w < 0 || (size_t)w >= size - len) {
		buf[len] = '\0';
		if (size - len > 5)
			snprintf(buf + len, size - len, "%s...", len ? ", " : "");
	}
}

struct swaps {
	int areas;
	bool header;
};

static int
swaps_line(char *line, void *data)
{
	struct swaps *s = data;

	if (!s->header && !strncmp(line, "Filename", 8)) {
		s->header = true;
		return 0;
	}
	if (line[strspn(line, " \t")])
		s->areas++;
	return 0;
}

void
al__check_swappiness(struct check_ctx *c, struct al_syscheck *r)
{
	struct swaps s = { 0 };
	long swappiness;
	int rc;

	rc = al__check_lines(c, "/proc/swaps", swaps_line, &s);
	if (rc < 0) {
		al__check_set(r, "skip", "", "cannot read /proc/swaps: %s", strerror(-rc));
		return;
	}
	if (!s.areas) {
		al__check_set(r, "ok", "", "no swap active: swappiness does not matter");
		return;
	}
	rc = al__check_read_long(c, "/proc/sys/vm/swappiness", &swappiness);
	if (rc < 0)
		al__check_set(r, "skip", "", "swap active, but cannot read /proc/sys/vm/swappiness: %s",
			      rc == -EINVAL ? "not a number" : strerror(-rc));
	else if (swappiness <= 10)
		al__check_set(r, "ok", "", "swap active (%d areas), vm.swappiness is %ld", s.areas,
			      swappiness);
	else
		al__check_set(r, "warn",
			      "sysctl -w vm.swappiness=10 (keep it in /etc/sysctl.d/90-audio.conf)",
			      "swap active and vm.swappiness is %ld: audio memory is paged out early under pressure",
			      swappiness);
}

static bool
procs_usable(const struct check_ctx *c, struct al_syscheck *r)
{
	if (c->procs.err) {
		al__check_set(r, "skip", "", "cannot list /proc: %s", strerror(-c->procs.err));
		return false;
	}
	if (!c->procs.n_procs) {
		al__check_set(r, "skip", "", "no processes found in /proc");
		return false;
	}
	return true;
}

void
al__check_irqbalance(struct check_ctx *c, struct al_syscheck *r)
{
	if (!procs_usable(c, r))
		return;
	if (c->procs.irqbalance_pid)
		al__check_set(r, "warn", "sudo systemctl disable --now irqbalance",
			      "irqbalance is running (pid %ld): it moves interrupts between CPUs behind the audio thread's back",
			      c->procs.irqbalance_pid);
	else
		al__check_set(r, "ok", "", "irqbalance is not running");
}

void
al__check_irq_threads(struct check_ctx *c, struct al_syscheck *r)
{
	const struct check_procs *pr = &c->procs;
	char good[160] = "", bad[160] = "", item[64], fix[200] = "";
	int i, n_bad = 0;

	if (!procs_usable(c, r))
		return;
	if (!pr->n_irq_threads) {
		al__check_set(r, "skip", "",
			      "no IRQ threads (interrupts are not threaded: see threadirqs)");
		return;
	}
	if (!pr->n_audio_irq) {
		al__check_set(r, "skip", "", "%d IRQ threads, none for sound or USB",
			      pr->n_irq_threads);
		return;
	}
	for (i = 0; i < pr->n_audio_irq; i++) {
		const struct check_irq_thread *t = &pr->audio_irq[i];
		bool rt = t->policy == SCHED_FIFO || t->policy == SCHED_RR;

		snprintf(item, sizeof(item), "%s %s %d", t->comm, policy_name(t->policy),
			 t->rt_priority);
		if (rt && t->rt_priority > pr->max_other_irq_prio) {
			append_item(good, sizeof(good), item);
			continue;
		}
		append_item(bad, sizeof(bad), item);
		if (!n_bad++)
			snprintf(fix, sizeof(fix),
				 "install rtirq (RTIRQ_NAME_LIST=\"snd usb\"), or: sudo chrt -f -p 90 %ld",
				 t->pid);
	}
	if (!n_bad)
		al__check_set(r, "ok", "", "sound/USB IRQ threads above the other %d: %s",
			      pr->n_irq_threads - pr->n_audio_irq, good);
	else
		al__check_set(r, "warn", fix,
			      "sound/USB IRQ threads not above the other IRQ threads (up to FIFO %d): %s",
			      pr->max_other_irq_prio < 0 ? 0 : pr->max_other_irq_prio, bad);
}

/* Names of devices on a /proc/interrupts line that serve sound or USB. */
static bool
is_audio_dev(const char *name)
{
	return !strncmp(name, "snd", 3) || strstr(name, "xhci_hcd") || strstr(name, "ehci_hcd") ||
	       strstr(name, "ohci_hcd") || strstr(name, "uhci_hcd") || strstr(name, "audiodsp");
}

struct interrupts {
	int ncpu;            /* columns, from the header; -1 before it */
	int lines;           /* numbered IRQ lines */
	int n_shared;
	char first_irq[16];
	char shared[160];
};

static int
interrupts_line(char *line, void *data)
{
	struct interrupts *in = data;
	char *p = line, *label, *colon, *devs, *seg, *save, *last;
	char item[96];
	bool audio = false;
	int i, ndev = 0;

	if (in->ncpu < 0) {
		/* "           CPU0       CPU1" */
		in->ncpu = 0;
		for (seg = strtok_r(line, " \t", &save); seg; seg = strtok_r(NULL, " \t", &save))
			if (!strncmp(seg, "CPU", 3))
				in->ncpu++;
		return 0;
	}
	while (*p == ' ')
		p++;
	label = p;
	colon = strchr(p, ':');
	if (!colon)
		return 0;
	*colon = '\0';
	if (!al__check_is_digits(label) || strlen(label) >= sizeof(in->first_irq))
		return 0; /* NMI, LOC, ... */
	in->lines++;
	p = colon + 1;
	for (i = 0; i < in->ncpu; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		p += strspn(p, "0123456789");
	}
	/* chip, hwirq, type, then "dev1, dev2": the first device is the last word before ", " */
	devs = p;
	seg = strstr(devs, ", ");
	if (!seg)
		return 0; /* one device: not shared */
	*seg = '\0';
	last = strrchr(devs, ' ');
	last = last ? last + 1 : devs;
	if (!*last)
		return 0;
	snprintf(item, sizeof(item), "IRQ %s: %.40s", label, last);
	audio = is_audio_dev(last);
	ndev = 1;
	p = seg + 2;
	while (*p) {
		size_t len;
		char name[64];

		while (*p == ' ')
			p++;
		len = strcspn(p, ",");
		if (!len || len > 1000)
			break;
		snprintf(name, sizeof(name), "%.*s",
			 (int)(len < sizeof(name) ? len : sizeof(name) - 1), p);
		name[strcspn(name, " ")] = '\0';
		if (name[0]) {
			ndev++;
			audio = audio || is_audio_dev(name);
			if (strlen(item) + strlen(name) + 3 < sizeof(item))
				snprintf(item + strlen(item), sizeof(item) - strlen(item),
					 "+%s", name);
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (ndev < 2 || !audio)
		return 0;
	if (!in->n_shared++)
		snprintf(in->first_irq, sizeof(in->first_irq), "%s", label);
	append_item(in->shared, sizeof(in->shared), item);
	return 0;
}

void
al__check_shared_irqs(struct check_ctx *c, struct al_syscheck *r)
{
	struct interrupts in = { .ncpu = -1 };
	char fix[200];
	int rc;

	rc = al__check_lines(c, "/proc/interrupts", interrupts_line, &in);
	if (rc < 0) {
		al__check_set(r, "skip", "", "cannot read /proc/interrupts: %s", strerror(-rc));
		return;
	}
	if (in.ncpu <= 0 || !in.lines) {
		al__check_set(r, "skip", "", "no CPU columns or IRQ lines in /proc/interrupts");
		return;
	}
	if (!in.n_shared) {
		al__check_set(r, "ok", "", "no sound or USB interrupt shares its line (IRQ lines: %d)",
			      in.lines);
		return;
	}
	snprintf(fix, sizeof(fix),
		 "move the sound card or USB audio interface to another slot or port so IRQ %s is not shared",
		 in.first_irq);
	al__check_set(r, "warn", fix, "%d sound/USB IRQs shared with other devices: %s",
		      in.n_shared, in.shared);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

void
al__check_usb_autosuspend(struct check_ctx *c, struct al_syscheck *r)
{
	static const char usb_dir[] = "/sys/bus/usb/devices";
	char devs[USB_AUDIO_MAX][64], path[PATH_MAX], rel[PATH_MAX], val[64], product[64];
	char on[160] = "", autos[160] = "", item[128], fix[200] = "";
	struct dirent *de;
	int n = 0, i, j, n_auto = 0, n_on = 0, entries = 0;
	DIR *d;

	if (al__check_path(c, path, sizeof(path), "%s", usb_dir) || !(d = opendir(path))) {
		al__check_set(r, "skip", "", "no %s (no USB)", usb_dir);
		return;
	}
	while ((de = readdir(d)) && entries++ < 100000) {
		char *colon = strchr(de->d_name, ':');
		size_t dlen;

		if (!colon || de->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "%s/%.200s/bInterfaceClass", usb_dir, de->d_name);
		if (al__check_read(c, rel, val, sizeof(val)) <= 0 || strcmp(val, "01"))
			continue;
		dlen = (size_t)(colon - de->d_name);
		if (!dlen || dlen >= sizeof(devs[0]))
			continue;
		for (j = 0; j < n; j++)
			if (strlen(devs[j]) == dlen && !strncmp(devs[j], de->d_name, dlen))
				break;
		if (j < n || n >= USB_AUDIO_MAX)
			continue;
		snprintf(devs[n++], sizeof(devs[0]), "%.*s", (int)dlen, de->d_name);
	}
	closedir(d);
	if (!n) {
		al__check_set(r, "ok", "", "no USB audio devices");
		return;
	}
	qsort(devs, (size_t)n, sizeof(devs[0]), cmp_str);
	for (i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "%s/%s/product", usb_dir, devs[i]);
		if (al__check_read(c, rel, product, sizeof(product)) <= 0)
			snprintf(product, sizeof(product), "?");
		snprintf(rel, sizeof(rel), "%s/%s/power/control", usb_dir, devs[i]);
		if (al__check_read(c, rel, val, sizeof(val)) <= 0)
			continue;
		snprintf(item, sizeof(item), "%.32s (%.40s)", devs[i], product);
		if (!strcmp(val, "on")) {
			n_on++;
			append_item(on, sizeof(on), item);
		} else {
			if (!n_auto++)
				snprintf(fix, sizeof(fix),
					 "echo on | sudo tee /sys/bus/usb/devices/%.32s/power/control (for good: boot with usbcore.autosuspend=-1)",
					 devs[i]);
			append_item(autos, sizeof(autos), item);
		}
	}
	if (n_auto)
		al__check_set(r, "warn", fix, "USB audio devices may autosuspend (power/control not on): %s",
			      autos);
	else if (n_on)
		al__check_set(r, "ok", "", "USB audio devices never autosuspend: %s", on);
	else
		al__check_set(r, "skip", "", "%d USB audio devices, no readable power/control", n);
}

struct mounts {
	int block;
	int n_bad;
	char bad[160];
	char first_bad[96];
};

static bool
is_block_fs(const char *type)
{
	static const char *const types[] = { "ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs",
					     "jfs", "reiserfs", "vfat", "exfat", "ntfs", "ntfs3",
					     "hfsplus", "nilfs2", "bcachefs" };
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(type, types[i]))
			return true;
	return false;
}

static bool
has_option(const char *opts, const char *opt)
{
	size_t n = strlen(opt);
	const char *p = opts;

	while (*p) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, opt, n))
			return true;
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

static int
mounts_line(char *line, void *data)
{
	struct mounts *m = data;
	char *dev, *dir, *type, *opts, *save;
	char item[128];

	dev = strtok_r(line, " \t", &save);
	dir = strtok_r(NULL, " \t", &save);
	type = strtok_r(NULL, " \t", &save);
	opts = strtok_r(NULL, " \t", &save);
	if (!dev || !dir || !type || !opts)
		return 0;
	if (strncmp(dev, "/dev/", 5) || !is_block_fs(type))
		return 0;
	m->block++;
	if (has_option(opts, "noatime") || has_option(opts, "relatime"))
		return 0;
	if (!m->n_bad++)
		snprintf(m->first_bad, sizeof(m->first_bad), "%.90s", dir);
	snprintf(item, sizeof(item), "%.90s (%.16s)", dir, type);
	append_item(m->bad, sizeof(m->bad), item);
	return 0;
}

void
al__check_noatime(struct check_ctx *c, struct al_syscheck *r)
{
	struct mounts m = { 0 };
	char fix[200];
	int rc;

	rc = al__check_lines(c, "/proc/mounts", mounts_line, &m);
	if (rc < 0) {
		al__check_set(r, "skip", "", "cannot read /proc/mounts: %s", strerror(-rc));
		return;
	}
	if (!m.block) {
		al__check_set(r, "skip", "", "no block-device filesystems in /proc/mounts");
		return;
	}
	if (!m.n_bad) {
		al__check_set(r, "ok", "", "all block-device filesystems (%d) use noatime or relatime",
			      m.block);
		return;
	}
	snprintf(fix, sizeof(fix), "sudo mount -o remount,noatime %s, and add noatime to its options in /etc/fstab",
		 m.first_bad);
	al__check_set(r, "warn", fix, "%d filesystems write the access time on every read: %s",
		      m.n_bad, m.bad);
}

void
al__check_audio_servers(struct check_ctx *c, struct al_syscheck *r)
{
	const struct check_procs *pr = &c->procs;
	char list[200] = "", item[80];
	const char *fix = "";
	bool warn = false, pulse = false;
	int i;

	if (!procs_usable(c, r))
		return;
	if (!pr->n_servers) {
		al__check_set(r, "ok", "",
			      "no audio server running (PipeWire, JACK, PulseAudio): ALSA programs open the card directly");
		return;
	}
	for (i = 0; i < pr->n_servers; i++) {
		const struct check_server *s = &pr->servers[i];

		if (s->rt_priority > 0)
			snprintf(item, sizeof(item), "%s (pid %ld) at SCHED_%s %d", s->comm, s->pid,
				 policy_name(s->policy), s->rt_priority);
		else
			snprintf(item, sizeof(item), "%s (pid %ld) without a real-time thread",
				 s->comm, s->pid);
		append_item(list, sizeof(list), item);
		if (!strcmp(s->comm, "pulseaudio")) {
			pulse = true;
			continue;
		}
		if (s->rt_priority > 0 || warn)
			continue;
		warn = true;
		if (!strncmp(s->comm, "jack", 4))
			fix = "give the user an rtprio limit (see rtprio) and restart jackd with -R";
		else
			fix = "install rtkit (or: sudo usermod -aG pipewire $USER) and restart pipewire";
	}
	if (pulse && !warn) {
		warn = true;
		fix = "systemctl --user disable --now pulseaudio.service pulseaudio.socket, then use PipeWire or JACK";
	}
	al__check_set(r, warn ? "warn" : "ok", warn ? fix : "", "%s", list);
}
