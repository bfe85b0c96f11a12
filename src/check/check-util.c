/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The helpers every check uses: paths and files below the root (regular
 * files only, so a FIFO or device in a fixture cannot block us), numbers,
 * lines, the kernel config and command line, capabilities, and the
 * result's one-line message. They call nothing else of src/check.
 */
#define AL_CHECK_INTERNAL
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/sysinfo.h"
#include "core/text.h"
#include "check-private.h"

#define LINE_MAX_BYTES 32768
#define FILE_MAX_BYTES (64L << 20) /* stop reading a (garbage) file after this */

int
al__check_path(const struct check_ctx *c, char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(c->prefix);
	va_list ap;
	int n;

	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, c->prefix, len);
	va_start(ap, fmt);
	n = vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - len)
		return -ENAMETOOLONG;
	return 0;
}

/* Open a regular file below the root for reading, without blocking on FIFOs. */
static int
open_regular(const struct check_ctx *c, const char *path)
{
	return al_open_regular(c->prefix, path);
}

int
al__check_read(const struct check_ctx *c, const char *path, char *buf, size_t size)
{
	int fd;

	if (!size)
		return -EINVAL;
	buf[0] = '\0';
	fd = open_regular(c, path);
	if (fd < 0)
		return fd;
	close(fd);
	return al_read_file(c->root, path, buf, size);
}

bool
al__check_parse_long(const char *s, long *out)
{
	char *end;
	long v;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return false;
	*out = v;
	return true;
}

int
al__check_read_long(const struct check_ctx *c, const char *path, long *out)
{
	char buf[64];
	int rc = al__check_read(c, path, buf, sizeof(buf));

	if (rc < 0)
		return rc;
	return al__check_parse_long(buf, out) ? 0 : -EINVAL;
}

int
al__check_lines(const struct check_ctx *c, const char *path, al__check_line_fn fn, void *data)
{
	char *line;
	long total = 0;
	FILE *f;
	int fd, rc = 0;
	bool skipping = false;

	fd = open_regular(c, path);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		rc = -errno;
		close(fd);
		return rc;
	}
	line = malloc(LINE_MAX_BYTES);
	if (!line) {
		fclose(f);
		return -ENOMEM;
	}
	while (fgets(line, LINE_MAX_BYTES, f)) {
		size_t len = strlen(line);
		bool complete = len && line[len - 1] == '\n';

		total += (long)len;
		if (total > FILE_MAX_BYTES)
			break;
		/* an over-long line is dropped whole: its pieces would misparse */
		if (skipping || (!complete && len == LINE_MAX_BYTES - 1)) {
			skipping = !complete;
			continue;
		}
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (fn(line, data))
			break;
	}
	free(line);
	fclose(f);
	return rc;
}

struct config_find {
	const char *key;
	size_t klen;
	char *val;
	size_t size;
	bool found;
};

static int
config_line(char *line, void *data)
{
	struct config_find *cf = data;

	if (!strncmp(line, cf->key, cf->klen) && line[cf->klen] == '=') {
		snprintf(cf->val, cf->size, "%s", line + cf->klen + 1);
		cf->found = true;
		return 1;
	}
	if (!strncmp(line, "# ", 2) && !strncmp(line + 2, cf->key, cf->klen) &&
	    !strcmp(line + 2 + cf->klen, " is not set")) {
		snprintf(cf->val, cf->size, "n");
		cf->found = true;
		return 1;
	}
	return 0;
}

int
al__check_config(const struct check_ctx *c, const char *key, char *val, size_t size)
{
	struct config_find cf = { .key = key, .klen = strlen(key), .val = val, .size = size };
	char path[128];
	int rc;

	if (size)
		val[0] = '\0';
	if (!c->release[0] || strchr(c->release, '/'))
		return -ENOENT;
	snprintf(path, sizeof(path), "/boot/config-%s", c->release);
	rc = al__check_lines(c, path, config_line, &cf);
	if (rc < 0)
		return rc;
	return cf.found ? 1 : 0;
}

bool
al__check_cmdline(const struct check_ctx *c, const char *name, char *val, size_t size)
{
	size_t nlen = strlen(name);
	const char *p = c->cmdline;
	bool found = false;

	if (size)
		val[0] = '\0';
	if (!c->have_cmdline)
		return false;
	while (*p) {
		size_t tlen;

		while (isspace((unsigned char)*p))
			p++;
		tlen = strcspn(p, " \t\n");
		if (!tlen)
			break;
		if (tlen == 2 && !strncmp(p, "--", 2))
			break; /* the rest is for init */
		if (tlen >= nlen && !strncmp(p, name, nlen) && (tlen == nlen || p[nlen] == '=')) {
			found = true; /* the last one wins, as in the kernel */
			if (size) {
				size_t vlen = tlen > nlen ? tlen - nlen - 1 : 0;

				if (vlen >= size)
					vlen = size - 1;
				memcpy(val, p + nlen + (tlen > nlen), vlen);
				val[vlen] = '\0';
			}
		}
		p += tlen;
	}
	return found;
}

bool
al__check_is_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

bool
al__check_has_cap(const struct check_ctx *c, int cap)
{
	if (c->id.caps_known)
		return (c->id.cap_eff >> cap) & 1;
	return c->id.known && c->id.uid == 0;
}

void
al__check_set(struct al_syscheck *r, const char *status, const char *fix, const char *fmt, ...)
{
	va_list ap;
	int n;

	snprintf(r->status, sizeof(r->status), "%s", status);
	va_start(ap, fmt);
	n = vsnprintf(r->message, sizeof(r->message), fmt, ap);
	va_end(ap);
	if (n < 0)
		r->message[0] = '\0';
	else if ((size_t)n >= sizeof(r->message))
		memcpy(r->message + sizeof(r->message) - 4, "...", 4);
	/* one line of printable ASCII (JSON needs valid UTF-8) */
	al_text_ascii_safe(r->message, r->message, sizeof(r->message));
	snprintf(r->fix, sizeof(r->fix), "%s", fix ? fix : "");
	al_text_ascii_safe(r->fix, r->fix, sizeof(r->fix));
}

/* "0-3,8,10-11" from a sorted list; ends in "..." when it does not fit. */
void
al__check_cpu_ranges(const int *cpus, int n, char *buf, size_t size)
{
	size_t len = 0;
	int i = 0;

	if (!size)
		return;
	buf[0] = '\0';
	while (i < n) {
		int j = i;
		char part[32];
		size_t plen;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j == i)
			snprintf(part, sizeof(part), "%s%d", len ? "," : "", cpus[i]);
		else
			snprintf(part, sizeof(part), "%s%d-%d", len ? "," : "", cpus[i], cpus[j]);
		plen = strlen(part);
		if (len + plen + 4 >= size) {
			snprintf(buf + len, size - len, "%s", size - len > 3 ? "..." : "");
			return;
		}
		memcpy(buf + len, part, plen + 1);
		len += plen;
		i = j + 1;
	}
}
