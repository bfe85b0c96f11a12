/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fake OSS playback device for the OSS backend's host tests, loaded with
 * LD_PRELOAD. It answers for one path, $FAKE_OSS_PATH (the file need not
 * exist and is never created): stat() says a character device (14, 3: the
 * sound core's /dev/dsp), open() hands out a real descriptor of /dev/null
 * whose fcntl(), ioctl(), write() and close() are answered here; every other
 * path and descriptor goes to libc.
 *
 * The card is simulated the way ALSA's OSS emulation (snd-pcm-oss) behaves:
 *   - SNDCTL_DSP_SETFRAGMENT's power of two (times $FAKE_OSS_FRAG_SCALE: 2
 *     doubles it, as the emulation does on HDA) and fragment count, the
 *     format (S16_LE only), channels and rate; SNDCTL_DSP_GETOSPACE;
 *   - the play pointer advances with CLOCK_MONOTONIC from the write that
 *     starts the stream, smoothly or, with FAKE_OSS_COARSE=1, in whole
 *     fragments (a pointer that moves only at period interrupts);
 *   - a blocking write sleeps until a fragment (or what it still has) fits;
 *   - when the pointer reaches all that was written the stream stops (an
 *     underrun): GETOSPACE then says all free, and the next write
 *     restarts the stream, silently;
 *   - SNDCTL_DSP_GETERROR only with FAKE_OSS_GETERROR=1 (else EINVAL, as
 *     the emulation): play_underruns since the previous call (OSS 4 clears
 *     its counters on every call).
 * $FAKE_OSS_LOG, when set, gets a line "start NS" when a write starts the
 * stream, "underrun RAN_OUT_NS RESTART_NS" when one restarts it after an
 * underrun: the truth to hold the backend's figures to.
 * The libc symbols are those audiolat imports with -D_FILE_OFFSET_BITS=64
 * on glibc 2.36: stat64, open64, fcntl64, ioctl, write, close.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/soundcard.h>

#include "core/clock.h"

/* OSS 4's audio_errinfo: play_underruns first, 26 ints in all (as src/backend/oss.c) */
struct errinfo {
	int play_underruns;
	int other[9];
	int filler[16];
};
_Static_assert(sizeof(struct errinfo) == 26 * sizeof(int), "OSS 4's audio_errinfo is 26 ints");
#define FAKE_DSP_GETERROR _IOR('P', 25, struct errinfo)

static struct {
	int (*stat64)(const char *, struct stat64 *);
	int (*open64)(const char *, int, ...);
	int (*fcntl64)(int, int, ...);
	int (*ioctl)(int, unsigned long, ...);
	ssize_t (*write)(int, const void *, size_t);
	int (*close)(int);
} real;

static const char *fake_path;  /* NULL: no fake device */
static const char *log_path;   /* NULL: no log */
static bool coarse, geterror;
static int frag_scale = 1;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int fake_fd = -1;       /* the open fake (atomic loads): -1 when closed */

/* the card, under lock */
static struct {
	bool nonblock;
	int rate, channels, sample_bytes, frag_bytes, frags;
	bool running;
	int64_t start_ns;      /* when the stream (re)started */
	int64_t written;       /* bytes written since */
	int64_t ran_out_ns;    /* stopped by an underrun: when the audio ran out, else 0 */
	int underruns;         /* since the last GETERROR */
} card;

static void
init(void)
{
	const char *s;

	real.stat64 = dlsym(RTLD_NEXT, "stat64");
	real.open64 = dlsym(RTLD_NEXT, "open64");
	real.fcntl64 = dlsym(RTLD_NEXT, "fcntl64");
	real.ioctl = dlsym(RTLD_NEXT, "ioctl");
	real.write = dlsym(RTLD_NEXT, "write");
	real.close = dlsym(RTLD_NEXT, "close");
	s = getenv("FAKE_OSS_PATH");
	fake_path = s && s[0] ? s : NULL;
	s = getenv("FAKE_OSS_LOG");
	log_path = s && s[0] ? s : NULL;
	s = getenv("FAKE_OSS_COARSE");
	coarse = s && !strcmp(s, "1");
	s = getenv("FAKE_OSS_GETERROR");
	geterror = s && !strcmp(s, "1");
	s = getenv("FAKE_OSS_FRAG_SCALE");
	if (s && atoi(s) >= 1 && atoi(s) <= 16)
		frag_scale = atoi(s);
}

