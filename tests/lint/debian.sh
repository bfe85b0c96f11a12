#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# debian/ agrees with the rest of the tree: Build-Depends are exactly the
# lines of scripts/packages.txt marked "# build-dep" (every -dev package
# there is marked, or says why not); the package's version is meson's
# project version; the runtime dependencies are the shared libraries only
# (the servers and tools stay Recommends/Suggests); every man page meson
# installs is one of docs/man. (tests/package builds and installs it.)
. "$(dirname "$0")/../lib.sh"
top="$TESTS_DIR/.."
control="$top/debian/control"
pkgs="$top/scripts/packages.txt"
[ -s "$control" ] || t_bail "$control exists"

# the value of a field of the first paragraph (or of PACKAGE's) of debian/control,
# continuation lines joined, comments dropped
field() { # FIELD [PACKAGE]
	awk -v f="$1" -v p="${2:-}" '
		/^#/ { next }
		/^$/ { para++; next }
		/^[A-Za-z-]+:/ { cur = $0; sub(/:.*/, "", cur)
			if (cur == "Package") pkg = substr($0, index($0, ":") + 2) }
		(p == "" ? para == 0 : pkg == p) && cur == f {
			v = $0; if (v ~ /^[A-Za-z-]+:/) v = substr(v, index(v, ":") + 1); printf "%s ", v }
	' "$control"
}
# a dependency field as one package name a line (versions, profiles, alternatives' tails dropped)
names() {
	tr ',' '\n' | sed -E 's/\|.*//; s/\(.*\)//; s/<.*>//; s/\[.*\]//; s/^[[:space:]]+//; s/[[:space:]]+$//' |
		grep -v '^$' | LC_ALL=C sort -u
}

field Build-Depends | names | grep -v '^debhelper-compat$' >"$T_TMP/control"
sed -n 's/^\([a-z0-9][a-z0-9.+-]*\)[[:space:]]*#[[:space:]]*build-dep\b.*/\1/p' "$pkgs" |
	LC_ALL=C sort -u >"$T_TMP/marked"
t_true "debian/control has Build-Depends" test -s "$T_TMP/control"
t_true "scripts/packages.txt marks build-deps" test -s "$T_TMP/marked"
diff "$T_TMP/marked" "$T_TMP/control" >"$T_TMP/diff"
rc=$?
[ $rc -eq 0 ] || sed 's/^</# only in scripts\/packages.txt:/; s/^>/# only in debian\/control:/' "$T_TMP/diff" | grep '^#'
t_result $rc "Build-Depends are scripts/packages.txt's build-dep lines ($(wc -l <"$T_TMP/marked"))"
field Build-Depends | grep -q 'debhelper-compat (= 13)'
t_result $? "Build-Depends: debhelper-compat (= 13)"

# a -dev package that is neither marked nor says why not
sed -e 's/^[[:space:]]*//' "$pkgs" | grep -E '^lib[a-z0-9.+-]*-dev([[:space:]]|$)' |
	grep -vE '#[[:space:]]*(build-dep|not a build-dep:)' >"$T_TMP/unmarked"
t_empty "$T_TMP/unmarked" "every lib*-dev package of scripts/packages.txt is a build-dep or says why not"

# versions: debian/changelog's is meson's project version
deb_version=$(sed -n '1s/^audiolat (\([^)]*\)).*/\1/p' "$top/debian/changelog")
meson_version=$(sed -n "s/^  version: '\([^']*\)'.*/\1/p" "$top/meson.build")
[ -n "$meson_version" ] && [ "$deb_version" = "$meson_version" ]
t_result $? "debian/changelog's version ($deb_version) is meson's ($meson_version)"

# runtime: shared libraries (by ${shlibs:Depends}) and nothing else
dep=$(field Depends audiolat)
[ "$(echo "$dep" | names | paste -sd ' ')" = '${misc:Depends} ${shlibs:Depends}' ]
t_result $? "Depends is \${shlibs:Depends}, \${misc:Depends} (got: $dep)"
for p in jackd2 pipewire rt-tests; do
	{ field Recommends audiolat; echo ,; field Suggests audiolat; } >"$T_TMP/rs"
	names <"$T_TMP/rs" | grep -qx "$p"
	t_result $? "$p is recommended or suggested"
done
grep -q '^3.0 (native)$' "$top/debian/source/format"
t_result $? "debian/source/format: 3.0 (native)"
grep -Eq '^[[:space:]]*dh \$@ --buildsystem=meson' "$top/debian/rules"
t_result $? "debian/rules: dh with meson"

# docs/packaging.md lists every lintian tag the package is allowed
t_grep "$top/docs/packaging.md" '^## lintian' "docs/packaging.md has a lintian section"
t_done
