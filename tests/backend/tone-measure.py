#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What a recording holds, for the --tone test: a WAV file (16/24/32-bit
PCM or 32-bit float, as jack_rec writes it) read without any audio library.

    tone-measure.py FILE.wav

Prints one JSON document: "rate", "channels", "seconds" (the whole file),
and for the longest stretch in which every 10 ms window of channel 1 is
louder than -40 dBFS RMS: "tone_seconds" (0 if there is none), "freq_hz"
(from its rising zero crossings, interpolated between samples: the rate
over the median interval between them, so that a period the server played
twice, one phase jump, does not move it; "phase_jumps" counts the
intervals more than 5 % off the median), "rms_dbfs"
and "peak_dbfs" (of each channel, a list), "dropouts" (quiet windows between
the first and the last loud one), "max_channel_diff" (the largest
difference between channel 1 and the others, in full scale) from the
first sample at which every channel has sound, and "channels_late_frames":
how long after the stretch began that was (a recorder whose ports are
connected one by one holds exact zeros on the later ones meanwhile).
"""
import json
import math
import struct
import sys


def read_wav(path):
    with open(path, "rb") as f:
        b = f.read()
    if b[:4] != b"RIFF" or b[8:12] != b"WAVE":
        raise ValueError("not a WAV file")
    i, fmt, data = 12, None, None
    while i + 8 <= len(b):
        cid, size = b[i:i + 4], struct.unpack("<I", b[i + 4:i + 8])[0]
        body = b[i + 8:i + 8 + size]
        if cid == b"fmt ":
            tag, ch, rate = struct.unpack("<HHI", body[:8])
            bits = struct.unpack("<H", body[14:16])[0]
            if tag == 0xFFFE:  # WAVE_FORMAT_EXTENSIBLE: the subformat's tag
                tag = struct.unpack("<H", body[24:26])[0]
            fmt = (tag, ch, rate, bits)
        elif cid == b"data":
            data = body
        i += 8 + size + (size & 1)
    if not fmt or data is None:
        raise ValueError("no fmt or data chunk")
    tag, ch, rate, bits = fmt
    width = bits // 8
    n = len(data) // (width * ch)
    if tag == 3 and bits == 32:
        v = struct.unpack("<%df" % (n * ch), data[:n * ch * 4])
    elif tag == 1 and bits in (16, 32):
        full = float(1 << (bits - 1))
        v = [x / full for x in struct.unpack("<%d%s" % (n * ch, "h" if bits == 16 else "i"),
                                             data[:n * ch * width])]
    elif tag == 1 and bits == 24:
        v = []
        for k in range(n * ch):
            x = int.from_bytes(data[3 * k:3 * k + 3], "little", signed=True)
            v.append(x / float(1 << 23))
    else:
        raise ValueError("format %d with %d bits" % (tag, bits))
    return rate, [list(v[c::ch]) for c in range(ch)]


def db(x):
    return 20 * math.log10(x) if x > 0 else -999.0


def main():
    rate, chans = read_wav(sys.argv[1])
    x = chans[0]
    win = max(1, rate // 100)
    loud = [db(math.sqrt(sum(s * s for s in x[k:k + win]) / win)) > -40
            for k in range(0, len(x) - win + 1, win)]
    best, cur, start, best_start = 0, 0, 0, 0
    for k, on in enumerate(loud):
        if on:
            if cur == 0:
                start = k
            cur += 1
            if cur > best:
                best, best_start = cur, start
        else:
            cur = 0
    out = {"rate": rate, "channels": len(chans), "seconds": len(x) / rate, "tone_seconds": 0}
    if best:
        on = [k for k, v in enumerate(loud) if v]
        out["dropouts"] = sum(1 for k in range(on[0], on[-1] + 1) if not loud[k])
        a, e = best_start * win, (best_start + best) * win
        seg = x[a:e]
        ups = [k + seg[k] / (seg[k] - seg[k + 1]) for k in range(len(seg) - 1)
               if seg[k] < 0 <= seg[k + 1]]
        out["tone_seconds"] = (e - a) / rate
        gaps = sorted(b - a for a, b in zip(ups, ups[1:]))
        med = gaps[len(gaps) // 2] if gaps else None
        out["freq_hz"] = rate / med if med else None
        out["phase_jumps"] = sum(1 for g in gaps if abs(g - med) > 0.05 * med) if med else None
        out["rms_dbfs"] = [db(math.sqrt(sum(s * s for s in c[a:e]) / (e - a))) for c in chans]
        out["peak_dbfs"] = [db(max(abs(s) for s in c[a:e])) for c in chans]
        # every channel has sound from the first sample not exactly 0 in each
        first = max(next((k for k in range(a, e) if c[k] != 0.0), e) for c in chans)
        out["channels_late_frames"] = first - a
        out["max_channel_diff"] = max((abs(c[k] - x[k]) for c in chans[1:] for k in range(first, e)),
                                      default=0.0)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
