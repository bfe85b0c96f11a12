/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "backend/backend.h"
#include "core/clock.h"
#include "core/units.h"
#include "run-opts.h"

#define SHORT_OPTS ":b:D:r:P:n:L:p:a:d:qvh"

enum {
	OPT_JSON = 256,
	OPT_HTML,
	OPT_TRACE,
	OPT_TRACE_THRESHOLD,
	OPT_MAX_LATENCY,
	OPT_MAX_INTERVAL,
	OPT_FAIL_ON_XRUN,
	OPT_DMA_LATENCY,
	OPT_NO_HISTOGRAM,
	OPT_LOAD,
	OPT_LABEL,
	OPT_DB,
	OPT_NO_DB,
	OPT_CAPTURE,
	OPT_DUPLEX,
	OPT_MMAP,
	OPT_NEAREST,
	OPT_TONE,
	OPT_FRAGMENTS,
	OPT_BLAME,
	OPT_NO_BLAME,
	OPT_LOAD_BASE = 512, /* + index into al_load_optdefs */
};

#define LONG_OPTS_MAX 96

static const struct option run_opts[] = {
	{ "backend", required_argument, NULL, 'b' },
	{ "device", required_argument, NULL, 'D' },
	{ "rate", required_argument, NULL, 'r' },
	{ "period", required_argument, NULL, 'P' },
	{ "periods", required_argument, NULL, 'n' },
	{ "cpu-load", required_argument, NULL, 'L' },
	{ "priority", required_argument, NULL, 'p' },
	{ "affinity", required_argument, NULL, 'a' },
	{ "duration", required_argument, NULL, 'd' },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "trace", no_argument, NULL, OPT_TRACE },
	{ "trace-threshold", required_argument, NULL, OPT_TRACE_THRESHOLD },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "max-latency", required_argument, NULL, OPT_MAX_LATENCY },
	{ "max-interval", required_argument, NULL, OPT_MAX_INTERVAL },
	{ "fail-on-xrun", no_argument, NULL, OPT_FAIL_ON_XRUN },
	{ "dma-latency", required_argument, NULL, OPT_DMA_LATENCY },
	{ "no-histogram", no_argument, NULL, OPT_NO_HISTOGRAM },
	{ "load", required_argument, NULL, OPT_LOAD },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "db", required_argument, NULL, OPT_DB },
	{ "no-db", no_argument, NULL, OPT_NO_DB },
	{ "capture", no_argument, NULL, OPT_CAPTURE },
	{ "duplex", no_argument, NULL, OPT_DUPLEX },
	{ "mmap", no_argument, NULL, OPT_MMAP },
	{ "nearest", no_argument, NULL, OPT_NEAREST },
	{ "tone", required_argument, NULL, OPT_TONE },
	{ "fragments", required_argument, NULL, OPT_FRAGMENTS },
	{ "blame", no_argument, NULL, OPT_BLAME },
	{ "no-blame", no_argument, NULL, OPT_NO_BLAME },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const char al_run_help[] =
	"usage: audiolat run [options]\n"
	"\n"
	"Play a stream of N periods x F frames and measure, every period, how late the\n"
	"audio thread woke (wake latency), the time between wake-ups (interval), how long\n"
	"its work took and how much audio was still queued; count xruns and lost periods.\n"
	"\n"
	"stream:\n"
	"  -b, --backend NAME     sim (default: a simulated card, no hardware needed),\n"
	"                         alsa (an ALSA PCM), jack (a JACK or PipeWire client),\n"
	"                         pipewire (a node in PipeWire's graph, docs/pipewire.md),\n"
	"                         oss (/dev/dsp, ALSA's OSS emulation: blocking writes)\n"
	"  -D, --device NAME      alsa: the PCM (default 'default'; audiolat devices lists\n"
	"                         them); jack: the server (default $JACK_DEFAULT_SERVER);\n"
	"                         pipewire: the node to link to (target.object: its name,\n"
	"                         description or id; default the default sink/source);\n"
	"                         oss: the device file (default /dev/dsp)\n"
	"  -r, --rate HZ          sample rate (default 48000)\n"
	"  -P, --period FRAMES    frames per period (default 64)\n"
	"  -n, --periods N        periods in the buffer, >= 2 (default 3)\n"
	"      --fragments NxB    latencytest's form: N periods of B bytes of 16-bit\n"
	"                         stereo (3x256 = -n 3 -P 64)\n"
	"  -L, --cpu-load PCT     busy work per period, % of a period (default 80)\n"
	"      --capture          record instead of play (alsa, jack, pipewire)\n"
	"      --duplex           record and play (alsa, jack, pipewire)\n"
	"      --mmap             mmap transfers instead of read/write (alsa)\n"
	"      --nearest          take the rate and period the device gives (alsa, oss;\n"
	"                         else a device that cannot come close is refused)\n"
	"      --tone HZ          play a sine instead of silence, to hear the drop-outs\n"
	"                         (alsa, jack, pipewire)\n"
	"      --blame            pipewire: name the node(s) that made each xrun and late\n"
	"                         cycle (PipeWire's profiler; on by default where it\n"
	"                         loads, and then required); --no-blame: leave it off\n"
	"scheduling:\n"
	"  -p, --priority PRIO    SCHED_FIFO priority 1..99, 0 = SCHED_OTHER (default 80)\n"
	"  -a, --affinity CPU     pin the audio thread to CPU\n"
	"      --dma-latency US   hold /dev/cpu_dma_latency at US microseconds for the run\n"
	"run:\n"
	"  -d, --duration TIME    how long (default 10s; ns, us, ms, s, m, h; bare = s)\n"
	"      --max-latency TIME exit 3 when the max wake latency exceeds TIME (bare = us):\n"
	"                         per period due, a stall's missed periods included\n"
	"      --max-interval TIME exit 3 when the longest interval between wake-ups\n"
	"                         exceeds TIME (bare = us)\n"
	"      --fail-on-xrun     exit 3 when any xrun happened\n"
	"      --trace            as root: explain wake latencies above the threshold from\n"
	"                         an ftrace instance on the audio thread's CPU (what ran,\n"
	"                         which IRQ or softirq, for how long; docs/trace.md)\n"
	"      --trace-threshold TIME  what counts as a spike (default half the buffer;\n"
	"                         bare = us; implies --trace)\n"
	"load (docs/loads.md, audiolat load --help):\n"
	"      --load SPEC        run through load phases: idle:10s,hackbench:30s,...;\n"
	"                         '+' combines loads; presets latencytest, latencytest-short;\n"
	"                         a phase without a time gets an equal share of -d\n"
	"      --load-policy, --load-nice, --load-cpus, --load-dir, --direct, --file-size,\n"
	"      --workers, --mem-size, --groups, --fds, --loops, --datasize, --pipe,\n"
	"      --threads, --rt-period, --rt-run, --rt-prio: the load options of\n"
	"                         audiolat load, by their long names\n"
	"output:\n"
	"      --json FILE|-      write the audiolat.run/2 JSON result (- = stdout, and\n"
	"                         then no text report)\n"
	"      --html FILE        write the HTML report with plots (as audiolat report)\n"
	"  -q, --quiet            no status line, only the summary line\n"
	"  -v, --verbose          list every xrun\n"
	"      --no-histogram     leave out the ASCII histogram\n"
	"      --label TEXT       name the result (in the JSON, the database, comparisons)\n"
	"  -h, --help             this text\n"
	"results database (docs/store.md; every run is saved):\n"
	"      --db PATH          save the result here (default\n"
	"                         $XDG_DATA_HOME/audiolat/results.db)\n"
	"      --no-db            do not save the result\n"
	"\n"
	"exit status: 0 done, 1 runtime error, 2 usage error, 3 threshold exceeded,\n"
	"4 backend or device unavailable\n";

