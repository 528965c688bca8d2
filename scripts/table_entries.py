#!/usr/bin/env python3
"""Which games of a match reached the endgame tables, and did the result
follow the tables' verdict there?

    scripts/table_entries.py PGN [--jiangjun BIN] [--tables DIR] [--engine NAME]

For each game of a `jiangjun match` PGN, finds the first ply whose position
is in the tables, by asking `jiangjun judge --tablebase DIR` about the game
so far (material only falls, so once a game is in the tables it stays
there, and a binary search over the plies finds the entry). The last ply
is left out: a finished game is ruled by the rules, not the tables. Prints
one tab-separated line per game (round, Red's name, result, plies, entry
ply or `-`, the judge's ruling at entry) and then a summary counting, from
the view of the engine NAME (default `tables`), the tables' verdict at
entry against the game's result.
"""

import argparse
import collections
import re
import subprocess
import sys


def moves_of(game):
    """The ICCS moves of one PGN game (comments dropped)."""
    body = game.split("\n\n", 1)[1] if "\n\n" in game else ""
    body = re.sub(r"\{[^}]*\}", "", body)
    return [t for t in body.split() if re.fullmatch(r"[a-i]\d[a-i]\d", t)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn")
    ap.add_argument("--jiangjun", default="target/release/jiangjun")
    ap.add_argument("--tables", default="../data/tb/set")
    ap.add_argument("--engine", default="tables")
    a = ap.parse_args()

    def judge(fen, moves):
        cmd = [a.jiangjun, "judge", "--tablebase", a.tables, "--moves", " ".join(moves)]
        if fen:
            cmd += ["--fen", fen]
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()

    games = re.split(r"\n(?=\[Event )", open(a.pgn).read().strip())
    tally = collections.Counter()
    for game in games:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
        mv = moves_of(game)
        fen = tags.get("FEN")
        entry, ruling = None, ""
        if mv and "tablebase" in judge(fen, mv[:-1]):
            lo, hi = 0, len(mv) - 1
            while lo < hi:
                mid = (lo + hi) // 2
                if "tablebase" in judge(fen, mv[:mid]):
                    hi = mid
                else:
                    lo = mid + 1
            entry, ruling = lo, judge(fen, mv[:lo])
        print(tags.get("Round"), tags.get("White"), tags.get("Result"), len(mv),
              "-" if entry is None else entry, ruling, sep="\t")
        if entry is None:
            continue
        side = "red" if tags.get("White") == a.engine else "black"
        res = tags.get("Result")
        outcome = "draw" if res == "1/2-1/2" else ("win" if (res == "1-0") == (side == "red") else "loss")
        verdict = "draw" if ruling.startswith("draw") else ("win" if ruling.startswith(side) else "loss")
        tally[(verdict, outcome)] += 1
    entered = sum(tally.values())
    print(f"# {entered} of {len(games)} games reached the tables", file=sys.stderr)
    for (verdict, outcome), n in sorted(tally.items()):
        print(f"# {a.engine}: tables say {verdict}, game {outcome}: {n}", file=sys.stderr)


if __name__ == "__main__":
    main()
