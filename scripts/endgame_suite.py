#!/usr/bin/env python3
"""Build the endgame-play suite from the endgame tables (issue 46).

    scripts/endgame_suite.py [--jiangjun BIN] [--tables DIR] [--seed S]
                             [--out FILE] [--scale X]

Samples random placements of each material below, asks the tables about
each (`jiangjun tb probe`), keeps the ones that test play, and writes one
line per position:

    FEN; c0 "win dtm 31"; c1 "KRvKAABB"; id "suite-001";

(everything after the first `;` is ignored by `jiangjun match --openings`,
so the file serves as its openings file as it is). `c0` is the tables'
verdict from the side to move's view: `win dtm N` (the side to move mates
in N plies under best play) or `draw`; `c1` the material, stronger side
first; `c2` (draws only) how many of the side to move's legal moves lose,
e.g. `losing moves 3 of 14`.

- **Wins to convert**: the side to move wins, with at least the material's
  minimum distance to mate (15 plies where the tables have such wins; less
  where they do not: a pawn against an advisor mates in 13 at most).
- **Draws to hold**: the side to move draws, at least one of its legal
  moves loses (each successor is probed: the move's result is the
  opponent's verdict there), and no capture keeps the draw (a draw held by
  taking the attacker, or a piece that leaves a dead draw, tests nothing).

Half the positions, chosen by the seed, are colour-swapped (Black the
stronger side), so both colours are tested. The sampling is seeded: the
same tables and seed write the same file (the committed
tests/data/endgame_suite.epd is `--seed 46`). Each probe starts the binary
(a few ms of CPU with the tables a material needs; see `Tables`).
"""
import argparse
import os
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
import random
import re
import subprocess
import sys

FILES = "abcdefghi"

# (material, minimum plies to mate, count) of the wins to convert.
WINS = [
    ("KRvKAABB", 15, 6),
    ("KRvKABB", 15, 5),
    ("KRvKAAB", 15, 5),
    ("KNvKA", 15, 5),
    ("KNvKB", 15, 4),
    ("KNvKAB", 15, 5),
    ("KPvKA", 7, 4),  # 13 plies at most in this table
    ("KPAABBvK", 15, 4),
    ("KCAABBvK", 15, 5),
    ("KRvKN", 15, 6),
    ("KRvKR", 5, 4),  # 10 plies at most
    ("KRNvKR", 15, 8),
]

# (material, count) of the draws to hold.
DRAWS = [
    ("KRvKAABB", 10),
    ("KRvKR", 8),
    ("KNvKBB", 6),
    ("KRNvKR", 8),
    ("KPvKA", 4),
    ("KCvKAA", 4),
    # (Not KRvKN: its draws are nearly all the horse taking the rook.)
    ("KNvKAB", 4),
]

# Squares (file, rank) from Red's side, rank 0 Red's back rank.
PALACE = [(f, r) for f in (3, 4, 5) for r in (0, 1, 2)]
ADVISOR = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)]
ELEPHANT = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]
PAWN = [(f, r) for f in (0, 2, 4, 6, 8) for r in (3, 4)] + [
    (f, r) for f in range(9) for r in range(5, 10)
]
ANY = [(f, r) for f in range(9) for r in range(10)]
SQUARES = {"K": PALACE, "A": ADVISOR, "B": ELEPHANT, "P": PAWN, "R": ANY, "N": ANY, "C": ANY}


def red_squares(kind):
    return SQUARES[kind]


def black_squares(kind):
    return [(f, 9 - r) for f, r in SQUARES[kind]]


def place(material, rng):
    """A random placement of `material` (Red the stronger side): a dict
    square -> FEN letter, or None if two pieces collide."""
    red, black = material.split("v")
    board = {}
    for letters, squares, case in ((red, red_squares, str.upper), (black, black_squares, str.lower)):
        for k in letters:
            sq = rng.choice(squares(k))
            if sq in board:
                return None
            board[sq] = case(k)
    return board


def fen_of(board, side):
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = board.get((f, r))
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + p
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {side} - - 0 1"


def swap_colours(board, side):
    """The same position with the colours swapped (ranks mirrored)."""
    return {(f, 9 - r): p.swapcase() for (f, r), p in board.items()}, ("b" if side == "w" else "w")


