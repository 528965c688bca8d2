#!/usr/bin/env python3
"""How each engine of a `jiangjun match` PGN used its clock.

    scripts/pgn_time_use.py [--moves N] MATCH.pgn [MORE.pgn ...]

Reads the move comments the match runner writes (`{+0.13/7 0.012s}`: score,
depth, seconds) and the `TimeControl` tag (`BASE+INC` in seconds, or White's `vs`
Black's when each engine has its own `tc=`). Per engine: moves, average and longest time a move,
median and mean depth, and its clock replayed move by move as the runner keeps it
(minus the time used, plus the increment): the median clock left at the end
of a game, as a share of the base, and the lowest clock seen right after a
move (below zero: the move came after the clock ran out, which the runner
forgives up to its tolerance). Last, the ratio of the engines' total times
(the first engine's over the second's, by name order).
Games whose Termination is not `normal` are counted and named.
`--moves N`: the time and depth figures count only each engine's first N
moves of a game (a self-play game lasts longer than one against a
stronger engine; this compares the part both have).
"""

import argparse
import re
import statistics
import sys

TAG = re.compile(r'^\[(\w+) "(.*)"\]')
COMMENT = re.compile(r"\{[^}]*?/(\d+) ([0-9.]+)s\}")
TOKEN = re.compile(r"\{[^}]*\}|\S+")


def parse_tc(s):
    m = re.match(r"^([0-9.]+)\+([0-9.]+)$", s or "")
    return (float(m.group(1)), float(m.group(2))) if m else None


def games(paths):
    for path in paths:
        tags, body = {}, []
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = TAG.match(line)
                if m:
                    if body:
                        yield tags, " ".join(body)
                        tags, body = {}, []
                    tags[m.group(1)] = m.group(2)
                elif line.strip():
                    body.append(line.strip())
        if tags:
            yield tags, " ".join(body)


def positive(s):
    n = int(s)
    if n <= 0:
        raise argparse.ArgumentTypeError(f"{s} is not a positive number of moves")
    return n


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--moves", type=positive, metavar="N",
                    help="count only each engine's first N moves of a game in the time and depth figures")
    ap.add_argument("pgn", nargs="+", help="PGN files the match runner wrote")
    args = ap.parse_args()
    first = args.moves
    stats = {}
    abnormal = []
    try:
        parsed = list(games(args.pgn))
    except (OSError, UnicodeDecodeError) as e:
        sys.exit(f"pgn_time_use: {e}")
    for tags, body in parsed:
        if tags.get("Termination", "normal") != "normal":
            abnormal.append((tags.get("Round"), tags.get("Termination"), tags.get("Result")))
        black_first = tags.get("FEN", "").split(" ")[1:2] == ["b"]
        side = 1 if black_first else 0
        names = [tags.get("White"), tags.get("Black")]
        # `A vs B` when the sides have their own clocks: White's, Black's.
        tc = tags.get("TimeControl", "").split(" vs ")
        tcs = [parse_tc(tc[0]), parse_tc(tc[-1])]
        clock = [tc[0] if tc else None for tc in tcs]
        count = [0, 0]
        for tok in TOKEN.findall(body):
            m = COMMENT.fullmatch(tok)
            if not m:
                continue
            name = names[side]
            s = stats.setdefault(name, {"t": [], "d": [], "end": [], "low": []})
            t = float(m.group(2))
            count[side] += 1
            if first is None or count[side] <= first:
                s["t"].append(t)
                s["d"].append(int(m.group(1)))
            if clock[side] is not None:
                clock[side] -= t
                s["low"].append(clock[side])
                clock[side] += tcs[side][1]
            side = 1 - side
        for i in (0, 1):
            if clock[i] is not None and names[i] in stats:
                stats[names[i]]["end"].append(clock[i] / tcs[i][0])
    if not stats:
        sys.exit("pgn_time_use: no move with a time comment in " + " ".join(args.pgn))
    for name in sorted(stats):
        s = stats[name]
        print(
            f"{name}: {len(s['t'])} moves, {1000 * statistics.mean(s['t']):.2f} ms a move "
            f"(longest {1000 * max(s['t']):.0f} ms), median depth {statistics.median(s['d']):g} (mean {statistics.mean(s['d']):.2f}), "
            f"clock left at the end {100 * statistics.median(s['end']):.0f} % of the base (median), "
            f"lowest clock after a move {1000 * min(s['low']):.0f} ms"
        )
    names = sorted(stats)
    if len(names) == 2:
        a, b = (sum(stats[n]["t"]) for n in names)
        print(f"time ratio {names[0]}/{names[1]}: {a / b:.2f}")
    print(f"games not ended normally: {len(abnormal)} {abnormal if abnormal else ''}")


if __name__ == "__main__":
    main()
