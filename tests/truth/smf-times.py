#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The note-on times of a Standard MIDI File, in microseconds, one per
line, for a failed MIDI truth check to show its events beside the
source's (record -o writes one track, a tempo and 1 us ticks; any single
tempo is honoured, read without any MIDI library).

    smf-times.py FILE.mid
"""
import struct
import sys


def vlq(b, i):
    v = 0
    while True:
        c = b[i]
        i += 1
        v = (v << 7) | (c & 0x7F)
        if not c & 0x80:
            return v, i


def main():
    with open(sys.argv[1], "rb") as f:
        b = f.read()
    if b[:4] != b"MThd":
        raise SystemExit("smf-times.py: not a Standard MIDI File")
    division = struct.unpack(">H", b[12:14])[0]
    if division & 0x8000:
        raise SystemExit("smf-times.py: SMPTE time division")
    us_per_quarter, times = 500000, []
    i = 8 + struct.unpack(">I", b[4:8])[0]
    while i + 8 <= len(b):
        size = struct.unpack(">I", b[i + 4:i + 8])[0]
        j, end, tick, status = i + 8, i + 8 + size, 0, 0
        while b[i:i + 4] == b"MTrk" and j < end:
            d, j = vlq(b, j)
            tick += d
            if b[j] == 0xFF:
                kind = b[j + 1]
                n, k = vlq(b, j + 2)
                if kind == 0x51 and n == 3:
                    us_per_quarter = int.from_bytes(b[k:k + 3], "big")
                j = k + n
                continue
            if b[j] in (0xF0, 0xF7):
                n, k = vlq(b, j + 1)
                j = k + n
                continue
            if b[j] & 0x80:
                status = b[j]
                j += 1
            n = 1 if status & 0xF0 in (0xC0, 0xD0) else 2
            if status & 0xF0 == 0x90 and b[j + 1] > 0:
                times.append(tick)
            j += n
        i = end
    for t in times:
        print(t * us_per_quarter // division)


if __name__ == "__main__":
    main()
