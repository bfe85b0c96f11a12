/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cyclictest's -h N / -H N histogram text (docs/interchange.md): read and
 * written. A line per bucket, "%06d" the latency in us then a count per
 * thread (-H: and their sum); then "# Total:", "# Min Latencies:", "# Avg
 * Latencies:", "# Max Latencies:", "# Histogram Overflows:" (a value per
 * thread; -H: Total, Max and Overflows one more, over all of them), "#
 * Histogram Overflow at cycle number:" and a "# Thread N: CYCLE ... [#
 * NNNNN others]" line per thread. Other "#" lines are comments; ours are
 * "# audiolat.KEY: JSON". cyclictest's live status lines ("policy:", "T:",
 * cursor moves) are skipped.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "cyclictest.h"
#include "ix-common.h"

/* A row of numbers after a "# ...:" key; line 0 when the key was not seen. */
struct row {
	uint64_t *v;
	size_t n;
	int line;
};

struct parse {
	struct al_ct_run *r;
	char *err;
	size_t err_size;
	int line;
	bool header, summary, cycles_head;
	size_t ncol;          /* counts per bucket line (0 until the first) */
	int64_t last_us;      /* the last bucket's index, -1 before the first */
	int first_bucket_line;
	struct row total, min, avg, max, ovf;
	uint64_t *cols;       /* one bucket line's counts */
	uint64_t *sums;       /* each column's sum over the bucket lines */
};

/* -EINVAL, ":LINE: WHAT" in the caller's err (ix-common.h) */
#define fail(p, line, ...) al_ix_line_err((p)->err, (p)->err_size, (line), __VA_ARGS__)
#define quoted al_ix_quoted

static bool
blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * The next number of [*s, end) after blanks: 1 and *s past it, 0 at the
 * end (nothing but blanks), -1 at anything else (*s there), -ERANGE past
 * INT64_MAX.
 */
static int
next_u64(const char **s, const char *end, uint64_t *v)
{
	const char *q = *s;
	uint64_t x = 0;

	while (q < end && blank(*q))
		q++;
	*s = q;
	if (q == end)
		return 0;
	if (*q < '0' || *q > '9')
		return -1;
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		if (x > (uint64_t)(INT64_MAX - (*q - '0')) / 10)
			return -ERANGE;
		x = x * 10 + (uint64_t)(*q - '0');
	}
	if (q < end && !blank(*q))
		return -1;
	*s = q;
	*v = x;
	return 1;
}

/* The numbers of a "# KEY:" line (at most AL_CT_THREADS_MAX + 1) into row. */
static int
parse_row(struct parse *p, const char *key, const char *s, const char *end, struct row *row)
{
	char q[24];
	uint64_t v;
	int rc;

	if (row->line)
		return fail(p, p->line, "expected one '# %s' line (the first is line %d)", key,
			    row->line);
	if (!p->header)
		return fail(p, p->line, "expected '# Histogram' before '# %s'", key);
	free(row->v);
	row->v = calloc(AL_CT_THREADS_MAX + 1, sizeof(*row->v));
	if (!row->v)
		return -ENOMEM;
	row->line = p->line;
	while ((rc = next_u64(&s, end, &v)) == 1) {
		if (row->n == AL_CT_THREADS_MAX + 1)
			return fail(p, p->line, "expected at most %d threads", AL_CT_THREADS_MAX);
		row->v[row->n++] = v;
	}
	if (rc == -ERANGE)
		return fail(p, p->line, "expected numbers below 2^63 after '# %s'", key);
	if (rc < 0)
		return fail(p, p->line, "expected numbers after '# %s', found '%s'", key,
			    quoted(s, end, q));
	p->summary = true;
	return 0;
}

