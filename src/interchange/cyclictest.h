/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cyclictest's results as both of its formats hold them (ct-hist.c: the
 * -h/-H text; ct-json.c: --json), and as an audiolat.run/2 document
 * (ct-doc.c). Private to src/interchange.
 */
#ifndef AL_INTERCHANGE_CYCLICTEST_H
#define AL_INTERCHANGE_CYCLICTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "doc/view.h"

#define AL_CT_NS_PER_US 1000
/* bucket indices and threads a file may have (cyclictest -h takes any; 1 s is plenty) */
#define AL_CT_BUCKETS_MAX 1000000
#define AL_CT_THREADS_MAX 4096
/* latencies (us) and counts above these are refused: their ns must fit in int64 */
#define AL_CT_VALUE_MAX_US (INT64_MAX / AL_CT_NS_PER_US / 2)

/* One measuring thread: a column of the histogram. */
struct al_ct_thread {
	struct al_dhist h;    /* one bucket per us: [us * 1000, us * 1000 + 1000) ns; overflow:
				 the values from the histogram's size on; exact min and max */
	size_t cap;           /* of h.b */
	int64_t mean_ns;      /* cyclictest's average; INT64_MIN when not known */
	int cpu;              /* -1 when not known (only --json says) */
	uint64_t *ovf_cycles; /* the cycles whose value overflowed, as cyclictest listed them */
	size_t n_ovf, cap_ovf;
	uint64_t ovf_others;  /* overflows past the listed ones ("# 00012 others") */
};

struct al_ct_run {
	struct al_ct_thread *t;
	size_t n;
	int64_t buckets;   /* the histogram's size, -h N: values of N us or more overflow */
	bool histofall;    /* -H: a summary column (text) */
	json_t *audiolat;  /* text: the "# audiolat.KEY: JSON" comments, {KEY: value}; or NULL */
	json_t *meta;      /* json: the file's cmdline, version, times, sysinfo; or NULL */
};

/*
 * audiolat's own figures in a cyclictest file: "# audiolat.KEY: JSON",
 * KEY's value at path in a run document (a string or an integer). One
 * table for both ways (docs/interchange.md).
 */
struct al_ct_ours {
	const char *key, *path;
	bool string;
};
extern const struct al_ct_ours al_ct_ours[];
/* KEY's entry, NULL when it is none of ours (a later audiolat's: skipped). */
const struct al_ct_ours *al_ct_ours_find(const char *key);

void al_ct_run_free(struct al_ct_run *r);
/* n threads, zeroed (mean and cpu unknown). 0 or -ENOMEM. */
int al_ct_run_threads(struct al_ct_run *r, size_t n);
/* count values in bucket us of t (ascending us, each once). 0 or -ENOMEM. */
int al_ct_add_bucket(struct al_ct_thread *t, int64_t us, uint64_t count);
int al_ct_add_ovf_cycle(struct al_ct_thread *t, uint64_t cycle);

/* The -h/-H text (ct-hist.c). 0, or -EINVAL with "LINE: expected ..." in err; -ENOMEM. */
int al_ct_hist_parse(const char *text, size_t len, struct al_ct_run *r, char *err,
		     size_t err_size);
/* r as cyclictest -h writes it (with the audiolat comments first): *out malloc'd. */
int al_ct_hist_write(const struct al_ct_run *r, char **out);

/* The --json file (ct-json.c). 0, or -EINVAL with "LINE:COLUMN: ..." or "KEY: expected ...". */
int al_ct_json_parse(const char *text, size_t len, struct al_ct_run *r, char *err,
		     size_t err_size);

/* The run document of r (ct-doc.c), source.format format, source.file file. NULL on ENOMEM. */
json_t *al_ct_doc(const struct al_ct_run *r, const char *format, const char *file);
/* A run document as cyclictest's threads (ct-doc.c). 0, or -EINVAL with one line in err. */
int al_ct_from_doc(const json_t *doc, struct al_ct_run *r, char *err, size_t err_size);

#endif
