#!/usr/bin/env python3
"""Count distinct positions after N plies in a PGN written by `jiangjun match`.

    scripts/opening_variety.py games.pgn [--plies 10]

Needs pyffish (pip install pyffish) to replay the ICCS moves.
"""
import argparse
import re
import sys

try:
    import pyffish as sf
except ImportError:
    sf = None


def to_ffish(m):
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pgn")
    ap.add_argument("--plies", type=int, default=10)
    a = ap.parse_args()
    if sf is None:
        sys.exit("opening_variety: needs pyffish to replay the moves (pip install pyffish)")
    text = open(a.pgn, encoding="utf-8").read()
    seen = set()
    games = 0
    for block in text.split("[Event ")[1:]:
        fen = re.search(r'\[FEN "([^"]+)"\]', block).group(1)
        body = re.sub(r"\{[^}]*\}", " ", block.split("\n\n", 1)[1])
        moves = [w for w in body.split() if re.fullmatch(r"[a-i]\d[a-i]\d", w)]
        if len(moves) < a.plies:
            continue
        games += 1
        board = sf.get_fen("xiangqi", fen, [to_ffish(m) for m in moves[: a.plies]])
        seen.add(" ".join(board.split()[:2]))
    print(f"{len(seen)} distinct positions after {a.plies} plies in {games} games")


if __name__ == "__main__":
    main()