/* "# Thread N: CYCLE CYCLE ... [# NNNNN others]" */
static int
parse_cycles(struct parse *p, const char *s, const char *end)
{
	struct al_ct_thread *t;
	uint64_t idx, v;
	int rc;

	if (!p->cycles_head)
		return fail(p, p->line, "expected '# Histogram Overflow at cycle number:' before "
					"'# Thread'");
	while (s < end && blank(*s))
		s++;
	for (idx = 0; s < end && *s >= '0' && *s <= '9' && idx < AL_CT_THREADS_MAX + 1; s++)
		idx = idx * 10 + (uint64_t)(*s - '0');
	if (s == end || *s != ':' || !(s[-1] >= '0' && s[-1] <= '9'))
		return fail(p, p->line, "expected '# Thread N:' and a thread's number");
	s++;
	if (!p->r->n && p->min.n) { /* no bucket line made the threads */
		int rc2 = al_ct_run_threads(p->r, p->min.n);

		if (rc2)
			return rc2;
	}
	if (idx >= p->r->n)
		return fail(p, p->line, "expected a thread below %zu (the columns)", p->r->n);
	t = &p->r->t[idx];
	if (t->n_ovf || t->ovf_others)
		return fail(p, p->line, "expected one '# Thread %" PRIu64 ":' line", idx);
	while ((rc = next_u64(&s, end, &v)) == 1)
		if (al_ct_add_ovf_cycle(t, v))
			return -ENOMEM;
	if (rc == 0)
		return 0;
	if (rc == -1 && *s == '#') {
		s++;
		if (next_u64(&s, end, &v) == 1) {
			while (s < end && blank(*s))
				s++;
			if (end - s == 6 && !memcmp(s, "others", 6)) {
				t->ovf_others = v;
				return 0;
			}
		}
	}
	return fail(p, p->line, "expected cycle numbers, then '# NNNNN others' or nothing");
}

/* "# audiolat.KEY: JSON": one of audiolat's own figures (docs/interchange.md). */
static int
parse_ours(struct parse *p, const char *s, const char *end)
{
	const char *colon = memchr(s, ':', (size_t)(end - s));
	const struct al_ct_ours *ours;
	char key[64], *val;
	json_error_t jerr;
	json_t *v;

	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(key))
		return fail(p, p->line, "expected '# audiolat.KEY: VALUE'");
	memcpy(key, s, (size_t)(colon - s));
	key[colon - s] = '\0';
	val = strndup(colon + 1, (size_t)(end - colon - 1));
	if (!val)
		return -ENOMEM;
	v = json_loads(val, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);
	free(val);
	ours = al_ct_ours_find(key);
	if (!v || (ours && !json_is_null(v) &&
		   (ours->string ? !json_is_string(v) : !json_is_integer(v)))) {
		json_decref(v);
		return fail(p, p->line, "expected %s after '# audiolat.%s:'",
			    !ours ? "a JSON value" : ours->string ? "a JSON string or null"
								: "an integer or null", key);
	}
	if (!ours) { /* a later audiolat's figure: not ours to keep */
		json_decref(v);
		return 0;
	}
	if (!p->r->audiolat)
		p->r->audiolat = json_object();
	if (!p->r->audiolat || json_object_get(p->r->audiolat, key)) {
		json_decref(v);
		return p->r->audiolat ? fail(p, p->line, "expected one '# audiolat.%s:' line", key)
				      : -ENOMEM;
	}
	return json_object_set_new(p->r->audiolat, key, v) ? -ENOMEM : 0;
}

static bool
starts(const char *s, const char *end, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if ((size_t)(end - s) < n || memcmp(s, prefix, n))
		return false;
	*rest = s + n;
	return true;
}

static int
comment_line(struct parse *p, const char *s, const char *end)
{
	const char *rest;

	if (starts(s, end, "# Histogram Overflows:", &rest))
		return parse_row(p, "Histogram Overflows:", rest, end, &p->ovf);
	if (starts(s, end, "# Histogram Overflow at cycle number:", &rest)) {
		if (p->cycles_head || !p->summary)
			return fail(p, p->line, "expected one '# Histogram Overflow at cycle number:' "
						"after the summary lines");
		p->cycles_head = true;
		return 0;
	}
	if (starts(s, end, "# Histogram", &rest) && rest == end) {
		if (p->header)
			return fail(p, p->line, "expected one '# Histogram' line");
		p->header = true;
		return 0;
	}
	if (starts(s, end, "# Total:", &rest))
		return parse_row(p, "Total:", rest, end, &p->total);
	if (starts(s, end, "# Min Latencies:", &rest))
		return parse_row(p, "Min Latencies:", rest, end, &p->min);
	if (starts(s, end, "# Avg Latencies:", &rest))
		return parse_row(p, "Avg Latencies:", rest, end, &p->avg);
	if (starts(s, end, "# Max Latencies:", &rest))
		return parse_row(p, "Max Latencies:", rest, end, &p->max);
	if (starts(s, end, "# Thread", &rest))
		return parse_cycles(p, rest, end);
	if (starts(s, end, "# audiolat.", &rest))
		return parse_ours(p, rest, end);
	return 0; /* a comment: "# /dev/cpu_dma_latency set to 0us", "# SMIs: ..." */
}

