#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The flight recorder (src/trace) on this kernel, through the harness
# trace-victim (tests/trace/trace-victim.c): a SCHED_FIFO thread delayed on
# purpose is explained; the instance is removed on every exit path, and a
# killed process's instance by the next open; without root or tracefs, one
# line and exit 4. Asserts what was detected, never a speed.
# usage: trace.sh TRACE_VICTIM
. "$(dirname "$0")/../lib.sh"
V=${1:?usage: trace.sh TRACE_VICTIM}
TR=/sys/kernel/tracing

[ "$(id -u)" -eq 0 ] || t_skip_all "not root (ftrace instances need root)"
grep -qw tracefs /proc/filesystems || t_skip_all "the kernel has no tracefs"
command -v jq >/dev/null || t_skip_all "jq missing"
CPU=$(($(nproc) > 1 ? 1 : 0))
# tracefs as the machine had it: unmounted again at the end when it was
# not mounted before (audiolat never leaves a mount: checked below)
mountpoint -q "$TR" && TR_WAS_MOUNTED=1 || TR_WAS_MOUNTED=
trap '[ -n "$TR_WAS_MOUNTED" ] || ! mountpoint -q "$TR" || umount "$TR"; rm -rf "$T_TMP"' EXIT
# the checks look at the instances through the machine's mount: one for
# the test when the machine has none (audiolat's own is seen by no one)
[ -n "$TR_WAS_MOUNTED" ] || mount -t tracefs nodev "$TR" || t_bail "cannot mount tracefs on $TR"

# t_no_instances DESC: no audiolat-* instance is left (the harness creates only these)
t_no_instances() {
	local left=""
	mountpoint -q "$TR" && left=$(trace_leaks "$TR" | tr '\n' ' ')
	[ -z "$left" ] || echo "# left behind: $left"
	t_result "$([ -z "$left" ] && echo 0 || echo 1)" "$1"
}

# tr_state: what a run must leave as it found it: tracefs's mounts, its
# instances, the top level's settings (none of them ours to change)
tr_state() {
	local f
	grep -w tracefs /proc/mounts | cut -d' ' -f2,3
	mountpoint -q "$TR" || return 0
	ls "$TR/instances"
	for f in tracing_on current_tracer trace_clock buffer_size_kb set_event trace_options \
		tracing_cpumask set_event_pid set_ftrace_pid; do
		[ -r "$TR/$f" ] && echo "$f: $(md5sum <"$TR/$f")"
	done
}

# spikes FILE: the spikes' top causes, as TAP comments
spikes() {
	jq -r '.spikes[] | "# spike at \(.t_ns) ns, \(.latency_ns) ns late: " +
		([.causes[]? | "\(.kind) \(.name) \(.duration_ns)"][:3] | join(", "))' "$1"
}

# --- a higher-priority thread holds the CPU for 12 ms ---------------------
# (12 ms, not 5: a VM's host wakes an idle vCPU up to 3.8 ms late, seen in
# CI and here; the fault must stand above the noise it lands in)
J=$T_TMP/hog.json
t_exit 0 "hog: the harness runs" "$V" -c "$CPU" -m hog -d 2500 -a 1000 -H 12 -t 1000 -n 16
cp "$OUT" "$J"
t_json "hog: the late wake-up was explained" '.spikes | length >= 1' "$J"
# the spike the hog caused (its end inside the window; a VM's host may add
# others): al-hog on top, with about the 12 ms it ran (wide margin)
W='(.hog.end_ns as $e | [.spikes[] | select(.t_ns <= $e and $e <= .t_ns + .latency_ns)][0])'
t_json "hog: the hog's spike was explained" "$W != null" "$J" 
t_json "hog: al-hog is the top cause" "$W.causes[0] | .kind == \"task\" and .name == \"al-hog\"" "$J"
t_json "hog: for 6..24 ms" "$W.causes[0].duration_ns | . >= 6000000 and . <= 24000000" "$J"
t_json "hog: most of the latency" "$W.causes[0].pct >= 50" "$J"
t_json "hog: the cause matches what the hog measured (+-50 %)" \
	"(.hog.end_ns - $W.t_ns) as \$want | $W.causes[0].duration_ns | . >= 0.5 * \$want and . <= 1.5 * \$want" "$J"
