#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `audiolat load`: exit codes, hackbench output, throughput, and cleanup:
# no load process or file left after a normal end, SIGINT, SIGKILL of
# audiolat, or a load that dies. Load processes are found by their process
# groups (one per load: the supervisor, a child of audiolat, leads it).
. "$(dirname "$0")/../lib.sh"

A=$AUDIOLAT
D=$T_TMP/loaddir
mkdir -p "$D"
MNT=""
cleanup_mounts() {
	for m in $MNT; do umount "$m" 2>/dev/null; done
	rm -rf "$T_TMP"
}
trap cleanup_mounts EXIT

# --- helpers -------------------------------------------------------------
. "$(dirname "$0")/procs.sh"

# bad DESC WANT ARGS...: exit 2 and one line on stderr matching WANT.
bad() {
	local desc=$1 want=$2
	shift 2
	t_exit 2 "$desc exits 2" "$A" load "$@"
	t_grep "$ERR" "^audiolat load: .*$want" "$desc: the message says '$want'"
	t_grep "$ERR" "^Try 'audiolat load --help'\.\$" "$desc: ... then the hint, as every usage error"
}

# --- help and usage errors -----------------------------------------------

t_exit 0 "load --help exits 0" "$A" load --help
for l in idle hackbench cpu mem disk-write disk-copy disk-read procfs fork rt-migrate cmd; do
	t_grep "$OUT" "^  $l " "--help lists $l"
done
t_grep "$OUT" "--load-policy POLICY" "--help lists --load-policy"
t_grep "$OUT" "-g, --groups N" "--help lists -g/--groups"
t_grep "$OUT" "--rt-period TIME" "--help lists --rt-period"
t_grep "$OUT" "--rt-run TIME\|PCT%" "--help lists --rt-run"
t_grep "$OUT" "--rt-prio PRIO" "--help lists --rt-prio"
t_exit 0 "audiolat --help lists load" "$A" --help
t_grep "$OUT" '^  load ' "the dispatcher lists load"

bad "an unknown load" "unknown load 'nosuch'" nosuch -d 1s
bad "no load name" "a load name is needed" -d 1s
bad "a malformed -d" "-d/--duration: '10x'" cpu -d 10x
bad "a malformed phase time" "malformed time '1x'" cpu:1x
bad "a sequence of phases" "audiolat load runs one" idle:1s,cpu:1s
bad "negative groups" "-g/--groups: '-1' is not in 1..1000" hackbench -g -1
bad "negative loops" "-l/--loops: '-5'" hackbench -l -5
bad "zero fds" "-f/--fds: '0'" hackbench -f 0
bad "negative workers" "--workers: '-2'" cpu --workers -2 -d 1s
bad "a bad policy" "--load-policy: 'fast'" cpu --load-policy fast -d 1s
bad "a policy without priority" "--load-policy: 'fifo'" cpu --load-policy fifo -d 1s
bad "a bad nice" "--load-nice: '30'" cpu --load-nice 30 -d 1s
bad "a bad CPU list" "--load-cpus: '2-1'" cpu --load-cpus 2-1 -d 1s
bad "a CPU that is not there" "--load-cpus: CPU 1000 is not online" cpu --load-cpus 0,1000 -d 1s
bad "a bad --file-size" "--file-size: '-1M'" disk-write --file-size -1M -d 1s
bad "a missing --load-dir" "--load-dir: $T_TMP/nosuch" disk-write --load-dir "$T_TMP/nosuch" -d 1s
bad "a --load-dir that is a file" "--load-dir: .*Not a directory" disk-read --load-dir /dev/null -d 1s
bad "an unknown option" "unknown option '--nosuch'" cpu --nosuch
bad "cmd without a command" "cmd needs a command" cmd -d 1s
bad "a stray argument" "unexpected argument 'extra'" cpu extra -d 1s
bad "an rt period without a unit" "--rt-period: '20' is not a time with a unit" rt-migrate --rt-period 20 -d 1s
bad "an rt period out of range" "--rt-period: '2s' is not in 100us..1s" rt-migrate --rt-period 2s -d 1s
bad "an rt run of 100 %" "--rt-run: '100%' is not a percentage" rt-migrate --rt-run 100% -d 1s
bad "a malformed rt run" "--rt-run: '4x' is not a time" rt-migrate --rt-run 4x -d 1s
bad "an rt run as long as the period" "--rt-run: 20ms is not shorter than --rt-period 20ms" \
	rt-migrate --rt-run 20ms -d 1s
