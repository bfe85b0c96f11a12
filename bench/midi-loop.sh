#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat's JACK MIDI loop vs jack_midi_latency_test (Debian jackd2) through
# the same thru path on the same server, alternating: a jackd (dummy driver)
# this script starts and stops, one `audiolat midi thru` client for both,
# then per round `audiolat midi loop -n N --out audiolat-thru:in --in
# audiolat-thru:out` and `jack_midi_latency_test -s N audiolat-thru:in
# audiolat-thru:out` (first tool alternating). With LOAD=1 rt-tests
# hackbench (-g 4 -l 3000, looping) runs during every measurement, as in
# the figures of the reference notes; JACKD_FLAGS=-r runs the server
# without real-time scheduling (as those figures were taken).
# usage: bench/midi-loop.sh [ROUNDS] [SAMPLES] [PERIOD] [RATE]
#        (default: 3 rounds of 1000 messages, 256 frames, 48000 Hz)
set -eu
rounds=${1:-3}
samples=${2:-1000}
period=${3:-256}
rate=${4:-48000}
. "$(dirname "$0")/common.sh"
bench_need jackd jackd2 jack_midi_latency_test jackd2 jack_wait jackd2 jack_lsp jackd2 jq jq
[ "${LOAD:-0}" = 1 ] && bench_need hackbench rt-tests
bench_init
server="al-bench-midi-$$"
jackd_pid=
thru_pid=
load_pid=
cleanup() {
	[ -n "$load_pid" ] && kill -- -"$load_pid" 2>/dev/null && wait "$load_pid" 2>/dev/null
	[ -n "$thru_pid" ] && kill "$thru_pid" 2>/dev/null && wait "$thru_pid" 2>/dev/null
	[ -n "$jackd_pid" ] && kill "$jackd_pid" 2>/dev/null && wait "$jackd_pid" 2>/dev/null
	rm -f "/dev/shm/jack_${server}_$(id -u)_0"
	bench_cleanup
}
trap 'exit 130' INT TERM

# JACK2 runs at most 8 servers on a machine: wait up to 60 s for a slot
for try in $(seq 60); do
	# shellcheck disable=SC2086 # JACKD_FLAGS: server options, e.g. -r (no real-time)
	JACK_NO_AUDIO_RESERVATION=1 jackd -n "$server" ${JACKD_FLAGS:-} -d dummy -r "$rate" -p "$period" \
		>"$tmp/jackd.log" 2>&1 &
	jackd_pid=$!
	jack_wait -s "$server" -w -t 10 >/dev/null 2>&1 && break
	wait "$jackd_pid" 2>/dev/null || true
	jackd_pid=
	grep -q "Too many servers" "$tmp/jackd.log" || break
	sleep 1
done
[ -n "$jackd_pid" ] || { cat "$tmp/jackd.log" >&2; exit 4; }
export JACK_DEFAULT_SERVER=$server JACK_NO_START_SERVER=1
"$A" midi thru -q >"$tmp/thru.log" 2>&1 &
thru_pid=$!
for i in $(seq 100); do
	jack_lsp 2>/dev/null | grep -qx audiolat-thru:out && break
	sleep 0.1
done

load_start() {
	[ "${LOAD:-0}" = 1 ] || return 0
	# a process group of its own: stopping it takes hackbench's workers too
	setsid bash -c 'while :; do hackbench -g 4 -l 3000 >/dev/null 2>&1; done' &
	load_pid=$!
}

load_stop() {
	[ -n "$load_pid" ] || return 0
	kill -- -"$load_pid" 2>/dev/null
	wait "$load_pid" 2>/dev/null || true
	load_pid=
}

