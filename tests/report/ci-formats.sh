#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# export --format kcidb|junit|lava: KCIDB checked against its published
# schema (kcidb-v5.schema.json, transcribed as data), the figures equal to
# the run's, PASS/FAIL against --max-latency, JUnit well-formed with the
# histogram as properties, the LAVA lines, from files and from the store.
. "$(dirname "$0")/../lib.sh"

A=$AUDIOLAT
S="$(dirname "$0")/kcidb-v5.schema.json"
DB="$T_TMP/results.db"
python3 -c 'import jsonschema' 2>/dev/null || t_bail "python3's jsonschema is installed (python3-jsonschema)"
kcidb_valid() { # kcidb_valid FILE: valid against the transcribed schema
	python3 - "$S" "$1" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.Draft7Validator.check_schema(schema)
errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(doc), key=str)
for e in errors[:5]:
    print("# %s: %s" % ("/".join(map(str, e.absolute_path)), e.message))
sys.exit(1 if errors else 0)
PY
}

t_exit 0 "a run under a --max-latency it keeps" "$A" run -d 300ms -q --db "$DB" --max-latency 1s --label 'ci run' --json "$T_TMP/a.json"
t_exit 0 "a run without a threshold" "$A" run -d 300ms -q --db "$DB" --json "$T_TMP/b.json"
t_exit 3 "a run over a --max-latency of 1 ns" "$A" run -d 300ms -q --db "$DB" --max-latency 1ns --json "$T_TMP/c.json"

# --- KCIDB
t_exit 0 "export --format kcidb FILE" "$A" export --format kcidb "$T_TMP/a.json" -o "$T_TMP/a.kcidb"
t_true "it is valid against the KCIDB v5 schema" kcidb_valid "$T_TMP/a.kcidb"
t_json "version 5, one test per figure" '.version.major == 5 and (.tests | length) == 10' "$T_TMP/a.kcidb"
t_json "the p99 is under audiolat.run.wake_latency.p99, DONE, in seconds" --slurpfile d "$T_TMP/a.json" \
	'(.tests[] | select(.path == "audiolat.run.wake_latency.p99")) as $t |
	 $t.status == "DONE" and $t.number.unit == "s" and
	 (($t.number.value * 1e9) - $d[0].total.wake_latency_ns.p99 | fabs) < 1' "$T_TMP/a.kcidb"
t_json "the max against --max-latency 1s: PASS" \
	'(.tests[] | select(.path == "audiolat.run.wake_latency.max")).status == "PASS"' "$T_TMP/a.kcidb"
t_json "ids carry the run's UUID and are unique" --slurpfile d "$T_TMP/a.json" \
	'([.tests[].id] | unique | length) == 10 and all(.tests[]; .id | startswith("audiolat:" + $d[0].uuid + "."))' "$T_TMP/a.kcidb"
t_json "environment and misc carry the system and configuration" --slurpfile d "$T_TMP/a.json" \
	'.tests[0].environment.misc.kernel_release == $d[0].system.kernel_release and .tests[0].misc.backend == "sim" and .tests[0].misc.label == "ci run"' "$T_TMP/a.kcidb"
t_exit 0 "export --format kcidb of the failing run" "$A" export --format kcidb "$T_TMP/c.json" -o "$T_TMP/c.kcidb"
t_true "valid too" kcidb_valid "$T_TMP/c.kcidb"
t_json "its max is FAIL" '(.tests[] | select(.path == "audiolat.run.wake_latency.max")).status == "FAIL"' "$T_TMP/c.kcidb"
# the check can fail: a status KCIDB does not know, a null, an extra field
jq '.tests[0].status = "OK"' "$T_TMP/a.kcidb" >"$T_TMP/bad1.kcidb"
jq '.tests[0].comment = null' "$T_TMP/a.kcidb" >"$T_TMP/bad2.kcidb"
jq '.tests[0].figure = 1' "$T_TMP/a.kcidb" >"$T_TMP/bad3.kcidb"
for b in 1 2 3; do
	kcidb_valid "$T_TMP/bad$b.kcidb" >/dev/null
	t_result $([ $? -ne 0 ] && echo 0 || echo 1) "the schema check refuses a broken report ($b)"
done
t_exit 0 "export --format kcidb of two saved runs (ids)" "$A" export --db "$DB" --format kcidb 1 2 --origin lab_7
t_true "valid" kcidb_valid "$OUT"
t_json "20 tests, origin lab_7, the second run's max DONE (no threshold)" \
	'(.tests | length) == 20 and all(.tests[]; .origin == "lab_7") and ([.tests[] | select(.path == "audiolat.run.wake_latency.max")][1].status == "DONE")' "$OUT"
t_exit 2 "an origin KCIDB refuses is a usage error" "$A" export --format kcidb "$T_TMP/a.json" --origin 'Lab 7'
# --build-id: the tests join the CI system's build instead of a made-up one
t_json "without --build-id: build_id ORIGIN:KERNEL_RELEASE" --slurpfile d "$T_TMP/a.json" \
	'(.tests | length) > 0 and all(.tests[]; .build_id == "audiolat:" + $d[0].system.kernel_release)' "$T_TMP/a.kcidb"
