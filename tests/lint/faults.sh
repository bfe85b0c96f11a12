#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The planted faults stay in step with the code (docs/testing.md): every
# fault's snippet is in its file, once, and scripts/mutants --check says
# so (a fault whose snippet moved or changed fails here, not only when
# someone runs make mutants; three had drifted unseen when src/metrics
# moved to libmicrohttpd). Its count is what docs/testing.md says.
. "$(dirname "$0")/../lib.sh"
top="$TESTS_DIR/.."
out=$("$top/scripts/mutants" --check 2>&1)
rc=$?
[ $rc -eq 0 ] || echo "$out" | tail -n 20 | sed 's/^/# /'
t_result $rc "scripts/mutants --check: every fault applies ($(echo "$out" | tail -n 1))"
n=$(echo "$out" | sed -n 's/^scripts\/mutants: \([0-9][0-9]*\) faults apply.*/\1/p')
doc=$(sed -n 's/^\([0-9][0-9]*\) faults (.*/\1/p' "$top/docs/testing.md" | head -n 1)
t_result $([ -n "$n" ] && [ "$n" = "$doc" ] && echo 0 || echo 1) \
	"docs/testing.md says how many faults there are (${doc:-none} there, ${n:-?} in tests/mutants)"
t_done
