# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel-test guest's checks (busybox sh), run by /init as
#   sh checks.sh NAME      exit 0 passed, 77 skipped ("SKIP: reason"), else failed
#   sh checks.sh --list    "NAME TIMEOUT_S DESCRIPTION" per check, in order
# Each check runs a real audiolat command on a real kernel driver and
# asserts what was detected and what data arrived, never how fast: TCG
# timing says nothing about hardware. "FAIL: ..." lines say what went
# wrong, "INFO: ..." lines are figures the host log shows.
# A check of a backend this build lacks skips, and says so: what the build
# has is meson's own word on the host (AUDIOLAT_BUILT, written by
# build-initramfs.sh to /usr/lib/audiolat-guest/built), never the binary's;
# a backend the build has that audiolat --version does not list, or a
# command its --help does not, is a failure.

AL=audiolat
F=0
fail() { echo "FAIL: $*"; F=1; }
info() { echo "INFO: $*"; }
skip() { echo "SKIP: $*"; exit 77; }
finish() { exit "$F"; }

# jcheck FILE [JQ OPTIONS] <<EOF, one assertion a line: "DESCRIPTION @@ JQ EXPR";
# FILE must hold exactly one JSON document; an assertion passes when EXPR
# is true of it, else its value is shown. A line
# "info @@ EXPR" prints EXPR's value as INFO. One jq run per document (jq's
# start-up costs about 0.3 s under TCG).
jcheck() {
	_f=$1
	shift
	_prog=$(awk '
		function lit(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
		{
			i = index($0, " @@ ")
			if (!i) next
			d = substr($0, 1, i - 1); e = substr($0, i + 4)
			sub(/^[ \t]+/, "", d)
			if (d == "info")
				printf "(try (\"INFO: \" + ((%s) | if type == \"string\" then . else tojson end)) catch \"INFO: (error)\"),\n", e
			else
				printf "((try (%s) catch \"error: \\(.)\") as $r | if $r == true then empty else \"FAIL: \" + %s + \" (jq: \" + %s + \" gave \" + ($r | tojson | .[0:300]) + \")\" end),\n", e, lit(d), lit(e)
		}
		END { print "empty" }')
	# exactly one document: jq exits 0 on an empty file, with nothing checked
	_prog="[inputs] as \$_d | if (\$_d | length) != 1
		then \"FAIL: $_f holds \\(\$_d | length) JSON documents, not one\"
		else \$_d[0] | ($_prog
		) end"
	if ! jq -n -r "$@" "$_prog" "$_f" >"$W/jcheck" 2>&1; then
		fail "cannot check $_f as JSON: $(head -c 300 "$W/jcheck")"
		return
	fi
	cat "$W/jcheck"
	grep -q '^FAIL' "$W/jcheck" && F=1
	return 0
}

# expect RC WANT... : RC is one of the WANT codes
expect_rc() {
	_rc=$1 _what=$2
	shift 2
	for _w in "$@"; do [ "$_rc" = "$_w" ] && return 0; done
	fail "$_what exited $_rc, expected $*"
	[ -s "$W/err" ] && sed 's/^/  stderr: /' "$W/err" | head -n 15
	return 1
}

BUILT=$(cat /usr/lib/audiolat-guest/built 2>/dev/null)
need_backend() { # NAME
	if [ -z "$BUILT" ]; then
		fail "the host did not say what this build has (AUDIOLAT_BUILT, set by meson)"
		finish
	fi
	case " $BUILT " in
	*" $1 "*) ;;
	*) skip "audiolat built without the $1 backend (on the host: AUDIOLAT_BUILT=$BUILT)" ;;
	esac
	_l=$($AL --version 2>/dev/null | grep '^backends:')
	case " ${_l#backends:} " in
	*" $1 "*) return 0 ;;
	esac
	fail "audiolat --version does not list the $1 backend this build has ($_l)"
	finish
}

need_command() { # NAME
	$AL --help 2>/dev/null | grep -Eq "^  $1( |\$)" && return 0
	fail "audiolat --help does not list the $1 command"
	finish
}

need_midi() { # SUBCOMMAND...
	need_command midi
	for _s in "$@"; do
		$AL midi "$_s" --help >/dev/null 2>&1 && continue
		fail "audiolat midi $_s --help does not exit 0"
		finish
	done
}

# "--no-db" where the subcommand saves its results in the database (nothing
# to keep in the guest, and SQLite under emulation costs time); the answer
# is kept in /tmp for the checks after this one
nodb() { # SUBCOMMAND...
	_c=/tmp/nodb-$(echo "$*" | tr ' ' -)
	[ -f "$_c" ] || { $AL "$@" --help 2>/dev/null | grep -q -- '--no-db' && echo --no-db; } >"$_c"
	cat "$_c"
}

# audiolat run / midi record / midi loop, with --no-db where there is one
# shellcheck disable=SC2046
al_run() { $AL run $(nodb run) "$@"; }
# shellcheck disable=SC2046
al_record() { $AL midi record $(nodb midi record) "$@"; }
# shellcheck disable=SC2046
al_loop() { $AL midi loop $(nodb midi loop) "$@"; }
# the same to start with '&': the background shell becomes audiolat, so that
# $! is audiolat's pid (SIGSTOP, SIGINT reach it, not a shell)
# shellcheck disable=SC2046
al_run_bg() { exec $AL run $(nodb run) "$@"; }
# shellcheck disable=SC2046
al_record_bg() { exec $AL midi record $(nodb midi record) "$@"; }

# the card index of ID in /proc/asound/cards (" 2 [VirMIDI        ]: ...")
card_index() {
	sed -n "s/^ *\([0-9][0-9]*\) \[$1 *\].*/\1/p" /proc/asound/cards | head -n 1
}

# "CLIENT:PORT" of the sequencer port named NAME
seq_port() {
	awk -v name="\"$1\"" '
		/^Client/ { c = $2 }
		/^  Port/ && index($0, name) { print c ":" $2; exit }' /proc/asound/seq/clients
}

# wait until the rawmidi device CARD,DEV has an opened input (the recorder
# is reading: virmidi drops sequencer events until its input is triggered)
wait_rawmidi_input() {
	_i=0
	while [ $_i -lt 100 ]; do
		awk '/^Input/ { i = 1 } i && /Owner PID/ { f = 1 } END { exit !f }' \
			"/proc/asound/card$1/midi$2" 2>/dev/null && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	fail "nobody opened the input of rawmidi $1,$2 within 10 s"
	return 1
}

# wait until a substream of card CARD's PCMs of direction DIR (p or c) is
# RUNNING with its hardware pointer at FRAMES or more (someone plays or
# records there, and has for a while): the condition, not a fixed sleep
wait_pcm_running() { # CARD DIR FRAMES
	_i=0
	while [ $_i -lt 100 ]; do
		for _st in /proc/asound/card"$1"/pcm*"$2"/sub*/status; do
			awk -v f="$3" '/^state:/ { s = $2 } /^hw_ptr/ { h = $3 }
				END { exit !(s == "RUNNING" && h + 0 >= f + 0) }' "$_st" 2>/dev/null && return 0
		done
		sleep 0.1
		_i=$((_i + 1))
	done
	fail "no substream of card $1 ($2) RUNNING past $3 frames within 10 s"
	for _st in /proc/asound/card"$1"/pcm*"$2"/sub*/status; do
		grep -q closed "$_st" 2>/dev/null || sed "s|^|  $_st: |" "$_st" 2>/dev/null | head -n 12
	done
	return 1
}

