#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages of scripts/packages.txt that are missing.
# As root it runs apt-get; otherwise it prints the command to run.
# A line "extract PACKAGE" is not installed: its .deb is fetched and
# unpacked into $AUDIOLAT_DEPS_DIR/PACKAGE (default build/deps), for the
# tests that need a file of it without what installing it does to the
# machine (pipewire-alsa makes PipeWire the default ALSA device).
set -u
here=$(cd "$(dirname "$0")" && pwd)
deps_dir=${AUDIOLAT_DEPS_DIR:-$here/../build/deps}
mapfile -t lines < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/packages.txt")
missing=()
extract=()
for l in "${lines[@]}"; do
	read -r a b <<<"$l"
	if [ "$a" = extract ]; then
		[ -d "$deps_dir/$b" ] || extract+=("$b")
		continue
	fi
	status=$(dpkg-query -W -f='${Status}' "$a" 2>/dev/null)
	[ "$status" = "install ok installed" ] || missing+=("$a")
done
[ ${#missing[@]} -eq 0 ] && [ ${#extract[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	[ ${#missing[@]} -eq 0 ] || {
		echo "install-deps: missing packages: ${missing[*]}" >&2
		echo "install-deps: run as root: apt-get install ${missing[*]}" >&2
	}
	[ ${#extract[@]} -eq 0 ] || echo "install-deps: not fetched (needs root's apt): ${extract[*]}" >&2
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -gt 0 ]; then
	echo "install-deps: installing ${missing[*]}" >&2
	if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/audiolat-apt.log 2>&1; then
		apt-get update -q >>/tmp/audiolat-apt.log 2>&1
		if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >>/tmp/audiolat-apt.log 2>&1; then
			tail -n 20 /tmp/audiolat-apt.log >&2
			echo "install-deps: apt-get install failed (log: /tmp/audiolat-apt.log)" >&2
			exit 1
		fi
	fi
fi
for p in "${extract[@]}"; do
	echo "install-deps: fetching $p into $deps_dir/$p (not installed)" >&2
	tmp=$(mktemp -d)
	if ! (cd "$tmp" && { apt-get download -q "$p" || { apt-get update -q && apt-get download -q "$p"; }; }) \
		>>/tmp/audiolat-apt.log 2>&1 || ! mkdir -p "$deps_dir" ||
		! dpkg-deb -x "$tmp"/"${p}"_*.deb "$deps_dir/$p.new"; then
		rm -rf "$tmp" "$deps_dir/$p.new"
		echo "install-deps: fetching $p failed (log: /tmp/audiolat-apt.log)" >&2
		exit 1
	fi
	mv "$deps_dir/$p.new" "$deps_dir/$p"
	rm -rf "$tmp"
done
exit 0
