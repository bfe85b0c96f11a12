/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat monitor: `run` for days at a constant cost (src/run/monitor.c):
 * rolling windows, checkpoints to the results database, Prometheus
 * metrics (a textfile, /metrics), threshold actions. docs/monitor.md.
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/units.h"
#include "core/url.h"
#include "report/prom.h"
#include "report/report.h"
#include "run/monitor.h"
#include "cli.h"
#include "cli-store.h"
#include "commands.h"
#include "doc-io.h"
#include "run-common.h"
#include "run-opts.h"

extern char **environ;

#define CHILDREN_MAX 16

static const char monitor_help[] =
	"usage: audiolat monitor [options]\n"
	"\n"
	"Measure as `audiolat run` does (the same audio thread, backends, loads and\n"
	"per-period statistics) until stopped (SIGINT, SIGTERM) or -d, at a constant\n"
	"memory cost: 1-minute and 5-minute windows (count, max, histogram, xruns, lost\n"
	"periods), a cumulative histogram, checkpoints to the results database,\n"
	"Prometheus metrics and actions on a threshold (docs/monitor.md).\n"
	"\n"
	"monitor:\n"
	"  -d, --duration TIME    stop after TIME (default: run until stopped)\n"
	"      --checkpoint TIME  save the result so far every TIME (default 5m; 0: only\n"
	"                         at the end); a crash loses at most TIME, SIGTERM nothing\n"
	"      --window TIME      the short window (default 1m; the long one is 5 times\n"
	"                         it; shorter windows are for tests)\n"
	"      --metrics-file PATH  write the metrics in node_exporter's textfile format,\n"
	"                         atomically (PATH should end in .prom)\n"
	"      --listen ADDR:PORT serve them on http://ADDR:PORT/metrics (127.0.0.1:PORT\n"
	"                         for loopback; any other address only as given)\n"
	"      --metrics-interval TIME  how often the metrics are made (default 5s)\n"
	"      --threshold TIME   a period later than TIME is an event (bare = us)\n"
	"      --on-threshold ACTION  on an event (a period past --threshold, an xrun):\n"
	"                         exec:CMD   run CMD with sh -c, the event in its\n"
	"                                    environment (AUDIOLAT_EVENT_*)\n"
	"                         signal:SIG send SIG (USR1, 10, ...) to the parent\n"
	"                         trace      with --trace: save the flight recorder's\n"
	"                                    explanation at once (a checkpoint)\n"
	"      --action-interval TIME  at most one action per TIME (default 60s)\n"
	"\n"
	"Every option of `audiolat run` (audiolat run --help) applies too: -b, -D, -r,\n"
	"-P, -n, -L, -p, -a, --load, --trace, --json, --html, --db, --no-db, -q, ...\n"
	"\n"
	"exit status: 0 done, 1 runtime error, 2 usage error, 4 backend or device\n"
	"unavailable\n";

enum action_kind { ACT_NONE, ACT_EXEC, ACT_SIGNAL, ACT_TRACE };

struct mon_cli {
	int64_t window_ns;
	int64_t checkpoint_ns;
	int64_t metrics_interval_ns;
	int64_t threshold_ns;
	int64_t action_interval_ns;
	const char *metrics_file;
	const char *listen;
	const char *on_threshold;
	enum action_kind action;
	const char *exec_cmd;
	int signo;
};

struct mon_ctx {
	struct mon_cli *mc;
	struct al_run_cli *p;
	struct al_monitor m;
	struct al_result *r;
	char cmdline[1024];
	struct al_store *db;
	char db_path[4096];
	int64_t db_id;
	bool db_failed;
	bool metrics_failed;
	struct al_prom_http *http;
	pid_t children[CHILDREN_MAX];
};

