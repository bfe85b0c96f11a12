#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The release, built once: the tarball `meson dist` packs (the commit, with
# .tarball-version: its git describe, since a tarball has no git) holds
# exactly the commit's files; unpacked, offline (a network namespace with
# only loopback), dpkg-buildpackage -us -uc -b builds the Debian package
# from it (DEB_BUILD_OPTIONS=nocheck: make test runs the suites; Debian's
# flags, -O2 and hardening=+all, warning-free); that build's audiolat
# --version names the commit, and it measures the simulated card offline.
# (Until 2026-12-07 the tarball was built and tested by a test of its own,
# package-dist: a second build of everything and the unit suite, 80
# core-s of the 709 of make test's untimed part.) Then the
# package as a user gets it: lintian (no error; every warning is one that
# docs/packaging.md lists and justifies), its contents and dependencies;
# then installed with dpkg -i into a scratch root (an overlay of / in a
# private mount namespace: the machine's own /usr, /etc and dpkg database
# are never written) where an unprivileged user in the audio group, logged
# in through su's PAM session (pam_limits), runs audiolat run -d 2s, check
# and midi analyze:
#   - with the limits jackd2 installs (dpkg-reconfigure jackd2 with
#     jackd/tweak_rt_limits true: /etc/security/limits.d/audio.conf):
#     SCHED_FIFO and mlockall granted ("realtime": true), no warning; where
#     this machine's root cannot raise hard limits (no CAP_SYS_RESOURCE: this
#     sandbox), in a qemu guest instead (guest-init.sh, guest-user.sh);
#   - without them (the debconf answer false, as Debian installs jackd2):
#     one warning naming that file, SCHED_OTHER, "realtime": false;
#   - the results database in the user's $XDG_DATA_HOME, and nothing the
#     user's commands wrote anywhere else (every path the overlay's upper
#     layer gained or changed, and a private /dev/shm).
# Not root: the tarball and the build, not the installation.
# Cleanup: the scratch root (package, user, home, limits) is removed, and
# the check of that fails when there was nothing to remove.
# Cost: one build of audiolat without its tests, lintian, the guest (it
# prints its figures, docs/packaging.md).
set -u
# a private mount namespace first (before lib.sh makes its temp directory):
# whatever is mounted here goes when the test ends, however it ends
if [ "$(id -u)" -eq 0 ] && [ -z "${AL_PKG_NS:-}" ] && unshare --mount --propagation private true 2>/dev/null; then
	exec env AL_PKG_NS=1 unshare --mount --propagation private "$BASH" "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
top=$(cd "$TESTS_DIR/.." && pwd)
for t in meson ninja tar xz dpkg-buildpackage dh lintian dpkg-deb jq; do
	command -v "$t" >/dev/null || t_bail "$t is installed (scripts/packages.txt)"
done
ver=$(sed -n "s/^  version: '\([^']*\)'.*/\1/p" "$top/meson.build")
[ -n "$ver" ] || t_bail "meson.build names the project version"
USER_NAME=audiolat-pkg-test
LIMITS=/etc/security/limits.d/audio.conf
# what the tests that run inside the package's build must not inherit from this one
inner_env=(env -u AUDIOLAT -u TESTS_DIR -u BUILD_DIR -u XDG_DATA_HOME -u PTY_RUN -u MESON_TEST_ITERATION)
# offline: a new network namespace, loopback up (root, or an unprivileged
# user namespace where the machine allows one)
offline=()
if unshare --net true 2>/dev/null; then
	offline=(unshare --net sh -c 'ip link set lo up 2>/dev/null; exec "$@"' offline)
elif unshare --net --map-root-user true 2>/dev/null; then
	offline=(unshare --net --map-root-user sh -c 'ip link set lo up 2>/dev/null; exec "$@"' offline)
fi
t0=$EPOCHSECONDS

