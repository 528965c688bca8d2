#!/usr/bin/env python3
"""Write engine/src/play/book/obk_table.rs from ../shared/data/books/obk_zobrist.tsv.

The table is the key of BHGUI's .obk books as VinXiangQi computes it; the
engine keeps only the 90 squares on the board, in its own square order
(rank * 9 + file, rank 0 = Red's back rank). Run from the project root:
    python3 scripts/obk_table.py > engine/src/play/book/obk_table.rs
"""
import argparse
import sys

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("tsv", nargs="?", default="../shared/data/books/obk_zobrist.tsv",
                help="the table of keys (default: %(default)s)")
path = ap.parse_args().tsv
player = None
table = {}
try:
    lines = open(path, encoding="utf-8").readlines()
except OSError as e:
    sys.exit(f"obk_table: {e}")
for line in lines:
    f = line.rstrip("\n").split("\t")
    if line.startswith("#") or not f[0]:
        continue
    if f[0] == "player":
        player = int(f[1], 16)
        continue
    table[(int(f[0]), int(f[2], 16))] = int(f[3], 16)

print("//! The position key of BHGUI's `.obk` books: the 64-bit numbers VinXiangQi")
print("//! (`OpenBookUtils.cs`, public source) XORs per piece and square, here for")
print("//! the 90 board squares in the engine's order (`rank * 9 + file`), pieces")
print("//! `K A B N R C P k a b n r c p`. Written by `scripts/obk_table.py` from")
print("//! `../shared/data/books/obk_zobrist.tsv`; a test checks keys against it.")
print()
print("/// XORed into the key when Red is to move.")
print(f"pub(super) const PLAYER: u64 = 0x{player:016X};")
print()
print("/// `PIECES[piece][square]`.")
print("#[rustfmt::skip]")
print("pub(super) static PIECES: [[u64; 90]; 14] = [")
for p in range(14):
    vals = []
    for sq in range(90):
        file, rank = sq % 9, sq // 9
        vals.append(table[(p, 0x33 + file + 16 * (9 - rank))])
    print("    [")
    for i in range(0, 90, 5):
        print("        " + " ".join(f"0x{v:016X}," for v in vals[i:i + 5]))
    print("    ],")
print("];")