t_exit 0 "export --format kcidb --build-id of two saved runs" "$A" export --db "$DB" --format kcidb 1 2 \
	--origin lab_7 --build-id 'kernelci:build-6c0b2a4f/x86_64'
t_true "valid against the KCIDB v5 schema" kcidb_valid "$OUT"
t_json "every test's build_id is the CI system's build, origin and ids ours" \
	'(.tests | length) == 20 and all(.tests[]; .build_id == "kernelci:build-6c0b2a4f/x86_64" and .origin == "lab_7" and (.id | startswith("lab_7:")))' "$OUT"
jq '.tests[0].build_id = "Kernel CI:1"' "$OUT" >"$T_TMP/bad4.kcidb"
kcidb_valid "$T_TMP/bad4.kcidb" >/dev/null
t_result $([ $? -ne 0 ] && echo 0 || echo 1) "the schema check refuses a build_id whose origin is not [a-z0-9_]+"
for b in 'Kernel CI:1' 'kernelci' 'kernelci:' ':1' "kernelci:a$(printf '\t')b"; do
	t_exit 2 "--build-id '$b' is a usage error" "$A" export --format kcidb "$T_TMP/a.json" --build-id "$b"
	t_grep "$ERR" "^audiolat export: --format kcidb: KCIDB build id '.*' is not ORIGIN:ID \(ORIGIN \[a-z0-9_\]\+, ID not empty\)\$" "... one line saying what a build id is"
	t_true "... one line" test "$(wc -l <"$ERR")" -eq 1
done
t_exit 2 "an unknown --format" "$A" export --format xml 1 --db "$DB"

# --- JUnit
t_exit 0 "export --format junit of three runs" "$A" export --format junit "$T_TMP/a.json" "$T_TMP/b.json" "$T_TMP/c.json" -o "$T_TMP/j.xml"
if command -v xmllint >/dev/null; then
	t_true "well-formed XML" xmllint --noout "$T_TMP/j.xml"
	t_true "three testcases, one failure" test "$(xmllint --xpath 'count(//testcase)' "$T_TMP/j.xml")" = 3 -a \
		"$(xmllint --xpath 'count(//testcase/failure)' "$T_TMP/j.xml")" = 1
	p99=$(xmllint --xpath 'string(//testcase[1]/properties/property[@name="audiolat.run.wake_latency.p99"]/@value)' "$T_TMP/j.xml")
	t_true "the p99 property equals the run's ($p99 s)" \
		awk -v a="$p99" -v b="$(jq '.total.wake_latency_ns.p99' "$T_TMP/a.json")" 'BEGIN { d = a * 1e9 - b; exit !(d < 1 && d > -1) }'
	n_h=$(xmllint --xpath 'count(//testcase[1]/properties/property[starts-with(@name, "histogram.wake_latency_ns.")])' "$T_TMP/j.xml")
	t_true "the histogram's buckets are properties ($n_h)" test "$n_h" -eq "$(jq '.total.histogram.wake_latency_ns.buckets | length' "$T_TMP/a.json")" -a "$n_h" -gt 0
	sum=$(xmllint --xpath '//testcase[1]/properties/property[starts-with(@name, "histogram.wake_latency_ns.")]/@value' "$T_TMP/j.xml" | grep -o '"[0-9]*"' | tr -d '"' | awk '{ s += $1 } END { print s + 0 }')
	t_true "their counts add up to the periods ($sum)" test "$sum" -eq "$(jq '.total.histogram.wake_latency_ns.count - .total.histogram.wake_latency_ns.overflow' "$T_TMP/a.json")"
else
	t_bail "xmllint is installed (libxml2-utils)"
fi

# --- LAVA
t_exit 0 "export --format lava" "$A" export --format lava "$T_TMP/a.json"
t_true "10 lava-test-case lines" test "$(grep -c '^lava-test-case audiolat\.run\.[a-z0-9_.]* --result \(pass\|fail\|skip\)' "$OUT")" -eq 10
t_grep "$OUT" '^lava-test-case audiolat\.run\.wake_latency\.p99 --result pass --measurement [0-9.]+ --units us$' "the p99 in us"
t_grep "$OUT" '^lava-test-case audiolat\.run\.xruns --result pass --measurement [0-9]+ --units count$' "xruns as a count"
t_exit 0 "export --format lava of two runs" "$A" export --format lava "$T_TMP/a.json" "$T_TMP/c.json"
t_grep "$OUT" '^lava-test-case ci_run\.audiolat\.run\.wake_latency\.max --result pass ' "names carry the label (made safe)"
t_grep "$OUT" '^lava-test-case run2\.audiolat\.run\.wake_latency\.max --result fail ' "the run over its threshold fails"
t_exit 2 "a document that is not a run" bash -c "echo '{\"schema\": \"audiolat.midi/1\"}' >'$T_TMP/m.json' && '$A' export --format lava '$T_TMP/m.json'"

t_done