static int
bad(char *err, size_t size, const char *fmt, const char *opt, const char *arg)
{
	snprintf(err, size, fmt, opt, arg);
	return -EINVAL;
}

static int
num(const char *opt, const char *arg, long min, long max, long *out, char *err, size_t size)
{
	int rc = al_parse_long(arg, min, max, out);

	if (rc == -EINVAL)
		return bad(err, size, "%s: '%s' is not a whole number", opt, arg);
	if (rc) {
		snprintf(err, size, "%s: '%s' is not in %ld..%ld", opt, arg, min, max);
		return -EINVAL;
	}
	return 0;
}

static int
dur(const char *opt, const char *arg, int64_t unit_ns, int64_t *out, char *err, size_t size)
{
	int rc = al_parse_duration_ns(arg, unit_ns, out);

	if (rc == -ERANGE)
		return bad(err, size, "%s: '%s' is too large", opt, arg);
	if (rc)
		return bad(err, size,
			   "%s: '%s' is not a duration (a number with ns, us, ms, s, m or h)", opt,
			   arg);
	return 0;
}

/*
 * --fragments NxBYTES (latencytest's "3x256"): N periods of BYTES bytes of
 * 16-bit stereo, 4 bytes a frame.
 */
static int
parse_fragments(const char *arg, struct al_config *c, char *err, size_t err_size)
{
	const char *x = strchr(arg, 'x');
	char n_text[16];
	long n, bytes;

	if (!x || x == arg || (size_t)(x - arg) >= sizeof(n_text))
		return bad(err, err_size, "%s: '%s' is not NxBYTES (e.g. 3x256)", "--fragments", arg);
	memcpy(n_text, arg, (size_t)(x - arg));
	n_text[x - arg] = '\0';
	if (al_parse_long(n_text, 2, 1024, &n) || al_parse_long(x + 1, 4, 4194304, &bytes))
		return bad(err, err_size, "%s: '%s' is not NxBYTES with N 2..1024 and BYTES "
			   "4..4194304", "--fragments", arg);
	if (bytes % 4)
		return bad(err, err_size, "%s: '%s': BYTES is not whole 16-bit stereo frames "
			   "(a multiple of 4)", "--fragments", arg);
	c->periods = (int)n;
	c->period_frames = bytes / 4;
	return 0;
}

