#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of the kernel-test guest (busybox sh). Mounts the pseudo file
# systems, loads the virtual sound drivers, runs every check of
# /usr/lib/audiolat-guest/checks.sh under a timeout, writes one TAP line per
# check to /dev/ttyS1 (the host's second serial port, a file), then writes
# the number of failed checks to the isa-debug-exit port (qemu exits with
# 2 * failed + 1) and powers off. Nothing here may wait forever: a check
# that hangs is killed by its timeout, the host kills qemu after its own.
/bin/busybox mount -t devtmpfs devtmpfs /dev
exec </dev/null >/dev/console 2>&1
export PATH=/usr/bin:/bin:/sbin
export HOME=/root TMPDIR=/tmp XDG_DATA_HOME=/tmp/data LANG=C
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
hostname audiolat-guest
read -r t_init _ </proc/uptime

CHECKS=/usr/lib/audiolat-guest/checks.sh
TAP=/dev/ttyS1
[ -c "$TAP" ] || TAP=/dev/console
# the checks read this: which drivers failed to load
: >/tmp/modprobe.log
for m in snd-dummy snd-aloop snd-virmidi snd-seq-dummy snd-seq-midi snd-hrtimer \
	snd-hda-intel snd-hda-codec-generic xhci-pci snd-usb-audio snd-pcm-oss; do
	modprobe "$m" >>/tmp/modprobe.log 2>&1 || echo "modprobe $m failed" >>/tmp/modprobe.log
done
# qemu's HDA controller (PCI class 0x0403): on a loaded host its codec can
# answer too late for the driver's probe ("Cannot probe codecs, giving
# up": no card). Wait for the card (the probe runs after modprobe returns);
# without it, reload the driver, at most 3 times; the checks show the log.
probes() { dmesg | grep -c 'Cannot probe codecs'; }
if grep -qs '^0x0403' /sys/bus/pci/devices/*/class; then
	for attempt in 1 2 3; do
		seen=$(probes) i=0
		while [ $i -lt 100 ] && ! grep -q 'HDA-Intel' /proc/asound/cards &&
			[ "$(probes)" -eq "$seen" ]; do
			sleep 0.1
			i=$((i + 1))
		done
		grep -q 'HDA-Intel' /proc/asound/cards && break
		echo "snd-hda-intel: no HDA card after attempt $attempt (codec probe timed out); reloading" \
			>>/tmp/modprobe.log
		modprobe -r snd-hda-codec-generic snd-hda-intel >>/tmp/modprobe.log 2>&1
		modprobe snd-hda-intel >>/tmp/modprobe.log 2>&1 && modprobe snd-hda-codec-generic >>/tmp/modprobe.log 2>&1
	done
fi
read -r t_drivers _ </proc/uptime

tap() { echo "$*" >>"$TAP"; }

# kill every process but this one (kernel threads have no exe): nothing a
# check started survives into the next check
reap() {
	for p in /proc/[0-9]*; do
		pid=${p#/proc/}
		[ "$pid" = 1 ] && continue
		readlink "$p/exe" >/dev/null 2>&1 || continue
		kill -9 "$pid" 2>/dev/null
	done
}

# qemu's isa-debug-exit at 0xf4: exit status (byte << 1) | 1
debug_exit() {
	n=$1
	[ "$n" -gt 60 ] && n=60
	# shellcheck disable=SC2059
	printf "\\$(printf %03o "$n")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
}

sh "$CHECKS" --list >/tmp/checks.all 2>/tmp/checks.err
# checks=a,b on the kernel command line (run-guest.sh: KERNEL_CHECKS) runs only those
if [ -n "${checks:-}" ]; then
	for c in $(echo "$checks" | tr , ' '); do grep "^$c " /tmp/checks.all; done >/tmp/checks.list
else
	cp /tmp/checks.all /tmp/checks.list
fi
total=$(wc -l </tmp/checks.list)
tap "# guest: kernel $(uname -r), at /init after ${t_init}s, drivers loaded after ${t_drivers}s"
n=0
failed=0
if [ "$total" -gt 0 ]; then
	tap "1..$total"
else
	failed=1
	tap "1..1"
	tap "not ok 1 - the guest found its checks"
	sed 's/^/#   /' /tmp/checks.err >>"$TAP"
fi
while read -r name tmo desc; do
	n=$((n + 1))
	log=/tmp/check-$name.log
	read -r t_a _ </proc/uptime
	# the check's own time limit; KILL, since a stuck check may ignore TERM
	timeout -s KILL "$tmo" sh "$CHECKS" "$name" </dev/null >"$log" 2>&1
	rc=$?
	reap
	read -r t_b _ </proc/uptime
	took=$(awk -v a="$t_a" -v b="$t_b" 'BEGIN { printf "%.1f", b - a }')
	case $rc in
	0)
		tap "ok $n - $desc"
		tap "#   ${took}s in the guest"
		;;
	77)
		reason=$(sed -n 's/^SKIP: //p' "$log" | head -n 1)
		tap "ok $n - $desc # SKIP ${reason:-no reason given}"
		;;
	*)
		failed=$((failed + 1))
		tap "not ok $n - $desc"
		[ "$rc" -eq 137 ] && tap "# killed after its time limit of ${tmo}s"
		tap "# exit status $rc; the check said:"
		tail -n 40 "$log" | sed 's/^/#   /' >>"$TAP"
		;;
	esac
	# figures the check saw (never asserted: TCG timing means nothing)
	[ "$rc" -eq 0 ] && sed -n 's/^INFO: /#   /p' "$log" >>"$TAP"
done </tmp/checks.list
read -r t_end _ </proc/uptime
tap "# guest: $failed of $total checks failed, done after ${t_end}s"
sync
debug_exit "$failed"
# not reached unless the port write failed: the host sees exit status 0
poweroff -f
