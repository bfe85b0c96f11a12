#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The PipeWire backend (-b pipewire: a pw_filter in the graph) against
# PipeWire with a null sink as the driver (pipewire and wireplumber on a
# private D-Bus, started and stopped here): no server (exit 4, one line);
# rate and quantum from the driver's clock, the boundary its clock.nsec,
# linked to the default sink or -D's node; audiolat devices; --capture and
# --duplex; a quantum forced mid-run (one event, the statistics split); the
# server killed mid-run (results kept, interrupted, exit 1).
. "$(dirname "$0")/common.sh"
need_backend pipewire libpipewire-0.3-dev
need_cmd pipewire pipewire
need_cmd wireplumber wireplumber
need_cmd pw-metadata pipewire-bin
need_cmd dbus-daemon dbus

J="$T_TMP/run.json"
GONE="nosuch-$$"
# a stop of known length (the truth matrix's tool; built with everything, by make)
STALL="$BUILD_DIR/tests/truth/truth-stall"
[ -x "$STALL" ] || t_bail "truth-stall is built ($STALL: ninja -C build)"

# --- no PipeWire: a runtime directory with no server in it
mkdir -p "$T_TMP/nopw"
chmod 700 "$T_TMP/nopw"
t_exit 4 "no PipeWire running: exit 4" env -u PIPEWIRE_REMOTE XDG_RUNTIME_DIR="$T_TMP/nopw" \
	PIPEWIRE_RUNTIME_DIR="$T_TMP/nopw" "$AUDIOLAT" run -b pipewire -d 1s --no-db
t_result "$([ "$(wc -l <"$ERR")" -eq 1 ] && echo 0 || echo 1)" "... with one line"
t_grep "$ERR" "^audiolat run: pipewire: PipeWire server 'pipewire-0': not running" \
	"... which says the server is not running"
t_exit 4 "no PipeWire running: audiolat devices -b pipewire lists none and exits 4" env -u PIPEWIRE_REMOTE \
	XDG_RUNTIME_DIR="$T_TMP/nopw" PIPEWIRE_RUNTIME_DIR="$T_TMP/nopw" "$AUDIOLAT" devices -b pipewire
t_grep "$OUT" "^  no PIPEWIRE server running \(PIPEWIRE_REMOTE=unset\)" "... and says there is no server"

t_exit 2 "--blame with another backend: a usage error" "$AUDIOLAT" run -b sim --blame -d 1s --no-db
t_grep "$ERR" "--blame: not with the sim backend" "... which says so"

start_pipewire 256 48000 || server_failed "PipeWire with a null sink starts"

t_exit 0 "-b pipewire, 3 s: exits 0" "$AUDIOLAT" run -b pipewire -d 3s --no-db -q --json "$J"
t_json "rate and quantum are the driver's: 48000, 256" \
	'.config.rate == 48000 and .config.period_frames == 256' "$J"
t_json "linked to the default sink, the null sink" '.config.device == "null-sink"' "$J"
t_json "the periods match the run's length (90..102 %)" \
	'(.duration_ns / .config.period_ns) as $n | .total.periods >= 0.9 * $n and .total.periods <= 1.02 * $n + 2' "$J"
t_json "every boundary is the driver's clock.nsec (none estimated)" \
	'.backend.boundaries.total >= .total.wakeups and .backend.boundaries.estimated == 0' "$J"
t_json "wake latency is above zero, the least within a period" \
	'.total.wake_latency_ns.min > 0 and .total.wake_latency_ns.min < 5333333' "$J"
t_json "median interval is one period (within 10 %)" \
	'(.total.interval_ns.p50 - 5333333) | fabs < 533333' "$J"
t_json "the data thread measured at SCHED_FIFO 80 (-p's default)" \
	'.realtime == true and .priority == 80' "$J"
t_json "the time series has the driver's delay and rate_diff" \
	'(.timeseries.columns | index("delay_frames")) as $d | (.timeseries.columns | index("rate_diff")) as $r |
	 [.timeseries.rows[] | select(.[1] > 0)] | length > 10 and all(.[$d] != null and .[$r] > 0.9 and .[$r] < 1.1)' "$J"
t_json "one stretch at one period: no period change, no segments" \
	'.period_changes == [] and .segments == null' "$J"

# --- -D and audiolat devices
t_exit 0 "audiolat devices -b pipewire exits 0" "$AUDIOLAT" devices -b pipewire
t_grep "$OUT" "pipewire-server|PipeWire 0\.3" "... names the server and its version"
t_grep "$OUT" "null-sink .*Audio/Sink" "... lists the null sink as a sink"
t_grep "$OUT" "null-sink .*default-sink" "... the default sink"
t_exit 0 "-D 'Null Sink' (its description): exits 0" \
	"$AUDIOLAT" run -b pipewire -D "Null Sink" -d 1s --no-db -q --json "$J"
t_json "... linked to null-sink" '.config.device == "null-sink"' "$J"
t_exit 4 "-D a node that does not exist: exit 4" "$AUDIOLAT" run -b pipewire -D "$GONE" -d 1s --no-db
t_grep "$ERR" "^audiolat run: pipewire: PipeWire: no node '$GONE'" "... one line names it"
t_grep "$ERR" "^devices of the pipewire backend" "... then what there is"

# --- capture and duplex
t_exit 0 "--capture from the sink's monitor: exits 0" \
	"$AUDIOLAT" run -b pipewire --capture -d 1s --no-db -q --json "$J"
t_json "--capture: periods measured, none missed" '.config.capture == true and .total.periods > 150' "$J"
t_exit 0 "--duplex: exits 0" "$AUDIOLAT" run -b pipewire --duplex -d 1s --no-db -q --json "$J"
t_json "--duplex: periods measured" '.config.duplex == true and .total.periods > 150' "$J"