bad "rt threads that fill the CPUs" "--rt-run: 3 threads x 15ms every 20ms leave the 1 load CPU no time" \
	rt-migrate --load-cpus 0 --workers 3 --rt-run 15ms -d 1s
bad "an rt priority out of range" "--rt-prio: '99' is not in 1..98" rt-migrate --rt-prio 99 -d 1s
bad "rt threads past priority 99" "--rt-prio: 3 threads from priority 98 go past 99" \
	rt-migrate --rt-prio 98 --workers 3 --rt-run 1% -d 1s
t_exit 0 "a missing --load-dir does not matter to cpu" "$A" load cpu -q -d 100ms --load-dir "$T_TMP/nosuch"

# --- hackbench, like rt-tests ---------------------------------------------

t_exit 0 "hackbench -g 2 -f 3 -l 20 exits 0" "$A" load hackbench -g 2 -f 3 -l 20
t_grep "$OUT" '^Running in process mode with 2 groups using 6 file descriptors each \(== 12 tasks\)$' \
	"hackbench prints its mode line"
t_grep "$OUT" '^Each sender will pass 20 messages of 100 bytes$' "hackbench prints its message line"
t_grep "$OUT" '^Time: [0-9]+\.[0-9]{3}$' "hackbench prints Time:"
t_exit 0 "hackbench --threads --pipe exits 0" "$A" load hackbench -g 1 -f 2 -l 10 -s 50 --threads --pipe
t_grep "$OUT" '^Running in threaded mode with 1 groups using 4 file descriptors each \(== 4 tasks\)$' \
	"threaded mode is named"
t_grep "$OUT" '^Time: [0-9]+\.[0-9]{3}$' "threaded hackbench prints Time:"
t_exit 0 "hackbench with -d repeats runs" "$A" load hackbench -g 1 -f 2 -l 10 -d 300ms
t_grep "$OUT" '^load: hackbench groups=1 fds=2 loops=10 datasize=100 mode=process ipc=socket policy=other nice=0 cpus=all$' \
	"the load line has the exact parameters"
t_grep "$OUT" '^summary: load=hackbench .*messages_per_s=[1-9][0-9.]* s_per_run=0\.[0-9]+ runs=[1-9][0-9]* .*result=ok$' \
	"hackbench with -d reports messages/s, s/run and runs"

# --- throughput and files ------------------------------------------------

t_exit 0 "cpu -d 300ms with --json exits 0" "$A" load cpu --workers 1 -d 300ms -q --json "$T_TMP/cpu.json"
t_grep "$OUT" '^summary: load=cpu time_s=0\.3[0-9]* loops_per_s=[1-9][0-9.]* interrupted=no result=ok$' \
	"cpu reports loops_per_s > 0"
t_grep "$T_TMP/cpu.json" '"schema": "audiolat.load/1"' "the JSON has the schema"
t_grep "$T_TMP/cpu.json" '"load": "cpu workers=1 policy=other nice=0 cpus=all"' "the JSON has the load"
t_grep "$T_TMP/cpu.json" '"loops_per_s": \{' "the JSON has the throughput"
t_grep "$T_TMP/cpu.json" '"error": null' "the JSON error is null"
if command -v python3 >/dev/null; then
	t_true "the JSON parses" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["throughput"]["loops_per_s"]["value"] > 0' "$T_TMP/cpu.json"
	"$A" load fork -d 200ms --json - >"$T_TMP/fork.json" 2>"$ERR"
	t_true "--json - writes only JSON to stdout" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["throughput"]["forks_per_s"]["value"] > 0' "$T_TMP/fork.json"
fi

for l in disk-write disk-copy disk-read; do
	t_exit 0 "$l -d 300ms exits 0" "$A" load $l --load-dir "$D" --file-size 1M -d 300ms -q
	t_grep "$OUT" "^summary: load=$l .*bytes_per_s=[1-9][0-9.]* passes=[1-9][0-9]* .*result=ok$" \
		"$l reports bytes_per_s > 0"
	t_true "$l leaves no file" empty_dir "$D"
