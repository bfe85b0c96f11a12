#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat roundtrip -b pipewire against PipeWire with a null sink as the
# driver (pipewire and wireplumber on a private D-Bus, started here):
#  - --self-loop: PipeWire, like JACK, cannot run a node before itself, so
#    our input reads in each cycle what our output wrote in the one before:
#    exactly one quantum (docs/pipewire.md); at two quanta and rates, to
#    0.01 frame, steady over the run;
#  - a cable through the null sink (its playback port into its monitor):
#    the sink takes our output after we ran and gives it back on its monitor
#    in the next cycle: one quantum too; -D, --out/--in NODE:PORT;
#  - ports and nodes that do not exist (exit 4), a port of the wrong
#    direction (exit 2), no server (exit 4);
#  - xruns: none in a clean run (linking moves us to another driver: no
#    gap), one for a 100 ms stop of ours, the delay still one quantum;
#  - the loop's link removed mid-run (pw-link -d): exit 1, said so;
#  - the server killed mid-run: exit 1, said so.
. "$(dirname "$0")/common.sh"
need_backend pipewire libpipewire-0.3-dev
need_cmd pipewire pipewire
need_cmd wireplumber wireplumber
need_cmd pw-link pipewire-bin
need_cmd dbus-daemon dbus
need_cmd jq jq

J="$T_TMP/rt.json"
# a stop of known length (the truth matrix's tool; built with everything, by make)
STALL="$BUILD_DIR/tests/truth/truth-stall"
[ -x "$STALL" ] || t_bail "truth-stall is built ($STALL: ninja -C build)"

# t_near DESC FILE FIELD WANT: the JSON number FIELD is within 0.01 of WANT
t_near() {
	t_json "$1" --argjson w "$4" "(.$3 - \$w | fabs) < 0.01" "$2"
}

# readings LOG [WHAT]: how many live readings LOG showed (default: valid ones)
readings() {
	tty_text "$1" | grep -Ec "${2:- frames +[0-9.]+ ms}"
}
has_readings() {
	[ "$(readings "$1" "${3:-}")" -ge "$2" ]
}

# --- no PipeWire: a runtime directory with no server in it
mkdir -p "$T_TMP/nopw"
chmod 700 "$T_TMP/nopw"
t_exit 4 "no PipeWire running: exit 4" env -u PIPEWIRE_REMOTE XDG_RUNTIME_DIR="$T_TMP/nopw" \
	PIPEWIRE_RUNTIME_DIR="$T_TMP/nopw" "$AUDIOLAT" roundtrip -b pipewire --self-loop -d 2
t_result "$([ "$(wc -l <"$ERR")" -eq 1 ] && echo 0 || echo 1)" "... with one line"
t_grep "$ERR" "^audiolat roundtrip: pipewire: PipeWire server 'pipewire-0': not running" \
	"... which says the server is not running"

# self_loop QUANTUM RATE
self_loop() {
	local q=$1 r=$2 j="$T_TMP/self-$1.json"
	start_pipewire "$q" "$r" || server_failed "PipeWire with a null sink at $q/$r starts"
	t_exit 0 "self-loop at a $q-frame quantum, $r Hz: a valid delay" \
		"$AUDIOLAT" roundtrip -b pipewire --self-loop -d 3 -q --json "$j"
	echo "# $(jq -c '{delay_frames, stddev_frames, error, xruns, realtime}' "$j")"
	t_json "JSON: valid, the graph's quantum and rate, our own ports" --argjson q "$q" \
		--argjson r "$r" '.schema == "audiolat.roundtrip/1" and .valid == true and
		 .backend == "pipewire" and .period_frames == $q and .rate == $r and .self_loop and
		 .in == "audiolat-roundtrip:out" and .out == "audiolat-roundtrip:in" and
		 .inverted == false and (.readings | length) >= 8' "$j"
	t_near "self-loop delay is one quantum, $q frames, to 0.01 frame" "$j" delay_frames "$q"
	t_json "steady: every settled reading within 0.01 of $q, stddev below 0.01" --argjson q "$q" \
		'((.min_frames - $q) | fabs) < 0.01 and ((.max_frames - $q) | fabs) < 0.01 and
		 .stddev_frames < 0.01 and .settled_readings >= 5 and .valid_readings == .settled_readings' "$j"
	t_json "PipeWire reports no port latency: nominal, extra and -I/-O null" \
		'.nominal == {"capture_frames": null, "playback_frames": null, "total_frames": null}
		 and .extra_frames == null and .extra_ms == null and .jackd_io_frames == null' "$j"
	stop_pipewire
}
self_loop 256 48000
self_loop 1024 44100

