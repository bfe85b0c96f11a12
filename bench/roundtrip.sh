#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat roundtrip vs jack_iodelay (Debian jackd2) on the same JACK
# self-loop, alternating, on a jackd (dummy driver) this script starts and
# stops. audiolat: `roundtrip -b jack --self-loop -d SECONDS`, the mean of its
# readings after settling. jack_iodelay: its ports connected out -> in with
# jack_connect, run for the same time, its last reading (it prints one every
# 250 ms, 3 decimals). Both should read one period exactly (docs/roundtrip.md).
# usage: bench/roundtrip.sh [ROUNDS] [PERIOD] [RATE] [SECONDS]
#        (default: 5 rounds, 256 frames, 48000 Hz, 3 s)
set -eu
rounds=${1:-5}
period=${2:-256}
rate=${3:-48000}
secs=${4:-3}
. "$(dirname "$0")/common.sh"
bench_need jackd jackd2 jack_iodelay jackd2 jack_connect jackd2 jack_wait jackd2 jq jq stdbuf coreutils
bench_init
server="al-bench-rt-$$"
jackd_pid=
cleanup() {
	[ -n "$jackd_pid" ] && kill "$jackd_pid" 2>/dev/null && wait "$jackd_pid" 2>/dev/null
	rm -f "/dev/shm/jack_${server}_$(id -u)_0"
	bench_cleanup
}
trap 'exit 130' INT TERM

JACK_NO_AUDIO_RESERVATION=1 jackd -n "$server" -d dummy -r "$rate" -p "$period" >"$tmp/jackd.log" 2>&1 &
jackd_pid=$!
jack_wait -s "$server" -w -t 10 >/dev/null 2>&1 || { cat "$tmp/jackd.log" >&2; exit 4; }
export JACK_DEFAULT_SERVER=$server JACK_NO_START_SERVER=1

run_audiolat() {
	"$A" roundtrip -b jack --self-loop -d "$secs" -q --json "$tmp/a.json" >/dev/null 2>&1 || true
	jq -r 'if .valid then "\(.delay_frames) \(.stddev_frames)" else "invalid -" end' "$tmp/a.json"
}

run_iodelay() {
	local pid i
	stdbuf -oL jack_iodelay >"$tmp/io.log" 2>&1 &
	pid=$!
	for i in $(seq 50); do
		jack_connect jack_delay:out jack_delay:in 2>/dev/null && break
		sleep 0.1
	done
	sleep "$secs"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null || true
	awk '/total roundtrip latency/ { v = $1 } END { print (v == "" ? "invalid" : v) }' "$tmp/io.log"
}

echo "jackd -d dummy -r $rate -p $period, self-loop, $secs s a run ($(nproc) CPUs)"
printf "%-6s %16s %10s %20s\n" round "audiolat frames" "stddev" "jack_iodelay frames"
for i in $(seq 1 "$rounds"); do
	if [ $((i % 2)) -eq 1 ]; then
		read -r a sd < <(run_audiolat)
		j=$(run_iodelay)
	else
		j=$(run_iodelay)
		read -r a sd < <(run_audiolat)
	fi
	if [ "$a" != invalid ]; then
		a=$(printf "%.6f" "$a")
		sd=$(printf "%.2e" "$sd")
	fi
	printf "%-6s %16s %10s %20s\n" "$i" "$a" "$sd" "$j"
	echo "$a" >>"$tmp/a"
	echo "$j" >>"$tmp/j"
done
spread() { awk '$1 != "invalid" { n++; s += $1; if (n == 1 || $1 < lo) lo = $1; if (n == 1 || $1 > hi) hi = $1 }
	END { if (n) printf "mean %.6f, min %.6f, max %.6f over %d valid", s / n, lo, hi, n; else printf "no valid run" }'; }
echo
echo "audiolat:     $(spread <"$tmp/a") (expected $period)"
echo "jack_iodelay: $(spread <"$tmp/j") (expected $period)"
