/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * al_load_spec_parse(): the input as a phase spec, parsed with several
 * totals (-d/--duration). Checks: 0, -EINVAL or -ENOMEM; on failure err is
 * one non-empty line (when the spec itself has no newline) and nothing is
 * returned; on success 1..AL_LOAD_PHASES_MAX phases, each with a
 * terminated name equal to its loads joined with '+' (or "idle" with no
 * loads), 0..AL_LOAD_PHASE_LOADS registered loads, a command exactly for
 * cmd loads, a duration >= 0 that is > 0 when given or when total_ns > 0;
 * and the canonical rendering of the phases ("cpu+cmd:'ls':<ns>ns,...")
 * parses back (total 0) to the same phases and durations. What the
 * parser allocates is freed (libFuzzer's leak check).
 */
#include <errno.h>
#include <inttypes.h>

#include "core/clock.h"
#include "load/load.h"
#include "fuzz.h"

static const int64_t totals_ns[] = { 0, 1, 42 * AL_NS_PER_SEC, 3600 * AL_NS_PER_SEC };

#define N_TOTALS (sizeof(totals_ns) / sizeof(totals_ns[0]))
#define ERR_SIZE 1024

static bool
is_cmd(const struct al_load_item *li)
{
	return !strcmp(al_load_name(li->ops), "cmd");
}

static void
check_phase(const char *spec, int64_t total_ns, const struct al_phase_spec *ph)
{
	char joined[AL_NAME_MAX * 16] = "";
	size_t len = 0;
	int j;

	FUZZ_CHECK(memchr(ph->name, '\0', sizeof(ph->name)), "'%s': phase name unterminated",
		   spec);
	FUZZ_CHECK(ph->name[0], "'%s': empty phase name", spec);
	FUZZ_CHECK(ph->n_loads >= 0 && ph->n_loads <= AL_LOAD_PHASE_LOADS, "'%s': %d loads",
		   spec, ph->n_loads);
	FUZZ_CHECK(ph->duration_ns >= 0, "'%s': phase '%s' lasts %" PRId64 " ns", spec,
		   ph->name, ph->duration_ns);
	FUZZ_CHECK(!ph->duration_given || ph->duration_ns > 0,
		   "'%s': phase '%s' has a given time of %" PRId64 " ns", spec, ph->name,
		   ph->duration_ns);
	FUZZ_CHECK(total_ns <= 0 || ph->duration_ns > 0,
		   "'%s' with total %" PRId64 " ns: phase '%s' got no time", spec, total_ns,
		   ph->name);
	if (!ph->n_loads) {
		FUZZ_CHECK(!strcmp(ph->name, "idle"), "'%s': phase '%s' without loads", spec,
			   ph->name);
		return;
	}
	for (j = 0; j < ph->n_loads; j++) {
		const struct al_load_item *li = &ph->loads[j];

		FUZZ_CHECK(li->ops && al_load_find(al_load_name(li->ops)) == li->ops,
			   "'%s': phase '%s' load %d is not registered", spec, ph->name, j);
		FUZZ_CHECK(strcmp(al_load_name(li->ops), "idle"),
			   "'%s': idle combined in phase '%s'", spec, ph->name);
		FUZZ_CHECK(memchr(li->arg, '\0', sizeof(li->arg)), "'%s': command unterminated",
			   spec);
		FUZZ_CHECK(is_cmd(li) == (li->arg[0] != '\0'),
			   "'%s': load %s with command '%s'", spec, al_load_name(li->ops), li->arg);
		len += (size_t)snprintf(joined + len, sizeof(joined) - len, "%s%s", j ? "+" : "",
					al_load_name(li->ops));
	}
	/* the name is the loads joined with '+', cut to fit */
	FUZZ_CHECK(!strncmp(ph->name, joined, sizeof(ph->name) - 1),
		   "'%s': phase named '%s', loads '%s'", spec, ph->name, joined);
}

/* "load+cmd:'x':<ns>ns,...", or NULL when a command holds both quotes. */
static char *
render(const struct al_phase_spec *ph, size_t n)
{
	size_t cap = n * (AL_LOAD_PHASE_LOADS * (AL_LOAD_ARG_MAX + 48) + 32) + 1, len = 0, i;
	char *s = malloc(cap), q;
	int j;

	if (!s)
		abort();
	s[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			len += (size_t)snprintf(s + len, cap - len, ",");
		if (!ph[i].n_loads)
			len += (size_t)snprintf(s + len, cap - len, "idle");
		for (j = 0; j < ph[i].n_loads; j++) {
			const struct al_load_item *li = &ph[i].loads[j];

			len += (size_t)snprintf(s + len, cap - len, "%s%s", j ? "+" : "",
						al_load_name(li->ops));
			if (!li->arg[0])
				continue;
			q = !strchr(li->arg, '\'') ? '\'' : !strchr(li->arg, '"') ? '"' : 0;
			if (!q) {
				free(s);
				return NULL;
			}
			len += (size_t)snprintf(s + len, cap - len, ":%c%s%c", q, li->arg, q);
		}
		if (ph[i].duration_ns)
			len += (size_t)snprintf(s + len, cap - len, ":%" PRId64 "ns",
						ph[i].duration_ns);
	}
	FUZZ_CHECK(len < cap, "rendering needs %zu bytes", len);
	return s;
}

static void
check_round_trip(const char *spec, const struct al_phase_spec *ph, size_t n)
{
	struct al_phase_spec *ph2 = NULL;
	char err[ERR_SIZE], *canon = render(ph, n);
	size_t n2 = 0, i;
	int r, j;

	if (!canon)
		return;
	r = al_load_spec_parse(canon, 0, &ph2, &n2, err, sizeof(err));
	FUZZ_CHECK(r == 0, "'%s' parsed, but its rendering '%s' fails: %s", spec, canon, err);
	FUZZ_CHECK(n2 == n, "'%s': %zu phases, rendering '%s' %zu", spec, n, canon, n2);
	for (i = 0; i < n; i++) {
		FUZZ_CHECK(!strcmp(ph[i].name, ph2[i].name) && ph[i].n_loads == ph2[i].n_loads &&
				   ph[i].duration_ns == ph2[i].duration_ns,
			   "'%s': phase %zu '%s' %d loads %" PRId64 " ns, rendering '%s' gives '%s' %d loads %" PRId64
			   " ns", spec, i, ph[i].name, ph[i].n_loads, ph[i].duration_ns, canon,
			   ph2[i].name, ph2[i].n_loads, ph2[i].duration_ns);
		for (j = 0; j < ph[i].n_loads; j++)
			FUZZ_CHECK(ph[i].loads[j].ops == ph2[i].loads[j].ops &&
					   !strcmp(ph[i].loads[j].arg, ph2[i].loads[j].arg),
				   "'%s': phase %zu load %d differs in rendering '%s'", spec, i, j,
				   canon);
	}
	al_load_spec_free(ph2);
	free(canon);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_strndup(data, size), err[ERR_SIZE];
	static struct al_phase_spec sentinel;
	struct al_phase_spec *ph;
	size_t n, i, t;
	int64_t sum;
	int r;

	for (t = 0; t < N_TOTALS; t++) {
		ph = &sentinel; /* the parser must reset both */
		n = 12345;
		memset(err, 'X', sizeof(err));
		r = al_load_spec_parse(spec, totals_ns[t], &ph, &n, err, sizeof(err));
		FUZZ_CHECK(r == 0 || r == -EINVAL || r == -ENOMEM, "'%s': returned %d", spec, r);
		if (r) {
			FUZZ_CHECK(!ph && !n, "'%s': failed with %d but returned phases", spec, r);
			fuzz_check_err(err, sizeof(err), strchr(spec, '\n') != NULL);
			continue;
		}
		FUZZ_CHECK(ph && n >= 1 && n <= AL_LOAD_PHASES_MAX, "'%s': %zu phases", spec, n);
		sum = 0;
		for (i = 0; i < n; i++) {
			check_phase(spec, totals_ns[t], &ph[i]);
			FUZZ_CHECK(ph[i].duration_ns <= INT64_MAX - sum,
				   "'%s': the phases sum past INT64_MAX ns", spec);
			sum += ph[i].duration_ns;
		}
		FUZZ_CHECK(al_load_spec_total_ns(ph, n) == sum, "'%s': total %" PRId64 " != %" PRId64,
			   spec, al_load_spec_total_ns(ph, n), sum);
		check_round_trip(spec, ph, n);
		al_load_spec_free(ph);
	}
	free(spec);
	return 0;
}