# (woken: the timer's wake-up, late by what the host adds to an idle vCPU)
t_json "hog: woken near the boundary (5 ms), switched in when the hog ended (1 ms)" \
	"(.hog.end_ns - $W.t_ns) as \$hend | $W | .woken_ns >= 0 and .woken_ns < 5000000 and .switched_in_ns >= \$hend - 1000000 and .switched_in_ns <= .latency_ns" "$J"
t_json "hog: every cause is a known kind with a name" \
	'[.spikes[].causes[] | (.kind | IN("task","irq","softirq","timer","idle","irqoff","preemptoff","self","other")) and (.name | length > 0)] as $c | ($c | length) > 0 and ($c | all)' "$J"
t_json "hog, base set (not armed): no timer callback and no vector interrupt is named" \
	'[.spikes[].causes[] | select(.kind == "timer" or (.kind == "irq" and .name == "local_timer"))] | length == 0' "$J"
spikes "$J"
t_no_instances "hog: no instance left"

# --- the same hog, the victim followed (its own wake-up filtered out) as run --trace does
J=$T_TMP/hog-followed.json
t_exit 0 "followed: the harness runs" "$V" -c "$CPU" -m hog -d 2500 -a 1000 -H 12 -t 1000 -n 16 -F
cp "$OUT" "$J"
t_json "followed: the hog's spike was explained" "$W != null" "$J"
t_json "followed: al-hog is the top cause" "$W.causes[0] | .kind == \"task\" and .name == \"al-hog\"" "$J"
t_json "followed: for about what the hog measured (+-50 %)" \
	"(.hog.end_ns - $W.t_ns) as \$want | $W.causes[0].duration_ns | . >= 0.5 * \$want and . <= 1.5 * \$want" "$J"
t_json "followed: the switch from the hog is kept, the victim's own waking is not" \
	"(.hog.end_ns - $W.t_ns) as \$hend | $W | .switched_in_ns >= \$hend - 1000000 and .woken_ns == -1" "$J"
spikes "$J"
t_no_instances "followed: no instance left"

# --- the same hog with the rich events armed -------------------------------
# (from available_events: a full make test once found no
# events/timer/hrtimer_expire_entry directory on a kernel that has it,
# 6.18's eventfs making them on lookup, and skipped for a reason untrue;
# on a machine that had not mounted tracefs, audiolat mounts it only while
# it traces, and the list was not there either: read it from a mount of
# our own then, in a namespace of its own; no list at all is a failure)
events=$(if mountpoint -q "$TR"; then cat "$TR/available_events"; else
	unshare -m --propagation private sh -c "mount -t tracefs nodev $TR && cat $TR/available_events"; fi 2>/dev/null)
if [ -z "$events" ]; then
	t_result 1 "armed: the kernel's trace events are listed ($TR/available_events)"
elif grep -qxE 'timer:hrtimer_expire_entry|irq_vectors:local_timer_entry' <<<"$events"; then
	J=$T_TMP/hog-armed.json
	t_exit 0 "armed: the harness runs" "$V" -c "$CPU" -m hog -d 2500 -a 1000 -H 12 -t 1000 -n 16 -A
	cp "$OUT" "$J"
	t_json "armed: al-hog is the top cause" "$W.causes[0] | .kind == \"task\" and .name == \"al-hog\"" "$J"
	# the victim's own timer fires while the hog holds the CPU (and the tick interrupts it)
	t_json "armed: a timer callback or the timer vector is named too" \
		"[$W.causes[] | select(.kind == \"timer\" or (.kind == \"irq\" and .name == \"local_timer\"))] | length >= 1" "$J"
	spikes "$J"
	t_no_instances "armed: no instance left"
else
	t_skip "armed: timer callbacks named" "the kernel has neither timer:hrtimer_expire_entry nor irq_vectors:local_timer_entry"
fi