/* "%06d %06lu\t%06lu...": the bucket's latency in us, a count per column. */
static int
bucket_line(struct parse *p, const char *s, const char *end)
{
	char q[24];
	uint64_t us, c;
	size_t n = 0, i;
	int rc;

	if (!p->header)
		return fail(p, p->line, "expected '# Histogram' before the buckets");
	if (p->summary)
		return fail(p, p->line, "expected '#' lines after the summary, not a bucket");
	rc = next_u64(&s, end, &us);
	if (rc != 1 || us >= AL_CT_BUCKETS_MAX)
		return fail(p, p->line, "expected a bucket's latency below %d us", AL_CT_BUCKETS_MAX);
	if ((int64_t)us <= p->last_us)
		return fail(p, p->line, "expected a bucket above %06" PRId64 " (line %d)", p->last_us,
			    p->line - 1);
	if (!p->cols) {
		p->cols = calloc(AL_CT_THREADS_MAX + 1, sizeof(*p->cols));
		p->sums = calloc(AL_CT_THREADS_MAX + 1, sizeof(*p->sums));
		if (!p->cols || !p->sums)
			return -ENOMEM;
	}
	while ((rc = next_u64(&s, end, &c)) == 1) {
		if (n == AL_CT_THREADS_MAX + 1)
			return fail(p, p->line, "expected at most %d threads", AL_CT_THREADS_MAX);
		p->cols[n++] = c;
	}
	if (rc == -ERANGE)
		return fail(p, p->line, "expected counts below 2^63");
	if (rc < 0)
		return fail(p, p->line, "expected counts after the bucket, found '%s'",
			    quoted(s, end, q));
	if (!n)
		return fail(p, p->line, "expected a count per thread after the bucket");
	if (!p->ncol) {
		p->ncol = n;
		p->first_bucket_line = p->line;
		rc = al_ct_run_threads(p->r, n);
		if (rc)
			return rc;
	} else if (n != p->ncol) {
		return fail(p, p->line, "expected %zu counts (as on line %d), found %zu", p->ncol,
			    p->first_bucket_line, n);
	}
	for (i = 0; i < n; i++) {
		if (p->sums[i] + p->cols[i] > INT64_MAX)
			return fail(p, p->line, "expected a column's sum below 2^63");
		p->sums[i] += p->cols[i];
		if (p->cols[i] && al_ct_add_bucket(&p->r->t[i], (int64_t)us, p->cols[i]))
			return -ENOMEM;
	}
	p->last_us = (int64_t)us;
	return 0;
}

/* Does row have n values (or n + 1 with a summary column)? */
static int
row_width(struct parse *p, const struct row *row, const char *key, size_t n, bool sum)
{
	if (!row->line)
		return fail(p, p->line, "expected a '# %s' line (a truncated file?)", key);
	if (row->n != n + (sum ? 1 : 0))
		return fail(p, row->line, "expected %zu value%s (as '# Min Latencies:' has%s), "
					  "found %zu", n + (sum ? 1 : 0), n + sum == 1 ? "" : "s",
			    sum ? ", and the sum of -H" : "", row->n);
	return 0;
}