static int
signal_of(const char *s)
{
	static const struct { const char *name; int sig; } names[] = {
		{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "USR1", SIGUSR1 },
		{ "USR2", SIGUSR2 }, { "TERM", SIGTERM }, { "ALRM", SIGALRM }, { "CONT", SIGCONT },
	};
	long v;

	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name))
			return names[i].sig;
	if (!al_parse_long(s, 1, SIGRTMAX, &v))
		return (int)v;
	return -1;
}

static int
parse_action(struct mon_cli *mc, const char *a)
{
	if (!strcmp(a, "trace")) {
		mc->action = ACT_TRACE;
	} else if (!strncmp(a, "exec:", 5) && a[5]) {
		mc->action = ACT_EXEC;
		mc->exec_cmd = a + 5;
	} else if (!strncmp(a, "signal:", 7) && (mc->signo = signal_of(a + 7)) > 0) {
		mc->action = ACT_SIGNAL;
	} else {
		return cli_usage_error("monitor", "--on-threshold: '%s' is not trace, exec:CMD or "
				       "signal:SIG", a);
	}
	mc->on_threshold = a;
	return 0;
}

/* A duration option's value, or one line naming it and AL_EXIT_USAGE. */
static int
opt_time(const char *opt, const char *val, int64_t unit_ns, int64_t *out_ns)
{
	int rc = al_parse_duration_ns(val, unit_ns, out_ns);

	if (rc == -ERANGE)
		return cli_usage_error("monitor", "%s: '%s' is too large", opt, val);
	if (rc || *out_ns < 0)
		return cli_usage_error("monitor", "%s: '%s' is not a duration (a number with ns, "
				       "us, ms, s, m or h)", opt, val);
	return 0;
}

/*
 * Take monitor's own options out of argv; the rest (argv[0] "run") goes
 * to run's parser. Returns 0 or the exit code.
 */
static int
split_args(int argc, char **argv, struct mon_cli *mc, int *run_argc, char **run_argv)
{
	static const struct { const char *name; int kind; } opts[] = {
		{ "--checkpoint", 'c' }, { "--window", 'w' }, { "--metrics-file", 'f' },
		{ "--listen", 'l' }, { "--metrics-interval", 'i' }, { "--threshold", 't' },
		{ "--on-threshold", 'o' }, { "--action-interval", 'a' },
	};
	int i, n = 0, rc;

	run_argv[n++] = "run";
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL, *eq = strchr(arg, '=');
		size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
		int kind = 0;

		if (!strcmp(arg, "--")) {
			while (i < argc)
				run_argv[n++] = argv[i++];
			break;
		}
		for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++)
			if (strlen(opts[k].name) == len && !strncmp(arg, opts[k].name, len))
				kind = opts[k].kind;
		if (!kind) {
			run_argv[n++] = argv[i];
			continue;
		}
		if (eq)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else
			return cli_usage_error("monitor", "%.*s needs a value", (int)len, arg);
		switch (kind) {
		case 'c':
			rc = opt_time("--checkpoint", val, AL_NS_PER_SEC, &mc->checkpoint_ns);
			break;
		case 'w':
			rc = opt_time("--window", val, AL_NS_PER_SEC, &mc->window_ns);
			if (!rc && mc->window_ns < 100 * AL_NS_PER_MS)
				rc = cli_usage_error("monitor", "--window: '%s' is shorter than 100ms",
						     val);
			break;
		case 'i':
			rc = opt_time("--metrics-interval", val, AL_NS_PER_SEC,
					      &mc->metrics_interval_ns);
			if (!rc && mc->metrics_interval_ns <= 0)
				rc = cli_usage_error("monitor", "--metrics-interval: '%s' is not "
						     "longer than 0", val);
			break;
		case 't':
			rc = opt_time("--threshold", val, AL_NS_PER_US, &mc->threshold_ns);
			if (!rc && mc->threshold_ns <= 0)
				rc = cli_usage_error("monitor", "--threshold: '%s' is not longer "
						     "than 0", val);
			break;
		case 'a':
			rc = opt_time("--action-interval", val, AL_NS_PER_SEC,
					      &mc->action_interval_ns);
			break;
		case 'f':
			mc->metrics_file = val;
			rc = val[0] ? 0 : cli_usage_error("monitor", "--metrics-file: empty path");
			break;
		case 'l':
			mc->listen = val;
			rc = 0;
			break;
		default: /* 'o' */
			rc = parse_action(mc, val);
			break;
		}
		if (rc)
			return rc;
	}
	run_argv[n] = NULL;
	*run_argc = n;
	return 0;
}

