#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Per period due vs per wake-up, under rt-tests' hackbench, for sim and
# jack (a jackd on the dummy driver this script starts and stops), at
# SCHED_FIFO 80 and at SCHED_OTHER (seed 004's aplay: -p 0, and a jackd
# without real-time, -r): the p99 and max wake latency in both views, the
# missed periods, the xruns.
# The per-wake-up view is cyclictest's (it never counts the periods a
# stall swallowed); the per-period one counts every period due.
# usage: bench/per-period.sh [ROUNDS] [SECONDS]
set -eu
rounds=${1:-3}
secs=${2:-20}
. "$(dirname "$0")/common.sh"
bench_need hackbench rt-tests jackd jackd2
bench_init
server=bench-pp-$$
jp=
hp=
cleanup() {
	[ -n "$hp" ] && kill -TERM -- "-$hp" 2>/dev/null
	[ -n "$jp" ] && kill "$jp" 2>/dev/null && wait "$jp" 2>/dev/null
	bench_cleanup
}
jackd_start() { # [-r]
	[ -n "$jp" ] && kill "$jp" 2>/dev/null && wait "$jp" 2>/dev/null
	# shellcheck disable=SC2086
	JACK_NO_AUDIO_RESERVATION=1 jackd -n "$server" $1 -d dummy -r 48000 -p 256 >"$tmp/jackd.log" 2>&1 &
	jp=$!
	for _ in $(seq 100); do [ "$(jack_wait -s "$server" -c 2>/dev/null)" = running ] && break; sleep 0.1; done
}

# rt-tests' hackbench, looping, beside the run (the peer's own load, as seed 002 used it)
# (a process group of its own, killed whole: none of anyone else's hackbench)
load() {
	setsid bash -c 'while :; do hackbench -g 10 -l 2000 >/dev/null 2>&1 || exit; done' &
	hp=$!
}
unload() { kill -TERM -- "-$hp" 2>/dev/null; wait "$hp" 2>/dev/null || true; hp=; }

run() { # backend policy -> one line of figures
	local args=()
	[ "$1" = jack ] && args=(-b jack)
	[ "$2" = other ] && args+=(-p 0)
	load
	JACK_DEFAULT_SERVER=$server "$A" run "${args[@]}" -d "${secs}s" -q --no-db --json "$tmp/r.json" >/dev/null
	unload
	jq -r '.total | "\(.wake_latency_ns.p99 / 1000) \(.wake_latency_per_wakeup_ns.p99 / 1000) \(.wake_latency_ns.max / 1000) \(.wake_latency_per_wakeup_ns.max / 1000) \(.missed_periods) \(.periods) \(.xruns)"' "$tmp/r.json"
}

printf "%-6s %-5s %-6s %14s %14s %14s %14s %8s %8s %6s\n" round be policy "p99/period us" \
	"p99/wakeup us" "max/period us" "max/wakeup us" missed periods xruns
for i in $(seq 1 "$rounds"); do
	for pol in fifo other; do
		jackd_start "$([ $pol = other ] && echo -r)"
		for be in sim jack; do
			read -r p99 w99 pmax wmax m n x <<<"$(run $be $pol)"
			printf "%-6s %-5s %-6s %14.1f %14.1f %14.1f %14.1f %8s %8s %6s\n" "$i" "$be" \
				"$pol" "$p99" "$w99" "$pmax" "$wmax" "$m" "$n" "$x"
		done
	done
done
