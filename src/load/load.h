/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Load generators: hackbench, rt-migrate, cpu, mem, disk-write, disk-copy,
 * disk-read, procfs, fork, cmd and idle, run in phases while audiolat
 * measures.
 *
 * Life of a phase (all calls from the controller thread, which must
 * outlive the loads: the supervisors die with the thread that forked them):
 *
 *	struct al_load_opts o;               al_load_opts_init(&o);
 *	al_load_opt_set(&o, "load-policy", "batch", err, sizeof(err));  (options)
 *	al_load_spec_parse("idle:10s,hackbench", total_ns, &ph, &n, err, sizeof(err));
 *	al_load_check_opts(&o, ph, n, err, sizeof(err));
 *	for each phase:
 *		al_load_phase_start(&ph[i], &o, &set, err, sizeof(err));
 *		while (phase time left)
 *			al_load_phase_poll(set, err, sizeof(err));   (every ~100 ms)
 *		al_load_phase_stop(set, &result_phase);
 *	al_load_spec_free(ph);
 *
 * Every load of a phase runs under its own supervisor process, the leader
 * of a new process group; the workers are its children (or threads), in
 * the same group. The supervisor gets SIGTERM when its parent thread dies
 * (PR_SET_PDEATHSIG), and on any SIGTERM kills every descendant (a
 * command that left the group too: timeout(1), setsid) and then its
 * group; the workers get SIGKILL when the supervisor dies.
 * al_load_phase_stop() and al_load_kill_all() send that SIGTERM;
 * al_load_phase_stop() SIGKILLs a group whose supervisor did not end
 * within 2 s. Temporary files are unlinked as
 * soon as they are open (O_TMPFILE where the file system has it), so
 * nothing is left on disk whatever kills the load. Every load process is
 * named "al-<load>" (prctl PR_SET_NAME), except the commands a cmd load
 * executes.
 *
 * Library rules: functions return 0 (or a count) or -errno, never print
 * and never exit. Error texts are one line without the program name.
 */
#ifndef AL_LOAD_LOAD_H
#define AL_LOAD_LOAD_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/opts.h"
#include "core/result.h"

#define AL_LOAD_PHASES_MAX 64   /* phases in one spec */
#define AL_LOAD_PHASE_LOADS 8   /* loads combined with '+' in one phase */
#define AL_LOAD_ARG_MAX 256     /* a cmd load's command */
#define AL_LOAD_DIR_MAX 256

/* Options shared by every load of a run (the --load-* options). */
struct al_load_opts {
	/* scheduling of every load process */
	int policy;               /* SCHED_OTHER (default), _BATCH, _IDLE, _RR, _FIFO */
	int prio;                 /* 1..99 for rr/fifo, else 0 */
	int nice;                 /* -20..19, default 0 */
	bool cpus_all;            /* true (default): every CPU */
	cpu_set_t cpus;           /* --load-cpus, when !cpus_all */
	char cpus_text[64];       /* "all" or the list as given ("0,2-3") */
	int ncpus;                /* load CPUs, fixed at phase start; 0: counted when asked */

	/* disk loads */
	char dir[AL_LOAD_DIR_MAX]; /* --load-dir, default /var/tmp */
	bool direct;              /* --direct: O_DIRECT */
	int64_t file_size_bytes;  /* --file-size; 0: sized from memory (see al_load_file_size_bytes) */

	/* hackbench */
	int hb_groups;            /* -g, default 10 */
	int hb_fds;               /* -f, default 20 (senders = receivers = fds per group) */
	int hb_loops;             /* -l, default 100 */
	int hb_datasize;          /* -s, default 100 bytes */
	bool hb_pipe;             /* --pipe: pipes instead of Unix sockets */
	bool hb_threads;          /* --threads: threads instead of processes */
	int hb_runs;              /* stop after this many runs; 0 = repeat until stopped */

	/* cpu, mem, procfs, fork; the threads of rt-migrate */
	int workers;              /* --workers; 0: the load's default (cpu, mem: one per CPU) */
	int64_t mem_bytes;        /* --mem-size per mem worker; 0: 4 x last-level cache, >= 64 MiB */