# the preemption mode in force, as the kernel says it: "none (voluntary) full"
kernel_preempt() {
	sed -n 's/.*(\([a-z_]*\)).*/\1/p' /sys/kernel/debug/sched/preempt 2>/dev/null
}

# --- the checks ---------------------------------------------------------

check_drivers() {
	[ -s /tmp/modprobe.log ] && sed 's/^/  modprobe: /' /tmp/modprobe.log
	grep -q failed /tmp/modprobe.log && fail "a driver did not load"
	for id in Dummy Loopback VirMIDI; do
		[ -n "$(card_index $id)" ] || fail "no $id card in /proc/asound/cards"
	done
	d=$(card_index Dummy) l=$(card_index Loopback) v=$(card_index VirMIDI)
	for f in /dev/snd/controlC$d /dev/snd/pcmC${d}D0p /dev/snd/pcmC${d}D0c \
		/dev/snd/pcmC${l}D0p /dev/snd/pcmC${l}D1c /dev/snd/midiC${v}D0 \
		/dev/snd/midiC${v}D1 /dev/snd/seq /dev/snd/timer; do
		[ -c "$f" ] || fail "no device node $f"
	done
	grep -q '"Midi Through"' /proc/asound/seq/clients || fail "no Midi Through client"
	for p in 0 1; do
		[ -n "$(seq_port "VirMIDI $v-$p")" ] || fail "no sequencer port VirMIDI $v-$p"
	done
	info "cards: $(sed -n 's/^ *\([0-9]*\) \[\([A-Za-z]*\) *\].*/\1 \2/p' /proc/asound/cards | tr '\n' ' ')"
	info "VirMIDI seq ports: $(seq_port "VirMIDI $v-0") $(seq_port "VirMIDI $v-1"), preempt: $(kernel_preempt)"
	finish
}

# a known pattern through snd-aloop with aplay/arecord: the driver works
check_aloop_crosscheck() {
	# 16 bytes = 4 stereo S16 frames, repeated for 0.5 s
	i=0
	printf '\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020' >"$W/p"
	while [ $i -lt 11 ]; do cat "$W/p" "$W/p" >"$W/q" && mv "$W/q" "$W/p"; i=$((i + 1)); done
	played=2048 # 16 << 11 bytes: 32768 bytes, 8192 frames, 2048 patterns
	# (a half-second buffer each: a guest descheduled for a while loses nothing)
	arecord -q -D hw:Loopback,1,0 -t raw -f S16_LE -c 2 -r 48000 -B 500000 -d 10 "$W/c" 2>"$W/err" &
	rpid=$!
	wait_pcm_running "$(card_index Loopback)" c 0
	aplay -q -D hw:Loopback,0,0 -t raw -f S16_LE -c 2 -r 48000 -B 500000 "$W/p" 2>>"$W/err"
	expect_rc $? "aplay" 0
	# what was played has been recorded: aplay drained its buffer before it
	# returned, so its last frame went through the loopback by then; a
	# further 0.5 s of capture (the capture buffer's length, 96000 bytes)
	# has it in the file. (Waiting only for as many bytes as aplay played
	# after the capture started counted the silence of aplay's own start
	# under TCG: 1824 of 2048 patterns, once.) 10 s at most, on the guest's
	# clock.
	after=$(wc -c <"$W/c")
	_end=$(($(cut -d. -f1 /proc/uptime) + 10))
	while [ "$(wc -c <"$W/c")" -lt $((after + 96000)) ] && [ "$(cut -d. -f1 /proc/uptime)" -lt $_end ]; do
		sleep 0.1
	done
	kill -INT $rpid
	wait $rpid
	expect_rc $? "arecord" 0 1 130
	got=$(od -An -tx1 -v "$W/c" | tr -d ' \n' | grep -o 0102030405060708090a0b0c0d0e0f10 | wc -l)
	info "aplay -> arecord through hw:Loopback: $got of $played patterns back"
	[ "$got" -ge $((played * 9 / 10)) ] || fail "only $got of $played patterns came back"
	finish
}

