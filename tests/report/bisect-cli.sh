#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat bisect: its options and usage errors (exit 128: git bisect run
# stops), the baselines from the database by label, the verdicts good (0),
# bad (1) and undecided (125) on gen-result's runs, the command's document
# on stdout or in $AUDIOLAT_BISECT_OUT, every trial saved with its label,
# a failing command (125), nothing to bisect (128, the command not run),
# the audiolat.bisect/1 document.
. "$(dirname "$0")/../lib.sh"

A=$AUDIOLAT
GEN=$(realpath "$1")
DB=$T_TMP/r.db
export AUDIOLAT_DB=$DB
CTR=$T_TMP/counter
# out of any git repository (the trials' label names no commit)
mkdir "$T_TMP/work" && cd "$T_TMP/work" || exit 1
export GIT_CEILING_DIRECTORIES=$T_TMP
echo 1000 >"$CTR"
# a measurement: gen-result at $SCALE with the next seed, to stdout
cat >"$T_TMP/m.sh" <<EOS
#!/bin/sh
n=\$(cat "$CTR")
echo \$((n + 1)) >"$CTR"
echo "\$AUDIOLAT_BISECT_TRIAL" >>"$T_TMP/trials"
exec "$GEN" --seed "\$n" --duration 1 --scale "\${SCALE:-1}" "\$@"
EOS
chmod +x "$T_TMP/m.sh"
for i in 1 2 3 4 5; do
	"$GEN" --seed $i --duration 1 --label good -o "$T_TMP/g$i.json"
	"$GEN" --seed $((i + 10)) --duration 1 --scale 2 --label bad -o "$T_TMP/b$i.json"
done
"$GEN" --seed 21 --duration 1 --label two -o "$T_TMP/t1.json"
"$GEN" --seed 22 --duration 1 --label two -o "$T_TMP/t2.json"
t_exit 0 "5 good, 5 bad and 2 other runs saved" "$A" import -q "$T_TMP"/[gbt]*.json

# options
t_exit 0 "--help" "$A" bisect --help
t_grep "$OUT" "^exit status \(git bisect run's" "... says its exit status is git bisect run's"
t_exit 128 "no --good: 128, git bisect run stops" "$A" bisect --run true
t_grep "$ERR" "--good LABEL: which stored runs are good" "... saying what is missing"
t_exit 128 "no command: 128" "$A" bisect --good good
t_exit 128 "--run and a command after --: 128" "$A" bisect --good good --run true -- true
t_exit 128 "--stat p42: 128" "$A" bisect --good good --stat p42 --run true
t_grep "$ERR" "--stat: 'p42' is not p50, p99 or max" "... naming the value"
t_exit 128 "--threshold 1: 128" "$A" bisect --good good --threshold 1 --run true
t_exit 128 "--alpha 0.5: 128" "$A" bisect --good good --alpha 0.5 --run true
t_exit 128 "--max-trials below --min-trials: 128" "$A" bisect --good good --min-trials 5 --max-trials 4 --run true
t_exit 128 "an unknown option: 128" "$A" bisect --good good --nosuch --run true
t_exit 128 "a baseline of 2 runs: 128" "$A" bisect --good two --run true
t_grep "$ERR" "--good 'two': 2 saved runs of that label, 3 needed" "... saying how many there are"
t_exit 128 "no runs of the --bad label: 128" "$A" bisect --good good --bad nosuch --run true

# verdicts
rm -f "$T_TMP/trials"
t_exit 0 "the good tree: good, exit 0" "$A" bisect --good good --bad bad --json "$T_TMP/good.json" --run "$T_TMP/m.sh"
t_grep "$OUT" "^p99 wake latency: good baseline [0-9.]+ us \(5 runs\), bad baseline [0-9.]+ us \(5 runs, [0-9.]+x, at least [0-9.]+x\); boundary [0-9.]+ us$" "the text: the baselines and the boundary"
t_grep "$OUT" "^good \(exit 0\): the trials lie below the boundary$" "... and the verdict"
t_json "the audiolat.bisect/1 document: good, 3 trials or more, each saved" \
	'.schema == "audiolat.bisect/1" and .verdict == "good" and .exit_status == 0 and .statistic == "p99" and (.trials | length) >= 3 and all(.trials[]; .id > 0 and .value_ns > 0) and .look.ratio < 1 and .look.ci_ratio[1] < 1 and .gap.open' "$T_TMP/good.json"
