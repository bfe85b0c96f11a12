#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `audiolat check`: exit codes, text lines, --quiet, --json, --root, usage errors.
. "$(dirname "$0")/../lib.sh"

A=$AUDIOLAT
GOOD=$T_TMP/good

# put ROOT PATH TEXT: write ROOT/PATH, creating directories
put() {
	mkdir -p "$(dirname "$1/$2")"
	printf '%b' "$3" >"$1/$2"
}

# task ROOT PID COMM POLICY RTPRIO [TID]: a /proc/PID/stat (fields 40 and 41 set)
task() {
	local root=$1 pid=$2 comm=$3 policy=$4 prio=$5 tid=${6:-} stat f
	stat="${tid:-$pid} ($comm) S"
	for f in $(seq 4 52); do
		case $f in
		40) stat="$stat $prio" ;;
		41) stat="$stat $policy" ;;
		*) stat="$stat 0" ;;
		esac
	done
	if [ -n "$tid" ]; then
		put "$root" "proc/$pid/task/$tid/stat" "$stat\n"
	else
		put "$root" "proc/$pid/stat" "$stat\n"
		put "$root" "proc/$pid/comm" "$comm\n"
	fi
}

# A system where every check that can run below --root is ok.
make_good() {
	local r=$1 cpu
	put "$r" proc/self/limits \
		"Limit                     Soft Limit           Hard Limit           Units     \n\
Max locked memory         unlimited            unlimited            bytes     \n\
Max realtime priority     95                   95                   \n"
	put "$r" proc/self/status "Name:\taudiolat\nUid:\t1000\t1000\t1000\t1000\n\
Gid:\t1000\t1000\t1000\t1000\nGroups:\t29 1000\nCapEff:\t0000000000000000\n"
	put "$r" etc/group "audio:x:29:alice\nalice:x:1000:\n"
	put "$r" etc/passwd "alice:x:1000:1000::/home/alice:/bin/bash\n"
	put "$r" proc/sys/kernel/osrelease "6.12.0-rt\n"
	put "$r" proc/sys/kernel/version "#1 SMP PREEMPT_RT\n"
	put "$r" sys/kernel/realtime "1\n"
	put "$r" proc/cmdline "root=/dev/sda1 threadirqs\n"
	put "$r" proc/timer_list "cpu: 0\n  .hres_active    : 1\n  .nohz           : 1\n\
cpu: 1\n  .hres_active    : 1\n  .nohz           : 1\n"
	for cpu in 0 1; do
		put "$r" "sys/devices/system/cpu/cpu$cpu/cpufreq/scaling_governor" "performance\n"
	done
	put "$r" sys/devices/system/cpu/smt/control "notsupported\n"
	put "$r" sys/devices/system/cpu/cpuidle/current_driver "none\n"
	put "$r" dev/cpu_dma_latency ""
	chmod 0666 "$r/dev/cpu_dma_latency"
	put "$r" proc/sys/kernel/sched_rt_runtime_us "-1\n"
	put "$r" proc/swaps "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	put "$r" proc/sys/vm/swappiness "60\n"
	task "$r" 1 systemd 0 0
	task "$r" 120 irq/9-acpi 1 50
	task "$r" 130 irq/30-snd_hda_ 1 90
	task "$r" 800 pipewire 0 0
	task "$r" 800 data-loop.0 1 88 805
	put "$r" proc/interrupts "           CPU0       CPU1\n\
  9:          0          0   IO-APIC   9-fasteoi   acpi\n\
 30:        100          0   PCI-MSI 512000-edge      snd_hda_intel:card0\n"
	put "$r" sys/bus/usb/devices/1-2:1.0/bInterfaceClass "01\n"
	put "$r" sys/bus/usb/devices/1-2/product "Scarlett 2i2 USB\n"
	put "$r" sys/bus/usb/devices/1-2/power/control "on\n"
	put "$r" proc/sys/kernel/timer_migration "0\n"
	put "$r" proc/mounts "/dev/sda1 / ext4 rw,noatime 0 0\nproc /proc proc rw 0 0\n"
	put "$r" sys/devices/system/cpu/vulnerabilities/meltdown "Not affected\n"
	put "$r" sys/devices/system/clocksource/clocksource0/current_clocksource "tsc\n"
	put "$r" proc/filesystems "nodev\tsysfs\nnodev\ttracefs\n"
	put "$r" sys/kernel/tracing/available_tracers "timerlat osnoise function nop\n"
	put "$r" sys/kernel/tracing/events/sched/sched_switch/hist ""
	put "$r" sys/kernel/tracing/synthetic_events ""
}

