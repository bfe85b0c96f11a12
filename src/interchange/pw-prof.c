/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pw-profiler's log as PipeWire 0.3.65 writes it (docs/interchange.md),
 * read. Each line, tab-separated, whole microseconds (a tab after the last
 * column too):
 *
 *   interval  driver end  delay  period  (the driver: its signal - its
 *     previous signal, its finish - its signal, the clock's delay, the
 *     period its duration and rate make; both of the first two written as
 *     1.4 periods when either was over 1.3)
 *   then per follower column: id  signal  awake  finish  wait  busy  status  0
 *     (signal, awake and finish after the driver's signal, 0 when before
 *     it; wait = awake - signal and busy = finish - awake, 0 when either is
 *     0 or not after the other; all eight " " where no node was)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "pwprofiler.h"

struct parse {
	struct al_pwp_run *r;
	char *err;
	size_t err_size;
	int line;
	const char *s, *end; /* the rest of the line */
	size_t column;       /* of the next field, from 1 */
	size_t *col_node;    /* per follower column: 1 + the node last seen there, 0 none */
};

#define fail(p, ...) al_ix_line_err((p)->err, (p)->err_size, (p)->line, __VA_ARGS__)

void
al_pwp_run_free(struct al_pwp_run *r)
{
	for (size_t i = 0; i < r->n_nodes; i++) {
		al_ix_us_free(&r->nodes[i].wait);
		al_ix_us_free(&r->nodes[i].busy);
		al_ix_us_free(&r->nodes[i].end);
	}
	free(r->nodes);
	al_ix_us_free(&r->interval);
	al_ix_us_free(&r->driver_end);
	al_ix_us_free(&r->delay);
	al_ix_us_free(&r->period);
	memset(r, 0, sizeof(*r));
}