static bool
is_fake_path(const char *path)
{
	pthread_once(&once, init);
	return fake_path && !strcmp(path, fake_path);
}

static bool
is_fake_fd(int fd)
{
	pthread_once(&once, init);
	return fd >= 0 && fd == __atomic_load_n(&fake_fd, __ATOMIC_ACQUIRE);
}

static int
fail(int e)
{
	errno = e;
	return -1;
}

static int
frame_bytes(void)
{
	return card.sample_bytes * card.channels;
}

static int64_t
buffer_bytes(void)
{
	return (int64_t)card.frag_bytes * card.frags;
}

/* Bytes played since the stream started, at t_ns (coarse: whole fragments). */
static int64_t
played(int64_t t_ns)
{
	int64_t bytes = al_ns_to_frames(t_ns - card.start_ns, card.rate) * frame_bytes();

	return coarse ? bytes - bytes % card.frag_bytes : bytes;
}

/* When the pointer reaches bytes (the inverse of played()). */
static int64_t
time_at(int64_t bytes)
{
	int64_t frames;

	if (coarse)
		bytes = (bytes + card.frag_bytes - 1) / card.frag_bytes * card.frag_bytes;
	frames = (bytes + frame_bytes() - 1) / frame_bytes();
	return card.start_ns + al_frames_to_ns_ceil(frames, card.rate);
}

/* The pointer at t_ns: past all that was written, the stream stops (an underrun). */
static void
update(int64_t t_ns)
{
	if (card.running && played(t_ns) >= card.written) {
		card.ran_out_ns = time_at(card.written);
		card.running = false;
		card.written = 0;
		card.underruns++;
	}
}

/* Free bytes at t_ns: all of the buffer while the stream is stopped. */
static int64_t
space(int64_t t_ns)
{
	update(t_ns);
	return buffer_bytes() - (card.running ? card.written - played(t_ns) : 0);
}

