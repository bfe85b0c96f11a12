/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lines a LAVA test definition runs to record measurements:
 * "lava-test-case NAME --result pass --measurement N --units us". LAVA
 * takes a test case name of letters, digits, '_', '-' and '.', so a
 * label becomes that (everything else '_').
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "doc/view.h"

static void
safe_name(const char *in, char *out, size_t size)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < size; i++)
		out[i] = (in[i] >= 'a' && in[i] <= 'z') || (in[i] >= 'A' && in[i] <= 'Z') ||
				 (in[i] >= '0' && in[i] <= '9') || in[i] == '-' || in[i] == '.' ?
			 in[i] : '_';
	out[i] = '\0';
}

int
al_ci_lava(json_t *const *docs, size_t n, const struct al_ci_opts *o, char **out,
	   char *err, size_t err_size)
{
	struct al_ci_figure fig[AL_CI_FIGURES_MAX];
	char prefix[96], name[224];
	size_t d, i, nf, size = 0;
	char *buf = NULL;
	FILE *f;

	(void)o;
	*out = NULL;
	f = open_memstream(&buf, &size);
	if (!f)
		return -ENOMEM;
	for (d = 0; d < n; d++) {
		if (!al_doc_is_run(docs[d])) {
			fclose(f);
			free(buf);
			snprintf(err, err_size, "result %zu is not an audiolat.run document", d + 1);
			return -EINVAL;
		}
		/* several runs: each name carries its run's label (or its number) */
		prefix[0] = '\0';
		if (n > 1) {
			const char *label = al_doc_str(docs[d], "label", NULL);
			char l[80];

			if (label && label[0])
				safe_name(label, l, sizeof(l));
			else
				snprintf(l, sizeof(l), "run%zu", d + 1);
			snprintf(prefix, sizeof(prefix), "%s.", l);
		}
		nf = al_ci_run_figures(docs[d], fig, AL_CI_FIGURES_MAX);
		for (i = 0; i < nf; i++) {
			snprintf(name, sizeof(name), "%s%s", prefix, fig[i].path);
			if (!fig[i].measured) {
				fprintf(f, "lava-test-case %s --result skip\n", name);
				continue;
			}
			/* latencies in us, as cyclictest's LAVA definitions report them */
			if (!strcmp(fig[i].unit, "s"))
				fprintf(f, "lava-test-case %s --result %s --measurement %.3f --units us\n",
					name, fig[i].has_limit && !fig[i].pass ? "fail" : "pass",
					fig[i].value * 1e6);
			else if (fig[i].unit[0])
				fprintf(f, "lava-test-case %s --result pass --measurement %.4g --units %s\n",
					name, fig[i].value, !strcmp(fig[i].unit, "%") ? "percent" : fig[i].unit);
			else
				fprintf(f, "lava-test-case %s --result pass --measurement %.0f --units count\n",
					name, fig[i].value);
		}
	}
	if (fclose(f)) {
		free(buf);
		return -ENOMEM;
	}
	*out = buf;
	return 0;
}