start_pipewire 256 48000 || server_failed "PipeWire with a null sink starts"

# --- a cable through the null sink: its playback port, back from its monitor
t_exit 0 "through the default sink: a valid delay" "$AUDIOLAT" roundtrip -b pipewire -d 3 --json "$J"
t_grep "$OUT" '^  plays on null-sink:playback_FL, captures from null-sink:monitor_FL$' \
	"text: plays on the sink, captures from its monitor"
t_grep "$OUT" '^  delay +256\.000 frames +5\.333 ms' "text: 256.000 frames, 5.333 ms"
t_grep "$OUT" '^summary: backend=pipewire rate=48000 period=256 delay_frames=256\.000 .*extra_frames=- .*result=valid$' \
	"summary line (no extra: not measured)"
t_json "JSON: the sink's ports" '.valid and .self_loop == false and
	.out == "null-sink:playback_FL" and .in == "null-sink:monitor_FL"' "$J"
t_near "through the null sink: one quantum, 256 frames" "$J" delay_frames 256
t_exit 0 "-D 'Null Sink' --out/--in the right channel: a valid delay" "$AUDIOLAT" roundtrip \
	-b pipewire -D "Null Sink" --out null-sink:playback_FR --in null-sink:monitor_FR -d 3 -q \
	--json "$J"
t_json "... on the ports named" '.out == "null-sink:playback_FR" and .in == "null-sink:monitor_FR"' "$J"
t_near "... one quantum" "$J" delay_frames 256
t_exit 4 "--out names a port that does not exist: exit 4" "$AUDIOLAT" roundtrip -b pipewire \
	--out null-sink:nosuch -d 2
t_grep "$ERR" "no PipeWire port 'null-sink:nosuch'" "... names it"
t_exit 2 "--out names a monitor port (an output): a usage error" "$AUDIOLAT" roundtrip -b pipewire \
	--out null-sink:monitor_FL -d 2
t_grep "$ERR" "is not an input" "... says why"
t_exit 4 "-D names a node that does not exist: exit 4" "$AUDIOLAT" roundtrip -b pipewire \
	-D "nosuch-$$" -d 2
t_grep "$ERR" "PipeWire: no node 'nosuch-$$'" "... names it"

# --- cycles the driver ran without us are xruns; linking (a move to the
# sink's driver) is none: a run with no fault counts none at the link, a
# 100 ms stop of ours 1 at the stop. Linking counted as one (the driver's
# clock id not checked) gave one 4.4-8.2 ms after the link in 7 runs of 8;
# a loaded VM's own came 0.36 a second, anywhere: judged is the link's
# 4 quanta (21.3 ms), the machine's own listed. The run is measured once.
"$AUDIOLAT" roundtrip -b pipewire -d 2 -q --json "$T_TMP/clean.json" >/dev/null 2>&1
echo "# the run with no fault: $(jq -c '{xruns, valid, linked_at_ns, xrun_events: [.xrun_events[]?.t_ns]}' "$T_TMP/clean.json" 2>/dev/null)"
t_json "a run with no fault through the sink: valid, its link's time and each xrun's kept" \
	'.valid and (.readings | length) >= 4 and (.linked_at_ns | type) == "number" and
	 .linked_at_ns <= 0 and (.xrun_events | length) + .xrun_events_dropped == .xruns and
	 all(.xrun_events[]; (.t_ns | type) == "number")' "$T_TMP/clean.json"
