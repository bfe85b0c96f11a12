#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The release tarball: `meson dist` packs the commit (git archive of HEAD,
# plus .tarball-version: the commit's git describe, since a tarball has no
# git), and the tarball alone, offline (a network namespace with only
# loopback), configures, builds and passes the unit suite, measures the
# simulated card, and its audiolat --version says the commit's version.
# Why not `meson dist` with its own check: that runs `ninja test`, every
# suite, the servers, the qemu guest and the truth matrix with them; a
# tarball's user runs what needs no server (docs/packaging.md).
# Cost: one build of audiolat at -O0 with its tests and the unit suite (the
# cli suite too took it to 5 min beside the rest of make test).
set -u
. "$(dirname "$0")/../lib.sh"
top=$(cd "$TESTS_DIR/.." && pwd)
for t in meson ninja git tar xz; do
	command -v "$t" >/dev/null || t_bail "$t is installed (scripts/packages.txt)"
done
git -C "$top" rev-parse --git-dir >/dev/null 2>&1 ||
	t_skip_all "not a git checkout (a tarball itself): meson dist packs a git commit"
ver=$(sed -n "s/^  version: '\([^']*\)'.*/\1/p" "$top/meson.build")
[ -n "$ver" ] || t_bail "meson.build names the project version"
commit_version=$("$top/scripts/version.sh" "$ver" --commit)
# what the tests that run inside the tarball's build must not inherit from this one
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

git -C "$top" diff-index --quiet HEAD -- ||
	echo "# the work tree has uncommitted changes: the tarball is the commit $(git -C "$top" rev-parse --short HEAD), without them"
dist="$BUILD_DIR/meson-dist/audiolat-$ver.tar.xz"
rm -f "$dist" "$dist.sha256sum"
"${inner_env[@]}" meson dist -C "$BUILD_DIR" --no-tests --allow-dirty --formats xztar >"$T_TMP/dist.log" 2>&1
rc=$?
[ $rc -eq 0 ] || tail -n 20 "$T_TMP/dist.log" | sed 's/^/#   meson dist: /'
t_result $rc "meson dist makes the tarball"
[ -s "$dist" ] || t_bail "meson dist wrote $dist"
echo "# $(basename "$dist"): $(stat -c %s "$dist") bytes"

x="$T_TMP/x"
mkdir -p "$x"
t_true "it unpacks" tar -C "$x" -xf "$dist"
t_true "into one directory, audiolat-$ver" test "$(ls "$x")" = "audiolat-$ver"
s="$x/audiolat-$ver"
t_true "it carries the commit's version in .tarball-version ($commit_version)" \
	test "$(cat "$s/.tarball-version" 2>&1)" = "$commit_version"
t_true "it has no .git" test ! -e "$s/.git"
# every file of the commit is in it, and nothing else but .tarball-version
git -C "$top" ls-tree -r --name-only HEAD | LC_ALL=C sort >"$T_TMP/committed"
(cd "$s" && find . -type f -o -type l | sed 's,^\./,,' | grep -vx '.tarball-version' | LC_ALL=C sort) >"$T_TMP/packed"
diff "$T_TMP/committed" "$T_TMP/packed" | head -n 20 | sed 's/^/# committed<, packed>: /'
t_true "it holds exactly the commit's $(wc -l <"$T_TMP/committed") files (debian/ too)" cmp -s "$T_TMP/committed" "$T_TMP/packed"

if [ ${#offline[@]} -eq 0 ]; then
	t_skip "the tarball's build is offline" "no network namespace: not root, and no unprivileged user namespace here"
else
	t_true "the tarball's build runs offline (no network device but loopback)" \
		"${offline[@]}" sh -c 'test "$(ip -o link show | cut -d: -f2 | tr -d " " | paste -sd" ")" = lo'
fi
b="$T_TMP/build"
t1=$EPOCHSECONDS
# --buildtype=debug (-O0): what is checked here is that the tarball is
# whole and builds; -O0 compiles in 62 core-s against 132 at the default
# -O2 (the -O2 warnings: the .deb's build, tests/package/deb.sh)
(cd "$s" && "${inner_env[@]}" "${offline[@]}" meson setup --buildtype=debug "$b") >"$T_TMP/setup.log" 2>&1
rc=$?
[ $rc -eq 0 ] || tail -n 20 "$T_TMP/setup.log" | sed 's/^/#   setup: /'
t_result $rc "meson setup from the tarball"
[ $rc -eq 0 ] || t_bail "the tarball configures"
"${inner_env[@]}" "${offline[@]}" ninja -C "$b" >"$T_TMP/ninja.log" 2>&1
rc=$?
[ $rc -eq 0 ] || tail -n 30 "$T_TMP/ninja.log" | sed 's/^/#   ninja: /'
t_result $rc "it builds"
t_build=$((EPOCHSECONDS - t1))
t_nogrep "$T_TMP/ninja.log" 'warning:' "warning-free"
"$b/src/cli/audiolat" --version >"$T_TMP/version" 2>&1
t_true "its audiolat --version says $commit_version (no git to ask)" \
	test "$(head -n 1 "$T_TMP/version")" = "audiolat $commit_version"

# the tarball's own runner, its output kept out of this test's TAP stream:
# the unit suite (the cli suite runs from this same commit's files in the
# make test around this one: the tarball holds exactly them, checked above;
# here, one measurement from the tarball's own binary, offline)
t1=$EPOCHSECONDS
(cd "$s" && "${inner_env[@]}" "${offline[@]}" scripts/check "$b" --suite unit) >"$T_TMP/check.log" 2>&1
rc=$?
t_tests=$((EPOCHSECONDS - t1))
last=$(tail -n 1 "$T_TMP/check.log")
echo "# the tarball's unit suite: $last"
# what failed: the test, and its failed checks with their comments
[ $rc -eq 0 ] || jq -r 'select(.result | IN("OK", "SKIP") | not) | "\(.name): \(.result)",
	((.stdout // "") | split("\n")[] | select(test("^not ok|^#")))' "$b/meson-logs/testlog.json" 2>&1 |
	head -n 40 | sed 's/^/#   /'
t_result $rc "the tarball passes its unit suite offline"
# a test's name in the log is "PROJECT:SUITE / NAME"
jq -r '.name | capture("^[^:]*:(?<s>[^ ]+) / ").s' "$b/meson-logs/testlog.json" 2>/dev/null |
	LC_ALL=C sort -u | paste -sd' ' >"$T_TMP/suites"
t_true "it ran ($(cat "$T_TMP/suites"))" test "$(cat "$T_TMP/suites")" = "unit"
n=$(jq -s 'length' "$b/meson-logs/testlog.json" 2>/dev/null)
t_true "at least 20 tests ran (${n:-none})" test "${n:-0}" -ge 20
jq -r 'select(.result == "SKIP") | .name' "$b/meson-logs/testlog.json" 2>/dev/null | sed 's/^/# skipped: /'
"${inner_env[@]}" "${offline[@]}" "$b/src/cli/audiolat" run -b sim -d 1s -q --no-db --json "$T_TMP/sim.json" \
	>"$T_TMP/sim.out" 2>&1
t_result $? "the tarball's audiolat measures the simulated card offline (run -b sim -d 1s)"
t_json "... and its document has periods, a p50 and the tarball's version" --arg v "$commit_version" \
	'.total.periods > 100 and .total.wake_latency_ns.p50 != null and .tool_version == $v' "$T_TMP/sim.json"

echo "# cost: build $t_build s, unit $t_tests s; all $((EPOCHSECONDS - t0)) s"
t_done
