#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The floors: includes only point down.
#   core                                   -> nothing of ours
#   doc                                    -> core
#   backend load midi trace check          -> core (midi may use load)
#   store compare export metrics interchange -> core doc
#   html                                   -> core doc compare
#   report                                 -> core doc compare html export metrics
#   run                                    -> backend load trace check roundtrip core
#   args                                   -> run midi backend load trace check roundtrip core
#   cli                                    -> anything
. "$(dirname "$0")/../lib.sh"
src="$TESTS_DIR/../src"

allowed() { # area -> the areas it may include
	case $1 in
	core) echo "" ;;
	doc) echo "core" ;;
	midi) echo "core load" ;;
	backend | load | trace | check | roundtrip) echo "core" ;;
	store | compare | export | metrics | interchange) echo "core doc" ;;
	html) echo "core doc compare" ;;
	report) echo "core doc compare html export metrics" ;;
	run) echo "core backend load trace check roundtrip" ;;
	args) echo "core backend load midi trace check roundtrip run" ;;
	cli) echo "args core doc backend load midi trace check compare html export interchange metrics report store run roundtrip cli" ;;
	*) echo "?" ;;
	esac
}

for dir in "$src"/*/; do
	area=$(basename "$dir")
	ok_areas=$(allowed "$area")
	bad=""
	while IFS= read -r line; do
		file=${line%%:*}
		# (a bash match: a sed for each of ~1500 includes took 10 core-s)
		[[ ${line#*:} =~ \#include\ \"([^\"]+)\" ]] || continue
		inc=${BASH_REMATCH[1]}
		case $inc in
		*/*) target=${inc%%/*} ;;
		*) continue ;; # same directory
		esac
		[ "$target" = "$area" ] && continue
		case " $ok_areas " in *" $target "*) ;; *) bad+="$(basename "$file") includes $inc; " ;; esac
	done < <(grep -H '^#include "' "$dir"*.[ch] 2>/dev/null)
	[ -z "$bad" ] || echo "# $area: $bad"
	t_result $([ -z "$bad" ] && echo 0 || echo 1) "src/$area includes only what lies below it"
done
t_done
