#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every header compiles on its own.
. "$(dirname "$0")/../lib.sh"
src="$TESTS_DIR/../src"
cc=${CC:-cc}
flags="-std=gnu11 -D_GNU_SOURCE -DAL_VERSION=\"0\" -Wall -Wextra -Werror -fsyntax-only -I$src"
flags+=" $(pkg-config --cflags jansson 2>/dev/null)"
for h in "$src"/*/*.h; do
	rel=${h#"$src"/}
	case $rel in *-private.h) continue ;; esac
	printf '#include "%s"\n' "$rel" | $cc $flags -x c - 2>"$ERR"
	t_result $? "$rel compiles alone"
done
t_done