	/* rt-migrate */
	int64_t rt_period_ns;     /* --rt-period, default 20 ms */
	int64_t rt_run_ns;        /* --rt-run as a time; 0: rt_run_pct of the period */
	int rt_run_pct;           /* --rt-run as a percentage of the period, default 20 */
	int rt_prio;              /* --rt-prio: SCHED_FIFO priority of the lowest thread, default 2 */
};

/* Fill o with the defaults. Returns 0. */
int al_load_opts_init(struct al_load_opts *o);

/* "other", "batch", "idle", "rr:PRIO", "fifo:PRIO" (PRIO 1..99); 0 or -EINVAL. */
int al_load_parse_policy(const char *s, struct al_load_opts *o);

/* "all" or a CPU list "0,2-3"; 0 or -EINVAL (bad syntax, CPU >= CPU_SETSIZE). */
int al_load_parse_cpus(const char *s, struct al_load_opts *o);

/*
 * The load options for a command-line parser (core/opts.h): values
 * (AL_OPT_SPEC, checked by al_load_opt_set()) and flags, each with its
 * argument's name and one help line; the short letter is the one
 * `audiolat load` uses (`audiolat run` merges only the long names).
 * Ended by AL_OPT_END.
 */
extern const struct al_optdef al_load_optdefs[];

/*
 * Set the option name (long name, e.g. "load-policy", "groups", "direct")
 * from arg (NULL for flags). Returns 0, -ENOENT for an unknown name, or
 * -EINVAL/-ERANGE with one line in err naming the option
 * ("--load-nice: '30' is not in -20..19").
 */
int al_load_opt_set(struct al_load_opts *o, const char *name, const char *arg, char *err,
		    size_t err_size);

/* One load of a phase. */
struct al_load_item {
	const struct al_load_ops *ops;
	char arg[AL_LOAD_ARG_MAX];  /* the command of a cmd load, else "" */
};

struct al_phase_spec {
	char name[AL_NAME_MAX];     /* "idle", "hackbench+disk-read", "cmd" */
	int64_t duration_ns;        /* resolved; 0 only when no time was given and total_ns was 0 */
	bool duration_given;        /* the spec had ":TIME" */
	int n_loads;                /* 0 for idle */
	struct al_load_item loads[AL_LOAD_PHASE_LOADS];
};

/*
 * Parse a phase spec (grammar in docs/loads.md):
 *
 *	spec   = item { "," item }
 *	item   = preset [ ":" TIME ] | loads [ ":" TIME ]
 *	loads  = load { "+" load }
 *	load   = NAME | "cmd:" COMMAND    (COMMAND in '...' or "...", or up to , + :)
 *
 * Presets: "latencytest" (idle, procfs, disk-write, disk-copy, disk-read,
 * hackbench; equal shares) and "latencytest-short" (42 s in all). A phase
 * without a time gets an equal share of what total_ns leaves after the
 * timed phases (a preset with ":TIME" shares TIME among its untimed
 * phases); with total_ns == 0 such phases keep duration_ns == 0.
 * On success *phases (free with al_load_spec_free) and *n_phases are set;
 * on error err holds one line naming the bad part and -EINVAL is returned.
 */
int al_load_spec_parse(const char *spec, int64_t total_ns, struct al_phase_spec **phases,
		       size_t *n_phases, char *err, size_t err_size);
void al_load_spec_free(struct al_phase_spec *phases);

/* Sum of the phase durations. */
int64_t al_load_spec_total_ns(const struct al_phase_spec *phases, size_t n_phases);

/*
 * Check what the phases will need (phases == NULL: everything): the
 * --load-dir is a writable directory (a temporary file is created and
 * removed), --direct works there, --load-cpus names available CPUs, the
 * hackbench and rt-migrate parameters fit. 0, or
 * -EINVAL/-EACCES/-EROFS/-ENOENT... with one line in err.
 */
int al_load_check_opts(const struct al_load_opts *o, const struct al_phase_spec *phases,
		       size_t n_phases, char *err, size_t err_size);

/* The size of the disk loads' files: --file-size, or sized from memory. */
int64_t al_load_file_size_bytes(const struct al_load_opts *o);

