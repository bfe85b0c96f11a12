#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat sweep on the simulated card: the grid runs in order, each
# configuration --repeat times, with run's options applied to every run;
# the table, the JSON, the HTML; SIGINT; usage errors.
. "$(dirname "$0")/../lib.sh"
T=$T_TMP
t_eq() { # DESC GOT WANT
	[ "$2" = "$3" ] || echo "# got '$2', expected '$3'"
	t_result $([ "$2" = "$3" ] && echo 0 || echo 1) "$1"
}

# 2 x 2 configurations, twice each, 1 s per run; xruns may happen on a busy machine
"$AUDIOLAT" sweep --period 64,128 --periods 2,3 --repeat 2 -d 1s -L 50 --no-db \
	--json "$T/s.json" >"$OUT" 2>"$ERR"
rc=$?
t_result $([ $rc -eq 0 ] && echo 0 || echo 1) "a 2 x 2 sweep, twice each: exit 0 (got $rc)"
t_grep "$OUT" "^sweep: 4 configurations x 2 runs \(min-max over the runs\)$" "the table's heading"
for b in "2 x 64 = 2.667 ms" "3 x 64 = 4.000 ms" "2 x 128 = 5.333 ms" "3 x 128 = 8.000 ms"; do
	t_grep "$OUT" "^sim +48000 $b +[0-9.]+(-[0-9.]+)? +[0-9.]+(-[0-9.]+)? .* [0-9]+  (ok|xruns in [12]/2)$" \
		"a row for $b"
done
t_grep "$OUT" "^summary: sweep configurations=4 runs=8 xruns=[0-9]+ configurations_without_xruns=[0-4] smallest_safe_buffer_ns=-?[0-9]+ result=DONE$" \
	"the summary line"
t_eq "a progress line per run on stderr" "$(grep -c '^sweep \[[1-4]/4\] sim 48000 Hz' "$ERR")" 8
t_eq "the sweep document" "$(jq -r .schema "$T/s.json")" "audiolat.sweep/1"
t_eq "the grid" "$(jq -c .grid "$T/s.json")" \
	'{"backend":["sim"],"rate":[48000],"period_frames":[64,128],"periods":[2,3]}'
t_eq "the configurations in grid order" \
	"$(jq -c '[.configurations[] | [.period_frames, .periods, .runs_done]]' "$T/s.json")" \
	'[[64,2,2],[64,3,2],[128,2,2],[128,3,2]]'
t_eq "each run is a full result of its configuration" \
	"$(jq -c '[.configurations[] | .runs[] | [.schema, .config.period_frames, .config.periods, .config.cpu_load_pct]] | unique' "$T/s.json")" \
	'[["audiolat.run/2",64,2,50],["audiolat.run/2",64,3,50],["audiolat.run/2",128,2,50],["audiolat.run/2",128,3,50]]'
t_eq "run's options reach every run (-d 1s)" \
	"$(jq -c '[.configurations[].runs[].config.duration_ns] | unique' "$T/s.json")" '[1000000000]'
t_eq "the min and max are over the runs" \
	"$(jq -c '[.configurations[] | (.summary.max_latency_ns | [.min, .max]) == ([.runs[].total.wake_latency_ns.max] | [min, max])] | unique' "$T/s.json")" \
	'[true]'
t_eq "the xruns are the runs' sum" \
	"$(jq -c '[.configurations[] | .summary.xruns_total == ([.runs[].total.xruns] | add)] | unique' "$T/s.json")" \
	'[true]'
t_grep <(jq -r '.configurations[0].runs[0].cmdline' "$T/s.json") \
	"^audiolat run -d 1s -L 50 --no-db -b sim -r 48000 -P 64 -n 2$" \
	"a run's command line reproduces it"

t_exit 0 "--markdown, one configuration" "$AUDIOLAT" sweep -d 1s --no-db -q --markdown --html "$T/s.html"
t_grep "$OUT" '^\| backend \| rate \| buffer \| max latency \[ms\] \| % of buffer \| 1MS factor \| 2MS factor \| p99 wake \[us\] \| max interval \[ms\] \| xruns \| verdict \|$' \
	"a Markdown table"
t_grep "$OUT" '^\| sim \| 48000 \| 3 x 64 = 4.000 ms \| ' "... with the row"
t_eq "-q: no progress lines" "$(grep -c '^sweep \[' "$ERR")" 0
if command -v xmllint >/dev/null; then
	t_true "--html is well-formed XML" xmllint --noout --nonet "$T/s.html"
else
	t_skip "--html is well-formed XML" "xmllint is not installed"
fi

# --load: every run of the grid measures under the load phases, each
# phase with its load and throughput; nothing of the load is left after
D=$T/loaddir
mkdir -p "$D"
t_exit 0 "sweep --period 64,128 --load idle:500ms,cpu:700ms" "$AUDIOLAT" sweep --period 64,128 -q --no-db \
	--load idle:500ms,cpu:700ms --workers 1 --load-dir "$D" --json "$T/load.json"
t_json "--load: two runs, each through both phases, in order" \
	'[.configurations[].runs[] | [.phases[].name]] == [["idle", "cpu"], ["idle", "cpu"]]' "$T/load.json"