done
# O_DIRECT where the filesystem of $D has it (dd asks the kernel, not
# audiolat): there, audiolat's exit 4 is a failure; elsewhere it is exit 4
if dd if=/dev/zero of="$D/direct-probe" bs=4096 count=1 oflag=direct 2>/dev/null; then
	rm -f "$D/direct-probe"
	t_exit 0 "disk-read --direct exits 0" "$A" load disk-read --direct --load-dir "$D" --file-size 1M -d 300ms -q
	t_grep "$OUT" "bytes_per_s=[1-9]" "disk-read --direct reads"
else
	rm -f "$D/direct-probe"
	t_exit 4 "disk-read --direct where the filesystem has no O_DIRECT exits 4" \
		"$A" load disk-read --direct --load-dir "$D" --file-size 1M -d 300ms -q
	t_grep "$ERR" "does not support O_DIRECT" "... saying why"
	t_skip "disk-read --direct reads" "the filesystem of $D has no O_DIRECT (dd oflag=direct fails)"
fi
t_exit 0 "mem+procfs exits 0" "$A" load mem+procfs --mem-size 4M --workers 1 -d 300ms -q
t_grep "$OUT" 'mem.bytes_per_s=[1-9][0-9.]* procfs.reads_per_s=[1-9][0-9.]* ' "combined loads both report"
t_exit 0 "a cmd that exits at once is restarted" "$A" load cmd true -d 450ms -q
t_grep "$OUT" 'restarts=[2-9] failed_runs=0 ' "its restarts are counted"
t_exit 1 "a cmd that cannot run exits 1" "$A" load cmd:'/nonexistent/x 2>/dev/null' -d 2s -q
t_grep "$ERR" "^audiolat load: cmd: '/nonexistent/x 2>/dev/null' could not be run" "the cmd failure is named"
t_grep "$OUT" 'result=error' "the summary says error"

# --- rt-migrate: SCHED_FIFO threads (root, CAP_SYS_NICE or an rtprio limit) ---

# task_runtime PID: the CPU time of all threads of PID so far (ns, schedstat)
task_runtime() {
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ t += $1 } END { printf "%.0f\n", t }'
}

# ran_more PID NS: PID's threads have run NS ns of CPU time in all
ran_more() {
	[ "$(task_runtime "$1")" -ge "$2" ]
}

# The threads of the groups given, as "CLASS:PRIO" sorted by priority.
rt_threads_in() {
	ps -eLo pgid=,cls=,rtprio=,comm= |
		awk -v g="$1" '$1 == g && $4 == "al-rt-migrate" && $2 == "FF" { print $2 ":" $3 }' |
		sort -t: -k2 -n | paste -sd' '
}

n=$(($(nproc) + 1))
want_threads=$(for p in $(seq 2 $((n + 1))); do printf 'FF:%s ' "$p"; done | sed 's/ $//')
# rt_up PID WANT: audiolat PID's rt-migrate threads run, as WANT says (sets
# THREADS); or audiolat has ended (without permission it exits 4 at once)
rt_up() {
	if find_loads "$1"; then
		THREADS=$(rt_threads_in "$LOADS")
		[ "$THREADS" = "$2" ] && return 0
	fi
	procs_none pid "$1"
}
THREADS=
"$A" load rt-migrate -d 2s >"$OUT" 2>"$ERR" &
P=$!
wait_until 10 "rt-migrate's $n threads to run" rt_up $P "$want_threads"
G=$LOADS
wait $P
rc=$?
if ! fifo_permitted; then
	t_result $([ $rc -eq 4 ] && echo 0 || echo 1) "rt-migrate where SCHED_FIFO is not permitted: exit 4 (got $rc)"
	for t in "its load line" "its figures" "its threads" "its cleanup" \
		"rt-migrate SIGINT" "a stopped rt-migrate misses periods" "hackbench+rt-migrate"; do
		t_skip "$t" "$FIFO_DENIED"
	done
