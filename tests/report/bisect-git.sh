#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat bisect under git bisect run (docs/bisect.md, "The test"): a
# throwaway repository of 64 commits after a good one, in which commit k
# makes the runs slower (its file "scale"); the runs are gen-result's
# (seeded, 1 s of simulated periods each, no sleeping: not a timing test),
# a fresh seed for every run from a counter outside the repository.
# - 2x slower from k: git bisect names k (three k: the first, one in the
#   middle, the last);
# - 1.03x from k (below the noise: the p99 of a 1 s run spreads by about
#   3 %), 20 seeds: git bisect never names a wrong commit, and at least
#   19 times it stops without naming one: audiolat bisect answered 128
#   (nothing to bisect: the bad baseline is not worse than the good one by
#   more than the threshold beyond the noise) and git bisect run stopped,
#   or every commit answered 125 and only skipped commits are left.
. "$(dirname "$0")/../lib.sh"

A=$AUDIOLAT
GEN=$(realpath "$1")
command -v git >/dev/null || t_skip_all "no git"
export GIT_CONFIG_NOSYSTEM=1 HOME=$T_TMP GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
CTR=$T_TMP/counter
# the measurement of the tree checked out: its scale, the next seed
cat >"$T_TMP/measure.sh" <<EOS
#!/bin/sh
n=\$(cat "$CTR")
echo \$((n + 1)) >"$CTR"
exec "$GEN" --seed "\$n" --duration 1 --scale "\$(cat scale)" \${1:+--label "\$1"}
EOS
chmod +x "$T_TMP/measure.sh"

# make_repo DIR K SCALE: commit 0 (tag good) at scale 1, commits 1..64
# (64: tag bad) at SCALE from K on
make_repo() {
	local d=$1 k=$2 s=$3 i c one slow
	git init -q "$d" && cd "$d" || return 1
	echo "$s" >scale && git add scale && slow=$(git write-tree)
	echo 1 >scale && git add scale && one=$(git write-tree)
	c=$(git commit-tree "$one" -m "commit 0") && git tag good "$c"
	for i in $(seq 1 64); do
		c=$(git commit-tree "$([ "$i" -ge "$k" ] && echo "$slow" || echo "$one")" -p "$c" \
			-m "commit $i")
	done
	git tag bad "$c" && git reset -q --hard bad
	cd - >/dev/null
}

# bisect DIR SEED: 5 runs labelled good at commit 0 and bad at 64 saved
# (seeds from SEED * 1000 on), then git bisect run; prints the number of
# the commit it names, "stopped" (audiolat bisect said 128: nothing to
# bisect), "skipped" (only skipped commits left) or "other: ..."
bisect() {
	local d=$1 seed=$2 db=$T_TMP/db-$2.db log=$T_TMP/bisect-$2.log found
	echo $((seed * 1000)) >"$CTR"
	(
		cd "$d" || exit 1
		for tag in good bad; do
			git checkout -q "$tag" || exit 1
			for i in 1 2 3 4 5; do
				"$T_TMP/measure.sh" $tag >"$T_TMP/base$i.json" || exit 1
			done
			"$A" import -q --db "$db" "$T_TMP"/base[1-5].json || exit 1
		done
		git bisect start bad good >/dev/null
		git bisect run "$A" bisect --good good --bad bad --db "$db" -q -- "$T_TMP/measure.sh" \
			>"$log" 2>&1
		found=$(git bisect log | sed -n 's/^# first bad commit: \[[0-9a-f]*\] commit \([0-9]*\)$/\1/p')
		if [ -n "$found" ]; then
			echo "$found"
		elif grep -q "exit code 128 from" "$log"; then
			echo stopped
		elif grep -q "only 'skip'ped commits left" "$log"; then
			echo skipped
		else
			echo "other: $(tail -n 1 "$log")"
		fi
		git bisect reset >/dev/null 2>&1
	)
}

# 2x slower from k
for case in "1 11" "37 12" "64 13"; do
	set -- $case
	make_repo "$T_TMP/r2-$1" "$1" 2
	got=$(bisect "$T_TMP/r2-$1" "$2")
	[ "$got" = "$1" ] || { echo "# got: $got"; tail -n 5 "$T_TMP/bisect-$2.log" | sed 's/^/#   /'; }
	t_result $([ "$got" = "$1" ] && echo 0 || echo 1) "2x slower from commit $1: git bisect run names commit $1"
done
t_grep "$T_TMP/bisect-12.log" "exit 1|is the first bad commit" "... audiolat bisect's verdicts drive it"

# 1.03x from k = 29, 20 seeds
make_repo "$T_TMP/r103" 29 1.03
wrong=0 stopped=0 right=0
for seed in $(seq 101 120); do
	got=$(bisect "$T_TMP/r103" "$seed")
	case $got in
	29) right=$((right + 1)) ;;
	stopped | skipped) stopped=$((stopped + 1)) ;;
	*) wrong=$((wrong + 1)); echo "# seed $seed: $got" ;;
	esac
done
echo "# 1.03x, 20 seeds: $stopped stopped without a commit, $right named commit 29, $wrong a wrong commit"
t_result $([ $wrong -eq 0 ] && echo 0 || echo 1) "1.03x (below the noise), 20 seeds: never a wrong commit"
t_result $([ $stopped -ge 19 ] && echo 0 || echo 1) "... and at least 19 of 20 stop without naming one ($stopped)"
t_grep "$T_TMP/bisect-101.log" "nothing to bisect: the bad baseline is 1\.0[0-9]*x the good one" "... audiolat bisect says why"
t_done
