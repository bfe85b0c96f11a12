#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""why-match.py RESULT.json CLASS [INJECTIONS]: how audiolat's causes
(docs/why.md) match faults of known kind. INJECTIONS: a file of lines
`start_real_ns=N hog_ns=N` (why-hog), or `every=MS` (--fault-pages:
every MS of the stream from its start), or absent (the whole run is
under the cause). An event matches an injection when its span starts
within [start - 3 ms, start + hog + 10 ms]. Prints key=value lines:
injections, detected (injections with a matched event), matched, right
(matched events of CLASS), background (events matching none), their
classes, the events of the wrong class, and the injections no event
matched with the event nearest each."""
import json
import sys
from datetime import datetime, timezone

MS = 1_000_000


def started_ns(doc):
    s = doc["started_at"]
    dt = datetime.strptime(s.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z")
    return int(dt.replace(tzinfo=timezone.utc).timestamp() * 1e9)


def main():
    doc = json.load(open(sys.argv[1]))
    want = sys.argv[2]
    why = doc.get("why")
    if not isinstance(why, dict):
        print("why=missing")
        return 1
    events = why.get("events") or []
    windows = None  # [(lo, hi)] relative to the run start, ns
    if len(sys.argv) > 3:
        spec = sys.argv[3]
        if spec.startswith("every="):
            every = int(spec[6:]) * MS
            dur = doc["duration_ns"]
            windows = [(k * every - 2 * MS, k * every + 10 * MS)
                       for k in range(1, int(dur // every) + 1) if k * every + 10 * MS < dur]
        else:
            t0 = started_ns(doc)
            windows = []
            for line in open(spec):
                f = dict(kv.split("=") for kv in line.split())
                st = int(f["start_real_ns"]) - t0
                # 3 ms before: the event starts at its period's boundary (or
                # its xrun's start), a period before a spin that lands in the
                # work, and started_at is in ms (t0 up to 1 ms early): at 2 ms,
                # 5 of 45 spins went unmatched once, their events 0.1 to 0.2 ms
                # before the window
                windows.append((st - 3 * MS, st + int(f["hog_ns"]) + 10 * MS))
            dur = doc["duration_ns"]
            windows = [w for w in windows if 0 <= w[0] and w[1] < dur]
    matched = right = background = 0
    detected = set()
    bg_classes = {}
    wrong = []
    for e in events:
        t = e["t_ns"]
        hit = None
        if windows is None:
            hit = 0
        else:
            for i, (lo, hi) in enumerate(windows):
                if lo <= t <= hi:
                    hit = i
                    break
        if hit is None:
            background += 1
            bg_classes[e["class"]] = bg_classes.get(e["class"], 0) + 1
            continue
        matched += 1
        detected.add(hit)
        if e["class"] == want:
            right += 1
        else:
            wrong.append("%.1fms:%s:%s" % (t / MS, e["class"], e.get("because", "")))
    n_inj = len(windows) if windows is not None else len(events)
    print("injections=%d" % n_inj)
    print("detected=%d" % (len(detected) if windows is not None else len(events)))
    print("matched=%d" % matched)
    print("right=%d" % right)
    print("background=%d" % background)
    print("background_classes=%s" % ",".join("%s:%d" % kv for kv in sorted(bg_classes.items())))
    print("events_kept=%d events_total=%d" % (len(events), why.get("events_total", why.get("total", -1))))
    for w in wrong[:10]:
        print("wrong=" + w)
    # the injections no event matched, and the nearest event to each
    if windows is not None:
        for i, (lo, hi) in enumerate(windows):
            if i in detected:
                continue
            near = min(events, key=lambda e: abs(e["t_ns"] - lo), default=None)
            print("missed=%.1fms..%.1fms nearest=%s" % (
                lo / MS, hi / MS,
                "none" if near is None else "%.1fms:%s:%s:%.2fms" % (
                    near["t_ns"] / MS, near["class"], near.get("kind"), near["size_ns"] / MS)))
    return 0


sys.exit(main())