else
	t_result $rc "rt-migrate -d 2s exits 0"
	t_grep "$OUT" "^load: rt-migrate threads=$n prio=fifo:2\.\.$((n + 1)) period_ns=20000000 run_ns=4000000 policy=other nice=0 cpus=all\$" \
		"the load line: CPUs + 1 threads from priority 2, 20 % of 20 ms"
	# periods/s is > 0; the rest are what the kernel did (migrations may be 0)
	t_grep "$OUT" '^summary: load=rt-migrate time_s=2\.[0-9]+ periods_per_s=[1-9][0-9.]* migrations=[0-9]+ missed_periods=[0-9]+ prio_inversions=[0-9]+ top_wake_max_ns=[0-9]+ interrupted=no result=ok$' \
		"rt-migrate reports periods/s, migrations, missed periods, inversions, the top wake-up"
	t_result $([ "$THREADS" = "$want_threads" ] && echo 0 || echo 1) \
		"$n SCHED_FIFO threads at priorities 2..$((n + 1)) (got '$THREADS')"
	t_gone "no al-rt-migrate process left after the end" 5 pgid $G

	want10=$(for p in $(seq 10 $((n + 9))); do printf 'FF:%s ' "$p"; done | sed 's/ $//')
	"$A" load rt-migrate --rt-period 5ms --rt-run 1ms --rt-prio 10 --load-policy batch -d 30s >"$OUT" 2>"$ERR" &
	P=$!
	wait_until 10 "rt-migrate's threads from priority 10 to run" rt_up $P "$want10"
	G=$LOADS
	t_result $([ "$THREADS" = "$want10" ] && echo 0 || echo 1) \
		"rt-migrate: threads FIFO from 10 whatever --load-policy (got '$THREADS')"
	# a fault of known size: the worker that runs the threads stopped for
	# 300 ms of 5 ms periods. Each thread wakes >= 300 ms late and counts
	# the periods it missed: >= (300 - 5 - 1) / 5 = 58 each, asserted 50
	W=$(ps -o pid= --ppid "$G" | tr -d ' ' | head -n 1)
	kill -STOP "$W"
	ran=$(task_runtime "$W")
	sleep 0.3
	kill -CONT "$W"
	# the threads count what they missed when they wake: wait until they
	# have run 5 ms more (a few periods) after SIGCONT, then end the load
	wait_until 5 "rt-migrate's threads to run after SIGCONT" ran_more "$W" $((ran + 5000000))
	kill -INT $P
	wait $P
	rc=$?
	t_result $([ $rc -eq 0 ] && echo 0 || echo 1) "rt-migrate SIGINT: exit 0 (got $rc)"
	t_grep "$OUT" '^summary: load=rt-migrate .*periods_per_s=[1-9][0-9.]* .* interrupted=yes result=ok$' \
		"SIGINT: the rt-migrate figures so far are printed"
	missed=$(sed -n 's/.* missed_periods=\([0-9]*\) .*/\1/p' "$OUT")
	topwake=$(sed -n 's/.* top_wake_max_ns=\([0-9]*\) .*/\1/p' "$OUT")
	t_result $([ "${missed:-0}" -ge $((n * 50)) ] && echo 0 || echo 1) \
		"a 300 ms stop of 5 ms periods: each of the $n threads missed >= 50 periods (missed_periods=$missed)"
	t_result $([ "${topwake:-0}" -ge 250000000 ] && echo 0 || echo 1) \
		"... and the top thread woke >= 250 ms late once (top_wake_max_ns=$topwake)"
	t_gone "SIGINT: no al-rt-migrate process left" 5 pgid $G

	t_exit 0 "hackbench+rt-migrate exits 0" "$A" load hackbench+rt-migrate -g 1 -f 2 -l 10 -d 500ms -q
	t_grep "$OUT" 'hackbench.runs=[1-9][0-9]* rt-migrate.periods_per_s=[1-9][0-9.]* rt-migrate.migrations=[0-9]+ rt-migrate.missed_periods=[0-9]+ rt-migrate.prio_inversions=[0-9]+ rt-migrate.top_wake_max_ns=[0-9]+ .*result=ok$' \
		"hackbench+rt-migrate: both loads' figures"
fi

