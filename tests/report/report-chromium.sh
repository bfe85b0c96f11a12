#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The sample report in headless Chromium: it renders with no console
# errors and no network request; the DOM has the plots; a screenshot goes
# to $BUILD_DIR/report.png (and the page to $BUILD_DIR/report.html).
# $1: gen-result, the synthetic result generator.
. "$(dirname "$0")/../lib.sh"
GEN=${1:?gen-result}
T=$T_TMP
CHROMIUM=$(command -v chromium || command -v chromium-browser)
[ -n "$CHROMIUM" ] || t_skip_all "chromium is not installed (Debian package chromium)"
OUTDIR=${BUILD_DIR:-$T}

# the sample: a result with load phases, xruns, a stall and spikes, and a
# comparison with a second one
"$GEN" --seed 5 --phases idle:3,hackbench:4:1.8,idle:3 --xruns 2 --stall --spikes 3 \
	--label "sample <run> & 'quotes'" -o "$T/a.json"
"$GEN" --seed 6 --phases idle:3,hackbench:4:1.2,idle:3 --label "patched" -o "$T/b.json"
t_exit 0 "the sample report" "$AUDIOLAT" compare "$T/a.json" "$T/b.json" -q \
	--html "$OUTDIR/report.html"

browse() { # ARGS...: headless Chromium on the report, a fresh profile, no network
	local profile
	profile=$(mktemp -d "$T/profile.XXXXXX")
	timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$profile" --enable-logging=stderr --v=0 \
		--host-resolver-rules="MAP * ~NOTFOUND" --window-size=1200,2400 \
		"$@" "file://$OUTDIR/report.html"
}

browse --dump-dom >"$T/dom.html" 2>"$T/log1"
t_result $? "Chromium loads the report (--dump-dom)"
t_grep "$T/dom.html" "<h2>Comparison</h2>" "the DOM has the comparison"
t_eq() { # DESC GOT WANT
	[ "$2" = "$3" ] || echo "# got '$2', expected '$3'"
	t_result $([ "$2" = "$3" ] && echo 0 || echo 1) "$1"
}
t_eq "the DOM has all seven plots" "$(grep -o '<svg ' "$T/dom.html" | wc -l)" 7
t_grep "$T/dom.html" "sample &lt;run&gt; &amp; 'quotes'" "the label is text, not markup"
rm -f "$OUTDIR/report.png"
browse --screenshot="$OUTDIR/report.png" >"$T/out2" 2>"$T/log2"
t_result $? "Chromium takes a screenshot"
t_true "the screenshot is a PNG" bash -c "head -c 8 '$OUTDIR/report.png' | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a'"
t_true "the screenshot is not blank (> 50 kB)" test "$(stat -c %s "$OUTDIR/report.png")" -gt 50000
cat "$T/log1" "$T/log2" >"$T/log"
errs=$(grep -E 'CONSOLE|Uncaught|Refused to|net::ERR_|Failed to load resource' "$T/log" | head -n 5)
[ -z "$errs" ] || echo "$errs" | sed 's/^/# /'
t_result $([ -z "$errs" ] && echo 0 || echo 1) "no console errors, nothing fetched"
echo "# screenshot: $OUTDIR/report.png"
t_done
