/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "core/clock.h"
#include "core/units.h"
#include "run/measure.h"
#include "common-opts.h"
#include "run-opts.h"

/* the shared options keep their ids (common-opts.h: CLI_OPT_*); ours that the setter sees */
enum {
	OPT_FRAGMENTS = 256,
	OPT_BLAME,
	OPT_NO_BLAME,
	OPT_LOAD_OPT, /* one of al_load_optdefs, by its long name */
	OPT_SIM_TAIL,
};

#define DEVICE_MAX (sizeof(((struct al_config *)0)->device) - 1)
/* where the loop stores a value: a field of struct al_run_cli */
#define TO(f_) AL_OPT_TO(struct al_run_cli, f_)
#define FLAG(name_, help_, ...) { .name = (name_), .type = AL_OPT_FLAG, .help = (help_), __VA_ARGS__ }

const struct al_optdef al_run_optdefs[] = {
	AL_OPT_TEXT("usage: audiolat run [options]\n"
		    "\n"
		    "Play a stream of N periods x F frames and measure, every period, how late the\n"
		    "audio thread woke (wake latency), the time between wake-ups (interval), how long\n"
		    "its work took and how much audio was still queued; count xruns and lost periods.\n"
		    "\n"
		    "stream:\n"),
	{ .id = 'b', .name = "backend", .short_name = 'b', .type = AL_OPT_SPEC, .arg = "NAME",
	  .help = "sim (default: a simulated card, no hardware needed),\n"
		  "alsa (an ALSA PCM), jack (a JACK or PipeWire client),\n"
		  "pipewire (a node in PipeWire's graph, docs/pipewire.md),\n"
		  "oss (/dev/dsp, ALSA's OSS emulation: blocking writes)" },
	{ .name = "device", .short_name = 'D', .type = AL_OPT_SPEC, .arg = "NAME",
	  .max_len = DEVICE_MAX, TO(cfg.device),
	  .help = "alsa: the PCM (default 'default'; audiolat devices lists\n"
		  "them); jack: the server (default $JACK_DEFAULT_SERVER);\n"
		  "pipewire: the node to link to (target.object: its name,\n"
		  "description or id; default the default sink/source);\n"
		  "oss: the device file (default /dev/dsp)" },
	{ .name = "rate", .short_name = 'r', .type = AL_OPT_INT, .arg = "HZ",
	  .min = 1000, .max = 768000, TO(cfg.rate_hz), .help = "sample rate (default 48000)" },
	{ .name = "period", .short_name = 'P', .type = AL_OPT_INT, .arg = "FRAMES",
	  .min = 1, .max = 1048576, TO(cfg.period_frames), .help = "frames per period (default 64)" },
	{ .name = "periods", .short_name = 'n', .type = AL_OPT_INT, .arg = "N",
	  .min = 2, .max = 1024, TO(cfg.periods), .help = "periods in the buffer, >= 2 (default 3)" },
	{ .id = OPT_FRAGMENTS, .name = "fragments", .type = AL_OPT_SPEC, .arg = "NxB",
	  .help = "latencytest's form: N periods of B bytes of 16-bit\n"
		  "stereo (3x256 = -n 3 -P 64)" },
	{ .name = "cpu-load", .short_name = 'L', .type = AL_OPT_INT, .arg = "PCT",
	  .min = 0, .max = 1000, TO(cfg.cpu_load_pct),
	  .help = "busy work per period, % of a period (default 80; over\n"
		  "100: the work overruns every period)" },
	FLAG("capture", "record instead of play (alsa, jack, pipewire)", TO(cfg.capture)),
	FLAG("duplex", "record and play (alsa, jack, pipewire)", TO(cfg.duplex)),
	FLAG("mmap", "mmap transfers instead of read/write (alsa)", TO(cfg.mmap)),
	FLAG("nearest", "take the rate and period the device gives (alsa, oss;\n"
			"else a device that cannot come close is refused)", TO(cfg.nearest)),
	{ .id = OPT_SIM_TAIL, .name = "sim-tail", .type = AL_OPT_SPEC, .arg = "XI,SIGMA,P",
	  .help = "sim: put off a period's wake-up, with probability P,\n"
		  "by a generalised Pareto draw of shape XI and scale\n"
		  "SIGMA (bare = us): a known tail (docs/tail.md)" },
	{ .name = "tone", .type = AL_OPT_INT, .arg = "HZ", .min = 1, .max = 96000, TO(cfg.tone_hz),
	  .help = "play a sine instead of silence, to hear the drop-outs\n"
		  "(alsa, jack, pipewire)" },
	FLAG("blame", "name the node(s) or client(s) that made each xrun and\n"
				 "late cycle: pipewire, through its profiler (on by default\n"
				 "where it loads, and then required); jack, the other\n"
				 "clients' threads in an ftrace instance (root; also with\n"
				 "--trace); --no-blame: leave it off", .id = OPT_BLAME),
	FLAG("no-blame", NULL, .id = OPT_NO_BLAME),
	AL_OPT_TEXT("scheduling:\n"),
	CLI_SHARED(CLI_OPT_PRIORITY, TO(cfg.priority)),
	{ .name = "affinity", .short_name = 'a', .type = AL_OPT_INT, .arg = "CPU",
	  .min = 0, .max = 4095, TO(cfg.affinity_cpu), .help = "pin the audio thread to CPU" },
	{ .name = "dma-latency", .type = AL_OPT_INT, .arg = "US",
	  .min = 0, .max = 2000000000, TO(cfg.dma_latency_us),
	  .help = "hold /dev/cpu_dma_latency at US microseconds for the run" },
	AL_OPT_TEXT("run:\n"),
	CLI_SHARED_AS(CLI_OPT_DURATION, NULL, "how long (default 10s; ns, us, ms, s, m, h; bare = s)",
		      TO(cfg.duration_ns), AL_OPT_ALSO(struct al_run_cli, duration_given)),
	{ .name = "max-latency", .type = AL_OPT_TIME, .arg = "TIME",
	  .unit_ns = AL_NS_PER_US, TO(cfg.max_latency_ns),
	  .help = "exit 3 when the max wake latency exceeds TIME (bare = us):\n"
		  "per period due, a stall's missed periods included" },
	{ .name = "max-interval", .type = AL_OPT_TIME, .arg = "TIME",
	  .unit_ns = AL_NS_PER_US, TO(cfg.max_interval_ns),
	  .help = "exit 3 when the longest interval between wake-ups\n"
		  "exceeds TIME (bare = us)" },
	FLAG("fail-on-xrun", "exit 3 when an xrun of ours happened (the server's\n"
			     "notifications for cycles that served us do not count)", TO(cfg.fail_on_xrun)),
	FLAG("fail-on-server-xrun", "exit 3 when the server reported an xrun that was not\n"
				    "ours (another client's, the driver's)", TO(cfg.fail_on_server_xrun)),
	FLAG("trace", "as root: explain wake latencies above the threshold from\n"
				 "an ftrace instance on the audio thread's CPU (what ran,\n"
				 "which IRQ or softirq, for how long; docs/trace.md)", TO(trace)),
	{ .name = "trace-threshold", .type = AL_OPT_TIME, .arg = "TIME", .unit_ns = AL_NS_PER_US,
	  TO(trace_threshold_ns), AL_OPT_ALSO(struct al_run_cli, trace),
	  .help = "what counts as a spike (default half the buffer;\n"
		  "bare = us; implies --trace)" },
	FLAG("no-why", "collect no evidence of the causes of xruns and late\n"
		       "periods (collected by default, without root: docs/why.md)", TO(no_why)),
	{ .name = "why-threshold", .type = AL_OPT_TIME, .arg = "TIME", .unit_ns = AL_NS_PER_US,
	  TO(why_threshold_ns),
	  .help = "a period served later than TIME gets a cause (default\n"
		  "one period; bare = us)" },
	{ .name = "fault-pages", .type = AL_OPT_INT, .arg = "N", .min = 1, .max = 1000000,
	  TO(fault_pages),
	  .help = "a fault of known kind: the audio thread touches N fresh\n"
		  "pages every 100 ms (N minor page faults; docs/why.md)" },
	AL_OPT_TEXT("load (docs/loads.md, audiolat load --help):\n"),
	CLI_SHARED(CLI_OPT_LOAD, TO(cfg.load_spec)),
	AL_OPT_LONGS(OPT_LOAD_OPT, al_load_optdefs,
		      "      --load-policy, --load-nice, --load-cpus, --load-dir, --direct, --file-size,\n"
		      "      --workers, --mem-size, --groups, --fds, --loops, --datasize, --pipe,\n"
		      "      --threads, --rt-period, --rt-run, --rt-prio: the load options of\n"
		      "                         audiolat load, by their long names\n"),
	AL_OPT_TEXT("output:\n"),
	CLI_SHARED_AS(CLI_OPT_JSON, NULL, "write the audiolat.run/2 JSON result (- = stdout, and\n"
					  "then no text report)", TO(json_path)),
	{ .name = "html", .type = AL_OPT_FILE, .arg = "FILE", TO(html_path),
	  .help = "write the HTML report with plots (as audiolat report)" },
	CLI_SHARED(CLI_OPT_QUIET, TO(quiet)),
	FLAG("verbose", "list every xrun", .short_name = 'v', TO(verbose)),
	FLAG("why", "a line per event of why it dropped out (every xrun and\n"
		    "late period, its cause and evidence), not only the first\n"
		    "10 of a run with xruns", TO(why)),
	FLAG("no-histogram", "leave out the ASCII histogram", TO(no_histogram)),
	CLI_SHARED(CLI_OPT_LABEL, TO(cfg.label)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("results database (docs/store.md; every run is saved):\n"),
	CLI_SHARED_AS(CLI_OPT_DB, NULL, "save the result here (default\n"
					"$XDG_DATA_HOME/audiolat/results.db)", TO(db_path)),
	CLI_SHARED(CLI_OPT_NO_DB, TO(no_db)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 done, 1 runtime error, 2 usage error, 3 threshold exceeded,\n"
		    "4 backend or device unavailable\n"),
	AL_OPT_END,
};

static int
bad(char *err, size_t size, const char *fmt, const char *opt, const char *arg)
{
	snprintf(err, size, fmt, opt, arg);
	return -EINVAL;
}

int
al_run_parse_args(int argc, char **argv, struct al_run_cli *p, char *err, size_t err_size)
{
	int rc = al_run_parse_opts(argc, argv, p, err, err_size);

	return rc || p->help ? rc : al_backend_check_config(p->backend, &p->cfg, err, err_size);
}

/* --sim-tail XI,SIGMA,P: -0.9 <= XI <= 2, SIGMA > 0 (bare = us), 0 < P <= 1 */
static int
sim_tail_set(struct al_config *c, const char *arg, char *err, size_t err_size)
{
	char sigma[32], *end;
	const char *c1 = strchr(arg, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
	double xi, p;

	if (!c2 || (size_t)(c2 - c1 - 1) >= sizeof(sigma))
		return bad(err, err_size, "%s: '%s' is not XI,SIGMA,P (e.g. 0.25,100us,0.02)",
			   "--sim-tail", arg);
	snprintf(sigma, sizeof(sigma), "%.*s", (int)(c2 - c1 - 1), c1 + 1);
	xi = strtod(arg, &end);
	if (end != c1 || !(xi >= -0.9 && xi <= 2))
		return bad(err, err_size, "%s: shape '%s' is not a number in [-0.9, 2]", "--sim-tail", arg);
	p = strtod(c2 + 1, &end);
	if (*end || end == c2 + 1 || !(p > 0 && p <= 1))
		return bad(err, err_size, "%s: probability in '%s' is not in (0, 1]", "--sim-tail", arg);
	if (al_parse_duration_ns(sigma, AL_NS_PER_US, &c->sim_tail_sigma_ns) ||
	    c->sim_tail_sigma_ns <= 0)
		return bad(err, err_size, "%s: scale '%s' is not a positive time", "--sim-tail", sigma);
	c->sim_tail_xi = xi;
	c->sim_tail_p = p;
	return 0;
}

/* What the table cannot store itself (TO): the backend, --fragments, --blame, the loads'. */
static int
run_set(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size)
{
	struct al_run_cli *p = ctx;
	struct al_config *c = &p->cfg;

	switch (h->id) {
	case 'b':
		p->backend = al_backend_find(h->arg);
		if (!p->backend)
			return bad(err, err_size, "%s: unknown backend '%s'", "-b/--backend", h->arg);
		snprintf(c->backend, sizeof(c->backend), "%s", h->arg);
		break;
	case OPT_FRAGMENTS:
		return al_parse_fragments(h->arg, &c->periods, &c->period_frames, err, err_size);
	case OPT_BLAME:
	case OPT_NO_BLAME:
		c->blame = h->id == OPT_BLAME ? 1 : -1;
		break;
	case OPT_LOAD_OPT:
		return al_load_opt_set(&p->load_opts, h->def->name, h->arg, err, err_size) ? -EINVAL
											    : 0;
	case CLI_OPT_LOAD:
		p->load_spec = h->arg;
		break;
	case OPT_SIM_TAIL:
		return sim_tail_set(c, h->arg, err, err_size);
	}
	return 0;
}

char **
al_run_argv_new(int argc, char **argv, int *run_argc)
{
	size_t room = 2; /* "run" and the NULL */
	char **run_argv;

	for (int i = 1; i < argc; i++)
		room += strlen(argv[i]) + 1;
	run_argv = calloc(room, sizeof(*run_argv));
	*run_argc = 0;
	if (run_argv)
		run_argv[(*run_argc)++] = "run";
	return run_argv;
}

int
al_run_take(struct al_run_cli *p, char **run_argv, int *run_argc, const struct al_opt_hit *h,
	    char *err, size_t err_size)
{
	for (int i = 0; i < h->n_tok; i++)
		run_argv[(*run_argc)++] = (char *)h->tok[i];
	return run_set(p, h, err, err_size);
}

void
al_run_cli_init(struct al_run_cli *p)
{
	memset(p, 0, sizeof(*p));
	al_config_defaults(&p->cfg);
	p->backend = al_backend_find(p->cfg.backend);
	al_load_opts_init(&p->load_opts);
}

void
al_run_cli_measure(const struct al_run_cli *p, struct al_measure *m)
{
	memset(m, 0, sizeof(*m));
	m->o.cfg = p->cfg;
	m->o.backend = p->backend;
	m->o.trace = p->trace;
	m->o.trace_threshold_ns = p->trace_threshold_ns;
	m->o.why = !p->no_why;
	m->o.why_threshold_ns = p->why_threshold_ns;
	m->o.fault_pages = p->fault_pages;
	m->load_spec = p->load_spec;
	m->load_opts = &p->load_opts;
	m->measure = p->measure;
	m->measure_ud = p->measure_ud;
}

int
al_run_parse_opts(int argc, char **argv, struct al_run_cli *p, char *err, size_t err_size)
{
	int first, rc;

	al_run_cli_init(p);
	rc = al_opts_parse(al_run_optdefs, argc, argv, run_set, p, &first, NULL, err,
			   err_size);
	if (rc || p->help)
		return rc;
	if (first < argc)
		return bad(err, err_size, "%s'%s'", "unexpected argument ", argv[first]);
	return 0;
}
