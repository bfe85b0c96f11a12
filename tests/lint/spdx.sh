#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every source, build and script file starts with an SPDX line (in its
# first two lines, after a shebang or a troff comment leader).
. "$(dirname "$0")/../lib.sh"
top="$TESTS_DIR/.."
cd "$top" || exit 1
missing=""
while IFS= read -r f; do
	head -n 2 "$f" | grep -q 'SPDX-License-Identifier:' || missing+="$f "
done < <(git ls-files -co --exclude-standard -- '*.c' '*.h' '*.sh' 'meson.build' '*/meson.build' \
	'meson_options.txt' 'Makefile' '*.1' '.ci/run' 'scripts/*' 2>/dev/null | grep -v '^build' |
	while read -r f; do [ -f "$f" ] && echo "$f"; done)
[ -z "$missing" ] || echo "# no SPDX line: $missing"
t_result $([ -z "$missing" ] && echo 0 || echo 1) "every file starts with an SPDX line"
t_done
