#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every source, build and script file starts with an SPDX line (in its
# first two lines, after a shebang or a troff comment leader). In a git work
# tree the files are git's (tracked, and untracked ones not ignored); in a
# tree that is not one (a release tarball), every such file below it but
# the build directories. No file found is a failure, never a pass.
. "$(dirname "$0")/../lib.sh"
top="$TESTS_DIR/.."
cd "$top" || t_bail "cd $top"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	how="git ls-files"
	list() {
		git ls-files -co --exclude-standard -- '*.c' '*.h' '*.sh' '*.py' 'meson.build' '*/meson.build' \
			'meson_options.txt' 'Makefile' '*.1' '.ci/run' 'scripts/*' | grep -v '^build'
	}
else
	how="find (not a git work tree)"
	list() {
		find . \( -path ./.git -o -path './build*' -o -path ./subprojects \) -prune -o -type f \
			\( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.py' -o -name meson.build \
			-o -path ./meson_options.txt -o -path ./Makefile -o -name '*.1' -o -path ./.ci/run \
			-o -path './scripts/*' \) -print | sed 's|^\./||'
	}
fi
n=0
while IFS= read -r f; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	printf '%s\n' "$f"
done < <(list | sort) >"$T_TMP/files"
# their first two lines, in one head (one process a file took 9 core-s):
# head heads each file's lines with "==> FILE <==", an empty one too
missing=$(xargs -r -d '\n' head -v -n 2 -- <"$T_TMP/files" | awk '
	function done_file() { if (f != "" && !ok) printf "%s ", f }
	/^==> .* <==$/ { done_file(); f = substr($0, 5, length($0) - 8); ok = 0; next }
	/SPDX-License-Identifier:/ { ok = 1 }
	END { done_file() }')
echo "# $n files, found by $how"
t_result $([ "$n" -gt 0 ] && echo 0 || echo 1) "there are files to check ($n, by $how)"
[ -z "$missing" ] || echo "# no SPDX line: $missing"
t_result $([ "$n" -gt 0 ] && [ -z "$missing" ] && echo 0 || echo 1) "every file starts with an SPDX line"
t_done
