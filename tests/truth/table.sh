#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# table.sh LOG...: docs/truth.md's table from the "truth-record:" lines the
# truth matrix prints (tests/truth/truth.sh, the guest's stop_xrun), in
# meson's testlog.txt of one or more runs: per backend and fault, how many
# runs, the truth, what audiolat reported and the error (reported - truth),
# as median [min .. max] over the runs, in ms (MIDI: the error of record's
# min, max and mean delta against the source's, in us).
[ $# -gt 0 ] || { echo "usage: table.sh TESTLOG..." >&2; exit 2; }
# (the guest's lines say "the stall run"; its /dev/dspN is the card's order)
grep -h 'truth-record: ' "$@" | sed 's/^.*truth-record: //; s/ the \([a-z]*\) run / \1 /; s|/dev/dsp[0-9]*|/dev/dsp|' | awk '
function ms(us) { return unit == "us" ? sprintf("%d", us) : sprintf("%.1f", us / 1000) }
function stat(key, name, u,   n, i, j, t, v) {
	unit = u
	n = cnt[key]
	for (i = 1; i <= n; i++) v[i] = val[key, name, i]
	for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
	return ms(v[int((n + 1) / 2)]) " [" ms(v[1]) " .. " ms(v[n]) "]"
}
{
	key = $1 " " $2
	if (!(key in cnt)) order[++nk] = key
	n = ++cnt[key]
	for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if ($1 ~ /^midi-/) {
		val[key, "truth", n] = f["truth_us"]; val[key, "smax", n] = f["src_max_us"]
		val[key, "emax", n] = f["max_us"] - f["src_max_us"]; val[key, "emin", n] = f["min_us"] - f["src_min_us"]
		val[key, "emean", n] = f["mean_us"] - f["src_mean_us"]
		if (f["events"] != f["sent"]) odd[key]++
		midi[key] = 1
	} else if ($2 == "lateness-from-start") {
		# its size: the end the client reports, else the 2 ms it spins
		t = (f["client_end_p50_us"] == "null" ? f["truth_us"] : f["client_end_p50_us"])
		val[key, "truth", n] = t; val[key, "rep", n] = f["p50_us"]
		val[key, "err", n] = f["p50_us"] - t; val[key, "idle", n] = f["after_us"] - f["before_us"]
	} else if ($2 == "two-stalls" || $2 == "short-stall") {
		# (their own checks judge them; not rows of this table)
		cnt[key]--
	} else if ($2 == "lateness") {
		val[key, "truth", n] = f["truth_us"]; val[key, "rep", n] = f["delta_us"]
		val[key, "err", n] = f["delta_us"] - f["truth_us"]; val[key, "idle", n] = f["idle_p50_us"]
	} else {
		val[key, "truth", n] = f["truth_us"]; val[key, "rep", n] = (f["event_us"] == "null" ? 0 : f["event_us"])
		val[key, "err", n] = val[key, "rep", n] - f["truth_us"]; val[key, "q", n] = f["queued_us"]
		val[key, "p99", n] = f["p99_us"]; val[key, "p99w", n] = f["p99w_us"]; val[key, "max", n] = f["max_us"]
		if (f["events"] != 1) odd[key]++
	}
	delete f
}
END {
	for (k = 1; k <= nk; k++) {
		key = order[k]; split(key, kk, " ")
		if (key in midi)
			continue
		if (!audio++) {
			print "| backend | fault | runs | truth ms | reported ms | error ms | queued audio ms | per-period max ms | per-period p99 ms | per-wake-up p99 us |"
			print "|---|---|---|---|---|---|---|---|---|---|"
		}
		if (cnt[key] == 0)
			continue
		if (kk[2] == "lateness-from-start")
			printf "| %s | lateness from the start, across a stall (p50) | %d | %s us | %s us | %s us | - | - | - | after - before the stall %s us |\n", kk[1], cnt[key],
				stat(key, "truth", "us"), stat(key, "rep", "us"), stat(key, "err", "us"), stat(key, "idle", "us")
		else if (kk[2] == "lateness")
			printf "| %s | lateness (p50 slow - idle) | %d | %s us | %s us | %s us | - | - | - | idle p50 %s us |\n", kk[1], cnt[key],
				stat(key, "truth", "us"), stat(key, "rep", "us"), stat(key, "err", "us"), stat(key, "idle", "us")
		else
			printf "| %s | %s%s | %d | %s | %s | %s | %s | %s | %s | %s |\n", kk[1], kk[2],
				(odd[key] ? " (" odd[key] " runs not one event)" : ""), cnt[key], stat(key, "truth"),
				stat(key, "rep"), stat(key, "err"), stat(key, "q"), stat(key, "max"), stat(key, "p99"),
				stat(key, "p99w", "us")
	}
	for (key in midi) {
		if (!hdr++) {
			if (audio)
				print ""
			print "| MIDI | fault | runs | truth ms | source max delta ms | error of max delta us | of min us | of mean us |"
			print "|---|---|---|---|---|---|---|---|"
		}
		split(key, kk, " ")
		printf "| %s | %s%s | %d | %s | %s | %s | %s | %s |\n", kk[1], kk[2],
			(odd[key] ? " (" odd[key] " runs with events lost)" : ""), cnt[key], stat(key, "truth"),
			stat(key, "smax"), stat(key, "emax", "us"), stat(key, "emin", "us"), stat(key, "emean", "us")
	}
}'