/* The stream (re)started by a write at t_ns: a line in the log. */
static void
log_start(int64_t t_ns)
{
	char line[80];
	int fd, len;

	if (!log_path)
		return;
	fd = real.open64(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (card.ran_out_ns)
		len = snprintf(line, sizeof(line), "underrun %lld %lld\n",
			       (long long)card.ran_out_ns, (long long)t_ns);
	else
		len = snprintf(line, sizeof(line), "start %lld\n", (long long)t_ns);
	real.write(fd, line, (size_t)len);
	real.close(fd);
}

static ssize_t
fake_write(size_t n)
{
	int64_t left = (int64_t)n, t_ns, chunk, deadline_ns;

	pthread_mutex_lock(&lock);
	while (left > 0) {
		t_ns = al_clock_now_ns();
		chunk = space(t_ns);
		if (!card.running) {
			/* the first write, or the one after an underrun: (re)start */
			log_start(t_ns);
			card.ran_out_ns = 0;
			card.running = true;
			card.start_ns = t_ns;
			card.written = 0;
		}
		if (chunk > left)
			chunk = left;
		if (chunk > 0) {
			card.written += chunk;
			left -= chunk;
			continue;
		}
		if (card.nonblock) {
			if (left < (int64_t)n)
				break;
			pthread_mutex_unlock(&lock);
			return fail(EAGAIN);
		}
		/* sleep until a fragment (or the rest) is free */
		deadline_ns = time_at(card.written - buffer_bytes() +
				      (left < card.frag_bytes ? left : card.frag_bytes));
		pthread_mutex_unlock(&lock);
		al_clock_sleep_until_ns(deadline_ns);
		pthread_mutex_lock(&lock);
	}
	pthread_mutex_unlock(&lock);
	return (ssize_t)n - (ssize_t)left;
}

static int
fake_ioctl(unsigned long req, void *arg)
{
	int *val = arg, shift, count;
	audio_buf_info *bi = arg;
	struct errinfo *ei = arg;
	int64_t avail;

	switch (req) {
	case SNDCTL_DSP_SETFRAGMENT:
		shift = *val & 0xffff;
		count = *val >> 16;
		shift = shift < 4 ? 4 : shift > 16 ? 16 : shift;
		card.frag_bytes = (1 << shift) * frag_scale;
		card.frags = count < 2 ? 2 : count > 1024 ? 1024 : count;
		return 0;
	case SNDCTL_DSP_SETFMT:
		/* 16-bit little-endian only: any request gets it */
		*val = AFMT_S16_LE;
		card.sample_bytes = 2;
		return 0;
	case SNDCTL_DSP_CHANNELS:
		*val = *val < 1 ? 1 : *val > 8 ? 8 : *val;
		card.channels = *val;
		return 0;
	case SNDCTL_DSP_SPEED:
		*val = *val < 8000 ? 8000 : *val > 192000 ? 192000 : *val;
		card.rate = *val;
		return 0;
	case SNDCTL_DSP_GETOSPACE:
		avail = space(al_clock_now_ns());
		bi->bytes = (int)avail;
		bi->fragments = (int)(avail / card.frag_bytes);
		bi->fragstotal = card.frags;
		bi->fragsize = card.frag_bytes;
		return 0;
	case FAKE_DSP_GETERROR:
		if (!geterror)
			return fail(EINVAL);
		update(al_clock_now_ns());
		memset(ei, 0, sizeof(*ei));
		ei->play_underruns = card.underruns;
		card.underruns = 0;
		return 0;
	case SNDCTL_DSP_RESET:
		card.running = false;
		card.written = 0;
		card.ran_out_ns = 0;
		return 0;
	default:
		return fail(EINVAL);
	}
}

int
stat64(const char *path, struct stat64 *st)
{
	if (!is_fake_path(path))
		return real.stat64 ? real.stat64(path, st) : fail(ENOSYS);
	memset(st, 0, sizeof(*st));
	st->st_mode = S_IFCHR | 0660;
	st->st_rdev = makedev(14, 3);
	st->st_nlink = 1;
	st->st_uid = getuid();
	st->st_gid = getgid();
	return 0;
}

int
open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;
	int fd;

	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (!is_fake_path(path))
		return real.open64 ? real.open64(path, flags, mode) : fail(ENOSYS);
	pthread_mutex_lock(&lock);
	if (fake_fd >= 0) {
		pthread_mutex_unlock(&lock);
		return fail(EBUSY);
	}
	fd = real.open64("/dev/null", O_WRONLY | (flags & (O_CLOEXEC | O_NONBLOCK)));
	if (fd >= 0) {
		/* OSS's defaults: 8 kHz, mono, 8-bit; 16 fragments of 4 KiB */
		memset(&card, 0, sizeof(card));
		card.nonblock = flags & O_NONBLOCK;
		card.rate = 8000;
		card.channels = 1;
		card.sample_bytes = 1;
		card.frag_bytes = 4096;
		card.frags = 16;
		__atomic_store_n(&fake_fd, fd, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lock);
	return fd;
}

int
fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;
	bool fake;
	int rc;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	fake = is_fake_fd(fd);
	if (!real.fcntl64)
		return fail(ENOSYS);
	rc = real.fcntl64(fd, cmd, arg);
	if (rc >= 0 && cmd == F_SETFL && fake) {
		pthread_mutex_lock(&lock);
		card.nonblock = (intptr_t)arg & O_NONBLOCK;
		pthread_mutex_unlock(&lock);
	}
	return rc;
}

int
ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	int rc;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!is_fake_fd(fd))
		return real.ioctl ? real.ioctl(fd, req, arg) : fail(ENOSYS);
	pthread_mutex_lock(&lock);
	rc = fake_ioctl(req, arg);
	pthread_mutex_unlock(&lock);
	return rc;
}

ssize_t
write(int fd, const void *buf, size_t n)
{
	if (!is_fake_fd(fd))
		return real.write ? real.write(fd, buf, n) : fail(ENOSYS);
	return fake_write(n);
}

int
close(int fd)
{
	if (is_fake_fd(fd)) {
		pthread_mutex_lock(&lock);
		__atomic_store_n(&fake_fd, -1, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&lock);
	}
	return real.close ? real.close(fd) : fail(ENOSYS);
}
