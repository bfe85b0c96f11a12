#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The gate on real runs (docs/compare.md, "A gate"): how often
# `compare --group-by label --fail-on-worse` says "worse" when nothing
# changed (A/A), and how often it sees a planted slowdown of known size
# (A/B), at the default group size (8 runs a side) and the default gate
# (p99; every statistic is counted too).
#
# Each round makes 2 x N runs of D s, alternating side A and side B (so
# that whatever else the machine does falls on both alike) and compares
# them once: the rounds are independent comparisons, and their counts are
# what the rates are made of.
#   sim:      A/A only: the simulated card has no slowdown of known size
#             to plant in the wake latency (-L changes the work after it).
#   jack:     jackd (dummy driver, 256 frames at 48 kHz) started here;
#             every run (--duplex) has a JACK client linked ahead of ours
#             (tests/truth/slow-wrap.sh, truth-slow-client) that spins a
#             number of us in every cycle: 0 on side A and, with --shift,
#             on side B the given share of A's p99 (measured in a pilot of
#             4 runs first), a sustained lateness of that many us added to
#             every period. Without --shift B spins 0 too (A/A).
# --compile: beside a compile loop (ninja -C a scratch build of this tree,
# cleaned and rebuilt for as long as the runs last, at nice 10).
#
#   bench/gate-calibration.sh [-b sim|jack] [-n RUNS] [-d SECONDS] [-r ROUNDS]
#                             [--shift PCT] [--compile] [--keep DIR]
# Prints one line per round and a summary line:
#   RESULT backend=.. compile=.. shift_pct=.. rounds=R p99_worse=K/R any_worse=K/R ...
set -eu
. "$(dirname "$0")/common.sh"
be=sim n=8 d=2 rounds=8 shift= compile=0 keep=
while [ $# -gt 0 ]; do
	case $1 in
	-b) be=$2; shift 2 ;;
	-n) n=$2; shift 2 ;;
	-d) d=$2; shift 2 ;;
	-r) rounds=$2; shift 2 ;;
	--shift) shift=$2; shift 2 ;;
	--compile) compile=1; shift ;;
	--keep) keep=$2; shift 2 ;;
	*) echo "usage: $0 [-b sim|jack] [-n RUNS] [-d SECONDS] [-r ROUNDS] [--shift PCT] [--compile] [--keep DIR]" >&2
		exit 2 ;;
	esac
done
case $be in sim | jack) ;; *) echo "$0: -b sim or jack" >&2; exit 2 ;; esac
[ "$be" = jack ] || [ -z "$shift" ] || { echo "$0: --shift needs -b jack (the sim card has no planted slowdown)" >&2; exit 2; }
bench_need jq jq
bench_init
top=$(cd "$(dirname "$0")/.." && pwd)
R=${keep:-$tmp/runs}
mkdir -p "$R"
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
	[ "$be" != jack ] || stop_jackd 2>/dev/null || true
	bench_cleanup
}

if [ "$compile" = 1 ]; then
	bench_need meson meson ninja ninja-build
	meson setup "$tmp/cb" "$top" >/dev/null
	(while :; do ninja -C "$tmp/cb" -t clean >/dev/null 2>&1; nice -n 10 ninja -C "$tmp/cb" >/dev/null 2>&1; done) &
	pids+=($!)
fi

RUN=(run -q --no-db -d "${d}s")
spin_run() { # SPIN_US OUT: a run with the client ahead of ours spinning SPIN_US us a cycle
	# (--duplex: our client's input port, which the slow client feeds: JACK
	# runs it ahead of ours; without an input it is not ahead, and a 2 ms
	# spin moved our p50 by nothing, 2026-12-07)
	"$A" "${RUN[@]}" -b jack --duplex -a "$(($(nproc) - 1))" -L 20 --json "$2" \
		--load "cmd:taskset -c 0 $top/tests/truth/slow-wrap.sh $slow $1 audiolat-[0-9]*.in_1:${d}s" >/dev/null
}
if [ "$be" = jack ]; then
	bench_need jackd jackd2
	slow=${TRUTH_SLOW_CLIENT:-$build/tests/truth/truth-slow-client}
	[ -x "$slow" ] || { echo "build the tests first (make): $slow" >&2; exit 1; }
	export AUDIOLAT=$A BUILD_DIR=$build
	. "$top/tests/lib.sh"
	. "$top/tests/servers.sh"
	# (lib.sh's own EXIT trap removes its T_TMP: ours stops jackd and the compile too)
	trap 'cleanup; rm -rf "$T_TMP"' EXIT
	name=$(srv_name al-bench-gate)
	start_jackd "$name" 256 48000 || exit 4
	# as in the truth matrix: the server and the slow client on CPU 0, our audio thread on the last
	taskset -a -p -c 0 "$SRV_JACKD_PID" >/dev/null
	export JACK_DEFAULT_SERVER=$name JACK_NO_START_SERVER=1
