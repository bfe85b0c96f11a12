#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat -b pipewire's graph blame beside PipeWire's own tools, over the
# same run: a private PipeWire (null sink driving the graph, 256/48000), a
# node of known slowness (truth-slow-filter: 1.5 quanta in every 40th
# cycle) feeding the null sink, and at the same time
#  - audiolat run -b pipewire -L 20 (its late cycles, the driver's xrun
#    count, the slow node's BUSY distribution),
#  - pw-top (0.3.65 has no batch mode: its screen, kept by script(1); the
#    ERR column of the driver and of the slow node at the end),
#  - pw-profiler (its raw log: the slow node's BUSY per cycle).
# Prints one table and the ratios bench/README.md records.
# usage: bench/pipewire.sh [SECONDS]   (default 60)
set -u
secs=${1:-60}
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/../build}
export AUDIOLAT=${AUDIOLAT:-$build/src/cli/audiolat}
SLOWF=$build/tests/truth-slow-filter
for c in pipewire wireplumber pw-top pw-profiler pw-link script jq awk; do
	command -v $c >/dev/null || { echo "$c missing (scripts/packages.txt)" >&2; exit 4; }
done
[ -x "$AUDIOLAT" ] && [ -x "$SLOWF" ] || { echo "build audiolat first (make)" >&2; exit 1; }
. "$here/../tests/lib.sh"
. "$here/../tests/servers.sh"

pids=()
cleanup_all() {
	local p
	for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	srv_stop_all
	rm -rf "$T_TMP"
}
trap cleanup_all EXIT

start_pipewire 256 48000 || exit 1
"$SLOWF" -n slowfilter -q 1.5 -e 40 >"$T_TMP/slow.out" 2>/dev/null &
slow_pid=$!
wait_until 10 "the slow filter" grep -q '^ready' "$T_TMP/slow.out" || exit 1
slow_id=$(sed -n 's/^ready node=//p' "$T_TMP/slow.out")
pw-link slowfilter:out null-sink:playback_FL || exit 1

(cd "$T_TMP" && exec pw-profiler -o "$T_TMP/profiler.log" >/dev/null 2>&1) &
pids+=($!)
TERM=xterm script -q -c pw-top "$T_TMP/pwtop.screen" >/dev/null 2>&1 </dev/null &
pids+=($!)
sleep 1 # both tools connected before the run (their start is not measured)

"$AUDIOLAT" run -b pipewire -L 20 -d "${secs}s" --no-db -q --json "$T_TMP/run.json" >/dev/null || exit 1
for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null; done
for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
pids=()
kill -TERM "$slow_pid"
wait "$slow_pid"
truth=$(tail -n 1 "$T_TMP/slow.out")

# pw-top's last screen: "R ID QUANT RATE WAIT BUSY W/Q B/Q ERR ... NAME"
screen=$(sed 's/\x1b\[[0-9;?]*[a-zA-Z]/ /g' "$T_TMP/pwtop.screen" | tr -s ' \r\n' ' ')
top_err() { # ID: the ERR of its last line (names are cut to 9 characters)
	echo "$screen" | grep -a -o -E "[RSCI] $1 [0-9]+ [0-9]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+ [0-9]+ " |
		tail -n 1 | awk '{ print $9 }'
}
top_driver_err=$(top_err "$(jq '.graph.driver.id' "$T_TMP/run.json")")
top_slow_err=$(top_err "$slow_id")

# pw-profiler: 4 driver columns, then 8 per follower (id, signal, awake,
# finish, wait, busy, status, 0), microseconds; the slow node's busy
awk -F'\t' -v id="$slow_id" '{ for (k = 5; k + 5 <= NF; k += 8) if ($k == id && $(k + 5) != " ") print $(k + 5) }' \
	"$T_TMP/profiler.log" | sort -n >"$T_TMP/prof.busy"
prof_n=$(wc -l <"$T_TMP/prof.busy")
prof_p99=$(awk -v n="$prof_n" 'NR == int(n * 0.99 + 0.999) { print $1 }' "$T_TMP/prof.busy")
prof_max=$(tail -n 1 "$T_TMP/prof.busy")

jq -r --arg truth "$truth" --arg tde "${top_driver_err:-?}" --arg tse "${top_slow_err:-?}" \
	--arg pp99 "${prof_p99:-?}" --arg pmax "${prof_max:-?}" --arg pn "$prof_n" '
	.graph as $g | ($g.nodes[] | select(.name == "slowfilter")) as $s |
	($truth | capture("slow=(?<n>[0-9]+) .*slow_mean_ns=(?<m>[0-9]+)")) as $t |
	"over \(.duration_ns / 1e9) s, quantum \(.config.period_frames)/\(.config.rate); the filter was slow \($t.n) times, \($t.m | tonumber / 1000) us each (its own clock)",
	"",
	"                                   audiolat     pw-top   pw-profiler",
	"driver xruns (ERR)              \($g.driver_xruns | tostring | .[0:10] | " " * (10 - length) + .)   \($tde | " " * (8 - length) + .)",
	"late cycles (slow node named)   \([$g.late_cycles[] | select(any(.causes[]; .name == "slowfilter"))] | length | tostring | " " * (10 - length) + .)",
	"slow node ERR / unfinished      \($s.unfinished | tostring | " " * (10 - length) + .)   \($tse | " " * (8 - length) + .)",
	"slow node BUSY p99 [us]         \($s.busy_ns.p99 / 1000 | floor | tostring | " " * (10 - length) + .)              \($pp99 | " " * (12 - length) + .)",
	"slow node BUSY max [us]         \($s.busy_ns.max / 1000 | floor | tostring | " " * (10 - length) + .)              \($pmax | " " * (12 - length) + .)",
	"slow node runs (cycles)         \($s.runs | tostring | " " * (10 - length) + .)              \($pn | " " * (12 - length) + .)",
	"",
	"ratio BUSY max audiolat / filter: \(($s.busy_ns.max / ($t.m | tonumber)) * 1000 | round / 1000)",
	"ratio BUSY max audiolat / pw-profiler: \(if ($pmax | test("^[0-9.]+$")) then (($s.busy_ns.max / 1000) / ($pmax | tonumber) * 1000 | round / 1000) else "-" end)"
	' "$T_TMP/run.json"
