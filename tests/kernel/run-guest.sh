#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel tests: boot Debian's kernel under qemu (TCG) with an initramfs
# holding audiolat, the virtual sound drivers and the guest checks
# (guest-init.sh, guest-checks.sh), relay the guest's TAP lines and judge
# qemu's exit status: isa-debug-exit gives 2 * failed + 1, so only 1 means
# every check passed; 0 is a guest that never reported (panic, reset, out of
# memory), 124 the host timeout. qemu never outlives this script.
#   run-guest.sh [AUDIOLAT [OUTDIR]]  (defaults: $AUDIOLAT, $BUILD_DIR/kernel)
# KERNEL_CHECKS=name,name runs only those guest checks (guest-checks.sh --list).
set -u
set -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
audiolat=${1:-${AUDIOLAT:?AUDIOLAT must name the audiolat binary}}
out=${2:-${BUILD_DIR:-$here/../../build}/kernel}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-240}

N=0
FAILED=0
ok() { N=$((N + 1)); echo "ok $N - $*"; }
not_ok() { N=$((N + 1)); FAILED=$((FAILED + 1)); echo "not ok $N - $*"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }

command -v qemu-system-x86_64 >/dev/null ||
	skip_all "no qemu-system-x86_64 (make test-kernel installs qemu-system-x86)"

mkdir -p "$out" || { echo "Bail out! cannot create $out"; exit 1; }
# this run's files (runs may overlap: several meson test in one build dir);
# the logs of the last run stay in $out
run=$(mktemp -d "$out/run.XXXXXX") || { echo "Bail out! cannot create a directory in $out"; exit 1; }
qpid=
cleanup() { # stop timeout and its qemu: TERM (timeout passes it on), then KILL
	[ -n "$qpid" ] || return 0
	kill -TERM "$qpid" 2>/dev/null
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$qpid" 2>/dev/null || break
		sleep 0.2
	done
	pkill -KILL -P "$qpid" 2>/dev/null
	kill -KILL "$qpid" 2>/dev/null
	qpid=
}
finish() {
	cleanup
	for f in guest-console.log guest-tap.log build.log; do
		[ -f "$run/$f" ] && mv -f "$run/$f" "$out/$f"
	done
	rm -rf "$run"
}
trap finish EXIT
trap 'finish; exit 130' INT TERM HUP

t0=$(date +%s.%N)
"$here/build-initramfs.sh" "$out" "$audiolat" "$run" 2>"$run/build.log"
rc=$?
if [ $rc -eq 77 ]; then
	skip_all "$(tail -n 1 "$run/build.log")"
elif [ $rc -ne 0 ]; then
	not_ok "build the initramfs"
	sed 's/^/# /' "$run/build.log"
	echo "1..$N"
	exit 1
fi
t1=$(date +%s.%N)
kernel=$(cat "$run/kernel")
kver=$(cat "$run/kernel-version")
ok "the kernel $kver and an initramfs with $(basename "$audiolat") ($(du -k "$run/initramfs.cpio" | cut -f1) kB, $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s to build)"

console="$run/guest-console.log"
taplog="$run/guest-tap.log"

# TCG only: /dev/kvm exists here but cannot run a stock kernel
# (-nic none: no network card, so no iPXE boot ROM to sit through).
# -icount: the guest's clock counts its instructions (8 ns each, a 125 MIPS
# CPU), and an idle guest jumps to its next timer (sleep=off): the host's
# load cannot reach a figure the guest measures, so this test runs beside
# the others (docs/kernel-tests.md, "The guest's clock"). QEMU_ICOUNT=
# (empty) runs it on the host's clock instead.
icount=${QEMU_ICOUNT-shift=3,sleep=off}
timeout -k 5 "$QEMU_TIMEOUT" qemu-system-x86_64 -accel tcg ${icount:+-icount "$icount"} -smp 1 -m 256M -nographic -no-reboot -nic none \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-audiodev none,id=snd0 -device ich9-intel-hda -device hda-duplex,audiodev=snd0 \
	-device qemu-xhci -device usb-audio,audiodev=snd0 \
	-kernel "$kernel" -initrd "$run/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 quiet${KERNEL_CHECKS:+ checks=$KERNEL_CHECKS}" \
	-serial mon:stdio -serial "file:$taplog" </dev/null >"$console" 2>&1 &
qpid=$!
wait "$qpid"
status=$?
qpid=
t2=$(date +%s.%N)
secs=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.1f", b - a }')

# relay the guest's lines, numbered on from ours; the guest's plan is checked
guest_plan=
guest_n=0
guest_failed=0
if [ -f "$taplog" ]; then
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"1.."*) guest_plan=${line#1..} ;;
		"ok "*)
			guest_n=$((guest_n + 1))
			N=$((N + 1))
			echo "ok $N ${line#ok [0-9]* }"
			;;
		"not ok "*)
			guest_n=$((guest_n + 1))
			guest_failed=$((guest_failed + 1))
			FAILED=$((FAILED + 1))
			N=$((N + 1))
			echo "not ok $N ${line#not ok [0-9]* }"
			;;
		"#"*) echo "$line" ;;
		esac
	done <"$taplog"
fi

tail_log() {
	echo "# the guest console (last 40 lines; all of it in $out/guest-console.log):"
	tail -n 40 "$console" | tr -d '\r' | sed 's/^/#   /'
}
# the guest writes at most 60 failures: odd statuses up to 121 are its report
if [ $((status % 2)) -eq 1 ] && [ "$status" -le 121 ]; then
	report=guest
else
	report=$status
fi
case $report in
guest)
	reported=$(((status - 1) / 2))
	if [ "$reported" -ne "$guest_failed" ] || [ "${guest_plan:-x}" != "$guest_n" ]; then
		not_ok "the guest's report is whole (exit status $status: $reported failed; TAP: plan ${guest_plan:-none}, $guest_n lines, $guest_failed failed)"
		tail_log
	else
		ok "the guest ran $guest_n checks and powered off ($secs s in qemu, $reported failed)"
	fi
	;;
124 | 137)
	not_ok "the guest finished within ${QEMU_TIMEOUT}s (timed out after $secs s: killed)"
	tail_log
	;;
0)
	not_ok "the guest reported its result (qemu exited 0 after $secs s: panic, reset or out of memory before the report)"
	tail_log
	;;
*)
	not_ok "qemu ran (exit status $status after $secs s)"
	tail_log
	;;
esac
echo "1..$N"
[ "$FAILED" -eq 0 ]