/*
 * A checkpoint's JSON (the document, its text, the store's parse of it)
 * lives in an arena of mmap'd chunks, unmapped when the checkpoint is
 * done. From the heap, a checkpoint's tens of MB (at the caps) would stay
 * resident for good: mlockall() keeps freed heap pages locked, and a locked
 * page cannot be given back (MADV_DONTNEED refuses it).
 */
#define ARENA_CHUNK (4u << 20)
#define ARENA_CHUNKS_MAX 256

static struct {
	char *chunk[ARENA_CHUNKS_MAX];
	size_t size[ARENA_CHUNKS_MAX];
	size_t n, used;
} arena;

static void *
arena_malloc(size_t size)
{
	size_t cap = arena.n ? arena.size[arena.n - 1] : 0;
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (!arena.n || arena.used + size > cap) {
		size_t c = size > ARENA_CHUNK ? size : ARENA_CHUNK;

		if (arena.n == ARENA_CHUNKS_MAX)
			return NULL;
		p = mmap(NULL, c, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		arena.chunk[arena.n] = p;
		arena.size[arena.n++] = c;
		arena.used = 0;
	}
	p = arena.chunk[arena.n - 1] + arena.used;
	arena.used += size;
	return p;
}

static void
arena_free(void *p)
{
	(void)p; /* all at once, in arena_end() */
}

static void
arena_begin(void)
{
	json_set_alloc_funcs(arena_malloc, arena_free);
}

static void
arena_end(void)
{
	json_set_alloc_funcs(malloc, free);
	for (size_t i = 0; i < arena.n; i++)
		munmap(arena.chunk[i], arena.size[i]);
	arena.n = arena.used = 0;
}

/*
 * A result document: the run's with the monitor's windows, as text with a
 * newline, from alloc (free it with the matching free). *doc_out: the
 * document too (else it is released).
 */
static char *
doc_text(struct mon_ctx *c, const struct al_result *snap, bool final, json_t **doc_out,
	 void *(*alloc)(size_t))
{
	struct al_mw_totals t;
	struct al_monitor_doc_input in;
	json_t *doc = al_report_json(snap);
	char *text = NULL;
	size_t len;

	if (!doc)
		return NULL;
	al_mw_live_read(&c->m.live, &t);
	in = (struct al_monitor_doc_input){
		.shortw = &c->m.shortw, .longw = &c->m.longw, .t = &t,
		.windows_lost = c->m.ring.lost, .checkpoints = c->m.checkpoints,
		.events = c->m.events, .events_suppressed = c->m.events_suppressed,
		.checkpoint_ns = c->mc->checkpoint_ns, .threshold_ns = c->mc->threshold_ns,
		.on_threshold = c->mc->on_threshold, .final = final,
	};
	json_object_set_new(doc, "monitor", al_report_monitor_json(&in));
	if (!final)
		json_object_set_new(doc, "cmdline", al_json_text(c->cmdline));
	len = json_dumpb(doc, NULL, 0, JSON_INDENT(2));
	if (len)
		text = alloc(len + 2);
	if (text) {
		json_dumpb(doc, text, len, JSON_INDENT(2));
		memcpy(text + len, "\n", 2);
	}
	if (doc_out)
		*doc_out = doc;
	else
		json_decref(doc);
	return text;
}

/* The result so far into the database: the first save, then the same row replaced. */
static int
db_put(struct mon_ctx *c, const char *text)
{
	int rc;

	if (c->p->no_db || c->db_failed)
		return c->db_failed ? -EIO : 0;
	if (!c->db) {
		if (cli_store_open("monitor", c->p->db_path, CLI_STORE_WRITE, &c->db, c->db_path,
				   sizeof(c->db_path))) {
			c->db_failed = true;
			return -EIO;
		}
	}
	if (c->db_id)
		rc = al_store_replace(c->db, c->db_id, text, strlen(text), "monitor");
	else
		rc = al_store_save(c->db, text, strlen(text), "monitor", &c->db_id);
	if (rc < 0) {
		cli_warn("the monitor's result was not saved: %s", al_store_error(c->db));
		return rc;
	}
	return 0;
}

static void
on_checkpoint(void *ud, const struct al_monitor *m, const struct al_result *snap, bool final)
{
	struct mon_ctx *c = ud;
	char *text;

	(void)m;
	arena_begin();
	text = doc_text(c, snap, final, NULL, arena_malloc);
	if (!text) {
		arena_end();
		cli_warn("checkpoint: %s", strerror(ENOMEM));
		return;
	}
	if (!db_put(c, text) && !c->m.checkpoints && !c->p->no_db && !c->p->quiet)
		fprintf(stderr, "%ssaving as run %lld (%s), every --checkpoint\n",
			cli_status_wanted(false) ? "\r\033[K" : "", (long long)c->db_id, c->db_path);
	/* --json FILE is the result so far too (never stdout before the end) */
	if (c->p->json_path && strcmp(c->p->json_path, "-"))
		al_doc_write_text(c->p->json_path, text);
	arena_end();
}

static void
on_metrics(void *ud, const struct al_monitor *m)
{
	struct mon_ctx *c = ud;
	struct al_mw_totals t;
	struct al_prom_input in;
	char *text;
	int rc;

	al_mw_live_read(&m->live, &t);
	in = (struct al_prom_input){
		.backend = c->r->cfg.backend, .device = c->r->cfg.device,
		.period_frames = c->r->cfg.period_frames, .t = &t, .last_short = &m->last_short,
		.last_long = &m->last_long, .started_at_ns = m->started_at_ns,
	};
	text = al_prom_text(&in);
	if (!text)
		return;
	if (c->mc->metrics_file) {
		rc = al_prom_write_file(c->mc->metrics_file, text);
		if (rc && !c->metrics_failed)
			cli_warn("--metrics-file %s: %s (tried again every interval)",
				 c->mc->metrics_file, strerror(-rc));
		c->metrics_failed = rc != 0;
	}
	if (c->http)
		al_prom_http_set(c->http, text);
	free(text);
}

/* Children of exec: actions that ended (only ours: loads are children too). */
static void
reap(struct mon_ctx *c)
{
	for (int i = 0; i < CHILDREN_MAX; i++)
		if (c->children[i] > 0 && waitpid(c->children[i], NULL, WNOHANG) == c->children[i])
			c->children[i] = 0;
}

static void
run_exec(struct mon_ctx *c, const struct al_monitor_event *ev)
{
	char v[6][96], iso[40], **envp;
	char *argv[] = { "sh", "-c", (char *)c->mc->exec_cmd, NULL };
	size_t n = 0, i;
	int slot = -1;
	pid_t pid;

	reap(c);
	for (i = 0; i < CHILDREN_MAX; i++)
		if (c->children[i] <= 0)
			slot = (int)i;
	if (slot < 0) {
		cli_warn("--on-threshold: %d actions still running; this one skipped",
			 CHILDREN_MAX);
		return;
	}
	while (environ[n])
		n++;
	envp = calloc(n + 7, sizeof(*envp));
	if (!envp)
		return;
	for (i = 0; i < n; i++)
		envp[i] = environ[i];
	al_clock_format_iso(c->m.started_at_ns + ev->t_ns, iso, sizeof(iso));
	snprintf(v[0], sizeof(v[0]), "AUDIOLAT_EVENT=%s", ev->xrun ? "xrun" : "latency");
	snprintf(v[1], sizeof(v[1]), "AUDIOLAT_EVENT_T_NS=%lld", (long long)ev->t_ns);
	snprintf(v[2], sizeof(v[2]), "AUDIOLAT_EVENT_TIME=%s", iso);
	snprintf(v[3], sizeof(v[3]), "AUDIOLAT_EVENT_LATENCY_NS=%lld", (long long)ev->latency_ns);
	snprintf(v[4], sizeof(v[4]), "AUDIOLAT_EVENT_XRUN_NS=%lld",
		 (long long)(ev->xrun ? ev->xrun_ns : 0));
	snprintf(v[5], sizeof(v[5]), "AUDIOLAT_EVENT_SUPPRESSED=%llu",
		 (unsigned long long)ev->suppressed);
	for (i = 0; i < 6; i++)
		envp[n + i] = v[i];
	envp[n + 6] = NULL;
	/* posix_spawn: no copy of a large, locked address space */
	if (posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, envp) == 0)
		c->children[slot] = pid;
	else
		cli_warn("--on-threshold exec: could not start /bin/sh");
	free(envp);
}