# --- NET_RX softirqs from UDP over loopback on the CPU ---------------------
J=$T_TMP/softirq.json
net_rx() { awk -v c=$((CPU + 2)) '$1 == "NET_RX:" { print $c }' /proc/softirqs; }
before=$(net_rx)
t_exit 0 "softirq: the harness runs" "$V" -c "$CPU" -m softirq -d 2000 -t 20 -n 32 -b 8192
cp "$OUT" "$J"
after=$(net_rx)
# the load planted the softirqs and the late wake-ups: none seen is a
# failure of the test, never a skip
t_result $([ $((after - before)) -ge 1000 ] && echo 0 || echo 1) \
	"softirq: the UDP load raised >= 1000 NET_RX softirqs on CPU $CPU (got $((after - before)))"
t_json "softirq: a wake-up later than 20 us was seen under the UDP load" '.spikes | length >= 1' "$J"
t_json "softirq: NET_RX is named as a cause" \
	'[.spikes[].causes[] | select(.kind == "softirq" and (.name == "NET_RX" or .name == "NET_TX"))] | length >= 1' "$J"
echo "# NET_RX the top cause of $(jq '[.spikes[] | select(.causes[0].name == "NET_RX")] | length' "$J") of $(jq '.spikes | length' "$J") spikes"
t_json "softirq: the UDP threads are named" \
	'[.spikes[].causes[] | select(.kind == "task" and (.name | startswith("al-udp")))] | length >= 1' "$J"
t_no_instances "softirq: no instance left"

# --- SIGINT and SIGTERM: the instance goes ---------------------------------
for sig in INT TERM; do
	"$V" -c "$CPU" -m hold >"$T_TMP/hold" 2>"$ERR" &
	pid=$!
	wait_until 5 "trace-victim to print its instance's name" test -s "$T_TMP/hold"
	name=$(head -n 1 "$T_TMP/hold")
	t_result "$([ "$name" = "audiolat-$pid" ] && [ -d "$TR/instances/$name" ] && echo 0 || echo 1)" \
		"SIG$sig: the instance audiolat-<pid> exists while open"
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	t_result "$([ $rc -eq 0 ] && [ ! -e "$TR/instances/$name" ] && echo 0 || echo 1)" \
		"SIG$sig: exit 0 and the instance is removed"
done
"$V" -c "$CPU" -m hog -d 10000 -a 5000 -t 1000 >/dev/null 2>"$ERR" &
pid=$!
t_wait 10 "SIGINT during a run: the run's instance is there" test -d "$TR/instances/audiolat-$pid"
kill -INT "$pid"
wait "$pid"
rc=$?
t_result "$([ $rc -eq 0 ] && echo 0 || echo 1)" "SIGINT during a run: exit 0"
t_no_instances "SIGINT during a run: no instance left"

# --- SIGKILL: the next open removes the dead process's instance -----------
STATE0=$(tr_state)
t_result "$([ -n "$STATE0" ] && echo 0 || echo 1)" "SIGKILL: tracefs's state read before ($(echo "$STATE0" | wc -l) lines)"
"$V" -c "$CPU" -m hold >"$T_TMP/hold" 2>"$ERR" &
pid=$!
t_wait 5 "SIGKILL: trace-victim has opened its instance" test -d "$TR/instances/audiolat-$pid"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
t_result "$([ -d "$TR/instances/audiolat-$pid" ] && echo 0 || echo 1)" \
	"SIGKILL: the instance outlives the process"
# a live process's instance stays; one of a dead pid with a suffix goes
mkdir "$TR/instances/audiolat-$$"
sleep 0.01 & dead=$!
wait "$dead"
mkdir "$TR/instances/audiolat-$dead-3"
t_exit 0 "SIGKILL: the next open succeeds" "$V" -c "$CPU" -m idle -d 200 -t 100000
t_result "$([ ! -e "$TR/instances/audiolat-$pid" ] && echo 0 || echo 1)" \
	"SIGKILL: the next open removed the dead process's instance"
t_result "$([ ! -e "$TR/instances/audiolat-$dead-3" ] && echo 0 || echo 1)" \
	"the next open removed audiolat-<dead pid>-<n> too"
t_result "$([ -d "$TR/instances/audiolat-$$" ] && echo 0 || echo 1)" \
	"an instance of a live process is left alone"