# -------------------------------------------------------------- tarball ----
mkdir -p "$T_TMP/src"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$top" diff-index --quiet HEAD -- ||
		echo "# the work tree has uncommitted changes: the tarball and the package are the commit $(git -C "$top" rev-parse --short HEAD), without them"
	commit_version=$("$top/scripts/version.sh" "$ver" --commit)
	dist="$BUILD_DIR/meson-dist/audiolat-$ver.tar.xz"
	rm -f "$dist" "$dist.sha256sum"
	"${inner_env[@]}" meson dist -C "$BUILD_DIR" --no-tests --allow-dirty --formats xztar >"$T_TMP/dist.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || tail -n 20 "$T_TMP/dist.log" | sed 's/^/#   meson dist: /'
	t_result $rc "meson dist makes the tarball"
	[ -s "$dist" ] || t_bail "meson dist wrote $dist"
	echo "# $(basename "$dist"): $(stat -c %s "$dist") bytes"
	t_true "it unpacks" tar -C "$T_TMP/src" -xf "$dist"
	t_true "into one directory, audiolat-$ver" test "$(ls "$T_TMP/src")" = "audiolat-$ver"
	src="$T_TMP/src/audiolat-$ver"
	t_true "it carries the commit's version in .tarball-version ($commit_version)" \
		test "$(cat "$src/.tarball-version" 2>&1)" = "$commit_version"
	t_true "it has no .git" test ! -e "$src/.git"
	# every file of the commit is in it, and nothing else but .tarball-version
	git -C "$top" ls-tree -r --name-only HEAD | LC_ALL=C sort >"$T_TMP/committed"
	(cd "$src" && find . -type f -o -type l | sed 's,^\./,,' | grep -vx '.tarball-version' | LC_ALL=C sort) >"$T_TMP/packed"
	diff "$T_TMP/committed" "$T_TMP/packed" | head -n 20 | sed 's/^/# committed<, packed>: /'
	t_true "it holds exactly the commit's $(wc -l <"$T_TMP/committed") files (debian/ too)" cmp -s "$T_TMP/committed" "$T_TMP/packed"
else
	# a tarball itself: the tree as it is
	t_skip "meson dist makes the tarball" "not a git checkout (a tarball itself): meson dist packs a git commit"
	src="$T_TMP/src/audiolat-$ver"
	mkdir -p "$src"
	tar -C "$top" --exclude=./build --exclude='./build-*' --exclude='./obj-*' \
		--exclude="./$(realpath --relative-to="$top" "$BUILD_DIR")" -cf - . | tar -C "$src" -xf -
	commit_version=$(cat "$src/.tarball-version" 2>/dev/null)
fi
[ -s "$src/debian/control" ] || t_bail "the source has debian/"