static bool
on_event(void *ud, const struct al_monitor *m, const struct al_monitor_event *ev)
{
	struct mon_ctx *c = ud;

	(void)m;
	switch (c->mc->action) {
	case ACT_EXEC:
		run_exec(c, ev);
		return false;
	case ACT_SIGNAL:
		kill(getppid(), c->mc->signo);
		return false;
	case ACT_TRACE:
		/* the flight recorder explained it (a spike): saved now */
		return true;
	default:
		return false;
	}
}

static int
measure(const struct al_run_opts *o, struct al_result *r, void *ud)
{
	struct mon_ctx *c = ud;

	c->r = r;
	return al_monitor_run(&c->m, o, r);
}

int
cmd_monitor(int argc, char **argv)
{
	struct mon_cli mc = {
		.checkpoint_ns = 5 * 60 * AL_NS_PER_SEC,
		.window_ns = 60 * AL_NS_PER_SEC,
		.metrics_interval_ns = 5 * AL_NS_PER_SEC,
		.action_interval_ns = 60 * AL_NS_PER_SEC,
	};
	struct mon_ctx c = { .mc = &mc };
	struct al_monitor_opts mo;
	struct al_run_cli p;
	const char *db;
	struct al_result r;
	const struct al_result *snap;
	struct al_report_doc rd;
	struct al_report_input ri;
	char **run_argv, err[256], *text;
	json_t *doc = NULL;
	int run_argc = 0, rc, exit_code;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(monitor_help, stdout);
			return AL_EXIT_OK;
		}
	run_argv = calloc((size_t)argc + 1, sizeof(*run_argv));
	if (!run_argv)
		return cli_cmd_error(AL_EXIT_RUNTIME, "monitor", "%s", strerror(ENOMEM));
	rc = split_args(argc, argv, &mc, &run_argc, run_argv);
	if (!rc && al_run_parse_args(run_argc, run_argv, &p, err, sizeof(err)))
		rc = cli_usage_error("monitor", "%s", err);
	if (!rc && mc.action == ACT_TRACE && !p.trace)
		rc = cli_usage_error("monitor", "--on-threshold trace: needs --trace");
	if (!rc && mc.threshold_ns && mc.action == ACT_NONE)
		rc = cli_usage_error("monitor", "--threshold: needs --on-threshold");
	/* a checkpoint replaces its row: the least-privilege role (INSERT, SELECT) cannot */
	db = cli_store_choice(p.db_path);
	if (!rc && !p.no_db && db && al_url_is_postgres(db))
		rc = cli_usage_error("monitor", "--db: a monitor saves to a local database (its "
				     "checkpoints replace their row); audiolat push copies it to PostgreSQL");
	if (rc) {
		free(run_argv);
		return rc;
	}
	if (!p.duration_given)
		p.cfg.duration_ns = AL_RUN_FOREVER_NS;
	if (mc.action == ACT_TRACE && mc.threshold_ns && !p.trace_threshold_ns)
		p.trace_threshold_ns = mc.threshold_ns;
	mo = (struct al_monitor_opts){
		.window_ns = mc.window_ns, .checkpoint_ns = mc.checkpoint_ns,
		.metrics_interval_ns = mc.metrics_interval_ns, .threshold_ns = mc.threshold_ns,
		.on_xrun = mc.action != ACT_NONE, .action_interval_ns = mc.action_interval_ns,
		.checkpoint = on_checkpoint,
		.metrics = mc.metrics_file || mc.listen ? on_metrics : NULL,
		.event = mc.action != ACT_NONE ? on_event : NULL, .ud = &c,
	};
	rc = al_monitor_init(&c.m, &mo);
	if (rc) {
		free(run_argv);
		return cli_cmd_error(cli_exit_of(rc), "monitor", "%s", strerror(-rc));
	}
	if (mc.listen && (rc = al_prom_http_start(mc.listen, &c.http, err, sizeof(err)))) {
		al_monitor_free(&c.m);
		free(run_argv);
		return cli_cmd_error(rc == -EINVAL ? AL_EXIT_USAGE : AL_EXIT_RUNTIME, "monitor",
				     "--listen: %s", err);
	}
	if (c.http && !p.quiet)
		fprintf(stderr, "metrics on %s, port %d: /metrics\n", mc.listen,
			al_prom_http_port(c.http));
	c.p = &p;
	p.measure = measure;
	p.measure_ud = &c;
	snprintf(c.cmdline, sizeof(c.cmdline), "audiolat monitor");
	for (int i = 1; i < argc; i++) {
		size_t used = strlen(c.cmdline);

		snprintf(c.cmdline + used, sizeof(c.cmdline) - used, " %s", argv[i]);
	}
	exit_code = cli_run_measure("monitor", &p, run_argc, run_argv, cli_status_wanted(p.quiet),
				    &r);
	free(run_argv);
	if (!r.n_phases)
		goto out;
	snprintf(r.cmdline, sizeof(r.cmdline), "%s", c.cmdline);
	for (int i = 0; i < r.n_warnings; i++)
		if (p.quiet || (p.json_path && !strcmp(p.json_path, "-")))
			cli_warn("%s", r.warnings[i]);
	/* the end: r's own statistics, every window */
	snap = al_monitor_snapshot(&c.m, &r, true);
	text = doc_text(&c, snap, true, &doc, malloc);
	if (!text) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "monitor", "%s", strerror(ENOMEM));
		goto out_free;
	}
	rd = (struct al_report_doc){ doc, NULL };
	ri = (struct al_report_input){ .docs = &rd, .n = 1, .verbose = p.verbose,
				       .no_histogram = p.no_histogram };
	if (!p.quiet && !(p.json_path && !strcmp(p.json_path, "-"))) {
		al_reporter_text.write(&ri, stdout);
		fputc('\n', stdout);
	}
	if (!(p.json_path && !strcmp(p.json_path, "-")))
		al_reporter_summary.write(&ri, stdout);
	fflush(stdout);
	if (p.json_path && (rc = al_doc_write_text(p.json_path, text)))
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "monitor", "--json %s: %s", p.json_path,
					  strerror(-rc));
	if (db_put(&c, text))
		exit_code = AL_EXIT_RUNTIME;
	else if (!p.no_db && !p.quiet)
		fprintf(stderr, "saved as run %lld (%s)\n", (long long)c.db_id, c.db_path);
	if (p.html_path && cli_write_html("monitor", "--html", p.html_path, &rd, 1, NULL, NULL))
		exit_code = AL_EXIT_RUNTIME;
	free(text);
out_free:
	json_decref(doc);
	al_result_free(&r);
out:
	reap(&c);
	if (c.db)
		al_store_close(c.db);
	al_prom_http_stop(c.http);
	al_monitor_free(&c.m);
	return exit_code;
}
