#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# In the package test's qemu guest, chrooted in an overlay of the host's /
# (tests/package/guest-init.sh), as a root with every capability: unpack
# the package, make a user in the audio group, enable jackd2's limits the
# way `dpkg-reconfigure -p high jackd2` does, and run audiolat as the user
# through su's PAM session. Prints each step's output between
# "@@begin NAME" and "@@end NAME RC MS" lines for package.sh to check;
# judges nothing itself.
#   guest-user.sh DEB
deb=$1
user=audiolat-pkg-test
export DEBIAN_FRONTEND=noninteractive PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# step NAME CMD...: run CMD, print its output (stdout and stderr) and status
step() {
	local name=$1 rc t_ms
	shift
	t_ms=$(($(date +%s%N) / 1000000))
	"$@" >/tmp/step.out 2>&1
	rc=$?
	echo "@@begin $name"
	sed 's/^/| /' /tmp/step.out
	echo "@@end $name $rc $(($(date +%s%N) / 1000000 - t_ms)) ms"
}
# as_user CMD: CMD as the user in a PAM session, from Debian's default limits
as_user() {
	(ulimit -r 0 && ulimit -l 8192 && exec su -l "$user" -c "$1")
}
# the package's files, as dpkg -i puts them (dpkg -i itself reads its
# database of 150 000 files over 9p under emulation: minutes; the host's
# scratch root installs it with dpkg -i)
step unpack dpkg-deb -x "$deb" /
step useradd useradd --create-home --shell /bin/bash --groups audio "$user"
step reconfigure sh -c 'echo "jackd2 jackd/tweak_rt_limits boolean true" | debconf-set-selections &&
	dpkg-reconfigure jackd2 && cat /etc/security/limits.d/audio.conf'
step limits as_user 'id -nG; ulimit -r; ulimit -l'
step run as_user 'audiolat run -d 2s --no-db --json /tmp/run.json 2>&1;
	jq -c "{realtime, priority, memory_locked, periods: .total.periods, warnings}" /tmp/run.json'
step check as_user 'audiolat check --json - | jq -c "[.checks[] | select(.id | IN(\"rtprio\", \"memlock\", \"audio_group\", \"sched_fifo\")) | {id, status, message}]"'