/* The summary lines against the buckets: the threads, their figures. */
static int
finish(struct parse *p)
{
	struct al_ct_run *r = p->r;
	size_t n, i;
	bool sum;
	int rc;

	if (!p->header)
		return fail(p, p->line, "expected a '# Histogram' line (cyclictest -h or -H output)");
	if (!p->min.line)
		return fail(p, p->line, "expected a '# Min Latencies:' line (a truncated file?)");
	n = p->min.n;
	if (!n)
		return fail(p, p->min.line, "expected a value per thread");
	/* -H adds a column of sums to the buckets when there are several threads */
	sum = p->ncol == n + 1 && n > 1;
	if (p->ncol && p->ncol != n && !sum)
		return fail(p, p->first_bucket_line, "expected %zu counts per bucket (the threads of "
						     "'# Min Latencies:', line %d), found %zu",
			    n, p->min.line, p->ncol);
	if (!p->ncol) { /* no bucket line: all of it overflowed, or nothing was measured */
		if (r->n != n && (rc = al_ct_run_threads(r, n)))
			return rc;
		if (p->max.n == n + 1 && n > 1)
			sum = true;
	}
	if ((rc = row_width(p, &p->avg, "Avg Latencies:", n, false)) ||
	    (rc = row_width(p, &p->max, "Max Latencies:", n, sum)) ||
	    (rc = row_width(p, &p->ovf, "Histogram Overflows:", n, sum)))
		return rc;
	if (p->total.line && (rc = row_width(p, &p->total, "Total:", n, sum)))
		return rc;
	r->histofall = sum;
	r->buckets = p->last_us + 1;
	for (i = 0; i < n + (sum ? 1 : 0); i++) {
		if (p->total.line && p->total.v[i] != (p->ncol ? p->sums[i] : 0))
			return fail(p, p->total.line, "expected %" PRIu64 " in column %zu of '# Total:' "
						      "(the sum of its buckets), found %" PRIu64,
				    p->ncol ? p->sums[i] : 0, i + 1, p->total.v[i]);
	}
	if (sum) {
		uint64_t ov = 0, mx = 0;

		for (i = 0; i < n; i++) {
			ov += p->ovf.v[i];
			mx = p->max.v[i] > mx ? p->max.v[i] : mx;
		}
		if (p->ovf.v[n] != ov || p->max.v[n] != mx)
			return fail(p, p->ovf.v[n] != ov ? p->ovf.line : p->max.line,
				    "expected the -H column to be the %s of the threads (%" PRIu64 ")",
				    p->ovf.v[n] != ov ? "sum" : "largest",
				    p->ovf.v[n] != ov ? ov : mx);
		/* the summary column is no thread of its own (a bucket line made it one) */
		if (r->n > n) {
			al_dhist_free(&r->t[n].h);
			free(r->t[n].ovf_cycles);
			r->n = n;
		}
	}
	for (i = 0; i < n; i++) {
		struct al_ct_thread *t = &r->t[i];
		uint64_t inside = p->ncol ? p->sums[i] : 0;

		if (p->min.v[i] > AL_CT_VALUE_MAX_US || p->max.v[i] > AL_CT_VALUE_MAX_US ||
		    p->avg.v[i] > AL_CT_VALUE_MAX_US)
			return fail(p, p->max.line, "expected latencies below %" PRId64 " us",
				    (int64_t)AL_CT_VALUE_MAX_US);
		if (inside + p->ovf.v[i] > INT64_MAX)
			return fail(p, p->ovf.line, "expected fewer values than 2^63");
		t->h.overflow = p->ovf.v[i];
		t->h.count = inside + p->ovf.v[i];
		if (t->n_ovf + t->ovf_others > t->h.overflow)
			return fail(p, p->ovf.line, "expected at least %" PRIu64 " overflows in thread "
						    "%zu (the cycles listed)", t->n_ovf + t->ovf_others, i);
		if (!t->h.count)
			continue; /* nothing measured: cyclictest's min is its start value */
		if (p->min.v[i] > p->max.v[i] || p->avg.v[i] > p->max.v[i])
			return fail(p, p->max.line, "expected thread %zu's max (%" PRIu64 ") at least "
						    "its min and avg", i, p->max.v[i]);
		if (t->h.n && (p->min.v[i] * AL_CT_NS_PER_US > (uint64_t)t->h.b[0].low_ns ||
			       p->max.v[i] * AL_CT_NS_PER_US < (uint64_t)t->h.b[t->h.n - 1].low_ns))
			return fail(p, p->min.line, "expected thread %zu's min and max around its "
						    "buckets (%" PRId64 " to %" PRId64 " us)", i,
				    t->h.b[0].low_ns / AL_CT_NS_PER_US,
				    t->h.b[t->h.n - 1].low_ns / AL_CT_NS_PER_US);
		t->h.min_ns = (int64_t)p->min.v[i] * AL_CT_NS_PER_US;
		t->h.max_ns = (int64_t)p->max.v[i] * AL_CT_NS_PER_US;
		t->mean_ns = (int64_t)p->avg.v[i] * AL_CT_NS_PER_US;
	}
	return 0;
}