/* Is [s, end) a whole number ("-" first only when neg)? */
static bool
integer(const char *s, const char *end, bool neg)
{
	if (neg && s < end && *s == '-')
		s++;
	if (s == end)
		return false;
	for (; s < end; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

bool
al_pwp_looks_like(const char *text, size_t len)
{
	const char *s = text, *end = text + len, *nl = memchr(text, '\n', len);

	if (nl)
		end = nl;
	for (int i = 0; i < 4; i++) {
		const char *tab = memchr(s, '\t', (size_t)(end - s));
		const char *fe = tab ? tab : end;

		if (!integer(s, fe, true) || (i < 3 && !tab))
			return false;
		s = tab ? tab + 1 : end;
	}
	return true;
}

/* The next field of the line in [*fs, *fe); false at the line's end. */
static bool
field(struct parse *p, const char **fs, const char **fe)
{
	const char *tab;

	if (!p->s)
		return false;
	tab = memchr(p->s, '\t', (size_t)(p->end - p->s));
	*fs = p->s;
	*fe = tab ? tab : p->end;
	p->s = tab && tab + 1 < p->end ? tab + 1 : NULL; /* a tab last ends the last field */
	p->column++;
	return true;
}

/* The next field as a number in [lo, hi], what it is named in the message. */
static int
number(struct parse *p, int64_t lo, int64_t hi, const char *what, int64_t *v)
{
	const char *fs, *fe;
	char q[24];
	int64_t x = 0;
	bool neg;

	if (!field(p, &fs, &fe))
		return fail(p, "expected %s in column %zu, found the line's end", what, p->column + 1);
	neg = fs < fe && *fs == '-';
	if (!integer(fs, fe, lo < 0))
		return fail(p, "expected %s (a whole number) in column %zu, found '%s'", what,
			    p->column, al_ix_quoted(fs, fe, q));
	for (const char *c = fs + neg; c < fe; c++) {
		if (x > (AL_PWP_VALUE_MAX_US - (*c - '0')) / 10)
			return fail(p, "expected %s of at most %" PRId64 " in column %zu", what,
				    (int64_t)AL_PWP_VALUE_MAX_US, p->column);
		x = x * 10 + (*c - '0');
	}
	x = neg ? -x : x;
	if (x < lo || x > hi)
		return fail(p, "expected %s from %" PRId64 " to %" PRId64 " in column %zu, found %"
			    PRId64, what, lo, hi, p->column, x);
	*v = x;
	return 0;
}

/* The node of column c with this id: the one last seen there, another, or a new one. */
static struct al_pwp_node *
node_of(struct parse *p, size_t c, uint32_t id)
{
	struct al_pwp_run *r = p->r;
	size_t i = p->col_node[c];

	if (i && r->nodes[i - 1].id == id)
		return &r->nodes[i - 1];
	for (i = 0; i < r->n_nodes; i++)
		if (r->nodes[i].column == c && r->nodes[i].id == id)
			break;
	if (i == r->n_nodes) {
		struct al_pwp_node n = { .id = id, .column = c }, *v;

		if (r->n_nodes == AL_PWP_NODES_MAX)
			return NULL;
		v = al_ix_push(r->nodes, &r->n_nodes, &r->cap_nodes, sizeof(n), &n);
		if (!v)
			return NULL;
		r->nodes = v;
	}
	p->col_node[c] = i + 1;
	return &r->nodes[i];
}

/* What pw-profiler writes for b - a: the difference where both are set and b is after a, else 0. */
static int64_t
span(int64_t a, int64_t b)
{
	return a > 0 && b > 0 && b > a ? b - a : 0;
}

/* One follower column (8 fields): blank, or a node in this point. */
static int
follower(struct parse *p, size_t c)
{
	static const char *const names[] = { "the signal", "the awake time", "the finish",
					     "the wait", "the busy time" };
	const char *fs, *fe, *save = p->s;
	size_t col = p->column;
	int64_t id, t[5], status, zero;
	struct al_pwp_node *n;
	int rc;

	if (field(p, &fs, &fe) && fe - fs == 1 && *fs == ' ') {
		for (int k = 1; k < 8; k++)
			if (!field(p, &fs, &fe) || fe - fs != 1 || *fs != ' ')
				return fail(p, "expected ' ' in column %zu (an empty node column), "
					    "found something else", p->column);
		return 0;
	}
	p->s = save; /* read it again as the id */
	p->column = col;
	if ((rc = number(p, 0, UINT32_MAX, "a node's id", &id)))
		return rc;
	for (int k = 0; k < 5; k++)
		if ((rc = number(p, 0, AL_PWP_VALUE_MAX_US, names[k], &t[k])))
			return rc;
	if ((rc = number(p, 1, AL_PWP_FINISHED, "a status (1 triggered, 2 awake, 3 finished)",
			 &status)) ||
	    (rc = number(p, 0, 0, "0", &zero)))
		return rc;
	if (t[3] != span(t[0], t[1]) || t[4] != span(t[1], t[2]))
		return fail(p, "expected the wait and busy time of node %" PRId64 " (columns %zu, "
			    "%zu) to be awake - signal and finish - awake", id, col + 5, col + 6);
	n = node_of(p, c, (uint32_t)id);
	if (!n)
		return p->r->n_nodes == AL_PWP_NODES_MAX
			       ? fail(p, "expected at most %d nodes", AL_PWP_NODES_MAX) : -ENOMEM;
	n->points++;
	n->unfinished += status != AL_PWP_FINISHED;
	if (status >= 2 && al_ix_us_add(&n->wait, t[3]))
		return -ENOMEM;
	if (status == AL_PWP_FINISHED &&
	    (al_ix_us_add(&n->busy, t[4]) || al_ix_us_add(&n->end, t[2])))
		return -ENOMEM;
	return 0;
}

/* The four driver columns. */
static int
driver(struct parse *p)
{
	struct al_pwp_run *r = p->r;
	int64_t interval, end, delay, period;
	bool clamped;
	int rc;

	if ((rc = number(p, 0, AL_PWP_VALUE_MAX_US, "the driver's interval", &interval)) ||
	    (rc = number(p, 0, AL_PWP_VALUE_MAX_US, "the driver's end", &end)) ||
	    (rc = number(p, -AL_PWP_VALUE_MAX_US, AL_PWP_VALUE_MAX_US, "the clock's delay",
			 &delay)) ||
	    (rc = number(p, 0, AL_PWP_VALUE_MAX_US, "the period", &period)))
		return rc;
	/* pw-profiler's "1.4 periods" for both when either was over 1.3, truncated as it does */
	clamped = period > 0 && interval == end && interval == (int64_t)((double)period * 1.4);
	r->points++;
	r->clamped += clamped;
	r->incomplete += !clamped && interval == 0;
	if ((!clamped && interval > 0 &&
	     (al_ix_us_add(&r->interval, interval) || al_ix_us_add(&r->driver_end, end))) ||
	    al_ix_us_add(&r->delay, delay) || al_ix_us_add(&r->period, period))
		return -ENOMEM;
	return 0;
}

/* One line [s, end) (without its newline). */
static int
line(struct parse *p, const char *s, const char *end)
{
	size_t fields = 1, cols;
	int rc;

	if (s == end)
		return fail(p, "expected a profiler point (4 driver columns, then 8 per node), "
			    "found an empty line");
	for (const char *c = s; c < end; c++)
		fields += *c == '\t';
	fields -= end[-1] == '\t'; /* pw-profiler ends each line with a tab */
	if (fields < 4 || (fields - 4) % 8)
		return fail(p, "expected 4 driver columns, then 8 per node, found %zu columns",
			    fields);
	cols = (fields - 4) / 8;
	if (p->r->points && cols != p->r->columns)
		return fail(p, "expected %zu node columns as line 1 has, found %zu", p->r->columns,
			    cols);
	if (cols > AL_PWP_COLUMNS_MAX)
		return fail(p, "expected at most %d node columns, found %zu", AL_PWP_COLUMNS_MAX,
			    cols);
	if (!p->col_node) {
		p->col_node = calloc(cols ? cols : 1, sizeof(*p->col_node));
		if (!p->col_node)
			return -ENOMEM;
	}
	p->r->columns = cols;
	p->s = s;
	p->end = end;
	p->column = 0;
	if ((rc = driver(p)))
		return rc;
	for (size_t c = 0; c < cols; c++)
		if ((rc = follower(p, c)))
			return rc;
	return 0;
}

int
al_pwp_parse(const char *text, size_t len, struct al_pwp_run *r, char *err, size_t err_size)
{
	struct parse p = { .r = r, .err = err, .err_size = err_size };
	const char *s = text, *end = text + len;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	while (!rc && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *le = nl ? nl : end;

		p.line++;
		rc = line(&p, s, le);
		s = nl ? nl + 1 : end;
	}
	if (!rc && !r->points)
		rc = al_ix_line_err(err, err_size, 1, "expected a profiler point (4 driver columns, "
				    "then 8 per node), found an empty file");
	free(p.col_node);
	if (rc) {
		al_pwp_run_free(r);
		if (rc == -ENOMEM)
			al_text_err(err, err_size, rc, ": out of memory");
	}
	return rc;
}
