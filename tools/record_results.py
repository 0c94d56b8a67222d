#!/usr/bin/env python3
"""What datagen's games say about results, read straight from record files (the 32-byte format
of src/data/mod.rs), with the training filter (no checks, captures, promotions, mate scores).

    tools/record_results.py level FILE...   draw rate of positions scored within 30 cp of 0,
                                            by material (pawn 1, minor 3, rook 5, queen 9)
    tools/record_results.py big FILE...     results of positions scored 1000 cp or more, by
                                            material and score band, for the side ahead

The WDL model (`patina wdl-fit`) is checked against these before it ships (docs/nets.md)."""
import collections
import struct
import sys

VALUES = [1, 3, 3, 5, 9, 0, 0, 0]
# Material of the two pieces packed in a byte; unused nibbles are 0 (a white pawn), corrected
# below by the piece count.
BYTE_MATERIAL = bytes(VALUES[b & 7] + VALUES[(b >> 4) & 7] for b in range(256))
DROPPED_FLAGS = 0b101110  # in check, capture, promotion, mate score


def records(paths):
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        for offset in range(0, len(data) - 31, 32):
            record = data[offset:offset + 32]
            flags = record[24]
            if flags & DROPPED_FLAGS:
                continue
            occupancy = struct.unpack_from("<Q", record, 0)[0]
            material = sum(record[8:24].translate(BYTE_MATERIAL)) - (32 - bin(occupancy).count("1"))
            score = struct.unpack_from("<h", record, 30)[0]
            yield material, score, flags >> 6  # result: 0 black won, 1 draw, 2 white won


def level(paths):
    cells = collections.defaultdict(lambda: [0, 0, 0])
    for material, score, result in records(paths):
        if abs(score) <= 30:
            cells[material // 8 * 8][result] += 1
    print("material  positions  draws per mille")
    for material in sorted(cells):
        counts = cells[material]
        print(f"{material:>8} {sum(counts):>10} {1000 * counts[1] / sum(counts):>16.0f}")


def big(paths):
    cells = collections.defaultdict(lambda: [0, 0, 0])
    for material, score, result in records(paths):
        if abs(score) < 1000:
            continue
        ahead = result if score > 0 else 2 - result  # 2: the side ahead won
        band = 1000 if abs(score) < 1500 else 1500 if abs(score) < 2000 else 2000
        cells[(min(material, 20), band)][ahead] += 1
    print("material  score  positions  win draw loss (per mille, side ahead)")
    for (material, band), counts in sorted(cells.items()):
        n = sum(counts)
        print(f"{material:>8} {band:>5}+ {n:>10} {1000 * counts[2] / n:>4.0f} {1000 * counts[1] / n:>4.0f} "
              f"{1000 * counts[0] / n:>4.0f}")


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("level", "big"):
        sys.exit(__doc__)
    {"level": level, "big": big}[sys.argv[1]](sys.argv[2:])