# amidi into a virmidi rawmidi device reaches its sequencer port (aseqdump)
check_virmidi_crosscheck() {
	v=$(card_index VirMIDI)
	port=$(seq_port "VirMIDI $v-0")
	aseqdump -p "$port" >"$W/dump" 2>&1 &
	dpid=$!
	wait_seq_reader "VirMIDI $v-0"
	amidi -p "hw:$v,0" -S '90 3C 40 80 3C 00 B0 07 64' 2>"$W/err"
	expect_rc $? "amidi" 0
	# the last of the three messages has come through
	_i=0
	until grep -q 'Control change.*controller 7, value 100' "$W/dump" || [ $_i -ge 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill -INT $dpid
	wait $dpid
	grep -q 'Note on.*note 60, velocity 64' "$W/dump" || fail "aseqdump saw no note-on"
	grep -q 'Note off.*note 60' "$W/dump" || fail "aseqdump saw no note-off"
	grep -q 'Control change.*controller 7, value 100' "$W/dump" || fail "aseqdump saw no control change"
	[ $F -eq 0 ] || sed 's/^/  aseqdump: /' "$W/dump" | head -n 10
	finish
}

check_check() {
	$AL check --json "$W/c.json" >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat check" 0 3
	# the mode in force, as the kernel says it (PREEMPT_DYNAMIC kernels)
	mode=$(kernel_preempt)
	jcheck "$W/c.json" --arg m "$mode" <<'EOF'
schema audiolat.check/1 @@ .schema == "audiolat.check/1"
the counts add up @@ .ok + .warn + .fail + .skip == (.checks | length)
the preempt check has a result @@ [.checks[] | select(.id == "preempt" and .status != "skip" and (.message | length) > 0)] | length == 1
the preempt check names the kernel's mode @@ $m == "" or (.checks[] | select(.id == "preempt") | .message | test($m))
info @@ "ok \(.ok) warn \(.warn) fail \(.fail) skip \(.skip); preempt: " + (.checks[] | select(.id == "preempt") | .message)
EOF
	finish
}

check_run_sim() {
	al_run -d 1s -q --json "$W/s.json" >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat run -b sim" 0
	jcheck "$W/s.json" --arg r "$(uname -r)" --arg m "$(kernel_preempt)" <<'EOF'
schema audiolat.run/2 @@ .schema == "audiolat.run/2"
config.backend is sim @@ .config.backend == "sim"
periods were measured @@ .total.periods > 0 and .total.wake_latency_ns.count > 0
system.kernel_release is the guest's @@ .system.kernel_release == $r
system.preempt is the kernel's mode @@ $m == "" or .system.preempt == $m
info @@ "sim: \(.total.periods) periods, realtime \(.realtime), preempt \(.system.preempt)"
EOF
	cp "$W/s.json" /tmp/ref-sim.json
	finish
}

check_devices() {
	need_command devices
	$AL devices >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat devices" 0
	for id in Dummy Loopback; do
		grep -q "hw:CARD=$id" "$W/out" || fail "audiolat devices does not list hw:CARD=$id"
	done
	[ $F -eq 0 ] || sed 's/^/  devices: /' "$W/out" | head -n 30
	$AL devices --json "$W/d.json" >/dev/null 2>"$W/err"
	expect_rc $? "audiolat devices --json" 0
	jcheck "$W/d.json" <<'EOF'
schema audiolat.devices/1 @@ .schema == "audiolat.devices/1"
the JSON names the Dummy PCM @@ [.. | strings | select(test("CARD=Dummy"))] | length > 0
the JSON names both Loopback PCMs @@ [.. | strings | select(test("^hw:CARD=Loopback,DEV=[01]$"))] | unique | length == 2
info @@ [.backends[] | "\(.backend): \(.devices | length)"] | join(", ")
EOF
	finish
}

# VirMIDI has no PCM: it shows where devices lists MIDI ports too
check_devices_midi() {
	need_command devices
	if ! $AL devices --help 2>/dev/null | grep -qi 'midi'; then
		fail "audiolat devices --help names no MIDI ports"
		finish
	fi
	$AL devices >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat devices" 0
	grep -q VirMIDI "$W/out" || fail "audiolat devices does not list VirMIDI"
	[ $F -eq 0 ] || sed 's/^/  devices: /' "$W/out" | head -n 30
	finish
}

# the reference for "the same JSON as everywhere": a sim run in this guest
ref_sim() {
	[ -s /tmp/ref-sim.json ] || al_run -d 200ms -q --json /tmp/ref-sim.json >/dev/null 2>&1
	[ -s /tmp/ref-sim.json ] || fail "no sim run to compare the JSON with"
}

# the assertions every audiolat run document of a real device passes, as
# jcheck lines: $be the backend, $dev the device; $ref[0] the sim run (a
# backend may add keys, never drop one)
# shellcheck disable=SC2016
RUN_CHECKS='schema audiolat.run/2 @@ .schema == "audiolat.run/2"
config.backend is the one asked for @@ .config.backend == $be
config.device is the device asked for @@ .config.device == $dev
periods were measured @@ .total.periods > 0 and .total.wake_latency_ns.count > 0
intervals were measured @@ .total.interval_ns.count > 0 and .total.interval_ns.min > 0
the run ran to its end @@ .duration_ns > 0 and .interrupted == false
the top-level keys of a sim run are all there @@ (($ref[0] | keys) - keys) | if . == [] then true else . end
the keys of total are those of a sim run @@ (($ref[0].total | keys) - (.total | keys)) | if . == [] then true else . end
the keys of config are those of a sim run @@ (($ref[0].config | keys) - (.config | keys)) | if . == [] then true else . end'

check_alsa_playback() {
	need_backend alsa
	ref_sim
	al_run -b alsa -D hw:Dummy -d 1s -q --json "$W/p.json" >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat run -b alsa -D hw:Dummy" 0
	jcheck "$W/p.json" --arg be alsa --arg dev hw:Dummy --slurpfile ref /tmp/ref-sim.json <<EOF
$RUN_CHECKS
info @@ "hw:Dummy playback: \(.total.periods) periods, \(.total.xruns) xruns, realtime \(.realtime)"
EOF
	finish
}

check_alsa_capture() {
	need_backend alsa
	ref_sim
	al_run -b alsa -D hw:Dummy --capture -d 1s -q --json "$W/c.json" >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat run -b alsa -D hw:Dummy --capture" 0
	jcheck "$W/c.json" --arg be alsa --arg dev hw:Dummy --slurpfile ref /tmp/ref-sim.json <<EOF
$RUN_CHECKS
the JSON records the capture direction @@ .cmdline | test("--capture")
info @@ "hw:Dummy capture: \(.total.periods) periods, \(.total.xruns) xruns"
EOF
	finish
}

# stopped for 300 ms: the kernel's pointers run on, the run sees xrun(s)
check_alsa_xrun() {
	need_backend alsa
	stop_xrun alsa hw:Dummy
	finish
}

# snd-aloop's playback side runs on its own timer, with or without a
# capture, in jiffies (4 ms at the guest's HZ=250): a 4 ms buffer of 64-frame
# periods underruns on its own some 70 times a second (audiolat says so:
# 136 xruns in 2 s), so 1024-frame periods as on HDA and USB
check_alsa_loopback_xrun() {
	need_backend alsa
	stop_xrun alsa hw:Loopback,0,0 -P 1024
	finish
}

# (a hog on the guest's one CPU holds the timer interrupt's bottom half too:
# snd-dummy then reports xruns of "at least 0 ms" as it catches up, ZERO_OK)
check_alsa_hog() {
	need_backend alsa
	HOG=1 ZERO_OK=1 stop_xrun alsa hw:Dummy -L 20
	finish
}

# --trace on Debian's kernel, which has hist triggers and synthetic events
# (this VM's has neither): the kernel's own wake-to-run histogram of the
# audio thread beside audiolat's per-wake-up figures, and tracefs as it was
# after the run and after a SIGKILLed one (its leftovers removed by the next)
TS=/sys/kernel/tracing
tracefs_state() { # what a run may add: instances, synthetic events, triggers
	ls "$TS/instances"
	cat "$TS/synthetic_events"
	cat "$TS/events/sched/sched_waking/trigger" "$TS/events/sched/sched_switch/trigger" | grep -v '^#'
}
check_kernel_hist() {
	need_backend alsa
	if ! grep -q " $TS tracefs" /proc/mounts; then
		mount -t tracefs nodev "$TS" || fail "cannot mount tracefs on $TS"
	fi
	[ -f "$TS/synthetic_events" ] || fail "the guest's kernel has no synthetic events"
	tracefs_state >"$W/before" 2>&1
	# 256-frame periods: a wake-up late by under a period still leaves the
	# thread a sleep before the next (with 64 frames under TCG, 1 % of the
	# periods were served without one: no wake-up in the kernel for them)
	al_run -b alsa -D hw:Dummy -P 256 -d 3s --trace --no-histogram --json "$W/k.json" >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat run --trace on hw:Dummy" 0
	jcheck "$W/k.json" <<EOF
the kernel's histogram was made @@ .kernel_wake_to_run.measured == true
it paired wake-ups (hundreds in 3 s) @@ .kernel_wake_to_run.count > 300
its count is ours within 1 % @@ .kernel_wake_to_run | ((.count - .ours_count) | fabs) <= 0.01 * .ours_count
the kernel's table dropped nothing @@ .kernel_wake_to_run.dropped == 0
the maxima within 20 us and the run says they agree, or apart by the p50s' difference within 20 us (the same tail over a constant: a floor a fitted boundary hides, or the timer interrupt and the wait's return, ours only) and the run says they diverge and why @@ .kernel_wake_to_run as \$k | (((\$k.max_ns - \$k.ours_max_ns) | fabs) <= 20000 and \$k.agree == true) or (\$k.agree == false and (((\$k.ours_max_ns - \$k.max_ns) - (\$k.ours_p50_ns - \$k.p50_ns)) | fabs) <= 20000 and (\$k.note | test("fitted|period boundary")))
info @@ "audiolat per wake-up: min \(.total.wake_latency_per_wakeup_ns.min / 1000 | floor) us, p50 \(.total.wake_latency_per_wakeup_ns.p50 / 1000 | floor) us, p99 \(.total.wake_latency_per_wakeup_ns.p99 / 1000 | floor) us; boundary \(.boundary); \(.backend | tostring | .[0:300])"
info @@ .kernel_wake_to_run | "kernel: \(.count) wake-ups, p50 \(.p50_ns / 1000) us, p99 \(.p99_ns / 1000) us, max \(.max_ns / 1000) us; audiolat: \(.ours_count), max \(.ours_max_ns / 1000 | floor) us; \(.note // "agree")"
EOF
	grep -q '^kernel wake-to-run (sched_waking -> sched_switch): [0-9]* wake-ups' "$W/out" ||
		{ fail "the report has no kernel wake-to-run line"; sed 's/^/  out: /' "$W/out" | tail -n 5; }
	tracefs_state >"$W/after" 2>&1
	cmp -s "$W/before" "$W/after" || { fail "tracefs differs after the run:"; diff "$W/before" "$W/after" | sed 's/^/  /'; }
	# killed mid-run: its triggers stay until the next --trace run removes them
	al_run_bg -b alsa -D hw:Dummy -d 20s --trace -q --no-histogram >/dev/null 2>&1 &
	pid=$!
	_i=0
	until grep -q "^audiolat_${pid}" "$TS/synthetic_events" 2>/dev/null; do
		_i=$((_i + 1))
		[ $_i -gt 100 ] && { fail "no synthetic event of pid $pid within 10 s"; break; }
		sleep 0.1
	done
	kill -KILL $pid
	wait $pid
	tracefs_state >"$W/killed" 2>&1
	cmp -s "$W/before" "$W/killed" && fail "a SIGKILLed run left nothing behind (the check cannot see its triggers)"
	al_run -b alsa -D hw:Dummy -d 300ms --trace -q --no-histogram --json "$W/k2.json" >"$W/out2" 2>"$W/err2"
	expect_rc $? "the next audiolat run --trace" 0
	tracefs_state >"$W/after2" 2>&1
	cmp -s "$W/before" "$W/after2" ||
		{ fail "tracefs differs after the run that followed a SIGKILLed one:"; diff "$W/before" "$W/after2" | sed 's/^/  /'; }
	finish
}