static int
one_line(struct parse *p, const char *s, const char *end)
{
	char q[24];

	if (memchr(s, '\0', (size_t)(end - s)))
		return fail(p, p->line, "expected text, found a NUL byte");
	while (end > s && (end[-1] == '\r' || blank(end[-1])))
		end--;
	while (s < end && blank(*s))
		s++;
	if (s == end)
		return 0;
	if (*s == '#')
		return comment_line(p, s, end);
	if (*s >= '0' && *s <= '9')
		return bucket_line(p, s, end);
	/* cyclictest's live lines when it ran without -q */
	if (*s == '\033' || (end - s >= 2 && !memcmp(s, "T:", 2)) ||
	    (end - s >= 7 && !memcmp(s, "policy:", 7)))
		return 0;
	return fail(p, p->line, "expected a bucket line ('%%06d %%06d ...') or a '#' line, found "
				"'%s'", quoted(s, end, q));
}

int
al_ct_hist_parse(const char *text, size_t len, struct al_ct_run *r, char *err, size_t err_size)
{
	struct parse p = { .r = r, .err = err, .err_size = err_size, .last_us = -1 };
	const char *s = text, *end = text + len, *nl;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	while (s < end && !rc) {
		nl = memchr(s, '\n', (size_t)(end - s));
		p.line++;
		rc = one_line(&p, s, nl ? nl : end);
		s = nl ? nl + 1 : end;
	}
	if (!rc)
		rc = finish(&p);
	if (rc == -ENOMEM)
		al_text_err(err, err_size, rc, ": out of memory");
	free(p.total.v);
	free(p.min.v);
	free(p.avg.v);
	free(p.max.v);
	free(p.ovf.v);
	free(p.cols);
	free(p.sums);
	if (rc)
		al_ct_run_free(r);
	return rc;
}

/* ---- writing ---- */

/* Where a thread's values fall in the buckets of us: a cursor over its document buckets. */
struct column {
	const struct al_dhist *h;
	size_t next;
	uint64_t over;  /* values of its buckets at or past the histogram's size */
	int64_t first;  /* the first bucket line it has values on, -1: none yet */
};

/* The values of c in bucket us (a bucket wider than 1 us counts in the us of its low end). */
static uint64_t
take(struct column *c, int64_t us, int64_t size_us)
{
	uint64_t n = 0;

	while (c->next < c->h->n) {
		const struct al_dbucket *b = &c->h->b[c->next];
		int64_t at = b->low_ns < 0 ? 0 : b->low_ns / AL_CT_NS_PER_US;

		if (at >= size_us) {
			c->over += b->count;
			c->next++;
			continue;
		}
		if (at != us)
			break;
		n += b->count;
		c->next++;
	}
	return n;
}

static int64_t
us_of(int64_t ns)
{
	return ns <= 0 ? 0 : ns / AL_CT_NS_PER_US;
}

/* audiolat's own figures of r, "# audiolat.KEY: JSON", in the table's order. */
static void
write_ours(FILE *f, const struct al_ct_run *r)
{
	for (const struct al_ct_ours *o = al_ct_ours; o->key; o++) {
		json_t *v = json_object_get(r->audiolat, o->key);
		char *t;

		if (!v)
			continue;
		t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII);
		fprintf(f, "# audiolat.%s: %s\n", o->key, t ? t : "null");
		free(t);
	}
}