/*
 * The number of worker processes a load starts (cpu and mem: one per load
 * CPU by default; rt-migrate: one, which runs the threads).
 */
int al_load_workers(const struct al_load_ops *ops, const struct al_load_opts *o);

/* The running loads of one phase. */
struct al_load_set;

/*
 * Start the loads of ph (none for idle) and return once each supervisor
 * has set its scheduling and opened its files (milliseconds; no
 * calibration or file filling is waited for). Writes nothing to stdout.
 * 0, or -errno with one line in err (then nothing is left running).
 */
int al_load_phase_start(const struct al_phase_spec *ph, const struct al_load_opts *o,
			struct al_load_set **out, char *err, size_t err_size);

/*
 * Non-blocking check: 0 while the loads run, 1 when every load finished
 * on its own (only hackbench with hb_runs > 0 does), <0 when a load died
 * or failed (err says which and why, e.g. "disk-write: writing /var/tmp:
 * No space left on device"). The other loads keep running until stop.
 */
int al_load_phase_poll(struct al_load_set *s, char *err, size_t err_size);

/*
 * Kill the groups, reap, fill ph->load (exact parameters), ph->throughput,
 * ph->n_throughput and ph->error ("" when every load ran to the end), and
 * free s. ph's other fields are left alone. Returns 0, or -EIO when a
 * load failed (ph->error says why). s may be NULL (nothing started).
 */
int al_load_phase_stop(struct al_load_set *s, struct al_phase *ph);

/*
 * Elapsed time of the running phase (ns since start). For a status line.
 */
int64_t al_load_phase_elapsed_ns(const struct al_load_set *s);

/*
 * Async-signal-safe: stop every running load (for a SIGINT/SIGTERM handler
 * or atexit): SIGTERM to each supervisor, which kills all its descendants
 * (also those that left its process group) and then its group.
 * al_load_phase_stop() must still be called to reap them and collect the
 * figures (it SIGKILLs a group whose supervisor did not end in time).
 */
void al_load_kill_all(void);

/* The registry. */
struct al_load_ops;

/* The load called name, or NULL. */
const struct al_load_ops *al_load_find(const char *name);
/* The i-th load in registry order, NULL past the end. */
const struct al_load_ops *al_load_get(size_t i);
const char *al_load_name(const struct al_load_ops *ops);
const char *al_load_summary(const struct al_load_ops *ops);
/* Space-separated long option names the load uses ("groups fds loops ..."). */
const char *al_load_option_names(const struct al_load_ops *ops);
/* Space-separated throughput metric names ("messages_per_s s_per_run runs"). */
const char *al_load_metric_names(const struct al_load_ops *ops);

/*
 * The exact parameters of one load ("hackbench groups=10 fds=20 loops=100
 * datasize=100 mode=process ipc=socket"), without the scheduling part.
 */
void al_load_describe(const struct al_load_item *item, const struct al_load_opts *o, char *buf,
		      size_t size);
/* The scheduling part: "policy=other nice=0 cpus=all". */
void al_load_describe_sched(const struct al_load_opts *o, char *buf, size_t size);
/*
 * A phase's loads: each one's parameters joined by " + ", then the
 * scheduling part ("hackbench ... + cpu workers=2 policy=other nice=0
 * cpus=all"); "none" for a phase without loads (ph may be NULL).
 */
void al_load_phase_describe(const struct al_phase_spec *ph, const struct al_load_opts *o,
			    char *buf, size_t size);
/*
 * What audiolat load says before ph starts, lines ending in a newline:
 * classic (hackbench's one run) rt-tests hackbench's two lines ("Running in
 * process mode with 10 groups ..."), else "load: " its description and its
 * duration ("duration: 30.000 s", or until interrupted when 0).
 */
void al_load_intro(const struct al_phase_spec *ph, const struct al_load_opts *o, bool classic,
		   int64_t duration_ns, char *buf, size_t size);

/* Preset names, NULL past the end, and their expansion. */
const char *al_load_preset_name(size_t i);
const char *al_load_preset_spec(size_t i);

#endif