t_json "--load: each run's cpu phase ran the load, with its throughput" \
	'[.configurations[].runs[].phases[1] | .load == "cpu workers=1 policy=other nice=0 cpus=all" and .throughput.loops_per_s.value > 0 and .error == null] | length == 2 and all' \
	"$T/load.json"
t_json "--load: each run's idle phase had none" \
	'[.configurations[].runs[].phases[0] | .load == "none" and .throughput == {}] | length == 2 and all' "$T/load.json"
t_json "--load: the spec is in each run's config, and the phases set the run's length" \
	'[.configurations[].runs[] | .config.load == "idle:500ms,cpu:700ms" and .config.duration_ns == 1200000000] | length == 2 and all' \
	"$T/load.json"
t_true "--load: no file left in --load-dir" test -z "$(ls -A "$D")"
t_exit 2 "--load with a bad spec: usage error" "$AUDIOLAT" sweep --period 64,128 --load nosuch:1s --no-db
t_grep "$ERR" "^audiolat sweep: --load: " "... naming the option"

# SIGINT ends the current run early and the sweep with what it has: sent
# once the first run's live status line (on a terminal) counts 100 periods
run_tty "$T/i.out" "$T/i.tty" "$AUDIOLAT" sweep --period 64,128,256 -d 3s --no-db --json "$T/i.json"
t_measuring 10 "SIGINT: the first run measures (100 periods)" "$T/i.tty" 100
kill -INT "$RUN_PID"
start=$(date +%s)
wait "$TTY_PID"
rc=$?
tty_text "$T/i.tty" >"$T/i.err"
t_eq "SIGINT: exit 0" "$rc" 0
t_true "SIGINT: it ends within 10 s" test $(($(date +%s) - start)) -le 10
t_grep "$T/i.err" "^audiolat sweep: interrupted after 1 of 3 runs$" "SIGINT: it says how far it came (the first run, cut short)"
t_eq "SIGINT: the document says so, and no configuration after the first ran" \
	"$(jq -c '[.interrupted, (.configurations | map(.runs_done) | .[1:])]' "$T/i.json")" \
	'[true,[0,0]]'
t_json "SIGINT: the first run is kept, cut short, with what it measured" \
	'[.configurations[0].runs[] | .schema == "audiolat.run/2" and .interrupted and .total.periods >= 100] | length == 1 and all' "$T/i.json"

t_exit 2 "a bad list: usage error" "$AUDIOLAT" sweep --period 64,,128
t_grep "$ERR" "^audiolat sweep: -P/--period: '64,,128' has an empty item$" "... naming the option"
t_exit 2 "an unknown backend: usage error" "$AUDIOLAT" sweep -b sim,nosuch
t_grep "$ERR" "unknown backend 'nosuch'" "... naming it"
t_exit 2 "a bad run option: usage error before any run" "$AUDIOLAT" sweep -L 1200 -d 1s
t_grep "$ERR" "^audiolat sweep: -L/--cpu-load: '1200' is not in 0..1000$" "... naming run's option"
t_exit 2 "--periods 1: usage error" "$AUDIOLAT" sweep --periods 1,2
t_exit 2 "--fragments: usage error (the grid's -n/-P lists would override it)" "$AUDIOLAT" sweep --fragments 3x256
t_grep "$ERR" "^audiolat sweep: --fragments: a sweep takes -n and -P lists \(--fragments 3x256 is -n 3 -P 64\)$" "... saying what to use"
t_exit 2 "--fragments=3x256 too" "$AUDIOLAT" sweep --fragments=3x256 -d 1s
t_exit 2 "a grid too large: usage error" "$AUDIOLAT" sweep -P 1,2,3,4,5,6,7,8,9 -n 2,3,4,5,6,7,8,9 -r 8000,16000,32000,48000
# a configuration that cannot run (no such OSS device): exit 4, the others
# are kept, and the table's columns still line up after a long device name
t_exit 4 "a device that is not there: exit 4" "$AUDIOLAT" sweep -b sim,oss:"$T/no/such/dsp" -d 300ms --no-db
t_grep "$ERR" "^audiolat sweep: oss: $T/no/such/dsp: No such file or directory .*\(no such device or server\)$" "... naming the device"
# (a loaded machine may make the sim's 300 ms run late: ran, with or without xruns)
t_grep "$OUT" '^sim +48000 3 x 64 = 4\.000 ms .* (ok|xruns in 1/1)$' "the sim configuration ran"
t_grep "$OUT" "^oss:$T/no/such/dsp +48000 3 x 64 = 4\.000 ms .*did not run \(exit 4\)\$" "the oss one did not run, with its exit code"
t_eq "the rate column starts at the same place in every row" \
	"$(grep -E '^(backend|sim|oss:)' "$OUT" | awk '{ print index($0, ($1 == "backend") ? "  rate" : " 48000") }' | sort -u | wc -l)" 1
t_exit 0 "--help" "$AUDIOLAT" sweep --help
t_grep "$OUT" "^usage: audiolat sweep" "--help prints the usage"
t_done