# without the permission: exit 4, one line (root drops to nobody; everyone drops the rtprio limit)
drop=()
[ "$(id -u)" -eq 0 ] && drop=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if [ "$(id -u)" -eq 0 ] && ! command -v setpriv >/dev/null; then
	t_skip "rt-migrate without permission" "no setpriv to drop root"
	t_skip "rt-migrate without permission: the message" "no setpriv to drop root"
else
	t_exit 4 "rt-migrate without SCHED_FIFO permission exits 4" \
		bash -c 'ulimit -r 0 && exec "$@"' rtprio0 "${drop[@]}" "$A" load rt-migrate -d 2s -q
	t_grep "$ERR" "^audiolat load: rt-migrate: SCHED_FIFO priority [0-9]+: Operation not permitted \(needs root, CAP_SYS_NICE or an rtprio limit\) \(not permitted\)$" \
		"the missing permission is named in one line"
fi

# --- --load-policy, --load-nice, --load-cpus: what the load's processes run with ---

# sched_of PID: "POLICY RTPRIO NICE CPUS" of a live process (from /proc:
# policy 0 other, 1 fifo, 2 rr, 3 batch, 5 idle)
sched_of() {
	local st cpus
	st=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
	cpus=$(awk '$1 == "Cpus_allowed_list:" { print $2 }' "/proc/$1/status" 2>/dev/null)
	# after the comm: field 3 (state) is the first, so nice (19) is 17th,
	# rt_priority (40) 38th, policy (41) 39th
	echo "$st" | awk -v c="$cpus" '{ print $39, $38, $17, c }'
}
# t_sched DESC WANT PGID...: every worker of the loads of these groups (every
# live process in them but the supervisor, which leads the group: at least
# MIN_WORKERS) runs with WANT; the supervisors, which only wait, are back at
# SCHED_OTHER, nice 0, on every CPU (so that a real-time load cannot starve
# the one process that must kill it)
t_sched() {
	local desc=$1 want=$2 p g got bad="" n=0 all
	shift 2
	all=$(sched_of $$ | awk '{ print $4 }')
	while read -r p g; do
		got=$(sched_of "$p") || continue
		[ "$p" = "$g" ] && continue
		n=$((n + 1))
		[ "$got" = "$want" ] || bad+="$p: $got; "
	done < <(ps -eo pid=,pgid=,stat= | awk -v g=" $* " 'index(g, " " $2 " ") && $3 !~ /^Z/ { print $1, $2 }')
	[ -z "$bad" ] || echo "# workers not at '$want': $bad"
	[ "$n" -ge "$MIN_WORKERS" ] || echo "# $n workers, expected at least $MIN_WORKERS"
	t_result $([ -z "$bad" ] && [ "$n" -ge "$MIN_WORKERS" ] && echo 0 || echo 1) "$desc ($n workers)"
	# (it leaves the load's CPUs before it drops to SCHED_OTHER, then says
	# the load is ready; the workers may be seen running a moment before)
	t_wait 5 "... and the supervisor back at SCHED_OTHER, nice 0, on CPUs $all" supervisors_back "$all" "$@"
}
# supervisors_back CPUS PGID...: the leaders of the groups are at SCHED_OTHER, nice 0, on CPUS
supervisors_back() {
	local all=$1 g
	shift
	for g in "$@"; do
		[ "$(sched_of "$g")" = "0 0 0 $all" ] || return 1
	done
}
last=$(($(nproc) - 1))
"$A" load cpu --workers 2 --load-policy batch --load-nice 7 --load-cpus "$last" -d 30s >"$OUT" 2>"$ERR" &
P=$!
t_loads "batch, nice 7, CPU $last: the load starts" $P
G=$LOADS
MIN_WORKERS=2
t_wait 10 "batch, nice 7, CPU $last: the supervisor and its 2 workers run" at_least 3 pgid $G
t_sched "--load-policy batch --load-nice 7 --load-cpus $last: the workers are SCHED_BATCH, nice 7, on CPU $last" \
	"3 0 7 $last" $G
