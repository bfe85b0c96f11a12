/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Phase specs ("idle:10s,hackbench+disk-read:30s") and presets. */
#define AL_LOAD_PRIVATE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/units.h"
#include "load-private.h"

static const struct {
	const char *name;
	const char *spec;
} presets[] = {
	/* latencytest's phases (X11 left out), then hackbench, which it lacked */
	{ "latencytest", "idle,procfs,disk-write,disk-copy,disk-read,hackbench" },
	/* the same in 42 s, for `make run` */
	{ "latencytest-short",
	  "idle:5s,procfs:5s,disk-write:8s,disk-copy:8s,disk-read:8s,hackbench:8s" },
};

#define N_PRESETS (sizeof(presets) / sizeof(presets[0]))

const char *
al_load_preset_name(size_t i)
{
	return i < N_PRESETS ? presets[i].name : NULL;
}

const char *
al_load_preset_spec(size_t i)
{
	return i < N_PRESETS ? presets[i].spec : NULL;
}

struct parse {
	struct al_phase_spec *ph;
	int *group;           /* 0: shares total_ns; g > 0: preset instance g */
	int64_t *group_ns;    /* time given to preset instance g, 0: none */
	size_t n;
	int n_groups;
	char *err;
	size_t err_size;
};

static int
fail(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
fail(struct parse *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, p->err_size, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void
load_names(char *buf, size_t size)
{
	const struct al_load_ops *ops;
	size_t i, len = 0;

	buf[0] = 0;
	for (i = 0; (ops = al_load_get(i)) && len + 1 < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
					ops->name);
	for (i = 0; i < N_PRESETS && len + 1 < size; i++)
		len += (size_t)snprintf(buf + len, size - len, ", %s", presets[i].name);
}

/* Copy [s, e) trimmed into a new string. */
static char *
dup_trim(const char *s, const char *e)
{
	char *r;

	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	r = malloc((size_t)(e - s) + 1);
	if (r) {
		memcpy(r, s, (size_t)(e - s));
		r[e - s] = 0;
	}
	return r;
}

/* End of the top-level item starting at s: the next ',' outside quotes, or the NUL. */
static const char *
item_end(const char *s, char *open_quote)
{
	char q = 0;

	for (; *s; s++) {
		if (q) {
			if (*s == q)
				q = 0;
		} else if (*s == '\'' || *s == '"') {
			q = *s;
		} else if (*s == ',') {
			break;
		}
	}
	*open_quote = q;
	return s;
}

static int
parse_time(struct parse *p, const char *item, const char *t, int64_t *out_ns)
{
	int r;

	while (isspace((unsigned char)*t))
		t++;
	r = al_parse_duration_ns(t, AL_NS_PER_SEC, out_ns);
	if (r == -ERANGE)
		return fail(p, "load spec '%s': time '%s' is too large", item, t);
	if (r)
		return fail(p, "load spec '%s': malformed time '%s' (e.g. 30s, 500ms, 2m)", item,
			    t);
	if (*out_ns <= 0)
		return fail(p, "load spec '%s': time '%s' must be more than 0", item, t);
	return 0;
}

static int parse_list(struct parse *p, const char *spec, int group, int depth);

/* One load at *s (a name, or cmd:COMMAND); advances *s. */
static int
parse_load(struct parse *p, const char *item, const char **s, struct al_phase_spec *ph)
{
	const char *q = *s, *start;
	const struct al_load_ops *ops;
	struct al_load_item *li;
	char name[32], names[256], quote;
	size_t len;

	while (isspace((unsigned char)*q))
		q++;
	start = q;
	while (isalnum((unsigned char)*q) || *q == '-' || *q == '_')
		q++;
	len = (size_t)(q - start);
	if (!len)
		return fail(p, "load spec '%s': a load name is missing", item);
	if (len >= sizeof(name)) {
		load_names(names, sizeof(names));
		return fail(p, "load spec '%s': unknown load '%.*s' (known: %s)", item, (int)len,
			    start, names);
	}
	memcpy(name, start, len);
	name[len] = 0;
	ops = al_load_find(name);
	if (!ops) {
		load_names(names, sizeof(names));
		return fail(p, "load spec '%s': unknown load '%s' (known: %s)", item, name, names);
	}
	if (ph->n_loads >= AL_LOAD_PHASE_LOADS)
		return fail(p, "load spec '%s': more than %d loads in one phase", item,
			    AL_LOAD_PHASE_LOADS);
	li = &ph->loads[ph->n_loads];
	memset(li, 0, sizeof(*li));
	li->ops = ops;
	while (isspace((unsigned char)*q))
		q++;
	if (ops->needs_arg) {
		if (*q != ':')
			return fail(p, "load spec '%s': %s needs a command: %s:'COMMAND'", item,
				    name, name);
		q++;
		while (isspace((unsigned char)*q))
			q++;
		if (*q == '\'' || *q == '"') {
			quote = *q++;
			start = q;
			while (*q && *q != quote)
				q++;
			if (!*q)
				return fail(p, "load spec '%s': unterminated %c", item, quote);
			len = (size_t)(q - start);
			q++;
		} else {
			start = q;
			while (*q && *q != ',' && *q != '+' && *q != ':')
				q++;
			len = (size_t)(q - start);
			while (len && isspace((unsigned char)start[len - 1]))
				len--;
		}
		if (!len)
			return fail(p, "load spec '%s': %s has an empty command", item, name);
		if (len >= sizeof(li->arg))
			return fail(p, "load spec '%s': the command is longer than %d bytes", item,
				    AL_LOAD_ARG_MAX - 1);
		memcpy(li->arg, start, len);
		li->arg[len] = 0;
	}
	ph->n_loads++;
	*s = q;
	return 0;
}

static int
add_phase(struct parse *p, struct al_phase_spec **out)
{
	if (p->n >= AL_LOAD_PHASES_MAX)
		return fail(p, "load spec: more than %d phases", AL_LOAD_PHASES_MAX);
	*out = &p->ph[p->n];
	memset(*out, 0, sizeof(**out));
	return 0;
}

static int
parse_item(struct parse *p, const char *item, int group, int depth)
{
	const char *s = item, *colon;
	struct al_phase_spec *ph = NULL;
	bool idle = false;
	size_t i, len;
	int64_t t_ns;
	int r, j, g;

	if (!*item)
		return fail(p, "load spec: empty phase (two commas, or a comma at an end)");
	/* a preset, alone or with ":TIME" */
	colon = strchr(item, ':');
	len = colon ? (size_t)(colon - item) : strlen(item);
	for (i = 0; i < N_PRESETS; i++) {
		if (strlen(presets[i].name) != len || strncmp(item, presets[i].name, len))
			continue;
		if (depth > 0)
			return fail(p, "load spec: presets do not nest");
		g = ++p->n_groups;
		p->group_ns[g] = 0;
		if (colon) {
			r = parse_time(p, item, colon + 1, &t_ns);
			if (r)
				return r;
			p->group_ns[g] = t_ns;
		}
		r = parse_list(p, presets[i].spec, colon ? g : group, depth + 1);
		if (r)
			return r;
		return 0;
	}

	r = add_phase(p, &ph);
	if (r)
		return r;
	for (;;) {
		r = parse_load(p, item, &s, ph);
		if (r)
			return r;
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '+') {
			s++;
			continue;
		}
		break;
	}
	if (*s == ':') {
		r = parse_time(p, item, s + 1, &ph->duration_ns);
		if (r)
			return r;
		ph->duration_given = true;
	} else if (*s) {
		return fail(p, "load spec '%s': unexpected '%s' (join loads with +, add a time with :30s)",
			    item, s);
	}
	/* the name: the loads joined with '+' */
	len = 0;
	for (j = 0; j < ph->n_loads; j++) {
		if (ph->loads[j].ops == &al_load_idle)
			idle = true;
		len += (size_t)snprintf(ph->name + len, len < sizeof(ph->name) ? sizeof(ph->name) - len : 0,
					"%s%s", j ? "+" : "", ph->loads[j].ops->name);
		if (len >= sizeof(ph->name))
			len = sizeof(ph->name) - 1;
	}
	if (idle) {
		if (ph->n_loads > 1)
			return fail(p, "load spec '%s': idle cannot be combined with other loads",
				    item);
		ph->n_loads = 0;
	}
	p->group[p->n] = group;
	p->n++;
	return 0;
}

static int
parse_list(struct parse *p, const char *spec, int group, int depth)
{
	const char *s = spec, *e;
	char quote, *item;
	int r;

	for (;;) {
		e = item_end(s, &quote);
		if (quote)
			return fail(p, "load spec '%s': unterminated %c", spec, quote);
		item = dup_trim(s, e);
		if (!item)
			return -ENOMEM;
		r = parse_item(p, item, group, depth);
		free(item);
		if (r)
			return r;
		if (!*e)
			return 0;
		s = e + 1;
	}
}

/* Give the untimed phases of group g an equal share of total_ns. */
static int
share(struct parse *p, int g, int64_t total_ns, const char *what)
{
	int64_t timed_ns = 0, left_ns, each_ns, rem_ns;
	size_t i, untimed = 0, k = 0;
	const char *first = NULL;

	for (i = 0; i < p->n; i++) {
		/* -d covers every phase; a preset's TIME only its own */
		if (p->group[i] != g && (g > 0 || !p->ph[i].duration_ns))
			continue;
		if (p->ph[i].duration_given || p->ph[i].duration_ns) {
			if (p->ph[i].duration_ns > INT64_MAX - timed_ns)
				return fail(p, "load spec: the phase times add up to too much");
			timed_ns += p->ph[i].duration_ns;
		} else {
			untimed++;
			if (!first)
				first = p->ph[i].name;
		}
	}
	if (!untimed) {
		if (g > 0)
			return fail(p, "load spec: this preset has its own times; drop ':TIME'");
		return 0;
	}
	if (total_ns <= 0)
		return 0;
	left_ns = total_ns - timed_ns;
	if (left_ns < (int64_t)untimed) {
		char a[32], b[32];

		al_format_duration(timed_ns, a, sizeof(a));
		al_format_duration(total_ns, b, sizeof(b));
		return fail(p, "load spec: the timed phases take %s of the %s of %s, leaving nothing for '%s'",
			    a, b, what, first);
	}
	each_ns = left_ns / (int64_t)untimed;
	rem_ns = left_ns % (int64_t)untimed;
	for (i = 0; i < p->n; i++) {
		if (p->group[i] != g || p->ph[i].duration_given || p->ph[i].duration_ns)
			continue;
		p->ph[i].duration_ns = each_ns + ((int64_t)k < rem_ns ? 1 : 0);
		k++;
	}
	return 0;
}

int
al_load_spec_parse(const char *spec, int64_t total_ns, struct al_phase_spec **phases,
		   size_t *n_phases, char *err, size_t err_size)
{
	struct parse p = { .err = err, .err_size = err_size };
	char *trimmed = NULL;
	int64_t sum_ns;
	int r = -ENOMEM, g;
	size_t i;

	if (err_size)
		err[0] = 0;
	*phases = NULL;
	*n_phases = 0;
	if (!spec)
		return fail(&p, "load spec: empty");
	p.ph = calloc(AL_LOAD_PHASES_MAX, sizeof(*p.ph));
	p.group = calloc(AL_LOAD_PHASES_MAX, sizeof(*p.group));
	p.group_ns = calloc(AL_LOAD_PHASES_MAX + 1, sizeof(*p.group_ns));
	trimmed = dup_trim(spec, spec + strlen(spec));
	if (!p.ph || !p.group || !p.group_ns || !trimmed)
		goto out;
	if (!*trimmed) {
		r = fail(&p, "load spec: empty");
		goto out;
	}
	r = parse_list(&p, trimmed, 0, 0);
	if (r)
		goto out;
	for (g = 1; g <= p.n_groups; g++) {
		if (!p.group_ns[g])
			continue;
		r = share(&p, g, p.group_ns[g], "the preset");
		if (r)
			goto out;
	}
	r = share(&p, 0, total_ns, "-d/--duration");
	if (r)
		goto out;
	for (i = 0, sum_ns = 0; i < p.n; i++) {
		if (p.ph[i].duration_ns > INT64_MAX - sum_ns) {
			r = fail(&p, "load spec: the phase times add up to too much");
			goto out;
		}
		sum_ns += p.ph[i].duration_ns;
	}
	*phases = p.ph;
	*n_phases = p.n;
	p.ph = NULL;
out:
	free(p.ph);
	free(p.group);
	free(p.group_ns);
	free(trimmed);
	return r;
}

void
al_load_spec_free(struct al_phase_spec *phases)
{
	free(phases);
}

int64_t
al_load_spec_total_ns(const struct al_phase_spec *phases, size_t n_phases)
{
	int64_t t_ns = 0;
	size_t i;

	for (i = 0; i < n_phases; i++)
		t_ns += phases[i].duration_ns;
	return t_ns;
}
