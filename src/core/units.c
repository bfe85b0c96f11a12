/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "units.h"

static const struct {
	const char *name;
	int64_t ns;
} units[] = {
	{ "ns", 1 },
	{ "us", AL_NS_PER_US },
	{ "ms", AL_NS_PER_MS },
	{ "s", AL_NS_PER_SEC },
	{ "m", 60 * AL_NS_PER_SEC },
	{ "min", 60 * AL_NS_PER_SEC },
	{ "h", 3600 * AL_NS_PER_SEC },
};

int
al_parse_duration_ns(const char *s, int64_t default_unit_ns, int64_t *out_ns)
{
	int64_t whole = 0, frac = 0, frac_div = 1, unit_ns = 0, frac_ns, r;
	const char *p = s;
	int digits = 0;
	size_t i;

	if (!s)
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++, digits++) {
		if (whole > (INT64_MAX - (*p - '0')) / 10)
			return -ERANGE;
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		p++;
		for (; isdigit((unsigned char)*p); p++, digits++) {
			/* digits past ns precision of any unit carry no weight */
			if (frac_div <= AL_NS_PER_SEC * 1000) {
				frac = frac * 10 + (*p - '0');
				frac_div *= 10;
			}
		}
	}
	if (!digits)
		return -EINVAL;
	if (!*p) {
		if (!default_unit_ns)
			return -EINVAL;
		unit_ns = default_unit_ns;
	} else {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcmp(p, units[i].name))
				unit_ns = units[i].ns;
		if (!unit_ns)
			return -EINVAL;
	}
	if (whole > INT64_MAX / unit_ns)
		return -ERANGE;
	r = whole * unit_ns;
	/* frac / frac_div * unit_ns, exact up to 1 ns (frac_div <= 1e13, unit <= 3.6e12) */
	frac_ns = (int64_t)((__int128)frac * unit_ns / frac_div);
	if (frac_ns > INT64_MAX - r)
		return -ERANGE;
	r += frac_ns;
	*out_ns = r;
	return 0;
}

int
al_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

void
al_format_duration(int64_t t_ns, char *buf, size_t size)
{
	int64_t a = t_ns < 0 ? -t_ns : t_ns;

	if (a < 10 * AL_NS_PER_US)
		snprintf(buf, size, "%lld ns", (long long)t_ns);
	else if (a < 10 * AL_NS_PER_MS)
		snprintf(buf, size, "%.1f us", (double)t_ns / AL_NS_PER_US);
	else if (a < 10 * AL_NS_PER_SEC)
		snprintf(buf, size, "%.3f ms", (double)t_ns / AL_NS_PER_MS);
	else
		snprintf(buf, size, "%.3f s", (double)t_ns / AL_NS_PER_SEC);
}

int
al_parse_fragments(const char *arg, int *periods, int64_t *period_frames, char *err,
		   size_t err_size)
{
	const char *x = strchr(arg, 'x');
	char n_text[16];
	long n, bytes;

	if (!x || x == arg || (size_t)(x - arg) >= sizeof(n_text)) {
		snprintf(err, err_size, "--fragments: '%s' is not NxBYTES (e.g. 3x256)", arg);
		return -EINVAL;
	}
	memcpy(n_text, arg, (size_t)(x - arg));
	n_text[x - arg] = '\0';
	if (al_parse_long(n_text, 2, 1024, &n) || al_parse_long(x + 1, 4, 4194304, &bytes)) {
		snprintf(err, err_size, "--fragments: '%s' is not NxBYTES with N 2..1024 and BYTES "
			 "4..4194304", arg);
		return -EINVAL;
	}
	if (bytes % 4) {
		snprintf(err, err_size, "--fragments: '%s': BYTES is not whole 16-bit stereo frames "
			 "(a multiple of 4)", arg);
		return -EINVAL;
	}
	*periods = (int)n;
	*period_frames = bytes / 4;
	return 0;
}
