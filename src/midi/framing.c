/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#if __has_include(<sound/asound.h>)
#include <sound/asound.h>
#endif

#include "framing.h"

int
al_rawmidi_frame_decode(const uint8_t *p, struct al_rawmidi_frame *out)
{
	uint32_t nsec;
	uint64_t sec;

	if (p[0] != AL_RAWMIDI_FRAME_TSTAMP)
		return 0;
	if (p[1] == 0 || p[1] > AL_RAWMIDI_FRAME_DATA)
		return -EINVAL;
	memcpy(&nsec, p + 4, sizeof(nsec));
	memcpy(&sec, p + 8, sizeof(sec));
	if (nsec >= 1000000000u || sec > (uint64_t)(INT64_MAX / 1000000000 - 1))
		return -EINVAL;
	out->t_ns = (int64_t)sec * 1000000000 + nsec;
	out->len = p[1];
	memset(out->data, 0, sizeof(out->data));
	memcpy(out->data, p + 16, out->len);
	return 1;
}

int
al_rawmidi_frames_parse(const uint8_t *buf, size_t len, struct al_midi_stream *s,
			void (*cb)(void *ud, const struct al_midi_msg *m), void *ud,
			size_t *bad_offset)
{
	struct al_rawmidi_frame f;
	struct al_midi_msg m;
	size_t off;
	int rc, n = 0, i;

	if (len % AL_RAWMIDI_FRAME_BYTES) {
		if (bad_offset)
			*bad_offset = len - len % AL_RAWMIDI_FRAME_BYTES;
		return -EINVAL;
	}
	for (off = 0; off < len; off += AL_RAWMIDI_FRAME_BYTES) {
		rc = al_rawmidi_frame_decode(buf + off, &f);
		if (rc < 0) {
			if (bad_offset)
				*bad_offset = off;
			return rc;
		}
		if (!rc)
			continue;
		for (i = 0; i < f.len; i++) {
			if (al_midi_stream_byte(s, f.data[i], f.t_ns, &m)) {
				n++;
				if (cb)
					cb(ud, &m);
			}
		}
	}
	return n;
}

#if defined(SNDRV_RAWMIDI_IOCTL_PARAMS) && defined(SNDRV_RAWMIDI_IOCTL_USER_PVERSION)
int
al_rawmidi_kernel_open(int card, int dev, unsigned clock_mode)
{
	struct snd_rawmidi_params params;
	int fd, pversion = 0, user = SNDRV_PROTOCOL_VERSION(2, 0, 2), rc;
	char path[64];

	snprintf(path, sizeof(path), "/dev/snd/midiC%dD%d", card, dev);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_PVERSION, &pversion) ||
	    pversion < SNDRV_PROTOCOL_VERSION(2, 0, 2) ||
	    ioctl(fd, SNDRV_RAWMIDI_IOCTL_USER_PVERSION, &user)) {
		close(fd);
		return -ENOTSUP;
	}
	memset(&params, 0, sizeof(params));
	params.stream = SNDRV_RAWMIDI_STREAM_INPUT;
	params.buffer_size = 4096;
	params.avail_min = AL_RAWMIDI_FRAME_BYTES;
	params.mode = AL_RAWMIDI_MODE_FRAMING_TSTAMP | clock_mode;
	if (ioctl(fd, SNDRV_RAWMIDI_IOCTL_PARAMS, &params)) {
		rc = errno == EINVAL ? -ENOTSUP : -errno;
		close(fd);
		return rc;
	}
	return fd;
}
#else
int
al_rawmidi_kernel_open(int card, int dev, unsigned clock_mode)
{
	(void)card;
	(void)dev;
	(void)clock_mode;
	return -ENOTSUP; /* kernel headers older than Linux 5.14 */
}
#endif