# --- a quantum forced mid-run: one event, the statistics split there
# (measured once and judged; 2.5 s: 200 periods at 256, then 1.4 s at 512,
# 130 periods for its median; 4 s until 2026-12-07)
run_tty "$OUT" "$T_TMP/q.log" "$AUDIOLAT" run -b pipewire -d 2.5s -L 20 --no-db --no-histogram --json "$J"
wait_until 10 "the quantum run to measure 200 periods" measuring "$T_TMP/q.log" 200
measured=$?
pw-metadata -n settings 0 clock.force-quantum 512 >/dev/null 2>&1
forced=$?
wait $TTY_PID
ran=$?
pw-metadata -n settings 0 clock.force-quantum 0 >/dev/null
t_result "$measured" "quantum: the run measures (200 periods)"
t_result "$forced" "pw-metadata forces the quantum to 512"
t_result "$ran" "quantum: the run exits 0"
t_json "one period change, to 512 frames at 48000 Hz" \
	'.period_changes | length == 1 and .[0].period_frames == 512 and .[0].rate == 48000 and
	 .[0].from_period_frames == 256' "$J"
t_json "two stretches, 256 then 512, the change between them" \
	'.period_changes[0].t_ns as $t | .segments | length == 2 and .[0].period_frames == 256 and
	 .[1].period_frames == 512 and .[1].period_ns == 10666666 and .[1].start_ns == $t and .[0].end_ns == $t' "$J"
t_json "the stretches' periods add up to the run's" \
	'.segments[0].periods + .segments[1].periods == .total.periods' "$J"
t_json "each stretch's intervals are its own period (median within 10 %)" \
	'.segments | (.[0].interval_ns.p50 - 5333333 | fabs) < 533333 and (.[1].interval_ns.p50 - 10666666 | fabs) < 1066666' "$J"
# (a change taken for a stall would be an event whose span holds the
# change itself, from the last boundary at 256 to the first at 512; a
# loaded machine's own xruns, beside it with audio served between, are
# listed, not judged)
t_json "the change is not taken for an xrun (no event's span holds it)" \
	'.period_changes[0].t_ns as $t | [.xrun_events[] | select(.t_ns <= $t + 1000000 and .t_ns + .duration_ns >= $t - 1000000)] | length == 0' "$J"
jq -r '[.xrun_events[] | [.t_ns, .duration_ns, .source]] | select(length > 0) | "# xruns of the quantum run: \(.)"' "$J" 2>/dev/null

# --- the server stopped for 200 ms (its driver held up): the driver catches
# up with late cycles back to back, each at its own clock.nsec; one event
# of the stop's length, blamed on the driver (2.5 s: the stop after 100
# periods, 0.5 s, and 1.8 s of audio after it; 4 s until 2026-12-07)
run_tty "$OUT" "$T_TMP/stop.log" "$AUDIOLAT" run -b pipewire -d 2.5s -L 20 --no-db --no-histogram --json "$J"
t_measuring 10 "server stopped: the run measures (100 periods)" "$T_TMP/stop.log" 100
stall=$("$STALL" "${SRV_PW_PIDS[1]}" 200 | sed -n 's/.*stall_ns=\([0-9]*\).*/\1/p')
wait $TTY_PID
t_result $? "server stopped: the run exits 0"
echo "# the server stood still ${stall:-?} ns"
t_json "server stopped: one event of its length (-1 period - 10 ms .. +1 period + 10 ms)" --argjson s "${stall:-0}" \
	'[.xrun_events[] | select(.duration_ns > 50000000)] | length == 1 and
	 (.[0].duration_ns - $s | . >= -15333333 and . <= 15333333)' "$J"
t_json "server stopped: its blame is the driver, begun late" \
	'[.xrun_events[] | select(.duration_ns > 50000000)] | .[0].blame | any(.driver and .name == "null-sink" and .state == "late-start")' "$J"
t_json "server stopped: the per-period max is the stop" --argjson s "${stall:-0}" \
	'.total.wake_latency_ns.max - $s | fabs < 15333333' "$J"
jq -r '[.xrun_events[] | [.t_ns, .duration_ns, .lost_periods, .source]] | "# events: \(.)"' "$J" 2>/dev/null

# --- the server killed mid-run: what was measured is kept
start=$(date +%s%N)
run_tty "$OUT" "$T_TMP/kill.log" "$AUDIOLAT" run -b pipewire -d 20s --no-db --no-histogram --json "$J"
t_measuring 10 "killed: the run measures (100 periods) before the server is killed" "$T_TMP/kill.log" 100
kill -KILL "${SRV_PW_PIDS[1]}"
wait $TTY_PID
rc=$?
tty_text "$T_TMP/kill.log" >"$ERR"
took=$((($(date +%s%N) - start) / 1000000))
t_result $([ $rc -eq 1 ] && echo 0 || echo 1) "killed: exit 1 (got $rc)"
t_result $([ $took -lt 10000 ] && echo 0 || echo 1) "killed: the run ended soon after ($took ms, < 10 s of 20)"
t_grep "$ERR" "^audiolat run: the PipeWire server went away during the run; reporting what was measured" \
	"killed: one clear line"
t_grep "$OUT" "^summary: backend=pipewire .*samples=[1-9]" "killed: the results so far are printed"
t_json "killed: the JSON says interrupted" '.interrupted == true' "$J"
t_json "killed: ... with the periods measured until then" '.total.periods > 100' "$J"
stop_pipewire
t_done
