#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build what the kernel tests boot: the uncompressed kernel and an initramfs.
#
#   build-initramfs.sh CACHEDIR AUDIOLAT RUNDIR
#
# CACHEDIR keeps, across runs, what only changes with its inputs (built under
# a lock: several test runs may share it):
#   vmlinux-VER        the uncompressed kernel, extracted from /boot/vmlinuz-VER
#                      (qemu boots the ELF through its PVH entry: no XZ
#                      decompression under emulation); if it cannot be
#                      extracted, "kernel" names the bzImage instead
#   base-VER.cpio      busybox, the sound modules, alsa-utils, jq, alsa-lib's
#                      configuration (rebuilt when one of them changes)
# RUNDIR gets this run's files:
#   run.cpio           the per-run part: audiolat with the libraries the base
#                      lacks, /init and the guest checks (small)
#   initramfs.cpio     base + run concatenated (the kernel unpacks both)
#   kernel             the path of the kernel to boot (one line)
#   kernel-version     VER
# No root needed: cpio sets the owners, /dev is devtmpfs in the guest.
# Exit 0 built, 77 something the build needs is missing (one line says what),
# 1 a real failure.
set -u
set -o pipefail
# byte patterns (grep -P '\xfd') need the C locale: in UTF-8, \xfd is a character
export LC_ALL=C

out=${1:?usage: build-initramfs.sh CACHEDIR AUDIOLAT RUNDIR}
audiolat=${2:?usage: build-initramfs.sh CACHEDIR AUDIOLAT RUNDIR}
rundir=${3:?usage: build-initramfs.sh CACHEDIR AUDIOLAT RUNDIR}
here=$(cd "$(dirname "$0")" && pwd)

die() { echo "build-initramfs: $*" >&2; exit 1; }
missing() { echo "build-initramfs: $*" >&2; exit 77; }

# the sound modules the guest loads (their dependencies come with them):
# the virtual cards, then the drivers of qemu's emulated hardware (HDA
# controller + generic codec, xHCI + USB audio class) and the OSS emulation
modules="snd-dummy snd-aloop snd-virmidi snd-seq-dummy snd-seq snd-seq-midi snd-hrtimer
	snd-hda-intel snd-hda-codec-generic xhci-pci snd-usb-audio snd-pcm-oss"
# alsa-utils as a cross-check, jq to read JSON in the guest
tools="aplay arecord amidi aplaymidi arecordmidi aseqdump aconnect jq"

for t in cpio depmod modprobe ldd xz flock; do
	command -v "$t" >/dev/null || missing "no $t on this machine (make test-kernel installs it)"
done
[ -x /bin/busybox ] || missing "no /bin/busybox (package busybox-static)"
file_is_static() { ! ldd "$1" >/dev/null 2>&1; }
file_is_static /bin/busybox || missing "/bin/busybox is not static (package busybox-static)"
for t in $tools; do
	command -v "$t" >/dev/null || missing "no $t on this machine (packages alsa-utils, jq)"
done
[ -f /usr/share/alsa/alsa.conf ] || missing "no /usr/share/alsa/alsa.conf (package libasound2-data)"
[ -x "$audiolat" ] || die "no audiolat binary at $audiolat"

# --- the kernel: the newest version under /lib/modules that has a bzImage
# in /boot and the sound modules
kver=
while read -r v; do
	[ -f "/boot/vmlinuz-$v" ] || continue
	[ -r "/boot/vmlinuz-$v" ] || continue
	modprobe -S "$v" --show-depends snd-dummy >/dev/null 2>&1 || continue
	kver=$v
done < <(find /lib/modules -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort -V)
[ -n "$kver" ] || missing "no kernel with sound modules: /lib/modules/VER and /boot/vmlinuz-VER (package linux-image-amd64)"

mkdir -p "$out" "$rundir" || die "cannot create $out or $rundir"
echo "$kver" >"$rundir/kernel-version"
# one builder at a time (the cache is shared); the lock goes with this process
exec 9>"$out/.lock"
flock 9 || die "cannot lock $out/.lock"

