/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The OSS backend: playback on /dev/dsp (ALSA's OSS emulation, snd-pcm-oss,
 * or a real OSS driver), the way latencytest drove it: N fragments of F
 * bytes set with SNDCTL_DSP_SETFRAGMENT, 16-bit little-endian stereo,
 * blocking writes.
 *
 * Every period: the blocking write of one fragment is the wait (it returns
 * when the card has freed a fragment), then SNDCTL_DSP_GETOSPACE says how
 * much the card has played since; the run driver's busy work; then
 * GETOSPACE again and whole fragments written into whatever is free (none
 * in a period on time; the whole buffer after an underrun).
 *
 * OSS gives no time stamps. The period boundary is the earlier of two
 * readings of the fill level, both late when the driver's pointer lags,
 * never early: now minus the audio played since a fragment came free (the
 * free space after our write), and the time the previous reading predicted.
 * When neither is older than the wake-up (a pointer that moves only at
 * period interrupts), a period grid fitted to the earliest wake-ups, as
 * the alsa backend does for pcm_jack (al_grid_boundary).
 * An underrun is seen from the account (the audio queued at the last
 * reading ran out before the next write, and the driver restarted the
 * stream: see oss_wait), from a buffer found all free after the work
 * (ALSA's emulation says so of a stream that ran dry), and from
 * SNDCTL_DSP_GETERROR's play_underruns where the driver has it (OSS 4;
 * ALSA's emulation does not: it re-prepares the stream inside the next
 * write, silently). Its duration runs from when the audio ran out to the
 * write that refilled the buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <dirent.h>
#include <unistd.h>

#include <linux/soundcard.h>

#include "core/clock.h"
#include "oss.h"
#include "pcmtime.h"

#define OSS_DEFAULT_DEVICE "/dev/dsp"
#define OSS_SOUND_MAJOR 14     /* the sound core's character devices */
#define OSS_MINOR_DSP 3        /* minor 16 * card + 3 is /dev/dsp of that card */

/* OSS 4's error report (absent from Linux's soundcard.h); probed once at open. */
struct oss_errinfo {
	int play_underruns;
	int rec_overruns;
	unsigned int play_ptradjust;
	unsigned int rec_ptradjust;
	int play_errorcount;
	int rec_errorcount;
	int play_lasterror;
	int rec_lasterror;
	int play_errorparm;
	int rec_errorparm;
	int filler[16];
};
#ifndef SNDCTL_DSP_GETERROR
#define SNDCTL_DSP_GETERROR _IOR('P', 25, struct oss_errinfo)
#endif

struct oss {
	int fd;
	int64_t rate_hz;
	int channels;
	int frame_bytes;
	int frag_bytes;
	int frags;
	int buffer_bytes;
	int64_t period_ns;
	int64_t buffer_ns;
	char *buf;                /* one buffer of silence */
	bool geterror;            /* SNDCTL_DSP_GETERROR works (and counts from open) */

	/* our account of the fill level, CLOCK_MONOTONIC */
	int64_t last_ok_ns;       /* the last reading that found audio queued */
	int64_t empty_ns;         /* when the audio queued then runs out */
	int64_t next_due_ns;      /* when the next fragment comes free by that reading */
	int64_t written_bytes;    /* since the stream (re)started */

	/* an underrun the wait found, reported by the next write */
	int64_t xrun_start_ns;
	int64_t xrun_ns;
	int64_t xrun_lost;
	enum al_xrun_source xrun_src;

	/* for info() */
	struct al_grid grid;      /* boundaries when the pointer says nothing newer */
	uint64_t bound_fill, bound_account, bound_grid, xrun_account, xrun_state, xrun_geterror;
	char device[128];
	char detail[200];
	char error[200];
};

