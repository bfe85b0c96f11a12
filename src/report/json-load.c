/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The audiolat.load/1 document of audiolat load (docs/loads.md); its text made valid UTF-8. */
#include <jansson.h>

#include "doc/doc.h"
#include "doc/schema.h"
#include "report.h"

json_t *
al_report_load_json(const struct al_phase *ph, const char *name, int64_t elapsed_ns,
		    bool interrupted)
{
	json_t *root, *tp;
	int i;

	root = al_doc_new_plain(AL_SCHEMA_LOAD);
	tp = json_object();
	if (!root || !tp) {
		json_decref(root);
		json_decref(tp);
		return NULL;
	}
	json_object_set_new(root, "name", al_json_text(name));
	json_object_set_new(root, "load", al_json_text(ph->load));
	json_object_set_new(root, "duration_ns", json_integer(elapsed_ns));
	json_object_set_new(root, "interrupted", json_boolean(interrupted));
	for (i = 0; i < ph->n_throughput; i++) {
		json_t *m = json_object();

		json_object_set_new(m, "value", json_real(ph->throughput[i].value));
		json_object_set_new(m, "unit", json_string(ph->throughput[i].unit));
		json_object_set_new(tp, ph->throughput[i].name, m);
	}
	json_object_set_new(root, "throughput", tp);
	json_object_set_new(root, "error", al_json_text(*ph->error ? ph->error : NULL));
	return root;
}
