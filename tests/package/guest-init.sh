#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of the package test's qemu guest (tests/package/package.sh):
# the host's / (read-only over 9p) is the lower layer of an overlay on a
# tmpfs, and /guest-user.sh runs chrooted in it, as the guest's root, which
# has every capability (the host's sandbox lacks CAP_SYS_RESOURCE, so there
# pam_limits cannot raise the rtprio hard limit). Its report goes to
# /dev/ttyS1; then the guest powers off. The kernel command line gives
# al_deb=, the package's path on the host.
/bin/busybox mkdir -p /proc /sys /dev /lower /ovl /bin
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
report() { echo "$*" >/dev/ttyS1; }
fail() { report "guest: $*"; echo 1 >/proc/sys/kernel/sysrq; poweroff -f; }
for m in $(cat /modules); do
	insmod "$m" || fail "insmod $m"
done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144,cache=loose hostroot /lower ||
	fail "the host's / over 9p"
mount -t tmpfs -o mode=0755 ovl /ovl && mkdir /ovl/upper /ovl/work /ovl/root &&
	mount -t overlay -o lowerdir=/lower,upperdir=/ovl/upper,workdir=/ovl/work overlay /ovl/root ||
	fail "the overlay"
R=/ovl/root
mount -t proc proc $R/proc && mount -t sysfs sys $R/sys && mount -t devtmpfs dev $R/dev &&
	mkdir -p $R/dev/shm && mount -t tmpfs -o mode=1777 shm $R/dev/shm ||
	fail "proc, sys, dev and /dev/shm in the overlay"
cp /guest-user.sh $R/guest-user.sh
deb=$(sed -n 's/.*al_deb=\([^ ]*\).*/\1/p' /proc/cmdline)
chroot $R /bin/bash /guest-user.sh "$deb" >/dev/ttyS1 2>&1
report "guest: done $?"
poweroff -f