make_good "$GOOD"

# --help
t_exit 0 "check --help exits 0" "$A" check --help
t_grep "$OUT" -- '--root DIR' "check --help documents --root"
t_grep "$OUT" -- '--json FILE' "check --help documents --json"
t_exit 0 "audiolat --help exits 0" "$A" --help
t_grep "$OUT" '^  check ' "audiolat --help lists check"

# an all-good root: exit 0, one [ OK ] line per check that can run
t_exit 0 "good root exits 0" "$A" check --root "$GOOD"
t_grep "$OUT" '^\[ OK \] rtprio +hard RLIMIT_RTPRIO is 95$' "rtprio line as documented"
t_grep "$OUT" '^\[ OK \] preempt +PREEMPT_RT kernel' "PREEMPT_RT recognised"
t_grep "$OUT" '^\[SKIP\] sched_fifo +not the live system' "sched_fifo skips below --root"
t_grep "$OUT" '^summary: ok=23 warn=0 fail=0 skip=1$' "summary line of the good root"
[ "$(grep -c '^\[' "$OUT")" -eq 24 ]
t_result $? "one line per check (24)"
! grep -q '^       fix:' "$OUT"
t_result $? "no fix lines when all is well"

# -q: only failures and the summary
t_exit 0 "good root -q exits 0" "$A" check -q --root "$GOOD"
[ "$(wc -l <"$OUT")" -eq 1 ] && grep -q '^summary: ' "$OUT"
t_result $? "-q on a good root prints only the summary"

# a warning does not fail
WARN=$T_TMP/warn
cp -a "$GOOD" "$WARN"
put "$WARN" proc/sys/kernel/timer_migration "1\n"
put "$WARN" sys/devices/system/cpu/cpu1/cpufreq/scaling_governor "powersave\n"
t_exit 0 "a warning exits 0" "$A" check --root "$WARN"
t_grep "$OUT" '^\[WARN\] timer_migration ' "timer_migration warns"
t_grep "$OUT" '^       fix: sysctl -w kernel.timer_migration=0$' "with its fix"
t_grep "$OUT" '^\[WARN\] governor +1 of 2 CPUs not on performance: cpu 1 \(powersave\)$' \
	"the governor names the CPU"
t_grep "$OUT" '^summary: ok=21 warn=2 fail=0 skip=1$' "summary counts the warnings"

# a failing check: exit 3
BAD=$T_TMP/bad
cp -a "$GOOD" "$BAD"
put "$BAD" proc/sys/kernel/sched_rt_runtime_us "0\n"
t_exit 3 "a failing check exits 3" "$A" check --root "$BAD"
t_grep "$OUT" '^\[FAIL\] rt_throttling ' "rt_throttling fails"
t_grep "$OUT" '^       fix: sysctl -w kernel.sched_rt_runtime_us=950000$' "with its fix"
t_grep "$OUT" '^summary: ok=22 warn=0 fail=1 skip=1$' "summary counts the failure"
t_exit 3 "-q on a failing root exits 3" "$A" check -q --root "$BAD"
[ "$(grep -c '^\[' "$OUT")" -eq 1 ] && grep -q '^\[FAIL\] rt_throttling' "$OUT"
t_result $? "-q prints only the failed check"