# XZ, zstd or gzip payload of the bzImage -> ELF vmlinux (cached)
extract_vmlinux() { # SRC DST
	local src=$1 dst=$2 off
	off=$(grep -obUaP '\xfd7zXZ\x00' "$src" | head -n 1 | cut -d: -f1)
	if [ -n "$off" ]; then
		tail -c +$((off + 1)) "$src" | xz -dc --single-stream >"$dst.tmp" 2>/dev/null
	else
		off=$(grep -obUaP '\x28\xb5\x2f\xfd' "$src" | head -n 1 | cut -d: -f1)
		if [ -n "$off" ] && command -v zstd >/dev/null; then
			tail -c +$((off + 1)) "$src" | zstd -dc 2>/dev/null >"$dst.tmp"
		else
			off=$(grep -obUaP '\x1f\x8b\x08\x00' "$src" | head -n 1 | cut -d: -f1)
			[ -n "$off" ] || return 1
			tail -c +$((off + 1)) "$src" | gzip -dc 2>/dev/null >"$dst.tmp"
		fi
	fi
	# only an ELF file will do (the decompressors may complain about trailing data)
	if [ "$(head -c 4 "$dst.tmp" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; then
		mv "$dst.tmp" "$dst"
		return 0
	fi
	rm -f "$dst.tmp"
	return 1
}

vmlinux="$out/vmlinux-$kver"
if [ ! -s "$vmlinux" ] || [ "/boot/vmlinuz-$kver" -nt "$vmlinux" ]; then
	rm -f "$out"/vmlinux-*
	if ! extract_vmlinux "/boot/vmlinuz-$kver" "$vmlinux"; then
		echo "build-initramfs: cannot extract the ELF kernel from /boot/vmlinuz-$kver; booting the bzImage (slower)" >&2
		vmlinux="/boot/vmlinuz-$kver"
	fi
fi
echo "$vmlinux" >"$rundir/kernel"

# --- copy a binary and its shared libraries (ldd, cp -L) into ROOT
copy_libs() { # ROOT BIN
	local root=$1 bin=$2 lib
	# "libx.so.1 => /lib/.../libx.so.1 (0x...)" and "/lib64/ld-linux-x86-64.so.2 (0x...)"
	ldd "$bin" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
	while read -r lib; do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib" || exit 1
	done
}

pack() { # DIR ARCHIVE
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$2.tmp" &&
		mv "$2.tmp" "$2"
}

# --- the base archive, rebuilt when its inputs change
base="$out/base-$kver.cpio"
stamp_inputs() {
	echo "$kver"
	sha256sum "$here/build-initramfs.sh"
	ls -lL --time-style=+%s /bin/busybox /usr/share/alsa/alsa.conf "/lib/modules/$kver/modules.dep"
	for t in $tools; do
		ls -lL --time-style=+%s "$(command -v "$t")"
		ldd "$(command -v "$t")" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | xargs ls -lL --time-style=+%s
	done
}
stamp=$(stamp_inputs | sha256sum | cut -d' ' -f1)
if [ ! -s "$base" ] || [ "$(cat "$out/base.stamp" 2>/dev/null)" != "$stamp" ]; then
	rm -f "$out"/base-*.cpio "$out/base.stamp" "$out/base.files"
	root="$out/base-root"
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,root,usr/bin,usr/share} || die "mkdir $root"

	cp /bin/busybox "$root/bin/busybox" || die "copy busybox"
	for a in $(/bin/busybox --list); do
		[ "$a" = busybox ] || ln -sf busybox "$root/bin/$a"
	done
	for a in modprobe insmod rmmod lsmod depmod poweroff reboot halt; do
		ln -sf ../bin/busybox "$root/sbin/$a"
	done

	# the modules and their dependencies
	mdir="$root/lib/modules/$kver"
	mkdir -p "$mdir"
	for m in $modules; do
		modprobe -S "$kver" --show-depends "$m" 2>/dev/null ||
			die "modprobe -S $kver --show-depends $m failed"
	done | awk '$1 == "insmod" { print $2 }' | sort -u >"$out/modules.list"
	[ -s "$out/modules.list" ] || die "no sound modules found for $kver"
	while read -r ko; do
		dst="$root$ko"
		mkdir -p "$(dirname "$dst")"
		case $ko in
		*.ko.xz) xz -dc "$ko" >"${dst%.xz}" || die "unpack $ko" ;;
		*.ko.zst) zstd -dcq "$ko" >"${dst%.zst}" || die "unpack $ko" ;;
		*.ko.gz) gzip -dc "$ko" >"${dst%.gz}" || die "unpack $ko" ;;
		*) cp "$ko" "$dst" || die "copy $ko" ;;
		esac
	done <"$out/modules.list"
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		[ -f "/lib/modules/$kver/$f" ] && cp "/lib/modules/$kver/$f" "$mdir/"
	done
	depmod -b "$root" "$kver" 2>"$out/depmod.log" || die "depmod -b failed: $(head -n 3 "$out/depmod.log")"

	# alsa-utils, jq and their libraries; alsa-lib's configuration
	for t in $tools; do
		cp -L "$(command -v "$t")" "$root/usr/bin/$t" || die "copy $t"
		copy_libs "$root" "$(command -v "$t")" || die "libraries of $t"
	done
	mkdir -p "$root/usr/share/alsa"
	cp /usr/share/alsa/alsa.conf "$root/usr/share/alsa/"
	for d in cards pcm ctl; do
		[ -d "/usr/share/alsa/$d" ] && cp -rL "/usr/share/alsa/$d" "$root/usr/share/alsa/"
	done

	printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
	printf 'root:x:0:\naudio:x:29:\n' >"$root/etc/group"
	echo audiolat-guest >"$root/etc/hostname"

	(cd "$root" && find . -type f) >"$out/base.files"
	pack "$root" "$base" || die "cpio of the base failed"
	echo "$stamp" >"$out/base.stamp"
	rm -rf "$root"