t_json "... linking is no xrun: none in the 4 quanta after the link" \
	'.linked_at_ns as $l | [.xrun_events[] | select(.t_ns >= $l and .t_ns <= $l + 21333333)] | length == 0' \
	"$T_TMP/clean.json"
run_tty "$OUT" "$T_TMP/stop.tty" "$AUDIOLAT" roundtrip -b pipewire --self-loop -d 4 \
	--json "$T_TMP/stop.json"
t_wait 20 "stopped mid-run: the run reads a valid delay first" has_readings "$T_TMP/stop.tty" 1
STOP_FROM_NS=$(date +%s%N)
t_true "our process stopped for 100 ms" "$STALL" "$RUN_PID" 100
STOP_TO_NS=$(date +%s%N)
wait "$TTY_PID"
t_result $? "stopped mid-run: exit 0"
echo "# stopped run: $(jq -c '{xruns, valid, delay_frames, status, reason, xrun_events: [.xrun_events[]?.t_ns]}' "$T_TMP/stop.json" 2>/dev/null)"
t_json "... at least one xrun (its own; a loaded machine may add), still one quantum" \
	'.xruns >= 1 and .valid and ((.delay_frames - 256) | fabs) < 0.01' "$T_TMP/stop.json"
# (the readings' zero is a few ms after started_at, a wall clock in ms:
# the stop's window on their clock is widened by 50 ms each side)
t_json "... and an xrun seen when the stop ended: in its window on the readings' clock" \
	--argjson from "$STOP_FROM_NS" --argjson to "$STOP_TO_NS" \
	'(.started_at | sub("\\.[0-9]+Z$"; "Z") | fromdateiso8601) as $s |
	 ((.started_at | capture("\\.(?<ms>[0-9]+)Z$").ms | tonumber) / 1000) as $ms |
	 (($s + $ms) * 1e9) as $t0 |
	 any(.xrun_events[]; .t_ns >= ($from - $t0) - 5e7 and .t_ns <= ($to - $t0) + 5e7)' "$T_TMP/stop.json"

# --- the loop's link removed in the middle of a run (once it reads a delay)
run_tty "$OUT" "$T_TMP/unlink.tty" timeout 30 "$AUDIOLAT" roundtrip -b pipewire --self-loop -d 20 \
	--json "$T_TMP/unlink.json"
t_wait 20 "link removed mid-run: the run reads a valid delay first" has_readings "$T_TMP/unlink.tty" 1
t_true "pw-link -d removes our self-loop" pw-link -d audiolat-roundtrip:out audiolat-roundtrip:in
wait "$TTY_PID"
t_result $([ $? -eq 1 ] && echo 0 || echo 1) "link removed mid-run: exit 1"
tty_text "$T_TMP/unlink.tty" >"$ERR"
t_grep "$ERR" 'a link of the loop went away' "... says the loop's link went away"
t_grep "$OUT" 'result=error' "... the summary says error"
t_json "... the JSON says so, with the readings until then" '.status == "error" and .valid == false
	and (.reason | test("severed")) and (.readings | length) >= 1 and .duration_ns < 20000000000' \
	"$T_TMP/unlink.json"

# --- the server killed in the middle of a run
run_tty "$OUT" "$T_TMP/gone.tty" timeout 30 "$AUDIOLAT" roundtrip -b pipewire --self-loop -d 20
t_wait 20 "server killed mid-run: the run reads a valid delay first" has_readings "$T_TMP/gone.tty" 1
kill -KILL "${SRV_PW_PIDS[1]}"
wait "$TTY_PID"
t_result $([ $? -eq 1 ] && echo 0 || echo 1) "server killed mid-run: exit 1"
tty_text "$T_TMP/gone.tty" >"$ERR"
t_grep "$ERR" 'the PipeWire server went away' "... says the server went away"
t_grep "$OUT" 'result=error' "... the summary says error"
stop_pipewire
t_done