# stop_xrun BACKEND DEVICE [RUN OPTIONS]: the truth matrix in the guest
# (docs/truth.md). audiolat run is stopped (SIGSTOP, truth-stall) for a
# random 150..400 ms at a random point (HOG=1: a SCHED_FIFO 90 hog spins
# for a random 80..150 ms instead, the guest's one CPU being the audio
# thread's), and what it reports is held to the fault: one xrun event
# overlapping it, its duration the fault less the queued audio, its lost
# periods, the per-period max and p99 of the fault, the per-wake-up p99
# untouched. Under TCG the kernel notices an xrun at its next period
# interrupt, which a busy host delays: 60 ms of slack on that side.
# ZERO_OK=1: xruns of "at least 0 ms" are allowed besides the fault's (a
# device that reports an xrun before our clock says its audio ran out:
# qemu's HDA, whose DMA catches up in bursts after a restart: trap 10)
stop_xrun() {
	_be=$1 _dev=$2
	shift 2
	_min=1
	[ "${ZERO_OK:-0}" = 1 ] && _min=0
	ref_sim
	case $_dev in
	hw:*) _card=${_dev#hw:} && _card=$(card_index "${_card%%,*}") ;;
	/dev/dsp*) _card=${_dev#/dev/dsp} && _card=${_card:-0} ;;
	esac
	al_run_bg -b "$_be" -D "$_dev" "$@" -d 3s -v --no-histogram --json "$W/x.json" >"$W/out" 2>"$W/err" &
	pid=$!
	# measuring: its stream runs, 0.1 s (4800 frames) of it played
	wait_pcm_running "$_card" p 4800 || sed 's/^/  run: /' "$W/err" | head -n 5
	sleep "0.$((2 + RANDOM % 6))" # the random point: the fault's timing, not a wait
	if [ "${HOG:-0}" = 1 ]; then
		_what="hog"
		# (started with -L 20: the hog and the audio thread's work together stay
		# under the kernel's real-time bandwidth, sched_rt_runtime_us)
		_f=$(truth-hog 0 90 $((80 + RANDOM % 71))) || fail "truth-hog could not run"
		_fault=${_f#*hog_ns=}
	else
		_what="stall"
		_f=$(truth-stall $pid $((150 + RANDOM % 251))) || fail "truth-stall could not stop the run"
		_fault=${_f#*stall_ns=}
	fi
	_fault=${_fault%% *} # truth-stall goes on with stop_mono_ns=
	_at=${_f#*_real_ns=}
	_at=${_at%% *}
	wait $pid
	expect_rc $? "the $_what run" 0
	info "$_what of $((_fault / 1000)) us ($_f)"
	# the fault's events: 20 ms or more, overlapping the fault itself, a
	# period either side (the queued audio runs out inside it: it is over
	# 150 ms, the queue 64 ms at most). Not the fault's end plus the queue
	# and 60 ms: hw:Intel under TCG underran again 53 ms after the stall's
	# own xrun of 279 ms had ended, and that was counted as the fault's.
	# The guest's own xruns near it are listed (info), not judged.
	EV='(.config.period_ns as $p | (.started_at | capture("^(?<s>.*)[.](?<f>[0-9]+)Z$") | ((.s + "Z") | fromdateiso8601) * 1000000000 + ((.f + "000000000")[0:9] | tonumber)) as $s | ($at - $s) as $from | [.xrun_events[] | select(.duration_ns >= 20000000 and .t_ns <= $from + $f + $p and .t_ns + .duration_ns >= $from - $p)])'
	NEAR='((.started_at | capture("^(?<s>.*)[.](?<f>[0-9]+)Z$") | ((.s + "Z") | fromdateiso8601) * 1000000000 + ((.f + "000000000")[0:9] | tonumber)) as $s | ($at - $s) as $from | [.xrun_events[] | select(.duration_ns >= 1000000) | "\((.t_ns - $from) / 1000000 | floor) ms +\(.duration_ns / 1000000 | floor) ms"] | join(", "))'
	jcheck "$W/x.json" --arg be "$_be" --arg dev "$_dev" --argjson min "$_min" --slurpfile ref /tmp/ref-sim.json \
		--argjson f "$_fault" --argjson at "$_at" --argjson slack 60000000 <<EOF
$RUN_CHECKS
the fault's event: one xrun of 20 ms or more overlapping it (TCG adds short ones as it catches up) @@ $EV | length == 1
its duration is the fault less the queued audio (- 1 period - 60 ms .. + 1 period + 60 ms) @@ .config.buffer_ns as \$b | .config.period_ns as \$p | ($EV | .[0].duration_ns) as \$d | \$d >= \$f - \$b - \$p - \$slack and \$d <= \$f + \$p + \$slack
its lost periods are its duration in periods (+-2) @@ .config.period_ns as \$p | ($EV | .[0]) as \$e | (\$e.lost_periods - \$e.duration_ns / \$p) | fabs <= 2
every xrun duration is positive (ZERO_OK: not negative) @@ [.xrun_events[] | select(.duration_ns < \$min)] | if . == [] then true else .[0:3] end
every xrun lies inside the run @@ .duration_ns as \$d | [.xrun_events[] | select(.t_ns < 0 or .t_ns > \$d)] | if . == [] then true else {duration_ns: \$d, outside: .[0:3]} end
per period, the max is at least the fault (- the buffer - 60 ms) @@ .config.buffer_ns as \$b | .config.period_ns as \$p | .total.wake_latency_ns.max >= \$f - \$b - \$p - \$slack
per period, p99 is at least the fault's (its xrun - (k+1) periods) @@ .config.period_ns as \$p | .total.periods as \$n | (\$n - (0.99 * \$n | ceil) + 1) as \$k | ($EV | .[0].duration_ns) as \$top | .total.wake_latency_ns.p99 >= \$top - (\$k + 1) * \$p - 0.02 * \$top
per wake-up, p99 (p90 under 300 wake-ups: 1 % of them is the fault's own) stays below half of it @@ (if .total.wakeups >= 300 then .total.wake_latency_per_wakeup_ns.p99 else .total.wake_latency_per_wakeup_ns.p90 end) < \$f / 2
info @@ "windows [t ms, periods, mean us, wake-ups]: " + ([.timeseries.rows[] | select(.[1] > 0) | "\(.[0] / 1000000) \(.[1]) \((.[3] // 0) / 1000 | floor) \(.[8])"] | .[0:40] | join(", "))
info @@ "truth-record: guest-$_be-$_dev $_what truth_us=\(\$f / 1000 | floor) queued_us=\(.config.buffer_ns / 1000 | floor) period_us=\(.config.period_ns / 1000 | floor) events=\($EV | length) event_us=\($EV | .[0].duration_ns // null | if . == null then "null" else (. / 1000 | floor | tostring) end) lost=\($EV | .[0].lost_periods // "null") missed=\(.total.missed_periods) max_us=\(.total.wake_latency_ns.max / 1000 | floor) p99_us=\(.total.wake_latency_ns.p99 / 1000 | floor) p99w_us=\(.total.wake_latency_per_wakeup_ns.p99 / 1000 | floor)"
info @@ "xruns of 1 ms or more, from the fault's start (it lasted \(\$f / 1000000 | floor) ms): " + $NEAR
info @@ "$_dev: \(.total.xruns) xruns, the longest: " + ([.xrun_events[].duration_ns] | sort | reverse | .[0:3] | map("\(. / 1000 | floor / 1000) ms") | join(", ")) + "; per period max \(.total.wake_latency_ns.max / 1000 | floor / 1000) ms, p99 \(.total.wake_latency_ns.p99 / 1000 | floor / 1000) ms; \(.backend.xrun_durations)"
EOF
	grep -q 'underrun!!! (at least [0-9.]* ms long)' "$W/out" || fail "-v printed no aplay-style underrun line"
}

# snd-aloop: playback on hw:Loopback,0,0 while capture runs on hw:Loopback,1,0
check_alsa_loopback() {
	need_backend alsa
	ref_sim
	al_run_bg -b alsa -D hw:Loopback,1,0 --capture -d 3s -q --json "$W/c.json" >"$W/cout" 2>"$W/cerr" &
	cpid=$!
	# (aloop's capture pointer stands still until something plays into it)
	wait_pcm_running "$(card_index Loopback)" c 0
	al_run -b alsa -D hw:Loopback,0,0 -d 1s -q --json "$W/p.json" >"$W/out" 2>"$W/err"
	expect_rc $? "playback on hw:Loopback,0,0" 0
	wait $cpid
	crc=$?
	cp "$W/cerr" "$W/err"
	expect_rc $crc "capture on hw:Loopback,1,0" 0
	jcheck "$W/p.json" --arg be alsa --arg dev hw:Loopback,0,0 --slurpfile ref /tmp/ref-sim.json <<EOF
$RUN_CHECKS
info @@ "playback: \(.total.periods) periods"
EOF
	jcheck "$W/c.json" --arg be alsa --arg dev hw:Loopback,1,0 --slurpfile ref /tmp/ref-sim.json <<EOF
$RUN_CHECKS
info @@ "capture: \(.total.periods) periods"
EOF
	finish
}

# a PCM another program holds: exit 4 and one line saying it is in use.
# aplay holds hw:Dummy,0,0; the subdevice is named (hw:Dummy alone would
# take another of the card's 8 free ones), and audiolat asks for the same
check_alsa_busy() {
	need_backend alsa
	d=$(card_index Dummy)
	st=/proc/asound/card$d/pcm0p/sub0/status
	aplay -q -D hw:Dummy,0,0 -t raw -f S16_LE -c 2 -r 48000 /dev/zero 2>"$W/aplay.err" &
	apid=$!
	_i=0
	until grep -q '^state: RUNNING' "$st" 2>/dev/null; do
		_i=$((_i + 1))
		if [ $_i -gt 100 ] || ! kill -0 $apid 2>/dev/null; then
			fail "aplay does not play on hw:Dummy,0,0 ($st: $(head -n 1 "$st" 2>/dev/null))"
			sed 's/^/  aplay: /' "$W/aplay.err"
			kill $apid 2>/dev/null
			finish
		fi
		sleep 0.1
	done
	al_run -b alsa -D hw:Dummy,0,0 -d 1s -q >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat run on hw:Dummy,0,0 while aplay plays on it" 4
	grep -q '^audiolat run: .*in use by another program' "$W/err" ||
		{ fail "no line says the device is in use:"; sed 's/^/  stderr: /' "$W/err"; }
	[ "$(wc -l <"$W/err")" -eq 1 ] || fail "$(wc -l <"$W/err") lines on stderr, not one"
	kill -INT $apid
	wait $apid
	# free again: the same device plays
	al_run -b alsa -D hw:Dummy,0,0 -d 300ms -q --json "$W/free.json" >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat run on hw:Dummy,0,0 once aplay let it go" 0
	finish
}

# 4 periods: with 2, snd-aloop's 4 ms (jiffies) timer under TCG leaves the
# playback side no time to refill (xruns, no reading)
roundtrip_once() { # JSON
	$AL roundtrip -b alsa -D hw:Loopback,0,0 --capture-device hw:Loopback,1,0 -P 256 -n 4 \
		-d 2s --json "$1" >"$W/out" 2>"$W/err"
}

# snd-aloop copies what is played into the capture buffer: with the two
# streams linked, the loop delays by exactly the playback buffer, every run
check_roundtrip() {
	need_backend alsa
	need_command roundtrip
	roundtrip_once "$W/r1.json"
	expect_rc $? "audiolat roundtrip (1st)" 0
	roundtrip_once "$W/r2.json"
	expect_rc $? "audiolat roundtrip (2nd)" 0
	jcheck "$W/r2.json" <<'EOF'
2nd run: schema audiolat.roundtrip/1 @@ .schema == "audiolat.roundtrip/1"
2nd run: a valid, non-inverted reading @@ .valid == true and .inverted == false
EOF
	jcheck "$W/r1.json" --slurpfile b "$W/r2.json" <<'EOF'
schema audiolat.roundtrip/1 @@ .schema == "audiolat.roundtrip/1"
a valid, non-inverted reading @@ .valid == true and .inverted == false
the streams were linked @@ .linked == true
the delay is the playback buffer, 4 x 256 frames (to 0.01 frame) @@ (.delay_frames - 1024) | fabs < 0.01
the delay is the same in both runs (to 0.01 frame) @@ (.delay_frames - $b[0].delay_frames) | fabs < 0.01
the readings agree (stddev under 0.01 frame) @@ .stddev_frames < 0.01
info @@ "delay \(.delay_frames) frames (\(.delay_ms) ms), stddev \(.stddev_frames), extra \(.extra_frames); 2nd run \($b[0].delay_frames) frames"
EOF
	finish
}

# wait until the sequencer port NAME has a subscriber reading from it
wait_seq_reader() {
	_i=0
	while [ $_i -lt 100 ]; do
		awk -v name="\"$1\"" '
			/^Client/ || /^  Port/ { p = 0 }
			/^  Port/ && index($0, name) { p = 1 }
			p && /Connecting To/ { f = 1 }
			END { exit !f }' /proc/asound/seq/clients && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	fail "nobody subscribed to the sequencer port $1 within 10 s"
	return 1
}

# the recorder ran until interrupted: give the last message time to arrive,
# then SIGINT (a clean end: the JSON is written, exit 0)
stop_recorder() { # PID
	sleep 0.5
	kill -INT "$1"
	wait "$1"
}

# midi send's count of messages from its summary line (sent=N)
sent_count() {
	sed -n 's/^summary: .* sent=\([0-9]*\) .*/\1/p' "$1" | head -n 1
}

# record JSON against send's count: every message sent arrived
midi_record_checks() { # JSON SENT
	jcheck "$1" --argjson sent "${2:-0}" <<'EOF'
schema audiolat.midi/1 @@ .schema == "audiolat.midi/1"
the sender sent something @@ $sent > 0
every message sent arrived @@ .source.received == $sent
every message sent was analysed (--events all) @@ .events == $sent
info @@ "sent \($sent), received \(.source.received), time stamps: \(.source.timestamp_source)"
EOF
}

# rawmidi with framing time stamps, fed through the sequencer at 10 Hz:
# sequencer events to VirMIDI's port come out of its rawmidi input
check_midi_rawmidi() {
	need_midi record send
	v=$(card_index VirMIDI)
	port=$(seq_port "VirMIDI $v-0")
	al_record_bg --api rawmidi --port "hw:$v,0" --events all -d 15s -o "$W/r.mid" \
		--json "$W/r.json" -q >"$W/rout" 2>"$W/rerr" &
	rpid=$!
	# trap 2: virmidi drops sequencer events until its input was polled or read
	wait_rawmidi_input "$v" 0
	sleep 0.3
	# 1525 ms: the end falls between two messages, not on one
	$AL midi send --api seq --port "$port" --rate 10 -d 1525ms >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat midi send --api seq --port $port" 0
	sent=$(sent_count "$W/out")
	stop_recorder $rpid
	rrc=$?
	cp "$W/rerr" "$W/err"
	expect_rc $rrc "audiolat midi record --api rawmidi" 0
	midi_record_checks "$W/r.json" "$sent"
	# framing, not read time: the kernel stamped each message (trap 1)
	jcheck "$W/r.json" <<'EOF'
the JSON says the kernel's framing time stamps were used @@ .source.timestamp_source == "rawmidi-framing-monotonic"
EOF
	[ -s "$W/r.mid" ] || fail "no MIDI file written (-o)"
	finish
}

# seq: rawmidi writes into a virmidi device come out of its sequencer port
check_midi_seq() {
	need_midi record send
	v=$(card_index VirMIDI)
	port=$(seq_port "VirMIDI $v-0")
	al_record_bg --api seq --port "$port" --events all -d 15s --json "$W/r.json" -q \
		>"$W/rout" 2>"$W/rerr" &
	rpid=$!
	wait_seq_reader "VirMIDI $v-0"
	sleep 0.3
	$AL midi send --api rawmidi --port "hw:$v,0" --rate 10 -d 1525ms >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat midi send --api rawmidi --port hw:$v,0" 0
	sent=$(sent_count "$W/out")
	stop_recorder $rpid
	rrc=$?
	cp "$W/rerr" "$W/err"
	expect_rc $rrc "audiolat midi record --api seq" 0
	midi_record_checks "$W/r.json" "$sent"
	finish
}

# a loop through two virmidi devices connected in the sequencer: rawmidi
# out of VirMIDI-0 -> its seq port -> VirMIDI-1's seq port -> its rawmidi in
check_midi_loop() {
	need_midi loop
	v=$(card_index VirMIDI)
	a=$(seq_port "VirMIDI $v-0")
	b=$(seq_port "VirMIDI $v-1")
	aconnect "$a" "$b" 2>"$W/err"
	expect_rc $? "aconnect $a $b" 0
	# --gap: a probe every few ms, not thousands a second (the results
	# would overflow audiolat's buffer whenever TCG stalls the reader)
	al_loop --api rawmidi --out "hw:$v,0" --in "hw:$v,1" --gap 5ms -d 2s --json "$W/l.json" -q \
		>"$W/out" 2>"$W/err"
	expect_rc $? "audiolat midi loop --api rawmidi" 0
	aconnect -d "$a" "$b"
	jcheck "$W/l.json" <<'EOF'
schema audiolat.midi-loop/1 @@ .schema == "audiolat.midi-loop/1"
probes came round the loop @@ .sent > 0 and .echoed > 0
no probe was lost (trap 2: the input polled before the first probe) @@ .lost == 0
every probe is accounted for: echoed, lost or dropped (one may be in flight at the end) @@ .sent - .echoed - .lost - .source.dropped <= 1
nothing unexpected came in @@ .unexpected == 0
info @@ "sent \(.sent), echoed \(.echoed), lost \(.lost), dropped \(.source.dropped)"
EOF
	finish
}

# seed 002's setup: a 10 Hz note stream into a virmidi device, recorded by
# arecordmidi from its sequencer port; midi analyze reads the file
check_midi_analyze() {
	need_midi analyze send
	v=$(card_index VirMIDI)
	port=$(seq_port "VirMIDI $v-0")
	arecordmidi -p "$port" "$W/a.mid" 2>"$W/err" &
	apid=$!
	wait_seq_reader "VirMIDI $v-0"
	# 11 note-ons (0 to 1 s) and 10 note-offs; the end between two messages
	$AL midi send --api rawmidi --port "hw:$v,0" --rate 10 -d 1025ms >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat midi send --api rawmidi --port hw:$v,0" 0
	sent=$(sent_count "$W/out")
	sleep 0.3
	kill -INT $apid
	wait $apid
	[ -s "$W/a.mid" ] || fail "arecordmidi wrote no file"
	$AL midi analyze "$W/a.mid" --json "$W/a.json" >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat midi analyze" 0
	jcheck "$W/a.json" --argjson sent "${sent:-0}" <<'EOF'
schema audiolat.midi/1 @@ .schema == "audiolat.midi/1"
the sender sent note-ons and note-offs @@ $sent > 1
every note-on sent is in the file @@ .events == (($sent + 1) / 2 | floor)
every message sent is in the file @@ .source.file_events >= $sent
the file's resolution is given (arecordmidi: 384 ticks a quarter at 120 bpm) @@ .tick_ns == 1302083
info @@ "sent \($sent) messages; \(.events) note-ons in the file, median delta \(.interval_ns / 1e6) ms, tick \(.tick_ns) ns"
EOF
	finish
}

# --- qemu's emulated sound hardware: ich9-intel-hda + hda-duplex
# (snd-hda-intel, generic codec), qemu-xhci + usb-audio (snd-usb-audio,
# enumerated a moment after the driver loads) and ALSA's OSS emulation
# (snd-pcm-oss: /dev/dspN for card N, /dev/dsp for card 0)

# wait_card ID: up to 10 s for the card to appear (USB enumerates late)
wait_card() {
	_i=0
	while [ -z "$(card_index "$1")" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -n "$(card_index "$1")" ]
}

# the OSS device of card ID
dsp_of() {
	_c=$(card_index "$1")
	[ -n "$_c" ] || return 1
	if [ "$_c" = 0 ]; then echo /dev/dsp; else echo "/dev/dsp$_c"; fi
}

# need_hw ID...: skip when there is no such card (a qemu without the device)
need_hw() {
	for _id in "$@"; do
		wait_card "$_id" || skip "no $_id card: qemu did not emulate it (the drivers_hw check says why)"
	done
}

check_drivers_hw() {
	grep -E 'snd-hda-intel|snd-hda-codec-generic|xhci-pci|snd-usb-audio|snd-pcm-oss' /tmp/modprobe.log |
		sed 's/^/  modprobe: /'
	grep -q failed /tmp/modprobe.log && fail "a driver did not load"
	# /init reloads snd-hda-intel when qemu's codec answered its probe too late
	grep 'reloading$' /tmp/modprobe.log | sed 's/^/INFO: /'
	wait_card Intel || fail "no HDA card (Intel) in /proc/asound/cards: snd-hda-intel found no controller"
	wait_card Audio || fail "no USB audio card (Audio) within 10 s: snd-usb-audio found no device"
	[ $F -eq 0 ] || sed 's/^/  cards: /' /proc/asound/cards
	i=$(card_index Intel) u=$(card_index Audio)
	if [ -n "$i" ]; then
		grep -q "^ *$i \[Intel *\]: HDA-Intel" /proc/asound/cards || fail "card $i is not driven by snd-hda-intel"
		[ -c "$(dsp_of Intel)" ] || fail "no OSS device $(dsp_of Intel) for the HDA card (snd-pcm-oss)"
		[ -e "/proc/asound/card$i/pcm0p" ] || fail "the HDA card has no playback PCM"
	fi
	if [ -n "$u" ]; then
		grep -q "^ *$u \[Audio *\]: USB-Audio" /proc/asound/cards || fail "card $u is not driven by snd-usb-audio"
		grep -q 'Playback' "/proc/asound/card$u/stream0" 2>/dev/null || fail "the USB audio card has no playback stream"
	fi
	info "HDA card $i ($(sed -n 's/^name: //p' "/proc/asound/card$i/pcm0p/sub0/info" 2>/dev/null)), USB audio card $u ($(head -n 1 "/proc/asound/card$u/stream0" 2>/dev/null)), OSS device $(dsp_of Intel)"
	finish
}

check_devices_hw() {
	need_command devices
	need_hw Intel Audio
	dsp=$(dsp_of Intel)
	$AL devices >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat devices" 0
	for id in Intel Audio; do
		grep -q "hw:CARD=$id" "$W/out" || fail "audiolat devices does not list hw:CARD=$id"
	done
	grep -q "^  $dsp " "$W/out" || fail "audiolat devices does not list $dsp under oss"
	[ $F -eq 0 ] || sed 's/^/  devices: /' "$W/out" | head -n 60
	$AL devices -b oss --json "$W/d.json" >/dev/null 2>"$W/err"
	expect_rc $? "audiolat devices -b oss --json" 0
	jcheck "$W/d.json" --arg dsp "$dsp" <<'EOF'
the oss backend is available @@ [.backends[] | select(.backend == "oss") | .available] == [true]
it lists the HDA card's OSS device @@ [.backends[].devices[] | select(.kind == "oss-dsp" and .name == $dsp)] | length == 1
the OSS device names its ALSA card @@ [.backends[].devices[] | select(.name == $dsp) | .description | test("Intel")] == [true]
info @@ [.backends[].devices[] | "\(.name): \(.description)"] | join("; ")
EOF
	finish
}

# run_hw BACKEND DEVICE [RUN OPTIONS]: a 2 s run with the checks of every real device
run_hw() {
	_be=$1 _dev=$2
	shift 2
	ref_sim
	al_run -b "$_be" -D "$_dev" "$@" -d 2s -q --json "$W/p.json" >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat run -b $_be -D $_dev $*" 0
}

# alsa_hw ID DRIVER: a 2 s run on hw:ID, 16-bit stereo at 48 kHz
alsa_hw() {
	need_backend alsa
	need_hw "$1"
	run_hw alsa "hw:$1" -P 1024
	jcheck "$W/p.json" --arg be alsa --arg dev "hw:$1" --slurpfile ref /tmp/ref-sim.json <<EOF
$RUN_CHECKS
the card plays 16-bit stereo at 48 kHz @@ .config.format == "S16_LE" and .config.channels == 2 and .config.rate == 48000
info @@ "hw:$1 ($2): \(.total.periods) periods of \(.config.period_frames) frames, \(.total.xruns) xruns; \(.backend.clock)"
EOF
	finish
}

check_alsa_hda() { alsa_hw Intel snd-hda-intel; }
check_alsa_usb() { alsa_hw Audio snd-usb-audio; }

check_alsa_hda_xrun() {
	need_backend alsa
	need_hw Intel
	ZERO_OK=1 stop_xrun alsa hw:Intel -P 1024
	finish
}

check_alsa_usb_xrun() {
	need_backend alsa
	need_hw Audio
	stop_xrun alsa hw:Audio -P 1024
	finish
}

# latencytest's "3x256": 3 fragments of 256 bytes; the emulation may give
# more (--nearest takes it, and the JSON keeps both)
check_oss_hda() {
	need_backend oss
	need_hw Intel
	dsp=$(dsp_of Intel)
	run_hw oss "$dsp" --fragments 3x256 --nearest
	jcheck "$W/p.json" --arg be oss --arg dev "$dsp" --slurpfile ref /tmp/ref-sim.json <<EOF
$RUN_CHECKS
3x256 was asked: 3 periods of 64 frames @@ .config.requested_periods == 3 and .config.requested_period_frames == 64
the fragments are a power of two bytes of 16-bit stereo @@ .config.format == "S16_LE" and .config.channels == 2 and ((.config.period_frames * 4) as \$b | [range(4; 25) | pow(2; .)] | index(\$b) != null)
the driver's answer is recorded @@ .backend.detail | test("OSS playback, blocking writes, S16_LE, 2 ch, [0-9]+ Hz, [0-9]+ x [0-9]+ bytes")
boundaries come from the fill level (no stamps) @@ .backend.clock | startswith("no device stamps (OSS)")
info @@ "\(.backend.detail); \(.total.periods) periods, \(.total.xruns) xruns; \(.backend.clock)"
EOF
	# what OSS cannot do is refused before the device is touched
	al_run -b oss -D "$dsp" --capture -d 1s -q >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat run -b oss --capture" 2
	grep -q -- '--capture: not with the oss backend' "$W/err" || fail "--capture with oss said: $(cat "$W/err")"
	finish
}

check_oss_hda_xrun() {
	need_backend oss
	need_hw Intel
	ZERO_OK=1 stop_xrun oss "$(dsp_of Intel)" -P 1024 --nearest
	finish
}

# seed 000: the same card through ALSA and through the OSS emulation, one
# table. The OSS device goes first; ALSA is asked for what OSS was given.
check_compare_alsa_oss() {
	need_backend oss
	need_backend alsa
	need_command compare
	need_hw Intel
	dsp=$(dsp_of Intel)
	al_run -b oss -D "$dsp" --fragments 3x256 --nearest -d 3s -q --label OSS --json "$W/o.json" >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat run -b oss -D $dsp" 0 || finish
	P=$(jq .config.period_frames "$W/o.json") N=$(jq .config.periods "$W/o.json")
	al_run -b alsa -D hw:Intel -P "$P" -n "$N" -d 3s -q --label ALSA --json "$W/a.json" >"$W/out" 2>"$W/err"
	expect_rc $? "audiolat run -b alsa -D hw:Intel -P $P -n $N" 0 || finish
	$AL compare "$W/a.json" "$W/o.json" >"$W/cmp" 2>"$W/err"
	expect_rc $? "audiolat compare ALSA OSS" 0
	grep -q 'max latency *% of buffer *1MS factor *2MS factor' "$W/cmp" ||
		fail "no seed-000 table (max latency, % of buffer, 1MS and 2MS factor)"
	grep -Eq '^A +ALSA +[0-9.]+ [mu]?s +[0-9.]+ %' "$W/cmp" || fail "no ALSA row in the table"
	grep -Eq '^B +OSS +[0-9.]+ [mu]?s +[0-9.]+ %' "$W/cmp" || fail "no OSS row in the table"
	grep -q "(oss, 48000 Hz, $N x $P frames" "$W/cmp" || fail "the table does not name the OSS configuration"
	grep -q "(alsa, 48000 Hz, $N x $P frames" "$W/cmp" || fail "the table does not name the ALSA configuration"
	[ $F -eq 0 ] || sed 's/^/  compare: /' "$W/cmp"
	$AL compare --json "$W/c.json" "$W/a.json" "$W/o.json" >/dev/null 2>"$W/err"
	expect_rc $? "audiolat compare --json" 0
	jcheck "$W/c.json" <<'EOF'
the labels are the rows @@ [.results[].label] == ["ALSA", "OSS"]
the backends are recorded @@ [.results[].backend] == ["alsa", "oss"]
the whole run has a row per result @@ (.scopes[0].rows | length) == 2 and ([.scopes[0].rows[].max_interval_pct_of_buffer | type] == ["number", "number"])
EOF
	sed -n '/max latency/,/^$/p' "$W/cmp" | sed 's/^/INFO: /'
	finish
}

# --- NAME TIMEOUT_S DESCRIPTION, in the order they run ------------------
list() {
	cat <<'EOF'
drivers 20 the guest kernel has the Dummy, Loopback and VirMIDI cards, the sequencer and Midi Through
aloop_crosscheck 20 alsa-utils: a byte pattern played into hw:Loopback,0,0 comes back on hw:Loopback,1,0
virmidi_crosscheck 20 alsa-utils: amidi into a VirMIDI device reaches its sequencer port (aseqdump)
check 30 audiolat check on the guest kernel: exit 0 or 3, valid JSON, the preempt model read
run_sim 20 audiolat run -b sim in the guest (baseline)
devices 20 audiolat devices lists the Dummy and Loopback PCMs
devices_midi 20 audiolat devices lists the VirMIDI ports
alsa_playback 20 audiolat run -b alsa -D hw:Dummy: periods measured, the same JSON as sim
alsa_capture 20 audiolat run -b alsa -D hw:Dummy --capture: periods measured, the same JSON as sim
alsa_xrun 30 truth: audiolat run -b alsa -D hw:Dummy stopped for 150..400 ms: one xrun of the stall, per-period figures of it
kernel_hist 60 audiolat run -b alsa -D hw:Dummy --trace: the kernel's own wake-to-run histogram (hist triggers) beside ours, counts within 1 %, maxima within 20 us or the divergence said and explained; tracefs as it was, after a SIGKILL too
alsa_hog 30 truth: audiolat run -b alsa -D hw:Dummy under a SCHED_FIFO hog of 80..150 ms: one xrun of it
alsa_loopback 20 audiolat run -b alsa: playback on hw:Loopback,0,0 while capture runs on hw:Loopback,1,0
alsa_loopback_xrun 45 truth: audiolat run -b alsa -D hw:Loopback,0,0 stopped for 150..400 ms: one xrun of the stall, per-period figures of it
alsa_busy 20 audiolat run -b alsa -D hw:Dummy,0,0 while aplay plays on it: exit 4, one line saying it is in use
roundtrip 30 audiolat roundtrip -b alsa hw:Loopback,0,0 -> hw:Loopback,1,0: the delay is the buffer, the same in two runs
midi_rawmidi 20 audiolat midi record --api rawmidi on VirMIDI (framing stamps) fed by midi send through the sequencer at 10 Hz
midi_seq 20 audiolat midi record --api seq on a VirMIDI sequencer port fed by midi send --api rawmidi
midi_loop 20 audiolat midi loop through two VirMIDI devices connected in the sequencer (aconnect)
midi_analyze 20 audiolat midi analyze on a file arecordmidi recorded from VirMIDI, fed by midi send at 10 Hz
drivers_hw 30 qemu's HDA (snd-hda-intel) and USB audio (snd-usb-audio) cards and the OSS emulation (snd-pcm-oss)
devices_hw 20 audiolat devices lists the HDA and USB audio PCMs and the HDA card's /dev/dsp
alsa_hda 20 audiolat run -b alsa -D hw:Intel (snd-hda-intel): periods measured, the same JSON as sim
alsa_usb 20 audiolat run -b alsa -D hw:Audio (snd-usb-audio, seed 004's driver): periods measured, the same JSON as sim
alsa_hda_xrun 30 truth: audiolat run -b alsa -D hw:Intel stopped for 150..400 ms: one xrun of the stall, per-period figures of it
alsa_usb_xrun 30 truth: audiolat run -b alsa -D hw:Audio stopped for 150..400 ms: one xrun of the stall, per-period figures of it
oss_hda 20 audiolat run -b oss on the HDA card's /dev/dsp with latencytest's 3x256 fragments
oss_hda_xrun 30 truth: audiolat run -b oss on the HDA card's /dev/dsp stopped for 150..400 ms: the underrun found without stamps
compare_alsa_oss 40 audiolat compare of ALSA and OSS runs on the HDA card: seed 000's table
EOF
}

case ${1:-} in
--list) list ;;
'') echo "usage: checks.sh NAME | --list" >&2; exit 2 ;;
*)
	name=$1
	list | grep -q "^$name " || { echo "FAIL: no check $name"; exit 1; }
	W=/tmp/w-$name
	mkdir -p "$W"
	cd "$W" || exit 1
	"check_$name"
	;;
esac