/* Each thread's overflowed cycles as cyclictest lists them, the rest as "others". */
static void
write_ovf_cycles(FILE *f, const struct al_ct_run *r, const struct column *col)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct al_ct_thread *t = &r->t[i];
		uint64_t others = t->h.overflow + col[i].over - t->n_ovf;

		fprintf(f, "# Thread %zu:", i);
		for (size_t k = 0; k < t->n_ovf; k++)
			fprintf(f, " %05" PRIu64, t->ovf_cycles[k]);
		if (t->n_ovf < t->h.overflow + col[i].over)
			fprintf(f, " # %05" PRIu64 " others", others);
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}

int
al_ct_hist_write(const struct al_ct_run *r, char **out)
{
	struct column *col = calloc(r->n ? r->n : 1, sizeof(*col));
	bool sum = r->histofall && r->n > 1;
	uint64_t all, max_all;
	size_t i, len;
	FILE *f;

	*out = NULL;
	f = open_memstream(out, &len);
	if (!col || !f) {
		free(col);
		if (f)
			fclose(f);
		free(*out);
		*out = NULL;
		return -ENOMEM;
	}
	write_ours(f, r);
	fprintf(f, "# Histogram\n");
	for (i = 0; i < r->n; i++) {
		col[i].h = &r->t[i].h;
		col[i].first = -1;
	}
	for (int64_t us = 0; us < r->buckets; us++) {
		all = 0;
		fprintf(f, "%06" PRId64, us);
		for (i = 0; i < r->n; i++) {
			uint64_t c = take(&col[i], us, r->buckets);

			if (c && col[i].first < 0)
				col[i].first = us;
			all += c;
			fprintf(f, "%s%06" PRIu64, i ? "\t" : " ", c);
		}
		if (sum)
			fprintf(f, "\t%06" PRIu64, all);
		fprintf(f, "\n");
	}
	for (i = 0; i < r->n; i++) /* what lies past the last bucket line */
		take(&col[i], r->buckets, r->buckets);
	fprintf(f, "# Total:");
	all = 0;
	for (i = 0; i < r->n; i++) {
		uint64_t in = r->t[i].h.count - r->t[i].h.overflow - col[i].over;

		all += in;
		fprintf(f, " %09" PRIu64, in);
	}
	if (sum)
		fprintf(f, " %09" PRIu64, all);
	fprintf(f, "\n# Min Latencies:");
	for (i = 0; i < r->n; i++) {
		/* never above its first bucket (a bucket wider than 1 us counts at its low end) */
		int64_t m = r->t[i].h.count ? us_of(r->t[i].h.min_ns) : 0;

		fprintf(f, " %05" PRId64, col[i].first >= 0 && col[i].first < m ? col[i].first : m);
	}
	fprintf(f, "\n# Avg Latencies:");
	for (i = 0; i < r->n; i++)
		fprintf(f, " %05" PRId64, r->t[i].h.count && r->t[i].mean_ns != INT64_MIN
						  ? us_of(r->t[i].mean_ns) : 0);
	fprintf(f, "\n# Max Latencies:");
	max_all = 0;
	for (i = 0; i < r->n; i++) {
		uint64_t m = r->t[i].h.count ? (uint64_t)us_of(r->t[i].h.max_ns) : 0;

		max_all = m > max_all ? m : max_all;
		fprintf(f, " %05" PRIu64, m);
	}
	if (sum)
		fprintf(f, " %05" PRIu64, max_all);
	fprintf(f, "\n# Histogram Overflows:");
	all = 0;
	for (i = 0; i < r->n; i++) {
		all += r->t[i].h.overflow + col[i].over;
		fprintf(f, " %05" PRIu64, r->t[i].h.overflow + col[i].over);
	}
	if (sum)
		fprintf(f, " %05" PRIu64, all);
	fprintf(f, "\n# Histogram Overflow at cycle number:\n");
	write_ovf_cycles(f, r, col);
	free(col);
	if (fclose(f)) {
		free(*out);
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}
