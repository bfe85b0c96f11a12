/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat roundtrip's options (roundtrip-opts.c): parsed into what al_roundtrip_run() takes. */
#ifndef AL_ARGS_ROUNDTRIP_OPTS_H
#define AL_ARGS_ROUNDTRIP_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"
#include "core/opts.h"
#include "run/roundtrip.h"

struct cli_roundtrip_opts {
	struct al_roundtrip_opts ro;     /* what al_roundtrip_run() takes */
	const struct al_backend_ops *be; /* -b, resolved once */
	const char *backend, *json_path;
	char fixed_opt[48]; /* the last of -C -r -P -n -p given (a server refuses them), or "" */
	bool quiet, help;
};

/* roundtrip's options, usage and prose: its whole --help (al_opts_help() at column 25) */
extern const struct al_optdef cli_roundtrip_optdefs[];

/* Pure: argv into o (zeroed first): 0, or -EINVAL with one line in err. */
int cli_roundtrip_parse(int argc, char **argv, struct cli_roundtrip_opts *o, char *err,
			size_t err_size);

#endif