# ---------------------------------------------------------------- build ----
if [ ${#offline[@]} -eq 0 ]; then
	t_skip "the build runs offline" "no network namespace: not root, and no unprivileged user namespace here"
else
	t_true "the build runs offline (no network device but loopback)" \
		"${offline[@]}" sh -c 'test "$(ip -o link show | cut -d: -f2 | tr -d " " | paste -sd" ")" = lo'
fi
t1=$EPOCHSECONDS
(cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" "${inner_env[@]}" "${offline[@]}" \
	dpkg-buildpackage -us -uc -b) >"$T_TMP/build.log" 2>&1
rc=$?
[ $rc -eq 0 ] || tail -n 40 "$T_TMP/build.log" | sed 's/^/#   build: /'
t_result $rc "dpkg-buildpackage -us -uc -b builds it from the tarball (DEB_BUILD_OPTIONS=nocheck, no network)"
t_nogrep "$T_TMP/build.log" 'warning:' "warning-free with Debian's flags (-O2, hardening=+all)"
t_build=$((EPOCHSECONDS - t1))
arch=$(dpkg --print-architecture)
deb="$T_TMP/src/audiolat_${ver}_$arch.deb"
changes="$T_TMP/src/audiolat_${ver}_$arch.changes"
[ -s "$deb" ] || t_bail "the build made $(basename "$deb")"
# for a person who wants to install what make test built
mkdir -p "$BUILD_DIR/package" && cp "$deb" "$BUILD_DIR/package/"
obj=$(ls -d "$src"/obj-* 2>/dev/null | head -n 1)
[ -n "$obj" ] && [ -x "$obj/src/cli/audiolat" ] || t_bail "the package's build tree (obj-*) has src/cli/audiolat"

# (not its unit suite again: that took the test from 112 s to 190 s
# beside the rest of make test, for the same files as the suites make
# test runs around it: the tarball holds exactly the commit's, above)
"$obj/src/cli/audiolat" --version >"$T_TMP/version" 2>&1
t_true "its audiolat --version says $commit_version (no git to ask)" \
	test "$(head -n 1 "$T_TMP/version")" = "audiolat $commit_version"
"${inner_env[@]}" "${offline[@]}" "$obj/src/cli/audiolat" run -b sim -d 1s -q --no-db --json "$T_TMP/sim.json" \
	>"$T_TMP/sim.out" 2>&1
t_result $? "it measures the simulated card offline (run -b sim -d 1s)"
t_json "... and its document has periods, a p50 and the tarball's version" --arg v "$commit_version" \
	'.total.periods > 100 and .total.wake_latency_ns.p50 != null and .tool_version == $v' "$T_TMP/sim.json"

# every library meson found came from a package debian/control names
grep -h '^Run-time dependency .* found: YES' "$src"/obj-*/meson-logs/meson-log.txt |
	awk '{ print $3 }' | sort -u >"$T_TMP/found"
t_true "meson found the libraries (the build log names them)" test -s "$T_TMP/found"
: >"$T_TMP/undeclared"
while read -r d; do
	pc=$(pkg-config --variable=pcfiledir "$d" 2>/dev/null)/$d.pc
	[ -f "$pc" ] || continue # threads: no pkg-config file, libc's
	p=$(dpkg -S "$pc" 2>/dev/null | sed 's/:.*//' | head -n 1)
	sed -e '/^Build-Depends:/,/^[A-Z]/!d' "$src/debian/control" | grep -Eq "^(Build-Depends:)?[[:space:]]*$p\b" ||
		echo "$d ($pc, package ${p:-none})" >>"$T_TMP/undeclared"
done <"$T_TMP/found"
t_empty "$T_TMP/undeclared" "each of the $(wc -l <"$T_TMP/found") libraries meson found ($(paste -sd' ' "$T_TMP/found")) is a Build-Depends package"

# ---------------------------------------------------------------- lintian --
t1=$EPOCHSECONDS
lintian --tag-display-limit 0 "$changes" >"$T_TMP/lintian" 2>&1
lintian_rc=$?
t_lintian=$((EPOCHSECONDS - t1))
sed 's/^/#   lintian: /' "$T_TMP/lintian"
t_nogrep "$T_TMP/lintian" '^E: ' "lintian: no error"
[ "$lintian_rc" -eq 0 ]
t_result $? "lintian exits 0 (exit $lintian_rc)"
sed -n 's/^W: [^ ]*: \([a-z0-9-]*\).*/\1/p' "$T_TMP/lintian" | LC_ALL=C sort -u >"$T_TMP/warned"
# docs/packaging.md's lintian section: a table whose first column is `tag`
sed -n '/^## lintian/,/^## /s/^| `\([a-z0-9-]*\)`.*/\1/p' "$top/docs/packaging.md" | LC_ALL=C sort -u >"$T_TMP/listed"
LC_ALL=C comm -23 "$T_TMP/warned" "$T_TMP/listed" >"$T_TMP/unlisted"
t_empty "$T_TMP/unlisted" "every lintian warning ($(wc -l <"$T_TMP/warned")) is listed and justified in docs/packaging.md"
LC_ALL=C comm -13 "$T_TMP/warned" "$T_TMP/listed" >"$T_TMP/stale"
t_empty "$T_TMP/stale" "docs/packaging.md lists no warning lintian no longer gives"

# ---------------------------------------------------------------- contents -
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's,^\./,/,' >"$T_TMP/contents"
has() { grep -Eqx -- "$1" "$T_TMP/contents"; }
: >"$T_TMP/missing"
for f in /usr/bin/audiolat /usr/share/bash-completion/completions/audiolat \
	/usr/share/doc/audiolat/copyright /usr/share/doc/audiolat/changelog.gz; do
	has "$f" || echo "$f" >>"$T_TMP/missing"
done
for m in "$top"/docs/man/*.1; do
	has "/usr/share/man/man1/$(basename "$m").gz" || echo "man page $(basename "$m")" >>"$T_TMP/missing"
done
for d in "$top"/README.md "$top"/docs/*.md; do
	has "/usr/share/doc/audiolat/$(basename "$d")(.gz)?" || echo "doc $(basename "$d")" >>"$T_TMP/missing"
done
has /usr/lib/systemd/system/audiolat-monitor.service || echo "contrib/audiolat-monitor.service" >>"$T_TMP/missing"
t_empty "$T_TMP/missing" "the package holds the binary, completion, monitor unit, $(ls "$top"/docs/man/*.1 | wc -l) man pages and the documentation"
dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/lib/systemd/system/audiolat-monitor.service >"$T_TMP/unit" 2>&1
t_grep "$T_TMP/unit" '^ExecStart=/usr/bin/audiolat monitor ' "the monitor unit starts the packaged /usr/bin/audiolat"
# installed under /usr only (and its docs): nothing in /etc, nothing in /usr/local
t_nogrep "$T_TMP/contents" '^/(etc|usr/local|var|opt)/' "nothing outside /usr"
dpkg-deb -f "$deb" Depends | tr ',|' '\n\n' | sed 's/(.*//; s/[[:space:]]//g' | grep -v '^$' >"$T_TMP/depends"
t_true "it depends on something (the shared libraries)" test -s "$T_TMP/depends"
t_nogrep "$T_TMP/depends" '^[^l]|^l[^i]|^li[^b]' "Depends: shared libraries only ($(paste -sd' ' "$T_TMP/depends"))"
rs=$(dpkg-deb -f "$deb" Recommends Suggests | tr ',|' '\n\n' | sed 's/.*: //; s/(.*//; s/[[:space:]]//g' | grep -v '^$' | paste -sd' ')
for p in jackd2 pipewire rt-tests; do
	[[ " $rs " == *" $p "* ]]
	t_result $? "$p is recommended or suggested ($rs)"
done

# ------------------------------------------------------ the scratch root ---
if [ "$(id -u)" -ne 0 ]; then
	t_skip "the package installed and used (dpkg -i, useradd, chroot, su)" "not root: installing the package needs root"
	echo "# cost: build $t_build s, lintian $t_lintian s; all $((EPOCHSECONDS - t0)) s"
	t_done
	exit
fi
[ "${AL_PKG_NS:-}" = 1 ] || t_bail "a private mount namespace (unshare --mount) for the scratch root"
for t in chroot su useradd mount debconf-set-selections; do
	command -v "$t" >/dev/null || t_bail "$t is installed (scripts/packages.txt)"
done
[ -s /usr/share/jackd/audio.conf ] || t_bail "jackd2 is installed (its /usr/share/jackd/audio.conf: the audio group's limits)"
# a tmpfs outside $T_TMP (never under a rm -rf) holds the overlay's upper
# layer and its mount point; the lower layer is the machine's /
getent passwd "$USER_NAME" >/dev/null && t_bail "no user $USER_NAME on this machine before the test"
host_pkg=$(dpkg-query -W -f='${Status}' audiolat 2>/dev/null)
host_bin=$([ -e /usr/bin/audiolat ] && echo yes || echo no)
host_limits=$(ls -a /etc/security/limits.d/ | paste -sd' ')
S=$(mktemp -d /tmp/audiolat-pkg-root.XXXXXX) || t_bail "a directory for the scratch root"
R="$S/root"
U="$S/upper"
scratch_down() {
	mountpoint -q "$R" && umount -R "$R"
	mountpoint -q "$S" && umount "$S"
	rmdir "$S" 2>/dev/null
}
trap 'scratch_down; rm -rf "$T_TMP"' EXIT
mount -t tmpfs -o mode=0755,size=2g audiolat-pkg "$S" && mkdir "$U" "$S/work" "$R" &&
	mount -t overlay audiolat-pkg -o "lowerdir=/,upperdir=$U,workdir=$S/work" "$R" &&
	mount -t proc proc "$R/proc" && mount --rbind /sys "$R/sys" && mount --rbind /dev "$R/dev" &&
	mount -t tmpfs -o mode=1777 audiolat-pkg-shm "$R/dev/shm" ||
	t_bail "the scratch root: an overlay of / on a tmpfs, with /proc, /sys, /dev and a private /dev/shm"
in_root() { chroot "$R" "$@"; }

cp "$deb" "$R/root/" || t_bail "the package copied into the scratch root"
t1=$EPOCHSECONDS
t_exit 0 "dpkg -i installs it into the scratch root" in_root dpkg -i "/root/$(basename "$deb")"
t_install=$((EPOCHSECONDS - t1))
t_true "the scratch root has /usr/bin/audiolat" test -x "$R/usr/bin/audiolat"
t_true "installing it enables no service" test ! -e "$R/etc/systemd/system/multi-user.target.wants/audiolat-monitor.service"
t_true "the machine's own /usr/bin is untouched" test "$host_bin" = "$([ -e /usr/bin/audiolat ] && echo yes || echo no)"
t_exit 0 "a user in the audio group" in_root useradd --create-home --shell /bin/bash --groups audio "$USER_NAME"
uid=$(in_root id -u "$USER_NAME")
home=$(in_root getent passwd "$USER_NAME" | cut -d: -f6)
[ -n "$uid" ] && [ -d "$R$home" ] || t_bail "the user $USER_NAME has a uid and a home"
XDG="$home/.local/data"
in_root su -l "$USER_NAME" -c "mkdir -p '$XDG'" || t_bail "the user makes its XDG_DATA_HOME"
# a MIDI file of 6 note-ons, 1 ms ticks (500 per quarter at 120 bpm),
# deltas 100, 95, 105, 100, 100 ms
printf 'MThd\0\0\0\6\0\0\0\1\1\364MTrk\0\0\0\34\0\220\74\144\144\220\76\144\137\220\100\144\151\220\101\144\144\220\103\144\144\220\105\144\0\377\57\0' \
	>"$R$home/ten-hz.mid"
chmod 644 "$R$home/ten-hz.mid"

# as_user NAME CMD: CMD (a shell line) as the user, logged in through su's
# PAM session (pam_limits applies the limits files), from a parent with
# Debian's default limits (rtprio 0, memlock 8 MiB) so that only the files
# can raise them. Its stdout in $T_TMP/NAME.out, its stderr in NAME.err.
as_user() {
	(ulimit -r 0 && ulimit -l 8192 &&
		exec chroot "$R" su -l "$USER_NAME" -c "export XDG_DATA_HOME='$XDG'; $2") \
		>"$T_TMP/$1.out" 2>"$T_TMP/$1.err"
}
# snap FILE: every path of the upper layer with its type, size and times
snap() {
	(cd "$U" && find . -xdev -printf '%p\t%y\t%s\t%T@\t%C@\n' | LC_ALL=C sort) >"$1"
}
# the paths added, changed or removed between two snaps, but those under $XDG
written_outside() { # BEFORE AFTER
	LC_ALL=C comm -3 "$1" "$2" | sed 's/^\t//' | cut -f1 | LC_ALL=C sort -u |
		grep -vx -e ".$XDG" -e "\.$XDG/.*"
}

# --------------------------------------------- with jackd2's limits -------
# what `dpkg-reconfigure -p high jackd2` does when the user says yes
echo "jackd2 jackd/tweak_rt_limits boolean true" | in_root debconf-set-selections &&
	in_root dpkg-reconfigure -f noninteractive jackd2 >"$OUT" 2>"$ERR"
t_result $? "dpkg-reconfigure jackd2 (jackd/tweak_rt_limits true) in the scratch root"
t_true "it enables $LIMITS, the file jackd2 ships" cmp "$R$LIMITS" /usr/share/jackd/audio.conf
t_grep "$R$LIMITS" '^@audio +- +rtprio +95' "... @audio rtprio 95"
t_grep "$R$LIMITS" '^@audio +- +memlock +unlimited' "... @audio memlock unlimited"
as_user id 'id -nG; ulimit -r; ulimit -l'
t_grep "$T_TMP/id.out" '(^| )audio( |$)' "the user's session is in the audio group"
# pam_limits raises the hard limits only with CAP_SYS_RESOURCE: a sandbox's
# root may lack it (this one does), and then nothing on the machine can
# grant SCHED_FIFO through limits: the qemu guest below does it instead
if [ $((0x$(awk '/^CapBnd:/ { print $2 }' /proc/self/status) >> 24 & 1)) -eq 1 ]; then
	can_raise=1
	t_true "its session has rtprio 95 and memlock unlimited" test "$(sed -n '2,3p' "$T_TMP/id.out" | paste -sd' ')" = "95 unlimited"
else
	can_raise=0
	no_raise="this machine's root lacks CAP_SYS_RESOURCE (its bounding set): pam_limits cannot raise the hard limits; the qemu guest checks this"
	t_skip "its session has rtprio 95 and memlock unlimited" "$no_raise"
fi

snap "$T_TMP/before"
t1=$EPOCHSECONDS
as_user version 'audiolat --version'
t_result $? "audiolat --version as the user"
t_true "it prints the version built ($commit_version)" test "$(head -n 1 "$T_TMP/version.out")" = "audiolat $commit_version"
t_grep "$T_TMP/version.out" '^backends: sim( |$)' "... the backends built in"
t_grep "$T_TMP/version.out" '^  SQLite +[0-9]' "... the libraries"

as_user run 'audiolat run -d 2s --json -'
t_result $? "audiolat run -d 2s as the user"
t_json "it measured 2 s of periods" '.total.periods > 1000' "$T_TMP/run.out"
if [ "$can_raise" = 1 ]; then
	t_json "SCHED_FIFO granted: realtime true, priority 80, memory locked" \
		'.realtime == true and .priority == 80 and .memory_locked == true and .warnings == []' "$T_TMP/run.out"
	t_nogrep "$T_TMP/run.err" 'warning' "no warning"
else
	t_skip "SCHED_FIFO granted: realtime true, priority 80, memory locked, no warning" "$no_raise"
fi
t_grep "$T_TMP/run.err" "^saved as run [0-9]+ \\($XDG/audiolat/results.db\\)\$" "saved in \$XDG_DATA_HOME/audiolat/results.db"

as_user check 'audiolat check --json -'
rc=$?
t_result $([ $rc -eq 0 ] || [ $rc -eq 3 ] && echo 0 || echo 1) "audiolat check as the user (exit $rc: 0 or 3, a check failed)"
t_json "check: the user is in the audio group" '[.checks[] | select(.id == "audio_group")][0].status == "ok"' "$T_TMP/check.out"
if [ "$can_raise" = 1 ]; then
	t_json "check: rtprio, memlock and SCHED_FIFO are ok" \
		'[.checks[] | select(.id | IN("rtprio", "memlock", "sched_fifo")) | .status] == ["ok", "ok", "ok"]' "$T_TMP/check.out"
else
	t_skip "check: rtprio, memlock and SCHED_FIFO are ok" "$no_raise"
fi

as_user midi "audiolat midi analyze '$home/ten-hz.mid' --interval 100ms --json -"
t_result $? "audiolat midi analyze a generated file as the user"
t_json "its 6 note-ons: deltas 95..105 ms, mean 100 ms, 1 ms ticks" \
	'.events == 6 and .delta_min_ns == 95000000 and .delta_max_ns == 105000000 and .delta_mean_ns == 100000000 and .tick_ns == 1000000' \
	"$T_TMP/midi.out"

as_user history 'audiolat history --json -'
t_json "history: the run, in \$XDG_DATA_HOME's database" --arg db "$XDG/audiolat/results.db" \
	'.database == $db and .matching == 1 and .results[0].source == "run"' "$T_TMP/history.out"
t_users=$((EPOCHSECONDS - t1))
t_true "the database is the user's" test "$(stat -c %u "$R$XDG/audiolat/results.db" 2>&1)" = "$uid"
snap "$T_TMP/after"
written_outside "$T_TMP/before" "$T_TMP/after" >"$T_TMP/outside"
t_true "the user's commands changed paths under \$XDG_DATA_HOME" grep -q "\.$XDG/audiolat/results.db" <(LC_ALL=C comm -13 "$T_TMP/before" "$T_TMP/after")
t_empty "$T_TMP/outside" "nothing written outside \$XDG_DATA_HOME (the overlay's upper layer)"
find "$R/dev/shm" -mindepth 1 >"$T_TMP/shm"
t_empty "$T_TMP/shm" "nothing left in /dev/shm"

# ------------------------------------------ without the limits ------------
echo "jackd2 jackd/tweak_rt_limits boolean false" | in_root debconf-set-selections &&
	in_root dpkg-reconfigure -f noninteractive jackd2 >"$OUT" 2>"$ERR"
t_result $? "dpkg-reconfigure jackd2 (jackd/tweak_rt_limits false)"
t_true "$LIMITS is gone (disabled)" test ! -e "$R$LIMITS"
as_user id 'ulimit -r; ulimit -l'
t_true "the session keeps the defaults: rtprio 0, memlock 8192 KiB" test "$(paste -sd' ' "$T_TMP/id.out")" = "0 8192"
as_user norun 'audiolat run -d 2s --json -'
t_result $? "audiolat run -d 2s without the limits still measures"
t_json "SCHED_OTHER: realtime false, priority 0" '.realtime == false and .priority == 0' "$T_TMP/norun.out"
t_json "it measured periods" '.total.periods > 1000' "$T_TMP/norun.out"
t_json "one warning in the result" '.warnings | length == 1' "$T_TMP/norun.out"
grep 'warning' "$T_TMP/norun.err" >"$T_TMP/norun.warn"
t_true "one warning on stderr" test "$(wc -l <"$T_TMP/norun.warn")" -eq 1
t_grep "$T_TMP/norun.warn" "SCHED_OTHER.*$LIMITS" "... it says SCHED_OTHER and names $LIMITS"
as_user nocheck 'audiolat check --json -'
t_json "check: rtprio is not ok without the limits, and says where they go" \
	'[.checks[] | select(.id == "rtprio")][0] | .status != "ok" and (.fix | length > 0)' "$T_TMP/nocheck.out"

# ------------------------- the limits granted, in a qemu guest ------------
# Where this machine cannot raise the limits: Debian's kernel under qemu
# (TCG), the host's / read-only over 9p as the lower layer of an overlay,
# the package unpacked in it, and the same user, limits and su session,
# as a guest root that has every capability (guest-init.sh, guest-user.sh).
# About 30 s.
guest_boot() {
	local g="$T_TMP/guest" k="" v m
	while read -r v; do
		[ -r "/boot/vmlinuz-$v" ] && modprobe -S "$v" --show-depends 9p >/dev/null 2>&1 && k=$v
	done < <(find /lib/modules -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort -V)
	[ -n "$k" ] || { echo "no kernel with 9p modules (/lib/modules/VER, /boot/vmlinuz-VER)" >"$g.why"; return 77; }
	mkdir -p "$g/root/bin" && cp /bin/busybox "$g/root/bin/" || return 1
	for m in virtio_pci 9pnet_virtio 9p overlay; do modprobe -S "$k" --show-depends "$m"; done |
		awk '$1 == "insmod" && !seen[$2]++ { print $2 }' >"$g/root/modules"
	while read -r m; do
		mkdir -p "$g/root$(dirname "$m")" && cp "$m" "$g/root$m" || return 1
	done <"$g/root/modules"
	install -m 755 "$TESTS_DIR/package/guest-init.sh" "$g/root/init" &&
		install -m 755 "$TESTS_DIR/package/guest-user.sh" "$g/root/guest-user.sh" || return 1
	(cd "$g/root" && find . | cpio -o -H newc -R 0:0 --quiet) >"$g/initramfs.cpio" || return 1
	# the kernel tests' uncompressed kernel boots faster under emulation, when it is there
	v="$BUILD_DIR/kernel/vmlinux-$k"
	[ -s "$v" ] || v="/boot/vmlinuz-$k"
	timeout -k 5 300 qemu-system-x86_64 -accel tcg -smp 1 -m 512M -nographic -no-reboot -nic none \
		-kernel "$v" -initrd "$g/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 quiet al_deb=$deb" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-serial "file:$g/console" -serial "file:$g/report" </dev/null >"$g/qemu.log" 2>&1
}
# guest_step NAME: the output of that step in $T_TMP/guest/NAME.out; its exit status
guest_step() {
	# the serial line ends its lines with \r\n
	awk -v n="$1" '{ sub(/\r$/, "") }
		$1 == "@@begin" && $2 == n { f = 1; next }
		$1 == "@@end" && $2 == n { f = 0; print $3 >"/dev/stderr"; next }
		f { sub(/^\| /, ""); print }' "$T_TMP/guest/report" >"$T_TMP/guest/$1.out" 2>"$T_TMP/guest/$1.rc"
	[ "$(cat "$T_TMP/guest/$1.rc")" = 0 ]
}
if [ "$can_raise" = 1 ]; then
	t_skip "the limits granted in a qemu guest" "not needed: this machine's root can raise the limits (checked above)"
elif ! command -v qemu-system-x86_64 >/dev/null || ! command -v cpio >/dev/null || [ ! -x /bin/busybox ]; then
	t_skip "the limits granted in a qemu guest" "no qemu-system-x86_64, cpio or /bin/busybox (make test-kernel installs them)"
else
	t1=$EPOCHSECONDS
	guest_boot
	rc=$?
	t_guest=$((EPOCHSECONDS - t1))
	if [ $rc -eq 77 ]; then
		t_skip "the limits granted in a qemu guest" "$(cat "$T_TMP/guest.why")"
	else
		[ -s "$T_TMP/guest/report" ] || tail -n 20 "$T_TMP/guest/console" 2>/dev/null | sed 's/^/#   guest console: /'
		t_grep "$T_TMP/guest/report" '^guest: done 0' "the qemu guest ran its steps and powered off ($t_guest s)"
		grep '^@@end' "$T_TMP/guest/report" | tr -d '\r' | sed 's/^@@end /#   guest step: /'
		t_true "guest: the package unpacked, the user made" eval 'guest_step unpack && guest_step useradd'
		t_true "guest: dpkg-reconfigure jackd2 enables $LIMITS" guest_step reconfigure
		guest_step limits
		t_true "guest: the user's session is in audio, with rtprio 95 and memlock unlimited" \
			test "$(paste -sd' ' "$T_TMP/guest/limits.out")" = "$USER_NAME audio 95 unlimited"
		guest_step run
		t_result $? "guest: audiolat run -d 2s as the user"
		grep '^{' "$T_TMP/guest/run.out" | tail -n 1 >"$T_TMP/guest/run.json"
		t_json "guest: SCHED_FIFO granted: realtime true, priority 80, memory locked, no warning" \
			'.realtime == true and .priority == 80 and .memory_locked == true and .warnings == [] and .periods > 1000' \
			"$T_TMP/guest/run.json"
		# the text report says "warning: ..." (a line of it), stderr "audiolat: warning: ..."
		grep -v '^{' "$T_TMP/guest/run.out" >"$T_TMP/guest/run.text"
		t_nogrep "$T_TMP/guest/run.text" 'warning' "guest: no warning"
		guest_step check
		t_json "guest: check: rtprio, memlock, audio group and SCHED_FIFO are ok" \
			'[.[] | .status] == ["ok", "ok", "ok", "ok"] and .[0].message == "hard RLIMIT_RTPRIO is 95"' \
			"$T_TMP/guest/check.out"
	fi
fi

# ---------------------------------------------------------------- cleanup --
# what there is to remove must have been there: else "gone" proves nothing
: >"$T_TMP/absent"
mountpoint -q "$R" || echo "the scratch root is not mounted" >>"$T_TMP/absent"
[ -x "$U/usr/bin/audiolat" ] || echo "no package in the scratch root" >>"$T_TMP/absent"
grep -q "^$USER_NAME:" "$U/etc/passwd" 2>/dev/null || echo "no user $USER_NAME in the scratch root" >>"$T_TMP/absent"
[ -d "$U$home" ] || echo "no home $home in the scratch root" >>"$T_TMP/absent"
[ -s "$U/etc/security/limits.d/audio.conf.disabled" ] || echo "no limits file in the scratch root" >>"$T_TMP/absent"
scratch_down
mountpoint -q "$R" 2>/dev/null && echo "the scratch root is still mounted" >>"$T_TMP/absent"
[ -e "$S" ] && echo "$S is still there" >>"$T_TMP/absent"
getent passwd "$USER_NAME" >/dev/null && echo "the machine has a user $USER_NAME" >>"$T_TMP/absent"
[ -e "$home" ] && echo "the machine has $home" >>"$T_TMP/absent"
[ "$(dpkg-query -W -f='${Status}' audiolat 2>/dev/null)" = "$host_pkg" ] ||
	echo "the machine's dpkg database changed: audiolat is '$(dpkg-query -W -f='${Status}' audiolat 2>/dev/null)'" >>"$T_TMP/absent"
[ "$(ls -a /etc/security/limits.d/ | paste -sd' ')" = "$host_limits" ] || echo "/etc/security/limits.d changed" >>"$T_TMP/absent"
sed 's/^/# /' "$T_TMP/absent"
t_empty "$T_TMP/absent" "cleanup: the package, the user, its home and the limits existed in the scratch root and are gone; the machine is as before"

echo "# cost: build $t_build s, lintian $t_lintian s, dpkg -i $t_install s, the user's commands $t_users s, the guest ${t_guest:-0} s; all $((EPOCHSECONDS - t0)) s"
t_done