class Tables:
    """`jiangjun tb probe` and `perft` as functions. Each probe is a process
    that opens every table of its directory, so the probes of one material
    go to a directory of links to the tables its captures can reach (that
    material's own and every smaller one inside it, either colour): the
    answers are the same, and opening a few small tables instead of all of
    them is ten times faster."""

    def __init__(self, binary, path):
        self.binary, self.all, self.path, self.calls = binary, path, path, 0
        self.tmp = tempfile.TemporaryDirectory(prefix="endgame-suite-")

    def use(self, material):
        """Probe only the tables `material` can reach from now on."""
        red, black = (Counter(side) for side in material.split("v"))
        sub = os.path.join(self.tmp.name, material)
        os.makedirs(sub, exist_ok=True)
        for name in os.listdir(self.all):
            if not name.endswith(".jtb"):
                continue
            a, b = (Counter(side) for side in name[:-4].split("v"))
            if (a <= red and b <= black) or (a <= black and b <= red):
                link = os.path.join(sub, name)
                if not os.path.exists(link):
                    os.symlink(os.path.join(os.path.abspath(self.all), name), link)
        self.path = sub

    def probe(self, fen):
        """('win'|'draw'|'loss', dtm or None), or None outside the tables
        (or an illegal position)."""
        self.calls += 1
        p = subprocess.run(
            [self.binary, "tb", "probe", "--path", self.path, "--fen", fen],
            capture_output=True, text=True,
        )
        if p.returncode != 0:
            return None
        w = p.stdout.split()
        dtm = int(w[w.index("dtm") + 1]) if "dtm" in w else None
        return w[1], dtm

    def moves(self, fen):
        p = subprocess.run(
            [self.binary, "perft", "1", "--divide", "--fen", fen],
            capture_output=True, text=True, check=True,
        )
        # `--divide` prints `a0a9: 1` per legal move, then totals.
        return [l[:4] for l in p.stdout.splitlines() if re.match(r"[a-i][0-9][a-i][0-9]: ", l)]


def after(board, side, mv):
    b = dict(board)
    frm = (FILES.index(mv[0]), int(mv[1]))
    to = (FILES.index(mv[2]), int(mv[3]))
    b[to] = b.pop(frm)
    return b, ("b" if side == "w" else "w")


def losing_moves(tables, board, side):
    """(moves that lose, legal moves, captures that keep the draw) for the
    side to move."""
    moves = tables.moves(fen_of(board, side))
    # Two probes at a time (each is a process); the order of the answers
    # is the moves', so the result does not depend on the timing.
    with ThreadPoolExecutor(max_workers=2) as pool:
        verdicts = list(pool.map(lambda m: tables.probe(fen_of(*after(board, side, m))), moves))
    lose = drawing_captures = 0
    for m, v in zip(moves, verdicts):
        if v is not None and v[0] == "win":
            lose += 1
        elif v is not None and v[0] == "draw" and (FILES.index(m[2]), int(m[3])) in board:
            drawing_captures += 1
    return lose, len(moves), drawing_captures


def sample(tables, rng, material, want, count, min_dtm, seen, tries=20000):
    """`count` positions of `material` whose verdict is `want` ('win' with
    at least `min_dtm` plies, or a 'draw' with a losing move)."""
    out = []
    tables.use(material)
    for _ in range(tries):
        if len(out) == count:
            break
        board = place(material, rng)
        if board is None:
            continue
        side = rng.choice("wb")
        if rng.random() < 0.5:
            board, side = swap_colours(board, side)
        fen = fen_of(board, side)
        if fen in seen:
            continue
        v = tables.probe(fen)
        if v is None or v[0] != want:
            continue
        if want == "win":
            if v[1] < min_dtm:
                continue
            ops = [f'c0 "win dtm {v[1]}"', f'c1 "{material}"']
        else:
            lose, legal, drawing_captures = losing_moves(tables, board, side)
            if lose == 0 or drawing_captures > 0:
                continue
            ops = ['c0 "draw"', f'c1 "{material}"', f'c2 "losing moves {lose} of {legal}"']
        seen.add(fen)
        out.append((fen, ops))
    short = f" (only {len(out)} of {count})" if len(out) < count else ""
    print(f"{material} {want}: {len(out)}{short}, {tables.calls} probes so far", file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jiangjun", default="target/release/jiangjun")
    ap.add_argument("--tables", default="/work/data/tb/set")
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--out", default="tests/data/endgame_suite.epd")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="multiply every count (a small trial run: 0.1)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    tables = Tables(a.jiangjun, a.tables)
    seen, lines = set(), []
    n = lambda c: max(1, round(c * a.scale))
    for material, min_dtm, count in WINS:
        lines += sample(tables, rng, material, "win", n(count), min_dtm, seen)
    for material, count in DRAWS:
        lines += sample(tables, rng, material, "draw", n(count), 0, seen)
    wins = sum(1 for _, ops in lines if "win" in ops[0])
    with open(a.out, "w") as f:
        f.write(f"# Endgame-play suite (issue 46): {wins} wins to convert, "
                f"{len(lines) - wins} draws to hold.\n")
        f.write(f"# Written by scripts/endgame_suite.py --seed {a.seed} from the tables "
                "of docs/tablebases.md; verdicts from the side to move's view.\n")
        for i, (fen, ops) in enumerate(lines):
            f.write(f"{fen}; " + "; ".join(ops + [f'id "suite-{i + 1:03}"']) + ";\n")
    print(f"{a.out}: {len(lines)} positions ({wins} wins, {len(lines) - wins} draws), "
          f"{tables.calls} probes", file=sys.stderr)


if __name__ == "__main__":
    main()