fi

# --- the per-run archive: audiolat, /init, the checks
root="$rundir/run-root"
rm -rf "$root"
mkdir -p "$root/usr/bin" "$root/usr/lib/audiolat-guest" || die "mkdir $root"
cp -L "$audiolat" "$root/usr/bin/audiolat" || die "copy $audiolat"
copy_libs "$root" "$audiolat" || die "libraries of audiolat"
# the truth matrix's faults of known size (tests/truth), built beside audiolat
truth=${TRUTH_TOOLS_DIR:-$(dirname "$audiolat")/../../tests/truth}
for t in truth-stall truth-hog; do
	[ -x "$truth/$t" ] || die "no $t in $truth (build the tests)"
	cp -L "$truth/$t" "$root/usr/bin/$t" || die "copy $t"
	copy_libs "$root" "$truth/$t" || die "libraries of $t"
done
# the libraries the base already holds (same host files: the stamp covers them)
# stay out of the per-run part
while read -r f; do
	f=${f#.}
	[ -f "$root$f" ] && cmp -s "$root$f" "$f" 2>/dev/null && rm -f "$root$f"
done <"$out/base.files"
install -m 0755 "$here/guest-init.sh" "$root/init" || die "copy guest-init.sh"
install -m 0644 "$here/guest-checks.sh" "$root/usr/lib/audiolat-guest/checks.sh" || die "copy guest-checks.sh"
# what this build has, as meson configured it (tests/meson.build): the
# guest's checks skip a backend only on this word, never on audiolat's
printf '%s\n' "${AUDIOLAT_BUILT:-}" >"$root/usr/lib/audiolat-guest/built" || die "write the build's backends"
pack "$root" "$rundir/run.cpio" || die "cpio of the run part failed"
rm -rf "$root"

cat "$base" "$rundir/run.cpio" >"$rundir/initramfs.cpio" || die "cannot write $rundir/initramfs.cpio"
exit 0