/* The stream options the chosen backend cannot honour. */
static int
check_stream_opts(const struct al_backend_ops *ops, const struct al_config *c, char *err,
		  size_t err_size)
{
	const char *opt = al_backend_refuses(ops, c);

	if (opt)
		return bad(err, err_size, "%s: not with the %s backend", opt, c->backend);
	if (c->capture && c->duplex)
		return bad(err, err_size, "%s: not with %s", "--capture", "--duplex");
	if (c->capture && c->tone_hz)
		return bad(err, err_size, "%s: not with %s (nothing is played)", "--tone",
			   "--capture");
	if (c->blame > 0 && !al_backend_can(ops, AL_CAP_BLAME))
		return bad(err, err_size, "%s: not with the %s backend", "--blame", c->backend);
	/* a callback backend's rate is its server's: checked when it is known */
	if (c->tone_hz && c->tone_hz * 2 >= c->rate_hz &&
	    !al_backend_can(ops, AL_CAP_CALLBACK)) {
		snprintf(err, err_size, "--tone: %d Hz is not below half the rate (%lld Hz)",
			 c->tone_hz, (long long)c->rate_hz);
		return -EINVAL;
	}
	return 0;
}

int
al_run_parse_args(int argc, char **argv, struct al_run_cli *p, char *err, size_t err_size)
{
	struct option long_opts[LONG_OPTS_MAX];
	struct al_config *c = &p->cfg;
	size_t n_opts = 0, i;
	int opt, rc = 0;
	long v;

	/* our options, then every load option by its long name */
	for (i = 0; run_opts[i].name; i++)
		long_opts[n_opts++] = run_opts[i];
	for (i = 0; al_load_optdefs[i].name && n_opts + 1 < LONG_OPTS_MAX; i++)
		long_opts[n_opts++] = (struct option){
			al_load_optdefs[i].name,
			al_load_optdefs[i].has_arg ? required_argument : no_argument, NULL,
			OPT_LOAD_BASE + (int)i,
		};
	long_opts[n_opts] = (struct option){ NULL, 0, NULL, 0 };

	memset(p, 0, sizeof(*p));
	snprintf(c->backend, sizeof(c->backend), "sim");
	p->backend = al_backend_find(c->backend);
	c->rate_hz = 48000;
	c->period_frames = 64;
	c->periods = 3;
	c->cpu_load_pct = 80;
	c->priority = 80;
	c->affinity_cpu = -1;
	c->duration_ns = 10 * AL_NS_PER_SEC;
	c->dma_latency_us = -1;
	al_load_opts_init(&p->load_opts);
	err[0] = '\0';

	optind = 0; /* full reset: the parser may run more than once (tests) */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, SHORT_OPTS, long_opts, NULL)) != -1) {
		switch (opt) {
		case 'b':
			p->backend = al_backend_find(optarg);
			if (!p->backend)
				return bad(err, err_size, "%s: unknown backend '%s'", "-b/--backend",
					   optarg);
			snprintf(c->backend, sizeof(c->backend), "%s", optarg);
			break;
		case 'D':
			if (strlen(optarg) >= sizeof(c->device))
				return bad(err, err_size, "%s: '%s' is too long", "-D/--device", optarg);
			snprintf(c->device, sizeof(c->device), "%s", optarg);
			break;
		case 'r':
			rc = num("-r/--rate", optarg, 1000, 768000, &v, err, err_size);
			if (!rc)
				c->rate_hz = v;
			break;
		case 'P':
			rc = num("-P/--period", optarg, 1, 1048576, &v, err, err_size);
			if (!rc)
				c->period_frames = v;
			break;
		case 'n':
			rc = num("-n/--periods", optarg, 2, 1024, &v, err, err_size);
			if (!rc)
				c->periods = (int)v;
			break;
		case OPT_FRAGMENTS:
			rc = parse_fragments(optarg, c, err, err_size);
			break;
		case 'L':
			rc = num("-L/--cpu-load", optarg, 0, 100, &v, err, err_size);
			if (!rc)
				c->cpu_load_pct = (int)v;
			break;
		case 'p':
			rc = num("-p/--priority", optarg, 0, 99, &v, err, err_size);
			if (!rc)
				c->priority = (int)v;
			break;
		case 'a':
			rc = num("-a/--affinity", optarg, 0, 4095, &v, err, err_size);
			if (!rc)
				c->affinity_cpu = (int)v;
			break;
		case 'd':
			rc = dur("-d/--duration", optarg, AL_NS_PER_SEC, &c->duration_ns, err,
				 err_size);
			if (!rc && c->duration_ns <= 0)
				return bad(err, err_size, "%s: '%s' must be longer than zero",
					   "-d/--duration", optarg);
			p->duration_given = true;
			break;
		case OPT_LOAD:
			if (strlen(optarg) >= sizeof(c->load_spec))
				return bad(err, err_size, "%s: '%.40s...' is too long", "--load", optarg);
			p->load_spec = optarg;
			snprintf(c->load_spec, sizeof(c->load_spec), "%s", optarg);
			break;
		case OPT_JSON:
			p->json_path = optarg;
			break;
		case OPT_TRACE:
			p->trace = true;
			break;
		case OPT_TRACE_THRESHOLD:
			rc = dur("--trace-threshold", optarg, AL_NS_PER_US, &p->trace_threshold_ns,
				 err, err_size);
			if (!rc && p->trace_threshold_ns <= 0)
				return bad(err, err_size, "%s: '%s' must be longer than zero",
					   "--trace-threshold", optarg);
			p->trace = true;
			break;
		case OPT_HTML:
			if (!optarg[0] || !strcmp(optarg, "-"))
				return bad(err, err_size, "%s: '%s' is not a file name", "--html",
					   optarg);
			p->html_path = optarg;
			break;
		case 'q':
			p->quiet = true;
			break;
		case 'v':
			p->verbose = true;
			break;
		case OPT_MAX_LATENCY:
			rc = dur("--max-latency", optarg, AL_NS_PER_US, &c->max_latency_ns, err,
				 err_size);
			if (!rc && c->max_latency_ns <= 0)
				return bad(err, err_size, "%s: '%s' must be longer than zero",
					   "--max-latency", optarg);
			break;
		case OPT_MAX_INTERVAL:
			rc = dur("--max-interval", optarg, AL_NS_PER_US, &c->max_interval_ns, err,
				 err_size);
			if (!rc && c->max_interval_ns <= 0)
				return bad(err, err_size, "%s: '%s' must be longer than zero",
					   "--max-interval", optarg);
			break;
		case OPT_FAIL_ON_XRUN:
			c->fail_on_xrun = true;
			break;
		case OPT_DMA_LATENCY:
			rc = num("--dma-latency", optarg, 0, 2000000000, &v, err, err_size);
			if (!rc)
				c->dma_latency_us = (int)v;
			break;
		case OPT_NO_HISTOGRAM:
			p->no_histogram = true;
			break;
		case OPT_LABEL:
			if (strlen(optarg) >= sizeof(c->label))
				return bad(err, err_size, "%s: '%.40s...' is too long (at most 127 bytes)",
					   "--label", optarg);
			for (const char *q = optarg; *q; q++)
				if ((unsigned char)*q < 0x20 || *q == 0x7f)
					return bad(err, err_size, "%s: '%s' has a control character",
						   "--label", optarg);
			snprintf(c->label, sizeof(c->label), "%s", optarg);
			break;
		case OPT_DB:
			if (!optarg[0])
				return bad(err, err_size, "%s: '%s' is not a path", "--db", optarg);
			p->db_path = optarg;
			break;
		case OPT_NO_DB:
			p->no_db = true;
			break;
		case OPT_CAPTURE:
			c->capture = true;
			break;
		case OPT_DUPLEX:
			c->duplex = true;
			break;
		case OPT_MMAP:
			c->mmap = true;
			break;
		case OPT_NEAREST:
			c->nearest = true;
			break;
		case OPT_BLAME:
			c->blame = 1;
			break;
		case OPT_NO_BLAME:
			c->blame = -1;
			break;
		case OPT_TONE:
			rc = num("--tone", optarg, 1, 96000, &v, err, err_size);
			if (!rc)
				c->tone_hz = (int)v;
			break;
		case 'h':
			p->help = true;
			return 0;
		case OPT_LOAD_BASE ... OPT_LOAD_BASE + LONG_OPTS_MAX:
			rc = al_load_opt_set(&p->load_opts, al_load_optdefs[opt - OPT_LOAD_BASE].name,
					     optarg, err, err_size);
			if (rc) {
				if (!err[0])
					snprintf(err, err_size, "--%s: bad value",
						 al_load_optdefs[opt - OPT_LOAD_BASE].name);
				return -EINVAL;
			}
			break;
		case ':':
			return bad(err, err_size, "%s%s: needs a value", "option ",
				   argv[optind - 1]);
		default:
			/* an unknown letter inside a cluster ("-qXv"): name the letter */
			if (optopt > 0 && optopt < 256 && !strchr(SHORT_OPTS, optopt)) {
				snprintf(err, err_size, "unknown option '-%c'", optopt);
				return -EINVAL;
			}
			return bad(err, err_size, "%s'%s'", "unknown option ", argv[optind - 1]);
		}
		if (rc)
			return rc;
	}
	if (optind < argc)
		return bad(err, err_size, "%s'%s'", "unexpected argument ", argv[optind]);
	return check_stream_opts(p->backend, c, err, err_size);
}
