#!/usr/bin/env python3
"""How far a fine-tune moved a net: the size of NEW - BASE in the feature layer.

Prints the root mean square of the change in the feature weights (quantised units, the file's
i16s), overall and per input group (own/their piece x role), beside the base weights' own root
mean square. Both nets must have the same architecture and hidden size (a widened net has no
base row to compare its new neurons with; a mirrored net's rows stand for other squares). The
layout read is `src/nnue/file.rs`'s: a 44-byte header (architecture, inputs and hidden size at
bytes 12..24, the payload's FNV-1a hash at 36..44), then 768 rows of that many i16s.

    tools/lab/net_step.py nets/default.nnue NEW.nnue   # NEW: a fine-tune of net 9

A fine-tune's step size is what a soup halves (`patina-learn average-nets`): docs/nets.md compares the
steps that gained in play with those that did not.
"""
import argparse
import array
import math
import struct
import sys

INPUTS = 768
HEADER_BYTES = 44
ROLES = "PNBRQK"


def fnv1a(data):
    """FNV-1a 64, the payload hash `src/nnue/file.rs` writes into the header."""
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def feature_rows(path):
    """The feature weights of the net at `path`, as `(architecture, hidden, flat list of INPUTS
    x hidden)`, after the checks the engine's loader makes that matter here."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"PATINANN":
        sys.exit(f"{path}: not a Patina net file (no PATINANN magic)")
    architecture, inputs, hidden = struct.unpack_from("<III", data, 12)
    stored_hash = struct.unpack_from("<Q", data, 36)[0]
    if inputs != INPUTS or len(data) < HEADER_BYTES + 2 * INPUTS * hidden:
        sys.exit(f"{path}: not {INPUTS} inputs, or shorter than its header's {hidden} hidden neurons call for")
    if fnv1a(data[HEADER_BYTES:]) != stored_hash:
        sys.exit(f"{path}: payload hash differs from the header's (a damaged copy)")
    weights = array.array("h")
    weights.frombytes(data[HEADER_BYTES : HEADER_BYTES + 2 * INPUTS * hidden])
    if sys.byteorder != "little":
        weights.byteswap()
    return architecture, hidden, weights


def rms(values):
    values = list(values)
    return math.sqrt(sum(v * v for v in values) / len(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the net the fine-tune started from")
    parser.add_argument("new", help="the fine-tuned net")
    args = parser.parse_args()
    architecture, hidden, base = feature_rows(args.base)
    new_architecture, new_hidden, new = feature_rows(args.new)
    if (architecture, hidden) != (new_architecture, new_hidden):
        sys.exit(
            f"architecture {architecture} x {hidden} and {new_architecture} x {new_hidden} differ:"
            " rows of different shapes or meanings, no step to measure"
        )
    step = [n - b for n, b in zip(new, base)]
    for side, name in enumerate(("own", "their")):
        for r, role in enumerate(ROLES):
            start = (side * 384 + r * 64) * hidden
            group = slice(start, start + 64 * hidden)
            print(f"{name:5} {role}: step {rms(step[group]):6.2f}   base {rms(base[group]):6.2f}")
    print(f"all      : step {rms(step):6.2f}   base {rms(base):6.2f}")


if __name__ == "__main__":
    main()
