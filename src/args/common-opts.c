/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/clock.h"
#include "load/load.h"
#include "common-opts.h"

/* what the result keeps: al_config.label and .load_spec, with their NUL */
#define LABEL_MAX 127
#define LOAD_SPEC_MAX (AL_LOAD_DESC_MAX - 1)

const struct al_optdef cli_common_opts[] = {
	{ .id = CLI_OPT_DURATION, .name = "duration", .short_name = 'd', .type = AL_OPT_TIME,
	  .arg = "TIME", .help = "how long (ns, us, ms, s, m, h; bare = s)",
	  .unit_ns = AL_NS_PER_SEC },
	{ .id = CLI_OPT_PRIORITY, .name = "priority", .short_name = 'p', .type = AL_OPT_INT,
	  .arg = "PRIO", .help = "SCHED_FIFO priority 1..99, 0 = SCHED_OTHER (default 80)",
	  .min = 0, .max = 99 },
	{ .id = CLI_OPT_QUIET, .name = "quiet", .short_name = 'q', .type = AL_OPT_FLAG,
	  .help = "no status line, only the summary line" },
	{ .id = CLI_OPT_JSON, .name = "json", .type = AL_OPT_OUT, .arg = "FILE|-",
	  .help = "write the JSON document (- = stdout)" },
	{ .id = CLI_OPT_LABEL, .name = "label", .type = AL_OPT_TEXT, .arg = "TEXT",
	  .help = "name the result (in the JSON, the database, comparisons)",
	  .max_len = LABEL_MAX },
	{ .id = CLI_OPT_DB, .name = "db", .type = AL_OPT_PATH, .arg = "PATH",
	  .help = "the results database (default\n$XDG_DATA_HOME/audiolat/results.db)" },
	{ .id = CLI_OPT_NO_DB, .name = "no-db", .type = AL_OPT_FLAG,
	  .help = "do not save the result" },
	{ .id = CLI_OPT_LOAD, .name = "load", .type = AL_OPT_SPEC, .arg = "SPEC",
	  .help = "run through load phases: idle:10s,hackbench:30s,...;\n"
		  "'+' combines loads; presets latencytest, latencytest-short;\n"
		  "a phase without a time gets an equal share of -d",
	  .max_len = LOAD_SPEC_MAX },
	{ .id = CLI_OPT_HELP, .name = "help", .short_name = 'h', .type = AL_OPT_FLAG,
	  .help = "this text", .stop = true },
	AL_OPT_END,
};