# an empty root: every check skips with a reason, nothing fails
mkdir -p "$T_TMP/empty"
t_exit 0 "empty root exits 0" "$A" check --root "$T_TMP/empty"
t_grep "$OUT" '^summary: ok=0 warn=0 fail=0 skip=24$' "empty root: all skipped"
! grep -E '^\[SKIP\] [a-z_]+ *$' "$OUT"
t_result $? "every skip gives a reason"

# --json
if command -v jq >/dev/null; then
	t_exit 3 "--json - on the failing root exits 3" "$A" check --json - --root "$BAD"
	t_json "--json - writes only JSON to stdout (one object)" 'type == "object"' "$OUT"
	t_json "envelope: schema, tool_version, root" --arg root "$BAD" '.schema == "audiolat.check/1" and (.tool_version | type) == "string"
		and .root == $root' "$OUT"
	t_json "counts match the checks" '.ok == 22 and .warn == 0 and .fail == 1 and .skip == 1
		and (.checks | length) == (.ok + .warn + .fail + .skip)' "$OUT"
	t_json "every check has id, status, message, fix" '(.checks | length) > 0 and all(.checks[]; (.id | type) == "string" and (.message | length) > 0
		and (.fix | type) == "string"
		and (.status | IN("ok", "warn", "fail", "skip")))' "$OUT"
	t_json "fix is set exactly for warn and fail" '(.checks | length) > 0 and all(.checks[]; (.status == "ok" or .status == "skip") == (.fix == ""))' \
		"$OUT"
	t_json "rt_throttling entry" '[.checks[] | select(.id == "rt_throttling")][0]
		| .status == "fail" and .fix == "sysctl -w kernel.sched_rt_runtime_us=950000"' \
		"$OUT"
	t_json "ids are stable and in order" '[.checks[].id] == ["rtprio","memlock","audio_group","sched_fifo","preempt",
		"hrtimers","nohz","threadirqs","governor","smt","cstates","dma_latency",
		"rt_throttling","swappiness","irqbalance","irq_threads","shared_irqs",
		"usb_autosuspend","timer_migration","noatime","mitigations","clocksource",
		"audio_servers","kernel_tracing"]' "$OUT"
	t_exit 0 "--json FILE on the good root exits 0" "$A" check --json "$T_TMP/c.json" --root "$GOOD"
	t_grep "$OUT" '^summary: ok=23 ' "--json FILE keeps the text on stdout"
	t_json "--json FILE writes the document" '.fail == 0 and .ok == 23' "$T_TMP/c.json"
else
	t_skip "--json checks" "jq not installed"
fi
t_exit 1 "--json into a missing directory exits 1" "$A" check --json "$T_TMP/no/such/dir.json" \
	--root "$GOOD"
t_grep "$ERR" '^audiolat check: --json ' "and names --json"

# usage errors: exit 2, one line on stderr
usage() { # usage DESC REGEX ARGS...
	local desc=$1 re=$2
	shift 2
	t_exit 2 "$desc exits 2" "$A" check "$@"
	[ "$(wc -l <"$ERR")" -eq 1 ] && grep -Eq "^audiolat check: .*$re" "$ERR"
	t_result $? "$desc: one line naming the problem"
}
usage "an unknown option" "unknown option '--nosuch'" --nosuch
usage "a missing --root" "--root: '$T_TMP/missing' is not a directory" --root "$T_TMP/missing"
usage "a --root that is a file" "is not a directory" --root "$T_TMP/c.json"
usage "an empty --root" "--root" --root ""
usage "--json without a value" "needs a value" --json
usage "a stray argument" "unexpected argument 'stray'" stray

# the live system: 0 or 3, never a crash or usage error
"$A" check >"$OUT" 2>"$ERR"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ]
t_result $? "live check exits 0 or 3 (got $rc)"
t_grep "$OUT" '^summary: ok=[0-9]+ warn=[0-9]+ fail=[0-9]+ skip=[0-9]+$' "live check ends with a summary"
[ "$(grep -c '^\[' "$OUT")" -eq 24 ]
t_result $? "live check prints 24 checks"

t_done
