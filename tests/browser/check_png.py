#!/usr/bin/env python3
"""Checks a screenshot PNG: the expected width and height (from the IHDR chunk), and that it is
not blank: the pixels, decoded with zlib and PNG's row filters (PNG spec, ISO/IEC 15948 sec. 9),
have a spread of values and a share of non-white pixels a page of text and charts has.

usage: check_png.py FILE WIDTH HEIGHT
"""
import struct
import sys
import zlib


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + " is not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    w, h, depth, colour, _, _, interlace = ihdr
    if (w, h) != (want_w, want_h):
        fail("screenshot is %dx%d, expected %dx%d" % (w, h, want_w, want_h))
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace != 0:
        fail("unexpected PNG form: depth %d, colour type %d, interlace %d" % (depth, colour, interlace))
    raw = zlib.decompress(idat)
    stride = w * channels
    prev = bytearray(stride)
    nonwhite = 0
    total = 0
    sum_v = 0.0
    sum_v2 = 0.0
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if y % 2:  # every other row is plenty for the statistics, and halves the time
            continue
        for x in range(0, stride, channels):
            v = line[x] if channels < 3 else (line[x] + line[x + 1] + line[x + 2]) / 3
            total += 1
            sum_v += v
            sum_v2 += v * v
            if v < 240:
                nonwhite += 1
    mean = sum_v / total
    var = sum_v2 / total - mean * mean
    share = nonwhite / total
    print("screenshot %dx%d: mean %.1f, variance %.1f, %.1f%% non-white" % (w, h, mean, var, 100 * share))
    # A blank page has variance 0 and no non-white pixel; a page of text, tables and two charts
    # covers well over 1 % of its area with ink and never all of it.
    if var < 50 or not 0.01 <= share <= 0.9:
        fail("the screenshot looks blank or flooded")


main()