kill -INT $P
wait $P
t_result $? "batch, nice 7: exit 0"
t_grep "$OUT" "^load: cpu workers=2 policy=batch nice=7 cpus=$last\$" "batch, nice 7: the load line says so"
# seed 002's setup: the load at SCHED_RR 10 beside the measurement (run --load)
"$A" run -q --no-db -d 30s --load cpu --workers 1 --load-policy rr:10 --load-cpus 0 --json "$T_TMP/rr.json" \
	>"$OUT" 2>"$ERR" &
P=$!
t_loads "run --load cpu --load-policy rr:10: the load starts" $P
G=$LOADS
MIN_WORKERS=1
t_wait 10 "rr:10: the supervisor and its worker run" at_least 2 pgid $G
t_sched "run --load-policy rr:10 --load-cpus 0: the worker is SCHED_RR 10, on CPU 0" "2 10 0 0" $G
kill -INT $P
wait $P
t_result $? "rr:10: the run exits 0"
t_json "rr:10: the phase records the load's scheduling" \
	'.phases[0].load == "cpu workers=1 policy=rr:10 nice=0 cpus=0"' "$T_TMP/rr.json"
t_gone "rr:10: nothing of the load is left" 5 pgid $G

# --- cleanup ---------------------------------------------------------------

# normal end
"$A" load cmd 'sleep 30' -d 400ms -q >"$OUT" 2>"$ERR" &
P=$!
t_loads "cmd 'sleep 30': the load starts" $P
G=$LOADS
t_wait 5 "cmd 'sleep 30': its sleep runs in the load's group" named_in sleep $G
wait $P
t_result $? "cmd 'sleep 30' for 400ms exits 0"
t_gone "nothing of it is left after a normal end" 5 pgid $G

# SIGINT mid-run: stops at once, prints the throughput so far
"$A" load hackbench+disk-write -g 2 -f 4 -l 100000 --load-dir "$D" --file-size 1M -d 60s >"$OUT" 2>"$ERR" &
P=$!
t_loads "hackbench+disk-write: the loads start" $P 2
G=$LOADS
# hackbench: 2 groups x (4 senders + 4 receivers); disk-write has written
t_wait 10 "hackbench's 16 workers run" at_least 16 pgid $G
t_wait 10 "disk-write has written" wrote_in al-disk-write $G
t0=$(date +%s%N)
kill -INT $P
wait $P
rc=$?
t1=$(date +%s%N)
t_result $([ $rc -eq 0 ] && echo 0 || echo 1) "SIGINT: exit 0 (got $rc)"
t_result $([ $(((t1 - t0) / 1000000)) -lt 2000 ] && echo 0 || echo 1) "SIGINT stops within 2 s"
t_grep "$OUT" 'disk-write.bytes_per_s=[1-9].* interrupted=yes result=ok$' "SIGINT: the throughput so far is printed"
t_gone "SIGINT: no load process left" 5 pgid $G
t_true "SIGINT: no file left" empty_dir "$D"

# SIGKILL of audiolat: the supervisors take their groups down
"$A" load cmd 'sleep 100 & sleep 100; wait' -d 60s -q >"$OUT" 2>"$ERR" &
P=$!
t_loads "cmd with two sleeps: the load starts" $P
G=$LOADS
t_wait 5 "cmd: the shell and its sleeps run in the load's group" at_least 3 pgid $G
kill -KILL $P
wait $P 2>/dev/null
t_gone "SIGKILL: cmd's grandchildren are gone" 5 pgid $G

"$A" load hackbench+disk-read -g 2 -f 5 -l 100000 --load-dir "$D" --file-size 2M -d 60s -q >"$OUT" 2>"$ERR" &
P=$!
t_loads "hackbench+disk-read: the loads start" $P 2
G=$LOADS
t_wait 10 "hackbench's 20 workers run in its group" at_least 20 pgid $G
kill -KILL $P
wait $P 2>/dev/null
t_gone "SIGKILL: hackbench's workers are gone" 5 pgid $G
t_true "SIGKILL: no file left" empty_dir "$D"