rmdir "$TR/instances/audiolat-$$"
t_no_instances "no instance left"
STATE1=$(tr_state)
[ "$STATE0" = "$STATE1" ] || diff <(echo "$STATE0") <(echo "$STATE1") | sed 's/^/# /'
t_result "$([ "$STATE0" = "$STATE1" ] && echo 0 || echo 1)" \
	"SIGKILL and the next open: tracefs's state as it was (mounts, instances, settings)"

# --- without root: one line, exit 4 ----------------------------------------
if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$V"; then
	t_exit 4 "not root: exit 4" setpriv --reuid=65534 --regid=65534 --clear-groups "$V" -c "$CPU" -m hold
	t_grep "$ERR" '^trace-victim: tracing needs root' "not root: the reason"
	t_result "$([ "$(wc -l <"$ERR")" -eq 1 ] && echo 0 || echo 1)" "not root: one line"
else
	t_skip "not root: exit 4" "setpriv missing or the harness not executable by nobody"
fi

# --- without tracefs (a mount namespace of our own), and mounting it -------
if command -v unshare >/dev/null && unshare -m --propagation private true 2>/dev/null; then
	t_exit 4 "no tracefs: exit 4" unshare -m --propagation private bash -c \
		"umount -l $TR 2>/dev/null; mount -t tmpfs -o ro,size=4k none /sys/kernel && exec '$V' -c $CPU -m hold"
	t_grep "$ERR" '^trace-victim: no tracefs' "no tracefs: the reason"
	t_result "$([ "$(wc -l <"$ERR")" -eq 1 ] && echo 0 || echo 1)" "no tracefs: one line"
	# tracefs not mounted: the open mounts it, the close unmounts it
	t_exit 0 "tracefs unmounted: mounted, used and unmounted again" unshare -m --propagation private bash -c \
		"umount -l $TR 2>/dev/null; ! grep -q ' $TR tracefs' /proc/mounts || exit 9
		 '$V' -c $CPU -m hog -d 1500 -a 700 -H 12 -t 1000 -n 16 >'$T_TMP/ns.json' || exit 8
		 ! grep -q ' $TR tracefs' /proc/mounts"
	t_json "tracefs unmounted: the hog was still named" "$W.causes[0].name == \"al-hog\"" \
		"$T_TMP/ns.json"
	spikes "$T_TMP/ns.json"
	# killed while it traces: no mount seen while it ran, none after, and
	# the next open (also without a mount) removed its instance
	t_exit 0 "tracefs unmounted, SIGKILL: no mount seen while it traced, none after it, none after the next open" \
		unshare -m --propagation private bash -c "
		umount -l $TR 2>/dev/null; ! grep -qw tracefs /proc/mounts || exit 9
		'$V' -c $CPU -m hold >'$T_TMP/nshold' 2>/dev/null & pid=\$!
		echo \$pid >'$T_TMP/nspid'
		for i in \$(seq 500); do [ -s '$T_TMP/nshold' ] && break; sleep 0.01; done
		[ -s '$T_TMP/nshold' ] || exit 8
		! grep -qw tracefs /proc/mounts || exit 7
		kill -KILL \$pid; wait \$pid
		! grep -qw tracefs /proc/mounts || exit 6
		'$V' -c $CPU -m idle -d 200 -t 100000 >/dev/null || exit 5
		! grep -qw tracefs /proc/mounts || exit 4"
	pid=$(cat "$T_TMP/nspid" 2>/dev/null)
	t_result "$([ -n "$pid" ] && [ "$(head -n 1 "$T_TMP/nshold" 2>/dev/null)" = "audiolat-$pid" ] &&
		! [ -e "$TR/instances/audiolat-$pid" ] && echo 0 || echo 1)" \
		"tracefs unmounted, SIGKILL: the killed process's instance (audiolat-${pid:-?}) was removed by the next open"
else
	t_skip "no tracefs" "unshare -m not permitted here"
fi
t_no_instances "at the end: no audiolat-* instance left"
if [ -z "$TR_WAS_MOUNTED" ]; then
	umount "$TR"
	t_result $? "at the end: the test's own mount of tracefs unmounted"
fi
t_done
