#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat's ALSA backend beside aplay, both through alsa-plugins' pcm_jack
# into a jackd (dummy driver) this script starts, at the same period and
# buffer, both at SCHED_OTHER with no busy work (aplay has none), under the
# same rt-tests hackbench load, alternating in one go. Per round: the xruns
# each counted, and the longest xrun each reported (aplay's "at least" figure,
# audiolat's validated one).
# usage: bench/aplay.sh [ROUNDS] [SECONDS] [PERIOD] [PERIODS] [HACKBENCH ARGS...]
#        (default: 5 rounds of 10 s, 256 frames x 2, hackbench -g 10 -l 1000000)
set -u
rounds=${1:-5}
secs=${2:-10}
period=${3:-256}
periods=${4:-2}
shift 4 2>/dev/null || shift $#
hb=("$@")
[ ${#hb[@]} -gt 0 ] || hb=(-g 10 -l 1000000)
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/../build}
export AUDIOLAT=${AUDIOLAT:-$build/src/cli/audiolat}
for c in jackd aplay hackbench jq setsid; do
	command -v $c >/dev/null || { echo "$c missing (scripts/packages.txt)" >&2; exit 4; }
done
[ -x "$AUDIOLAT" ] || { echo "build audiolat first (make)" >&2; exit 1; }
. "$here/../tests/lib.sh"
. "$here/../tests/servers.sh"

name=$(srv_name al-bench-aplay)
start_jackd "$name" 256 48000 || exit 1
export JACK_DEFAULT_SERVER=$name JACK_NO_START_SERVER=1
jack_alsa_conf alaplay system:playback_1 system:playback_2
buffer=$((period * periods))
hb_pgid=
prc=

load_start() {
	setsid hackbench "${hb[@]}" >/dev/null 2>&1 &
	hb_pgid=$!
	sleep 0.5
}

load_stop() {
	kill -TERM -- "-$hb_pgid" 2>/dev/null
	wait "$hb_pgid" 2>/dev/null
	kill -KILL -- "-$hb_pgid" 2>/dev/null
	hb_pgid=
	sleep 1
}
trap 'load_stop_on_exit' EXIT
load_stop_on_exit() {
	[ -n "$hb_pgid" ] && load_stop
	srv_stop_all
	rm -rf "$T_TMP"
}

run_audiolat() { # -> $T_TMP/res: "xruns max_ms fallback max_interval_ms seconds"
	load_start
	"$AUDIOLAT" run -b alsa -D plug:alaplay -r 48000 -P "$period" -n "$periods" -p 0 -L 0 \
		-d "${secs}s" --no-db -q --json "$T_TMP/a.json" >/dev/null 2>"$T_TMP/a.err"
	load_stop
	jq -r '"\(.total.xruns) \([.xrun_events[].duration_ns] | (max // 0) / 1e6) \(.backend.xrun_durations.fallback) \(.total.interval_ns.max / 1e6) \(.duration_ns / 1e9)"' \
		"$T_TMP/a.json" >"$T_TMP/res"
}

run_aplay() { # -> $T_TMP/res: "xruns max_ms seconds"
	load_start
	t0=$(date +%s%N)
	# the same wall time as audiolat (-d counts audio, which xruns stretch)
	timeout -s INT "$secs" aplay -D plug:alaplay -t raw -f S16_LE -r 48000 -c 2 \
		--period-size="$period" --buffer-size="$buffer" /dev/zero >/dev/null 2>"$T_TMP/p.err"
	prc=$?
	[ $prc -eq 124 ] && prc=ok
	t1=$(date +%s%N)
	[ "$prc" != ok ] && [ "$prc" -gt 128 ] && prc="signal $((prc - 128))"
	load_stop
	awk '/underrun!!!/ { n++; sub(/.*at least /, ""); v = $1 + 0; if (v > m) m = v }
	     END { printf "%d %.3f %.3f\n", n, m, (t1 - t0) / 1e9 }' t0="$t0" t1="$t1" "$T_TMP/p.err" \
		>"$T_TMP/res"
}

echo "jackd -d dummy -r 48000 -p 256; ALSA plug:alaplay (pcm_jack), $periods x $period frames, 48000 Hz, S16_LE, 2 ch"
echo "load: hackbench ${hb[*]}; $rounds rounds of $secs s each; $(nproc) CPUs"
printf "%-6s %8s %8s %8s %8s %11s %11s %13s %s\n" round "al xruns" "al s" "ap xruns" "ap s" "al max ms" "ap max ms" "al max gap ms" "aplay exit"
for i in $(seq 1 "$rounds"); do
	if [ $((i % 2)) -eq 1 ]; then
		run_audiolat
		read -r ax am af ai as <"$T_TMP/res"
		run_aplay
		read -r px pm ps <"$T_TMP/res"
	else
		run_aplay
		read -r px pm ps <"$T_TMP/res"
		run_audiolat
		read -r ax am af ai as <"$T_TMP/res"
	fi
	printf "%-6s %8s %8.2f %8s %8.2f %11.3f %11.3f %13.3f %s\n" "$i" "$ax" "$as" "$px" "$ps" "$am" "$pm" \
		"$ai" "$prc"
	echo "$ax $px $af $as $ps" >>"$T_TMP/rows"
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "xruns: audiolat total $(awk '{ s += $1 } END { print s }' "$T_TMP/rows"), median $(awk '{ print $1 }' "$T_TMP/rows" | median); aplay total $(awk '{ s += $2 } END { print s }' "$T_TMP/rows"), median $(awk '{ print $2 }' "$T_TMP/rows" | median)"
echo "xruns per second: audiolat $(awk '{ x += $1; t += $4 } END { printf "%.2f", x / t }' "$T_TMP/rows"), aplay $(awk '{ x += $2; t += $5 } END { printf "%.2f", x / t }' "$T_TMP/rows")"
echo "audiolat xrun durations from the pointers (trigger stamps rejected): $(awk '{ s += $3 } END { print s }' "$T_TMP/rows") of $(awk '{ s += $1 } END { print s }' "$T_TMP/rows")"
