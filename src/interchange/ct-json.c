/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cyclictest --json=FILE (docs/interchange.md): {"num_threads": N,
 * "thread": {"0": {"histogram": {"US": COUNT, ...}, "cycles", "min", "max",
 * "avg", "cpu"}, ...}, "cmdline:", "rt_test_version:", "start_time",
 * "end_time", "sysinfo": {...}}. The histogram lists the buckets that are
 * not empty; what cycles counts beyond them overflowed. The histogram's
 * size is -h/-H of the command line, else its last bucket + 1.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "cyclictest.h"

/* The value of key, or of "key:" (cyclictest 2.x writes "cmdline:" and "rt_test_version:"). */
static json_t *
get_either(const json_t *o, const char *key)
{
	char k2[64];
	json_t *v = json_object_get(o, key);

	if (v)
		return v;
	snprintf(k2, sizeof(k2), "%s:", key);
	return json_object_get(o, k2);
}

/* -h N / -H N / --histogram=N / --histofall=N of a command line: N, else -1; -N: -2. */
static int64_t
hist_size_of(const char *cmdline, bool *histofall)
{
	char *copy = strdup(cmdline ? cmdline : ""), *save = NULL, *tok;
	int64_t n = -1;
	bool want = false;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		const char *num = NULL;

		if (want) {
			num = tok;
			want = false;
		} else if (!strcmp(tok, "-N") || !strcmp(tok, "--nsecs")) {
			n = -2;
			break;
		} else if (!strcmp(tok, "-h") || !strcmp(tok, "-H") || !strcmp(tok, "--histogram") ||
			   !strcmp(tok, "--histofall")) {
			want = true;
			*histofall = tok[1] == 'H' || !strcmp(tok, "--histofall");
		} else if ((tok[0] == '-' && (tok[1] == 'h' || tok[1] == 'H') && tok[2] >= '0' &&
			    tok[2] <= '9')) {
			num = tok + 2;
			*histofall = tok[1] == 'H';
		} else if (!strncmp(tok, "--histogram=", 12) || !strncmp(tok, "--histofall=", 12)) {
			num = tok + 12;
			*histofall = tok[6] == 'f';
		}
		if (num) {
			char *e;
			long long v = strtoll(num, &e, 10);

			if (*e || v < 1 || v > AL_CT_BUCKETS_MAX)
				break;
			n = v;
		}
	}
	free(copy);
	return n;
}