int
al_oss_fragment_arg(int64_t fragment_bytes, int periods)
{
	int shift = 4;

	while (shift < 24 && ((int64_t)1 << shift) < fragment_bytes)
		shift++;
	/* 2^shift >= fragment_bytes now: take the lower power when it is nearer */
	if (shift > 4 && fragment_bytes - ((int64_t)1 << (shift - 1)) < ((int64_t)1 << shift) - fragment_bytes)
		shift--;
	if (periods < 2)
		periods = 2;
	if (periods > 0x7fff)
		periods = 0x7fff;
	return (periods << 16) | shift;
}

static int64_t
bytes_ns(const struct oss *o, int64_t bytes)
{
	int64_t frames = bytes / o->frame_bytes;

	return frames >= 0 ? al_frames_to_ns(frames, o->rate_hz) : -al_frames_to_ns(-frames, o->rate_hz);
}

static void
oss_close(void *priv)
{
	struct oss *o = priv;

	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	free(o->buf);
	o->buf = NULL;
}

static int
fail(struct oss *o, int rc, const char *fmt, const char *what)
{
	snprintf(o->error, sizeof(o->error), fmt, o->device, what);
	oss_close(o);
	return rc;
}

/* Open the device without blocking on a busy one, then make writes block. */
static int
open_dsp(struct oss *o)
{
	struct stat st;
	int flags;

	if (stat(o->device, &st) < 0) {
		int e = errno;

		snprintf(o->error, sizeof(o->error), "%.100s: %s%s", o->device, strerror(e),
			 e == ENOENT ? " (no OSS device: load snd-pcm-oss for ALSA's OSS emulation)"
				     : "");
		return e == ENOENT || e == ENOTDIR ? -ENOENT : -e;
	}
	if (!S_ISCHR(st.st_mode)) {
		snprintf(o->error, sizeof(o->error), "%.100s: not a character device", o->device);
		return -ENOTSUP;
	}
	o->fd = open(o->device, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (o->fd < 0) {
		int e = errno;

		o->fd = -1;
		snprintf(o->error, sizeof(o->error), "%.100s: cannot open for playback: %s",
			 o->device, strerror(e));
		switch (e) {
		case ENOENT:
		case ENODEV:
		case ENXIO:
			return -ENOENT;
		case EBUSY:
		case EAGAIN:
			return -EBUSY;
		default:
			return -e;
		}
	}
	flags = fcntl(o->fd, F_GETFL);
	if (flags < 0 || fcntl(o->fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
		return fail(o, -errno, "%.100s: %s", "cannot make writes blocking");
	return 0;
}

/* Refuse what is not close to the request, unless --nearest (as the alsa backend). */
static int
check_close(struct oss *o, int64_t rate_hz, int64_t period_frames, int periods)
{
	int64_t got_frames = o->frag_bytes / o->frame_bytes;
	int64_t drate = llabs(o->rate_hz - rate_hz), dperiod = llabs(got_frames - period_frames);

	if (drate * 200 <= rate_hz && dperiod * 10 <= period_frames && o->frags == periods)
		return 0;
	snprintf(o->error, sizeof(o->error), "%.64s gave %lld Hz, %d x %lld frames (%d-byte "
		 "fragments) for %lld Hz, %d x %lld frames; --nearest takes it", o->device,
		 (long long)o->rate_hz, o->frags, (long long)got_frames, o->frag_bytes,
		 (long long)rate_hz, periods, (long long)period_frames);
	return -ERANGE;
}

static int
oss_open(void *priv, struct al_config *cfg)
{
	struct oss *o = priv;
	int64_t ask_rate_hz = cfg->rate_hz, ask_period_frames = cfg->period_frames;
	int ask_periods = cfg->periods, arg, fmt = AFMT_S16_LE, ch = 2, rate, rc;
	struct oss_errinfo ei;
	audio_buf_info bi;

	o->fd = -1;
	snprintf(o->device, sizeof(o->device), "%s", cfg->device[0] ? cfg->device : OSS_DEFAULT_DEVICE);
	rc = open_dsp(o);
	if (rc)
		return rc;
	/* the fragments first (OSS wants them before anything else): S16 stereo is 4 bytes a frame */
	arg = al_oss_fragment_arg(cfg->period_frames * 4, cfg->periods);
	if (ioctl(o->fd, SNDCTL_DSP_SETFRAGMENT, &arg) < 0)
		return fail(o, -ENOTSUP, "%.100s: not an OSS audio device (SNDCTL_DSP_SETFRAGMENT: %s)",
			    strerror(errno));
	if (ioctl(o->fd, SNDCTL_DSP_SETFMT, &fmt) < 0 || fmt != AFMT_S16_LE)
		return fail(o, -ENOTSUP, "%.100s: %s", "no 16-bit little-endian samples");
	if (ioctl(o->fd, SNDCTL_DSP_CHANNELS, &ch) < 0 || ch < 1 || ch > 64)
		return fail(o, -ENOTSUP, "%.100s: %s", "no channel count near 2");
	rate = (int)cfg->rate_hz;
	if (ioctl(o->fd, SNDCTL_DSP_SPEED, &rate) < 0 || rate <= 0)
		return fail(o, -ENOTSUP, "%.100s: %s", "no rate near the one asked");
	/* what the driver made of it */
	memset(&bi, 0, sizeof(bi));
	if (ioctl(o->fd, SNDCTL_DSP_GETOSPACE, &bi) < 0)
		return fail(o, -ENOTSUP, "%.100s: SNDCTL_DSP_GETOSPACE: %s", strerror(errno));
	o->channels = ch;
	o->frame_bytes = 2 * ch;
	o->rate_hz = rate;
	o->frag_bytes = bi.fragsize;
	o->frags = bi.fragstotal;
	if (o->frag_bytes < o->frame_bytes || o->frag_bytes % o->frame_bytes || o->frags < 2 ||
	    o->frags > 0x7fff)
		return fail(o, -ENOTSUP, "%.100s: %s", "the driver gave unusable fragments");
	o->buffer_bytes = o->frag_bytes * o->frags;
	cfg->rate_hz = o->rate_hz;
	cfg->period_frames = o->frag_bytes / o->frame_bytes;
	cfg->periods = o->frags;
	cfg->channels = o->channels;
	snprintf(cfg->format, sizeof(cfg->format), "S16_LE");
	snprintf(cfg->device, sizeof(cfg->device), "%s", o->device);
	if (!cfg->nearest) {
		rc = check_close(o, ask_rate_hz, ask_period_frames, ask_periods);
		if (rc) {
			oss_close(o);
			return rc;
		}
	}
	memset(&ei, 0, sizeof(ei));
	o->geterror = ioctl(o->fd, SNDCTL_DSP_GETERROR, &ei) == 0;
	o->buf = calloc(1, (size_t)o->buffer_bytes);
	if (!o->buf) {
		oss_close(o);
		return -ENOMEM;
	}
	o->period_ns = bytes_ns(o, o->frag_bytes);
	o->buffer_ns = bytes_ns(o, o->buffer_bytes);
	snprintf(o->detail, sizeof(o->detail), "%.64s: OSS playback, blocking writes, S16_LE, %d ch, "
		 "%lld Hz, %d x %d bytes (%d frames); SNDCTL_DSP_GETERROR %s", o->device, ch,
		 (long long)o->rate_hz, o->frags, o->frag_bytes, o->frag_bytes / o->frame_bytes,
		 o->geterror ? "read" : "not offered");
	return 0;
}

/* Hot path: write n bytes of silence, blocking; 0 or -errno. */
static int
put(struct oss *o, int n)
{
	while (n > 0) {
		ssize_t w = write(o->fd, o->buf, (size_t)n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (w == 0)
			return -EIO;
		n -= (int)w;
		o->written_bytes += w;
	}
	return 0;
}

/* Hot path: the free bytes (clamped to the buffer) and when they were read. */
static int
free_bytes(struct oss *o, int *avail, int64_t *at_ns)
{
	audio_buf_info bi;

	if (ioctl(o->fd, SNDCTL_DSP_GETOSPACE, &bi) < 0)
		return -errno;
	*at_ns = al_clock_now_ns();
	*avail = bi.bytes < 0 ? 0 : bi.bytes > o->buffer_bytes ? o->buffer_bytes : bi.bytes;
	return 0;
}

/* The account after a reading: free bytes at at_ns. */
static void
account(struct oss *o, int avail, int64_t at_ns)
{
	o->last_ok_ns = at_ns;
	o->empty_ns = at_ns + bytes_ns(o, o->buffer_bytes - avail);
	o->next_due_ns = at_ns + bytes_ns(o, o->frag_bytes - avail);
}

/* An underrun from start_ns (when the queued audio ran out), dur_ns long (no stamps). */
static void
xrun(struct oss *o, int64_t start_ns, int64_t dur_ns)
{
	o->xrun_start_ns = start_ns;
	o->xrun_ns = dur_ns > 0 ? dur_ns : 0;
	o->xrun_lost = (o->xrun_ns + o->period_ns - 1) / o->period_ns;
	if (o->xrun_lost < 1)
		o->xrun_lost = 1;
	o->xrun_src = AL_XRUN_ACCOUNT;
}

static int
oss_start(void *priv, int64_t *start_ns)
{
	struct oss *o = priv;
	int64_t at_ns;
	int avail, rc;

	/* the first write starts the stream; fill the buffer */
	o->written_bytes = 0;
	al_grid_start(&o->grid, o->rate_hz);
	rc = put(o, o->buffer_bytes);
	if (!rc)
		rc = free_bytes(o, &avail, &at_ns);
	if (rc)
		return rc;
	account(o, avail, at_ns);
	*start_ns = at_ns;
	return 0;
}

/*
 * Hot path: the blocking write of one fragment is the wait.
 *
 * An underrun: the audio queued at the last reading ran out (empty_ns)
 * before this write put more; the driver then restarts the stream with
 * our fragment, so more is queued now than the account predicts, by how
 * long the card stood dry. Seen when the wait began after empty_ns
 * (stopped or late before the write), or when the write ended after
 * empty_ns and the fill level is over a period above the prediction
 * (stopped inside the write). The pointer lagging by up to a period on
 * both readings is what the period of tolerance is for.
 */
static int
oss_wait(void *priv, struct al_wake *w)
{
	struct oss *o = priv;
	int64_t before_ns = al_clock_now_ns(), at_ns, fill_ns, gap_ns;
	int avail, rc;

	rc = put(o, o->frag_bytes);
	if (rc)
		return rc;
	w->wake_ns = al_clock_now_ns();
	rc = free_bytes(o, &avail, &at_ns);
	if (rc)
		return rc;
	if (w->wake_ns > o->empty_ns) {
		/* queued now minus what the account predicts: when the stream restarted - empty_ns */
		gap_ns = bytes_ns(o, o->buffer_bytes - avail) - (o->empty_ns + o->period_ns - at_ns);
		if (before_ns > o->empty_ns || gap_ns > o->period_ns) {
			if (gap_ns < before_ns - o->empty_ns)
				gap_ns = before_ns - o->empty_ns;
			if (gap_ns > w->wake_ns - o->empty_ns)
				gap_ns = w->wake_ns - o->empty_ns;
			xrun(o, o->empty_ns, gap_ns);
			o->xrun_account++;
			w->boundary_ns = o->next_due_ns < w->wake_ns ? o->next_due_ns : w->wake_ns;
			o->bound_account++;
			/* the driver restarted the stream with our fragment: a new frame clock */
			o->written_bytes = o->buffer_bytes - avail;
			al_grid_start(&o->grid, o->rate_hz);
			return 0;
		}
	}
	/* played since a fragment came free: the free space after our write */
	fill_ns = at_ns - bytes_ns(o, avail);
	if (fill_ns < w->wake_ns && fill_ns <= o->next_due_ns) {
		w->boundary_ns = fill_ns;
		o->bound_fill++;
	} else if (o->next_due_ns < w->wake_ns) {
		w->boundary_ns = o->next_due_ns;
		o->bound_account++;
	} else {
		/*
		 * Neither reading is older than the wake-up (a pointer that
		 * moves at interrupts): when the device's frame clock freed
		 * our fragment's space, by the grid.
		 */
		w->boundary_ns = al_grid_boundary(&o->grid,
						  (o->written_bytes - o->buffer_bytes) / o->frame_bytes,
						  w->wake_ns);
		o->bound_grid++;
	}
	return 0;
}

/*
 * Hot path: an underrun seen at the write (src: a drained buffer by our
 * account, or the driver's GETERROR), from empty_ns (when the audio ran
 * out) to at_ns.
 */
static void
driver_xrun(struct oss *o, int64_t empty_ns, int64_t at_ns, enum al_xrun_source src,
	    struct al_write_info *wi)
{
	int64_t start_ns = empty_ns < at_ns ? empty_ns : at_ns;

	xrun(o, start_ns, at_ns - start_ns);
	al_grid_start(&o->grid, o->rate_hz);
	wi->xrun_source = src;
	wi->xrun_start_ns = o->xrun_start_ns;
	wi->xrun_ns = o->xrun_ns;
	wi->lost_periods = o->xrun_lost;
	wi->margin_ns = 0;
	o->xrun_start_ns = o->xrun_ns = o->xrun_lost = 0;
}

static int
oss_write(void *priv, int64_t now_ns, struct al_write_info *wi)
{
	struct oss *o = priv;
	struct oss_errinfo ei;
	int64_t at_ns;
	int avail, n, rc;

	(void)now_ns;
	wi->xrun_source = o->xrun_src;
	wi->xrun_start_ns = o->xrun_start_ns;
	wi->xrun_ns = o->xrun_ns;
	wi->lost_periods = o->xrun_lost;
	o->xrun_start_ns = o->xrun_ns = o->xrun_lost = 0;
	rc = free_bytes(o, &avail, &at_ns);
	if (rc)
		return rc;
	wi->margin_ns = wi->xrun_start_ns ? 0 : bytes_ns(o, o->buffer_bytes - avail);
	if (avail >= o->buffer_bytes && !wi->xrun_start_ns) {
		/*
		 * All free after our write of a fragment: the stream ran dry
		 * since (ALSA's emulation reports an overrun stream, or a
		 * pointer past ours, so); the top-up below restarts it.
		 * The wait's fragment, written since the account, played
		 * on for a period after the account's empty_ns
		 */
		driver_xrun(o, o->empty_ns + o->period_ns, at_ns, AL_XRUN_ACCOUNT, wi);
		o->xrun_state++;
	}
	/* OSS 4 clears its counters at every call: what it says is new since the last one */
	if (o->geterror && ioctl(o->fd, SNDCTL_DSP_GETERROR, &ei) == 0) {
		if (ei.play_underruns > 0 && !wi->xrun_start_ns) {
			/*
			 * the driver saw one our account missed (in the wait,
			 * before its fragment): it ended by now
			 */
			driver_xrun(o, o->empty_ns, at_ns, AL_XRUN_DEVICE, wi);
			o->xrun_geterror++;
		}
	}
	/* whole fragments into the free space (none when on time) */
	n = avail - avail % o->frag_bytes;
	if (n > 0) {
		rc = put(o, n);
		if (rc)
			return rc;
		avail -= n;
	}
	/* each fragment topped up came free without a wait of its own (an underrun: count by time) */
	wi->missed = n / o->frag_bytes;
	wi->missed_known = !wi->xrun_start_ns;
	account(o, avail, at_ns);
	return 0;
}

static int
oss_stop(void *priv)
{
	struct oss *o = priv;

	/* drop what is queued (SNDCTL_DSP_HALT) */
	if (o->fd >= 0)
		ioctl(o->fd, SNDCTL_DSP_RESET, NULL);
	return 0;
}

static void
oss_info(void *priv, struct al_backend_info *out)
{
	struct oss *o = priv;

	snprintf(out->detail, sizeof(out->detail), "%s", o->detail);
	snprintf(out->error, sizeof(out->error), "%s", o->error);
	if (o->bound_fill || o->bound_account || o->bound_grid)
		snprintf(out->clock, sizeof(out->clock), "no device stamps (OSS); boundaries: %llu "
			 "fill level, %llu account, %llu grid", (unsigned long long)o->bound_fill,
			 (unsigned long long)o->bound_account, (unsigned long long)o->bound_grid);
	out->bound_total = o->bound_fill + o->bound_account + o->bound_grid;
	out->bound_estimated = out->bound_total;
	out->bound_fitted = true;
	snprintf(out->bound_note, sizeof(out->bound_note),
		 "OSS has no stamps: the fill level (a lower bound), our account, or a frame clock "
		 "fitted to the wake-ups");
	snprintf(out->negative_note, sizeof(out->negative_note),
		 "a fill level read after the wake-up (the pointer had moved on)");
	out->xrun_fallback = o->xrun_account + o->xrun_state + o->xrun_geterror;
	if (out->xrun_fallback)
		snprintf(out->xrun_reject, sizeof(out->xrun_reject), "no stamps (OSS): %llu from the "
			 "fill level, %llu a drained buffer, %llu GETERROR",
			 (unsigned long long)o->xrun_account, (unsigned long long)o->xrun_state,
			 (unsigned long long)o->xrun_geterror);
}

/* The rest of the first line of path that starts with key, into out ("" when none). */
static void
read_field(const char *path, const char *key, char *out, size_t size)
{
	FILE *f = fopen(path, "re");
	char line[200];

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, strlen(key)))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(out, size, "%s", line + strlen(key));
		break;
	}
	fclose(f);
}

/* /dev/dsp, /dev/dsp1, ...: the OSS PCM devices, with their ALSA card. */
static int
oss_list(al_device_emit_fn emit, void *ud)
{
	struct dirent *de;
	DIR *d = opendir("/dev");
	int found = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char path[280], p[64], id[64], name[128], desc[200];
		struct stat st;
		unsigned int card;

		if (strncmp(de->d_name, "dsp", 3) || strspn(de->d_name + 3, "0123456789") !=
							     strlen(de->d_name + 3))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		if (stat(path, &st) < 0 || !S_ISCHR(st.st_mode))
			continue;
		desc[0] = '\0';
		if (major(st.st_rdev) == OSS_SOUND_MAJOR && minor(st.st_rdev) % 16 == OSS_MINOR_DSP) {
			card = minor(st.st_rdev) / 16;
			snprintf(p, sizeof(p), "/proc/asound/card%u/id", card);
			read_field(p, "", id, sizeof(id));
			snprintf(p, sizeof(p), "/proc/asound/card%u/pcm0p/info", card);
			read_field(p, "name: ", name, sizeof(name));
			if (id[0])
				snprintf(desc, sizeof(desc), "ALSA card %u (%.40s)%s%.100s", card, id,
					 name[0] ? ", " : "", name);
		}
		emit(ud, &(struct al_device){
				 .kind = "oss-dsp",
				 .name = path,
				 .description = desc,
				 .detail = "playback",
			 });
		found++;
	}
	closedir(d);
	(void)found;
	return 0;
}

const struct al_backend_ops al_backend_oss = {
	.name = "oss",
	.summary = "an OSS device (/dev/dsp: ALSA's OSS emulation) with fragments and blocking writes",
	.caps = AL_CAP_NEAREST | AL_CAP_DEVICE, /* playback, blocking writes */
	.priv_size = sizeof(struct oss),
	.open = oss_open,
	.start = oss_start,
	.wait = oss_wait,
	.write = oss_write,
	.stop = oss_stop,
	.close = oss_close,
	.info = oss_info,
	.list = oss_list,
};
