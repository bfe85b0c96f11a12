#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages of scripts/packages.txt that are missing.
# As root it runs apt-get; otherwise it prints the command to run.
set -u
here=$(cd "$(dirname "$0")" && pwd)
mapfile -t wanted < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/packages.txt")
missing=()
for p in "${wanted[@]}"; do
	p=${p//[[:space:]]/}
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	[ "$status" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages: ${missing[*]}" >&2
	echo "install-deps: run as root: apt-get install ${missing[*]}" >&2
	exit 0
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/audiolat-apt.log 2>&1; then
	apt-get update -q >>/tmp/audiolat-apt.log 2>&1
	if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >>/tmp/audiolat-apt.log 2>&1; then
		tail -n 20 /tmp/audiolat-apt.log >&2
		echo "install-deps: apt-get install failed (log: /tmp/audiolat-apt.log)" >&2
		exit 1
	fi
fi
exit 0