# one line: mean min max peak-jitter mean-jitter (ms), frames min-max, received/sent, xruns, seconds.
# audiolat's latency: both frames mapped with one DLL state, like jack_midi_latency_test
# (its wall-clock, callback-to-callback figure is in the JSON: wall_latency_ns).
# jack_midi_latency_test ends its run at the first message lost (-t 2): then nan.
run_audiolat() {
	local t0 t1
	load_start
	rm -f "$tmp/a.json"
	t0=$(date +%s.%N)
	"$A" midi loop --out audiolat-thru:in --in audiolat-thru:out -n "$samples" --timeout 2s \
		-q --no-db --json "$tmp/a.json" >/dev/null 2>&1 || true
	t1=$(date +%s.%N)
	load_stop
	jq -r --arg s "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" \
		'def ms: if . == null then "nan" else . / 1e6 end;
		 "\(.latency_mean_ns | ms) \(.latency_min_ns | ms) \(.latency_max_ns | ms) \(.jitter_peak_ns | ms) \(.jitter_mean_abs_ns | ms) \(.latency_frames_min)-\(.latency_frames_max) \(.echoed)/\(.echoed + .lost) \(.source.xruns) \($s)"' \
		"$tmp/a.json" 2>/dev/null || echo "nan nan nan nan nan - 0/0 - $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
}

# jack_midi_latency_test prints ms with 2 decimals: take its frame figures
run_jmlt() {
	local t0 t1
	load_start
	t0=$(date +%s.%N)
	jack_midi_latency_test -s "$samples" -t 2 audiolat-thru:in audiolat-thru:out >"$tmp/j.log" 2>&1 || true
	t1=$(date +%s.%N)
	load_stop
	awk -v r="$rate" -v s="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" '
	     function fr(line) { sub(/.*\(/, "", line); sub(/ frames\).*/, "", line); return line }
	     /^Average latency:/ { mean = fr($0) } /^Lowest latency:/ { lo = fr($0) }
	     /^Highest latency:/ { hi = fr($0) } /^Peak MIDI jitter:/ { pk = fr($0) }
	     /^Average MIDI jitter:/ { av = fr($0) } /^Messages sent:/ { sent = $3 }
	     /^Messages received:/ { rcv = $3 } /^Xruns:/ { x = $2 }
	     END { if (x == "") x = 0  # printed only when there were some
		   if (mean == "") { printf "nan nan nan nan nan - %s/%s %s %s\n", rcv, sent, x, s; exit }
		   printf "%.6f %.6f %.6f %.6f %.6f %d-%d %s/%s %s %s\n", mean * 1000 / r, lo * 1000 / r,
		   hi * 1000 / r, pk * 1000 / r, av * 1000 / r, lo, hi, rcv, sent, x, s }' "$tmp/j.log"
}

echo "jackd ${JACKD_FLAGS:-}${JACKD_FLAGS:+ }-d dummy -r $rate -p $period, loop through audiolat-thru, $samples messages a run," \
	"load: $([ "${LOAD:-0}" = 1 ] && echo 'hackbench -g 4 -l 3000' || echo none) ($(nproc) CPUs)"
printf "%-6s %-9s %8s %8s %8s %11s %11s %9s %10s %5s %7s\n" round tool "mean ms" "min ms" "max ms" \
	"peak jit ms" "mean jit ms" frames received xruns seconds
for i in $(seq 1 "$rounds"); do
	if [ $((i % 2)) -eq 1 ]; then
		a=$(run_audiolat)
		j=$(run_jmlt)
	else
		j=$(run_jmlt)
		a=$(run_audiolat)
	fi
	# shellcheck disable=SC2086 # one word per field
	printf "%-6s %-9s %8.3f %8.3f %8.3f %11.3f %11.3f %9s %10s %5s %7.1f\n" "$i" audiolat $a
	# shellcheck disable=SC2086
	printf "%-6s %-9s %8.3f %8.3f %8.3f %11.3f %11.3f %9s %10s %5s %7.1f\n" "$i" jmlt $j
	echo "$a" >>"$tmp/a"
	echo "$j" >>"$tmp/j"
done
median() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) print "nan"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# the runs that finished (jack_midi_latency_test gives no figures after a loss)
col() { awk -v c="$1" '$1 != "nan" { print $c }' "$2" | median; }
echo
for f in a j; do
	printf "  %-22s medians of %d finished runs: mean %.3f ms, min %.3f, max %.3f, peak jitter %.3f, mean jitter %.3f\n" \
		"$([ $f = a ] && echo 'audiolat midi loop' || echo jack_midi_latency_test)" \
		"$(awk '$1 != "nan"' "$tmp/$f" | wc -l)" \
		"$(col 1 "$tmp/$f")" "$(col 2 "$tmp/$f")" "$(col 3 "$tmp/$f")" "$(col 4 "$tmp/$f")" \
		"$(col 5 "$tmp/$f")"
done
