#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Probe a PNG without PIL: pngprobe.py FILE WIDTH HEIGHT [COLOR:MIN_PERCENT ...]

Checks the signature, the IHDR size, decodes the image (zlib + PNG row filters)
and counts pixels by dominant colour: red (r > g + 60 and r > b + 60), green
(g > r + 30 and g > b + 30), blue (b > r + 30 and b > g + 30). Each COLOR must
cover at least MIN_PERCENT of the image. Exits 1 with the reason otherwise."""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("%s: not a PNG" % path)
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype = ihdr[:4]
    if depth != 8 or ctype not in (2, 6):
        sys.exit("%s: unexpected PNG format depth %d type %d" % (path, depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw, stride, prev, rows, i = zlib.decompress(idat), w * bpp, bytearray(w * bpp), [], 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def main():
    path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    w, h, bpp, rows = decode(path)
    if (w, h) != (want_w, want_h):
        sys.exit("%s: %dx%d, expected %dx%d" % (path, w, h, want_w, want_h))
    count = {"red": 0, "green": 0, "blue": 0}
    for line in rows:
        for x in range(0, len(line), bpp):
            r, g, b = line[x], line[x + 1], line[x + 2]
            if r > g + 60 and r > b + 60:
                count["red"] += 1
            elif g > r + 30 and g > b + 30:
                count["green"] += 1
            elif b > r + 30 and b > g + 30:
                count["blue"] += 1
    for arg in sys.argv[4:]:
        color, pct = arg.split(":")
        got = 100.0 * count[color] / (w * h)
        if got < float(pct):
            sys.exit("%s: %.2f%% %s pixels, expected at least %s%%" % (path, got, color, pct))
        print("%s: %.2f%% %s pixels" % (path, got, color))


main()