fi
run_side() { # SIDE SPIN_US OUT
	if [ "$be" = jack ]; then
		spin_run "$2" "$3.tmp"
	else
		"$A" "${RUN[@]}" --json "$3.tmp" >/dev/null
	fi
	jq --arg s "$1" '.label = $s' "$3.tmp" >"$3" && rm -f "$3.tmp"
}

spin_b=0
if [ -n "$shift" ]; then
	# the pilot: A's p99 (geometric mean of 4 runs), and the spin that adds shift % of it
	for i in 1 2 3 4; do run_side A 0 "$tmp/pilot$i.json"; done
	p99=$(jq -s '[.[].total.wake_latency_ns.p99 | log] | add / length | exp' "$tmp"/pilot*.json)
	spin_b=$(jq -n --argjson p "$p99" --argjson s "$shift" '$p * $s / 100 / 1000 | round')
	echo "# pilot: A's p99 $(jq -n --argjson p "$p99" '$p / 1000 | . * 10 | round / 10') us (4 runs); B's client spins $spin_b us a cycle (+$shift %)"
fi

echo "# $(date -u '+%F %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg); $be, $n + $n runs of $d s a round, $rounds rounds$([ "$compile" = 1 ] && echo ', beside a compile')"
p99w=0 anyw=0 anyd=0 insuff=0 gate3=0
for r in $(seq "$rounds"); do
	mkdir -p "$R/r$r"
	for i in $(seq "$n"); do
		# alternate which side goes first in each pair
		if [ $(((r + i) % 2)) -eq 0 ]; then
			run_side A 0 "$R/r$r/a$i.json"
			run_side B "$spin_b" "$R/r$r/b$i.json"
		else
			run_side B "$spin_b" "$R/r$r/b$i.json"
			run_side A 0 "$R/r$r/a$i.json"
		fi
	done
	rc=0
	"$A" compare --group-by label --baseline A "$R/r$r"/*.json --json "$R/r$r.cmp" -q --fail-on-worse || rc=$?
	v=$(jq -r '[.verdicts[] | "\(.statistic)=\(.verdict)\(if .difference_pct then " (\(.difference_pct | . * 10 | round / 10) %\(if .detectable_ns then ", would have seen +-\(.detectable_ns / 1000 | . * 10 | round / 10) us" else "" end))" else "" end)"] | join(", ")' "$R/r$r.cmp")
	echo "round $r: exit $rc; $v"
	[ "$rc" -eq 3 ] && gate3=$((gate3 + 1))
	[ "$rc" -eq 5 ] && insuff=$((insuff + 1))
	[ "$(jq '[.verdicts[] | select(.statistic == "p99" and .verdict == "worse")] | length' "$R/r$r.cmp")" -gt 0 ] && p99w=$((p99w + 1))
	[ "$(jq '[.verdicts[] | select(.verdict == "worse")] | length' "$R/r$r.cmp")" -gt 0 ] && anyw=$((anyw + 1))
	[ "$(jq '[.verdicts[] | select(.verdict == "worse" or .verdict == "better")] | length' "$R/r$r.cmp")" -gt 0 ] && anyd=$((anyd + 1))
done
echo "# after: load average $(cut -d' ' -f1-3 /proc/loadavg)"
# the power: what a p99 verdict of no difference would have seen, as % of A's p99 (median over the rounds)
seen=$(jq -s '[.[] | (.groups[] | select(.group == "A") | .p99_ns.gmean) as $a |
	.verdicts[] | select(.statistic == "p99" and .detectable_ns != null) | 100 * .detectable_ns / $a] |
	sort | if length == 0 then "null" else .[length / 2 | floor] | . * 10 | round / 10 end' "$R"/r*.cmp)
echo "RESULT backend=$be compile=$compile shift_pct=${shift:-0} spin_us=$spin_b runs=$n+$n secs=$d rounds=$rounds" \
	"gate_exit3=$gate3/$rounds p99_worse=$p99w/$rounds any_worse=$anyw/$rounds any_difference=$anyd/$rounds not_enough_data=$insuff/$rounds" \
	"p99_would_have_seen_pct=$seen"
