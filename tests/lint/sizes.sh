#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Sizes a reader can hold (issue 32, docs/architecture.md): no file of
# src/ over 800 lines, no function over 100. A function is what the
# project's style writes: its body's braces alone at the start of a line,
# "{" after the line that names it, "}" closing it; its size counts both
# braces. The longest ten files and functions are listed each run, so the
# next one to split is in sight. No file or function found is a failure.
. "$(dirname "$0")/../lib.sh"
top="$TESTS_DIR/.."
cd "$top" || t_bail "cd $top"
FILE_MAX=${AUDIOLAT_LINT_FILE_MAX:-800}
FUNC_MAX=${AUDIOLAT_LINT_FUNC_MAX:-100}

mapfile -t files < <(find src -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort)
t_result $([ "${#files[@]}" -gt 0 ] && echo 0 || echo 1) "there are sources to measure (${#files[@]} under src/)"

wc -l "${files[@]}" 2>/dev/null | awk '$2 != "total" { print $1 "\t" $2 }' | sort -rn >"$T_TMP/files"
echo "# the longest files (lines):"
head -n 10 "$T_TMP/files" | sed 's/^/#   /'
over=$(awk -F'\t' -v m="$FILE_MAX" '$1 > m { printf "%s (%d) ", $2, $1 }' "$T_TMP/files")
[ -z "$over" ] || echo "# over $FILE_MAX lines: $over"
t_result $([ -s "$T_TMP/files" ] && [ -z "$over" ] && echo 0 || echo 1) "no file of src/ over $FILE_MAX lines"

# one line per function: its lines, FILE:LINE of its "{", the line naming it
for f in "${files[@]}"; do
	awk -v f="$f" '
		/^\{/ { start = NR; name = prev }
		/^\}/ && start { printf "%d\t%s:%d\t%s\n", NR - start + 1, f, start, name; start = 0 }
		/^[A-Za-z_]/ && !/^(static|const|struct|enum|union|typedef|extern|#)[^(]*;/ { prev = $0 }
	' "$f"
done | sort -rn >"$T_TMP/funcs"
echo "# the longest functions (lines from { to }):"
head -n 10 "$T_TMP/funcs" | sed 's/^/#   /'
over=$(awk -F'\t' -v m="$FUNC_MAX" '$1 > m { printf "%s %s (%d); ", $3, $2, $1 }' "$T_TMP/funcs")
[ -z "$over" ] || echo "# over $FUNC_MAX lines: $over"
t_result $([ -s "$T_TMP/funcs" ] && [ -z "$over" ] && echo 0 || echo 1) \
	"no function over $FUNC_MAX lines ($(wc -l <"$T_TMP/funcs") functions)"
t_done