static int
bucket_cmp(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int
parse_thread(const json_t *th, const char *name, struct al_ct_thread *t, int64_t size_us,
	     int64_t *top_us, char *err, size_t err_size)
{
	const json_t *hist = json_object_get(th, "histogram"), *v;
	const json_t *cycles = json_object_get(th, "cycles"), *mn = json_object_get(th, "min"),
		     *mx = json_object_get(th, "max"), *avg = json_object_get(th, "avg"),
		     *cpu = json_object_get(th, "cpu");
	int64_t (*rows)[2] = NULL;
	uint64_t inside = 0;
	size_t n = 0;
	const char *key;
	int rc = 0;

	if (!json_is_object(th))
		return al_text_err(err, err_size, -EINVAL, ": thread \"%s\": expected an object",
				   name);
	if (!json_is_object(hist))
		return al_text_err(err, err_size, -EINVAL, ": thread \"%s\": expected a "
				   "\"histogram\" object", name);
	if (!json_is_integer(cycles) || json_integer_value(cycles) < 0 || !json_is_integer(mn) ||
	    !json_is_integer(mx) || !json_is_number(avg) || json_integer_value(mn) < 0 ||
	    json_integer_value(mx) > AL_CT_VALUE_MAX_US || json_integer_value(mn) > AL_CT_VALUE_MAX_US ||
	    !(json_number_value(avg) >= 0 && json_number_value(avg) <= (double)AL_CT_VALUE_MAX_US))
		return al_text_err(err, err_size, -EINVAL, ": thread \"%s\": expected \"cycles\", "
				   "\"min\", \"max\" (integers >= 0) and \"avg\" (a number)", name);
	rows = calloc(json_object_size(hist) + 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	json_object_foreach((json_t *)hist, key, v) {
		char *e;
		long long us = strtoll(key, &e, 10);

		if (!*key || *e || us < 0 || us >= AL_CT_BUCKETS_MAX || (size_us > 0 && us >= size_us) ||
		    !json_is_integer(v) || json_integer_value(v) < 0) {
			char q[24];
			size_t k;

			for (k = 0; k < 20 && key[k]; k++) /* one printable line */
				q[k] = (unsigned char)key[k] < 0x20 || (unsigned char)key[k] > 0x7e ? '?'
												   : key[k];
			q[k] = '\0';
			rc = al_text_err(err, err_size, -EINVAL, ": thread \"%s\": histogram \"%s\": "
					 "expected a bucket below %" PRId64 " us and a count >= 0", name,
					 q, size_us > 0 ? size_us : (int64_t)AL_CT_BUCKETS_MAX);
			goto out;
		}
		if (inside + (uint64_t)json_integer_value(v) > INT64_MAX) {
			rc = al_text_err(err, err_size, -EINVAL, ": thread \"%s\": expected a histogram "
					 "of fewer than 2^63 values", name);
			goto out;
		}
		inside += (uint64_t)json_integer_value(v);
		rows[n][0] = us;
		rows[n++][1] = json_integer_value(v);
	}
	if (n)
		qsort(rows, n, sizeof(*rows), bucket_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i && rows[i][0] == rows[i - 1][0]) {
			rc = al_text_err(err, err_size, -EINVAL, ": thread \"%s\": expected each bucket "
					 "once in the histogram (%" PRId64 ")", name, rows[i][0]);
			goto out;
		}
		if (rows[i][1] && (rc = al_ct_add_bucket(t, rows[i][0], (uint64_t)rows[i][1])))
			goto out;
		if (rows[i][0] > *top_us)
			*top_us = rows[i][0];
	}
	if ((uint64_t)json_integer_value(cycles) < inside) {
		rc = al_text_err(err, err_size, -EINVAL, ": thread \"%s\": expected \"cycles\" (%"
				 PRId64 ") at least the histogram's %" PRIu64, name,
				 (int64_t)json_integer_value(cycles), inside);
		goto out;
	}
	t->h.count = (uint64_t)json_integer_value(cycles);
	t->h.overflow = t->h.count - inside;
	t->cpu = json_is_integer(cpu) && json_integer_value(cpu) >= 0 &&
				 json_integer_value(cpu) < 1 << 20 ? (int)json_integer_value(cpu) : -1;
	if (t->h.count) {
		if (json_integer_value(mn) > json_integer_value(mx) ||
		    json_number_value(avg) > (double)json_integer_value(mx) ||
		    (t->h.n && (json_integer_value(mn) * AL_CT_NS_PER_US > t->h.b[0].low_ns ||
				json_integer_value(mx) * AL_CT_NS_PER_US < t->h.b[t->h.n - 1].low_ns))) {
			rc = al_text_err(err, err_size, -EINVAL, ": thread \"%s\": expected \"min\" <= "
					 "the buckets <= \"max\", \"avg\" <= \"max\"", name);
			goto out;
		}
		t->h.min_ns = json_integer_value(mn) * AL_CT_NS_PER_US;
		t->h.max_ns = json_integer_value(mx) * AL_CT_NS_PER_US;
		t->mean_ns = llround(json_number_value(avg) * AL_CT_NS_PER_US);
	}
out:
	free(rows);
	return rc;
}

int
al_ct_json_parse(const char *text, size_t len, struct al_ct_run *r, char *err, size_t err_size)
{
	const json_t *threads, *nt;
	const char *cmdline;
	int64_t top_us = -1, size_us;
	json_error_t jerr;
	char name[24];
	json_t *root;
	size_t i;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return al_text_err(err, err_size, -EINVAL, ":%d:%d: invalid JSON: %s", jerr.line,
				   jerr.column, jerr.text);
	threads = json_object_get(root, "thread");
	nt = json_object_get(root, "num_threads");
	if (!json_is_object(threads) || !json_is_integer(nt) || json_integer_value(nt) < 1 ||
	    json_integer_value(nt) > AL_CT_THREADS_MAX ||
	    json_object_size(threads) != (size_t)json_integer_value(nt)) {
		rc = al_text_err(err, err_size, -EINVAL, ": expected cyclictest's \"num_threads\" "
				 "(1 to %d) and as many entries in \"thread\"", AL_CT_THREADS_MAX);
		goto out;
	}
	cmdline = json_string_value(get_either(root, "cmdline"));
	size_us = hist_size_of(cmdline, &r->histofall);
	if (size_us == -2) {
		rc = al_text_err(err, err_size, -EINVAL, ": expected a run in microseconds "
				 "(cyclictest -N writes nanoseconds: not read)");
		goto out;
	}
	rc = al_ct_run_threads(r, (size_t)json_integer_value(nt));
	for (i = 0; !rc && i < r->n; i++) {
		snprintf(name, sizeof(name), "%zu", i);
		rc = parse_thread(json_object_get(threads, name), name, &r->t[i], size_us, &top_us,
				  err, err_size);
	}
	if (rc)
		goto out;
	r->buckets = size_us > 0 ? size_us : top_us + 1;
	r->meta = json_pack("{s:O?, s:O?, s:O?, s:O?, s:O?}", "cmdline", get_either(root, "cmdline"),
			    "version", get_either(root, "rt_test_version"), "start_time",
			    json_object_get(root, "start_time"), "end_time",
			    json_object_get(root, "end_time"), "sysinfo",
			    json_object_get(root, "sysinfo"));
	if (!r->meta)
		rc = -ENOMEM;
out:
	if (rc == -ENOMEM)
		al_text_err(err, err_size, rc, ": out of memory");
	if (rc)
		al_ct_run_free(r);
	json_decref(root);
	return rc;
}
