#!/usr/bin/env python3
"""Score `jiangjun match` games over the endgame-play suite against the
tables' verdicts (issue 46).

    scripts/endgame_suite_summary.py SUITE LABEL=PGN [LABEL=PGN ...]

SUITE is tests/data/endgame_suite.epd (or any file of lines `FEN; c0 "win
dtm N"; ...` or `FEN; c0 "draw"; ...`, as scripts/endgame_suite.py writes);
each PGN is a match played with SUITE as its --openings. A game is tied to
its suite line by its OpeningIndex tag (1-based, over the lines that are
positions, as `jiangjun match` counts them), checked against its FEN tag.

Per PGN it prints the wins converted (the side the tables make the winner
won the game) of the games from winning positions, and the draws held (the
game was drawn) of the games from drawn ones, counting every game: `jiangjun
match` plays each line twice with colours swapped, and in self-play (the
same engine and options on both sides) both games test the same side, so
each line counts twice. Also per line: how many of its games went right
("pairs": 2/2, 1/2, 0/2), and how the failures ended. With `-v`, each
failing game.

Exit status 2 for bad arguments or a PGN game that matches no suite line.
"""
import argparse
import re
import sys
from collections import Counter


def die(message):
    print(message, file=sys.stderr)
    sys.exit(2)


def board_part(fen):
    return " ".join(fen.split()[:2])


def read_suite(path):
    """[(fen, 'win'|'draw', winner 'w'|'b'|None, material, dtm|None)]"""
    out = []
    with open(path) as f:
        for line in f:
            fen = line.split(";")[0].strip()
            if not fen or fen.startswith("#"):
                continue
            m = re.search(r'c0 "(win|draw)(?: dtm (\d+))?', line)
            if not m:
                die(f"{path}: no c0 verdict in: {line.strip()}")
            side = fen.split()[1]
            winner = side if m.group(1) == "win" else None
            mat = re.search(r'c1 "([^"]*)"', line)
            dtm = int(m.group(2)) if m.group(2) else None
            out.append((fen, m.group(1), winner, mat.group(1) if mat else "?", dtm))
    return out


def read_pgn(path):
    """Each game's tags and its last comment (the runner's reason)."""
    games, tags, body = [], {}, []
    with open(path) as f:
        for line in f:
            m = re.match(r'\[(\w+) "(.*)"\]', line)
            if m:
                if body:
                    games.append((tags, " ".join(body)))
                    tags, body = {}, []
                tags[m.group(1)] = m.group(2)
            elif line.strip():
                body.append(line.strip())
    if tags:
        games.append((tags, " ".join(body)))
    out = []
    for tags, text in games:
        comments = re.findall(r"\{([^}]*)\}", text)
        out.append((tags, comments[-1] if comments else ""))
    return out


def summarise(label, suite, games, verbose):
    wins = Counter()
    draws = Counter()
    per_line = {}
    failures = Counter()
    excess = []
    for tags, reason in games:
        try:
            i = int(tags["OpeningIndex"]) - 1
            fen, verdict, winner, material, dtm = suite[i]
        except (KeyError, ValueError, IndexError):
            die(f"{label}: game {tags.get('Round', '?')} has no suite line")
        if board_part(tags.get("FEN", "")) != board_part(fen):
            die(f"{label}: game {tags.get('Round')} FEN {tags.get('FEN')} is not line {i + 1}'s")
        result = tags.get("Result", "*")
        if verdict == "win":
            ok = result == ("1-0" if winner == "w" else "0-1")
            wins["ok" if ok else "no"] += 1
            if ok and dtm is not None and "PlyCount" in tags:
                # Plies beyond the tables' distance to mate.
                excess.append(int(tags["PlyCount"]) - dtm)
        else:
            ok = result == "1/2-1/2"
            draws["ok" if ok else "no"] += 1
        per_line.setdefault(i, []).append(ok)
        if not ok:
            # The reason without the engines' names, so games group.
            short = reason
            for tag, side in (("White", "red"), ("Black", "black")):
                if tags.get(tag):
                    short = short.replace(tags[tag], side)
            failures[(verdict, material, result, short.split(":")[0][:60])] += 1
            if verbose:
                print(f"  {label} line {i + 1} ({verdict}, {material}) game "
                      f"{tags.get('Round')}: {result} {reason}")
    nw, nd = wins["ok"] + wins["no"], draws["ok"] + draws["no"]
    print(f"{label}: wins converted {wins['ok']} of {nw}, draws held {draws['ok']} of {nd} "
          f"(games; {len(per_line)} of {len(suite)} suite lines played)")
    if excess:
        print(f"  wins converted in the tables' distance: {sum(e <= 0 for e in excess)} "
              f"of {len(excess)}; plies beyond it: mean {sum(excess) / len(excess):.1f}, "
              f"most {max(excess)}")
    for verdict in ("win", "draw"):
        pairs = Counter(f"{sum(v)}/{len(v)}" for i, v in per_line.items() if suite[i][1] == verdict)
        print(f"  {verdict} lines by games right: " +
              ", ".join(f"{k}: {n}" for k, n in sorted(pairs.items(), reverse=True)))
    for (verdict, material, result, reason), n in sorted(failures.items()):
        print(f"  not {'converted' if verdict == 'win' else 'held'}: {material} {result} "
              f"({reason}) x{n}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("suite")
    ap.add_argument("pgns", nargs="+", metavar="LABEL=PGN")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    suite = read_suite(a.suite)
    for arg in a.pgns:
        label, _, path = arg.rpartition("=")
        summarise(label or path, suite, read_pgn(path), a.verbose)


if __name__ == "__main__":
    main()