t_true "AUDIOLAT_BISECT_TRIAL counts the trials from 1" test "$(paste -sd, "$T_TMP/trials")" = "$(seq -s, 1 "$(jq '.trials | length' "$T_TMP/good.json")")"
t_grep "$ERR" "^saved trial 1 as run [0-9]+ \(" "a line per trial saved"
n=$(jq '.trials | length' "$T_TMP/good.json")
t_exit 0 "history lists the trials" "$A" history --label 'bisect*' --json "$T_TMP/h.json"
t_json "... all of them, labelled bisect (no git repository here), from bisect" \
	--argjson n "$n" '.matching == $n and (.results | length) == $n and all(.results[]; .label == "bisect" and .source == "bisect")' "$T_TMP/h.json"

# the document in $AUDIOLAT_BISECT_OUT, a command after --, --label
t_exit 1 "2x slower: bad, exit 1" env SCALE=2 "$A" bisect --good good --bad bad --label try-2x --json - -- sh -c 'echo building; "$0" -o "$AUDIOLAT_BISECT_OUT"' "$T_TMP/m.sh"
t_grep "$ERR" "^building$" "... the command's standard output, not the document, shown on stderr"
t_json "... decided at the first look" '.verdict == "bad" and .exit_status == 1 and (.trials | length) == 3 and .look.ci_ratio[0] > 1' "$OUT"
t_exit 0 "... saved as --label says" "$A" history --label try-2x --json "$T_TMP/h.json"
t_json "... 3 of them" '.matching == 3' "$T_TMP/h.json"
t_exit 1 "without --bad: 2x is bad against the good baseline times --threshold" env SCALE=2 "$A" bisect --good good -q --run "$T_TMP/m.sh"
t_exit 0 "... the good tree good" "$A" bisect --good good -q --run "$T_TMP/m.sh"
t_exit 1 "--stat max" env SCALE=2 "$A" bisect --good good --bad bad --stat max -q --run "$T_TMP/m.sh"
t_exit 125 "midway between the baselines, 3 trials at most: undecided, 125" env SCALE=1.414 "$A" bisect --good good --bad bad --max-trials 3 --json "$T_TMP/mid.json" --run "$T_TMP/m.sh"
t_json "... inconclusive after 3 trials, the interval across the boundary" '.verdict == "inconclusive" and .exit_status == 125 and (.trials | length) == 3 and .look.ci_ratio[0] < 1 and .look.ci_ratio[1] > 1' "$T_TMP/mid.json"

# failures
t_exit 125 "the command fails: 125, git bisect skips the commit" "$A" bisect --good good --bad bad --run 'exit 3'
t_grep "$ERR" "trial 1: the command exited with 3: cannot test this commit \(exit 125\)" "... saying so"
t_exit 125 "the command writes no run document: 125" "$A" bisect --good good --bad bad --run 'echo not json'
t_grep "$ERR" "trial 1: the command's document: line 1" "... saying where"
t_exit 128 "nothing to bisect (the bad baseline is the good one): 128" "$A" bisect --good good --bad good --json "$T_TMP/none.json" --run "touch $T_TMP/ran"
t_grep "$ERR" "nothing to bisect: the bad baseline is 1\.00x the good one, at least 0\.[0-9]+x, not beyond --threshold 1\.20 \(exit 128\)" "... saying why"
t_true "... without running the command" test ! -e "$T_TMP/ran"
t_json "... its document says so" '.verdict == "inconclusive" and .exit_status == 128 and .trials == [] and .gap.open == false and .look == null' "$T_TMP/none.json"

# in a git repository: the label is bisect:COMMIT
if command -v git >/dev/null; then
	export GIT_CONFIG_NOSYSTEM=1 HOME=$T_TMP GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t \
		GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
	git init -q "$T_TMP/repo" && (cd "$T_TMP/repo" && git commit -q --allow-empty -m one)
	sha=$(git -C "$T_TMP/repo" rev-parse HEAD)
	t_exit 0 "in a git repository" sh -c 'cd "$1" && shift && exec "$@"' sh "$T_TMP/repo" "$A" bisect --good good --bad bad -q --json - --run "$T_TMP/m.sh"
	t_json "... the document names the commit" --arg c "$sha" '.commit == $c' "$OUT"
	t_exit 0 "... the trials are labelled bisect:COMMIT" "$A" history --label "bisect:$sha" --json "$T_TMP/h.json"
	t_json "... every one of them" '.matching >= 3' "$T_TMP/h.json"
else
	t_skip "in a git repository" "no git"
fi
t_done