# commands that leave the load's process group (timeout(1) makes its own,
# setsid a new session) are still killed: they stay the supervisor's
# descendants. A unique argument finds them (and only them).
marked() { # MARK: the pids of "sleep MARK"
	pgrep -f "^sleep $1\$"
}
t_escapee_gone() { # DESC MARK: the "sleep MARK" seen before is gone
	if wait_until 5 "sleep $2 to end" eval '[ -z "$(marked '"$2"')" ]'; then
		t_result 0 "$1"
	else
		marked "$2" | sed 's/^/# still alive: /'
		marked "$2" | xargs -r kill -KILL
		t_result 1 "$1"
	fi
}
M=$((900000 + RANDOM))
"$A" load cmd "timeout 300 sleep $M" -d 500ms -q >"$OUT" 2>"$ERR" &
P=$!
t_wait 5 "timeout's sleep $M runs" marked $M
wait $P
t_escapee_gone "a normal end kills a command that timeout(1) moved to its own group" $M
M=$((M + 1))
"$A" load cmd "setsid sleep $M" -d 30s -q >"$OUT" 2>"$ERR" &
P=$!
t_wait 5 "setsid's sleep $M runs" marked $M
kill -INT $P
wait $P
t_escapee_gone "SIGINT kills a command that setsid moved to a new session" $M
M=$((M + 1))
"$A" run -d 30s -q --no-db --load "cmd:timeout 300 sleep $M" >"$OUT" 2>"$ERR" &
P=$!
t_wait 10 "run --load: timeout's sleep $M runs" marked $M
kill -KILL $P
wait $P 2>/dev/null
t_escapee_gone "SIGKILL of audiolat run kills a command that left the group (the supervisor's SIGTERM)" $M

# a load killed from outside is reported
"$A" load cpu --workers 1 -d 10s -q >"$OUT" 2>"$ERR" &
P=$!
t_loads "cpu: the load starts" $P
G=$LOADS
W=
t_wait 5 "cpu: its worker runs" eval 'W=$(ps -o pid= --ppid "$G" | tr -d " " | head -n 1); [ -n "$W" ]'
kill -KILL "$W"
wait $P
rc=$?
t_result $([ $rc -eq 1 ] && echo 0 || echo 1) "a worker killed from outside: exit 1 (got $rc)"
t_grep "$ERR" "^audiolat load: cpu: worker $W was killed by signal 9" "the killed worker is named"
t_grep "$OUT" 'result=error' "the summary says error"

"$A" load fork -d 10s --json "$T_TMP/killed.json" -q >"$OUT" 2>"$ERR" &
P=$!
t_loads "fork: the load starts" $P
G=$LOADS
t_wait 5 "fork: the supervisor and its worker run" at_least 2 pgid $G
kill -KILL $G
wait $P
rc=$?
t_result $([ $rc -eq 1 ] && echo 0 || echo 1) "a supervisor killed from outside: exit 1 (got $rc)"
t_grep "$ERR" "^audiolat load: fork: killed by signal 9" "the killed load is named"
t_grep "$T_TMP/killed.json" '"error": "fork: killed by signal 9' "the JSON has the error"
t_gone "no fork process left" 5 pgid $G

# --- file systems: ENOSPC, read-only, O_DIRECT (need root and tmpfs) -------

SMALL=$T_TMP/small
mkdir -p "$SMALL"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=1m audiolat-test "$SMALL" 2>/dev/null; then
	MNT="$MNT $SMALL"
	t_exit 1 "ENOSPC: disk-write on a 1 MiB tmpfs exits 1" "$A" load disk-write --load-dir "$SMALL" --file-size 4M -d 2s -q --json "$T_TMP/enospc.json"
	t_grep "$ERR" "^audiolat load: disk-write: writing a file in $SMALL: No space left on device" "ENOSPC is reported"
	t_grep "$T_TMP/enospc.json" '"error": "disk-write: .*No space left on device"' "ENOSPC is in the JSON"
	t_true "ENOSPC: no file left" empty_dir "$SMALL"
	mount -o remount,ro "$SMALL"
	bad "a read-only --load-dir" "--load-dir: cannot create a file in $SMALL: Read-only file system" \
		disk-write --load-dir "$SMALL" -d 1s
else
	t_skip "ENOSPC on a tiny tmpfs" "needs root and mount -t tmpfs"
	t_skip "a read-only --load-dir" "needs root and mount -t tmpfs"
fi

t_done
