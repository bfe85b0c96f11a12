#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Independent of src/midi: the note-on times of a Standard MIDI File and the
figures audiolat midi computes from them, as one JSON document, so that a
test can hold audiolat's figures to a second reading of the same file.

    smf-note-ons.py FILE.mid

Prints {"events", "delta_min_ns", "delta_max_ns", "delta_mean_ns",
"delta_median_ns"} (medians of an even count: the mean of the middle two).
Reads formats 0 and 1 with PPQ division and tempo meta events (a single
tempo map from every track), running status, sysex and meta events; a
note-on with velocity 0 is a note-off. Anything else is an error.
"""
import json
import sys


def vlq(b, i):
    v = 0
    for _ in range(4):
        c = b[i]
        i += 1
        v = v << 7 | c & 0x7F
        if not c & 0x80:
            return v, i
    raise ValueError("a variable-length number longer than 4 bytes")


def tracks(b):
    if b[:4] != b"MThd":
        raise ValueError("not a Standard MIDI File")
    n = int.from_bytes(b[10:12], "big")
    div = int.from_bytes(b[12:14], "big")
    if div & 0x8000 or div == 0:
        raise ValueError("only PPQ divisions")
    i = 8 + int.from_bytes(b[4:8], "big")
    out = []
    while len(out) < n:
        size = int.from_bytes(b[i + 4:i + 8], "big")
        if b[i:i + 4] == b"MTrk":
            out.append(b[i + 8:i + 8 + size])
        i += 8 + size
    return div, out


def events(trk):
    """(tick, kind, data): kind 'on' (note-on, velocity > 0) or 'tempo'."""
    i, tick, status = 0, 0, 0
    while i < len(trk):
        d, i = vlq(trk, i)
        tick += d
        if trk[i] & 0x80:
            status = trk[i]
            i += 1
        if status == 0xFF:
            typ = trk[i]
            n, i = vlq(trk, i + 1)
            if typ == 0x51:
                yield tick, "tempo", int.from_bytes(trk[i:i + 3], "big")
            i += n
            status = 0  # a meta event cancels running status
        elif status in (0xF0, 0xF7):
            n, i = vlq(trk, i)
            i += n
            status = 0
        else:
            size = 1 if status & 0xF0 in (0xC0, 0xD0) else 2
            if status & 0xF0 == 0x90 and trk[i + 1] > 0:
                yield tick, "on", None
            i += size


def note_on_ns(path):
    with open(path, "rb") as f:
        div, trks = tracks(f.read())
    evs = sorted((e for t in trks for e in events(t)), key=lambda e: (e[0], e[1] != "tempo"))
    t_ns, last_tick, us = 0.0, 0, 500000  # 120 bpm until a tempo event
    ons = []
    for tick, kind, data in evs:
        t_ns += (tick - last_tick) * us * 1000.0 / div
        last_tick = tick
        if kind == "tempo":
            us = data
        else:
            ons.append(t_ns)
    return ons


def main():
    ons = note_on_ns(sys.argv[1])
    d = sorted(b - a for a, b in zip(ons, ons[1:]))
    n = len(d)
    med = (d[n // 2] if n % 2 else (d[n // 2 - 1] + d[n // 2]) / 2) if n else None
    print(json.dumps({
        "events": len(ons),
        "delta_min_ns": round(d[0]) if n else None,
        "delta_max_ns": round(d[-1]) if n else None,
        "delta_mean_ns": round(sum(d) / n) if n else None,
        "delta_median_ns": round(med) if n else None,
    }))


if __name__ == "__main__":
    main()
