#!/usr/bin/env python3
"""Re-judge games of `jiangjun match` PGNs with the independent rules oracle.

    scripts/rejudge.py [-n N] [--seed S] [--oracle PATH] [-v] PGN...

Takes a sample of N games (all by default) from the PGNs (ICCS moves, as the
runner writes them without --chinese) and, with ../shared/tools/oracle.py
(pyffish, the Fairy-Stockfish rules core: pip install pyffish):

- checks that every move was legal;
- rules on the final position (mate, stalemate, perpetual check or chase,
  repetition, move limit) and compares that with the runner's result and
  reason: a game the runner ended by a rule must be over for the oracle, with
  the same winner; a game that ended otherwise (time, resignation, forfeit,
  adjudication) must not be;
- finds the first position where the oracle would have ended the game, if
  before the end.

Known differences between the two rule sets are counted apart, not as
disagreements: pyffish draws after 100 plies without a capture (50 moves,
plain UCI), the runner after 120 (60 moves, Asian rules); pyffish has no
insufficient-material ruling (only a per-side test); pyffish rules perpetual
chase by the AXF rules (see ../shared/data/repetition/REFERENCES.md).

Exit status 1 if a move is illegal or a ruling disagrees, 2 for bad arguments.
"""
import argparse
import importlib.util
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ORACLE = os.path.join(HERE, "..", "..", "shared", "tools", "oracle.py")
MOVE = re.compile(r"^[a-i]\d[a-i]\d$")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def load_oracle(path):
    if not os.path.exists(path):
        sys.exit(f"rejudge: no oracle at {path} (give --oracle)")
    spec = importlib.util.spec_from_file_location("oracle", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # exits with a message if pyffish is missing
    return mod


def read_games(path):
    """Complete games of a PGN: dicts with tags, moves, reason, file and index."""
    text = open(path, encoding="utf-8", errors="replace").read()
    games = []
    for block in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]\s*$', block, re.M))
        if not tags:
            continue
        body = "\n".join(l for l in block.splitlines() if not l.startswith("["))
        comments = re.findall(r"\{([^}]*)\}", body)
        words = re.sub(r"\{[^}]*\}", " ", body).split()
        if not words or words[-1] not in RESULTS:
            continue  # cut short
        moves = [w for w in words[:-1] if not re.match(r"^\d+\.+$", w)]
        games.append({
            "tags": tags,
            "moves": moves,
            "reason": comments[-1].strip() if comments else "",
            "where": f"{os.path.basename(path)} round {tags.get('Round', '?')}",
        })
    return games


def runner_ruling(g):
    """(category, winner) of the runner: winner 'red', 'black' or 'draw'."""
    result = g["tags"].get("Result", "*")
    winner = {"1-0": "red", "0-1": "black", "1/2-1/2": "draw"}.get(result, "none")
    reason = g["reason"]
    term = g["tags"].get("Termination", "")
    if term == "normal" and "resigns" not in reason:
        for key, cat in [
            ("checkmate", "mate"),
            ("stalemate", "stalemate"),
            ("perpetual check", "perpetual"),
            ("perpetual chase", "perpetual"),
            ("repetition", "repetition"),
            ("natural move limit", "move limit"),
            ("insufficient material", "material"),
        ]:
            if key in reason:
                return cat, winner
    return "not over", winner


class Judge:
    def __init__(self, oracle):
        self.o = oracle
        self.sf = oracle.sf

    def fen(self, fen):
        # A full FEN keeps its counters (the move limit counts from them).
        return fen if len(fen.split()) == 6 else self.o.normalize_fen(fen)

    def ruling(self, fen, moves, quiet_plies, legal=None):
        """(category, winner) of the oracle after `moves` (ffish coordinates);
        `legal`: the legal moves there, if known."""
        sf, v = self.sf, self.o.VARIANT
        red_to_move = (len(moves) % 2 == 0) == (fen.split()[1] == "w")
        side = lambda stm_wins: "red" if stm_wins == red_to_move else "black"
        if legal is None:
            legal = sf.legal_moves(v, fen, moves)
        if not legal:
            cat = "mate" if sf.gives_check(v, fen, moves) else "stalemate"
            return cat, side(False)
        for check in (sf.is_immediate_game_end, sf.is_optional_game_end):
            ended, value = check(v, fen, moves)
            if ended:
                if value == 0:
                    return ("move limit" if quiet_plies >= 100 else "repetition"), "draw"
                return "perpetual", side(value > 0)
        return "not over", "none"

    def replay(self, g):
        """Check the moves; the oracle's ruling at the end and the first ply
        (before the end) where it would have ended the game. The position is
        kept as the FEN after the last capture and the moves since (nothing
        repeats across a capture), so that each step replays few moves."""
        sf, v = self.sf, self.o.VARIANT
        base = self.fen(g["tags"]["FEN"])
        fields = base.split()
        quiet = int(fields[4]) if len(fields) > 4 and fields[4].isdigit() else 0
        since = []
        board = occupied(base)
        early = None
        for i, m in enumerate(g["moves"]):
            if not MOVE.match(m):
                return f"move {i + 1} '{m}' is not ICCS (use PGNs without --chinese)", None, None
            fm = self.o.to_ffish(m)
            legal = sf.legal_moves(v, base, since)
            if fm not in legal:
                return f"ply {i + 1} {m} is illegal", None, None
            if early is None and i > 0:
                r = self.ruling(base, since, quiet, legal)
                if r[0] != "not over":
                    early = (i, r)
            frm, to = m[:2], m[2:]
            if to in board:
                base, since, quiet = sf.get_fen(v, base, since + [fm]), [], 0
            else:
                since.append(fm)
                quiet += 1
            board.discard(frm)
            board.add(to)
        return None, self.ruling(base, since, quiet), early


def occupied(fen):
    """The occupied squares of a FEN, as ICCS squares ('e0')."""
    squares = set()
    for row, text in enumerate(fen.split()[0].split("/")):
        rank = 9 - row
        f = 0
        for c in text:
            if c.isdigit():
                f += int(c)
            else:
                squares.add(f"{'abcdefghi'[f]}{rank}")
                f += 1
    return squares


def compare(ours, theirs):
    """'agree', 'known' (a known rule difference) or 'disagree'."""
    (cat, winner), (ocat, owinner) = ours, theirs
    if cat == "not over":
        if ocat == "not over":
            return "agree"
        return "known" if ocat == "move limit" else "disagree"
    if cat == "material":
        return "known" if ocat in ("not over", "move limit") else "disagree"
    if ocat == "move limit" and cat != "move limit":
        # pyffish's 100-ply limit came first.
        return "known"
    if cat == "move limit":
        return "agree" if ocat == "move limit" else "disagree"
    if cat == "perpetual" and ocat in ("repetition", "not over"):
        # Chase rules differ (AXF in pyffish, the runner's own reading).
        return "known"
    if cat == "repetition" and ocat in ("perpetual", "not over"):
        return "known"
    return "agree" if (cat, winner) == (ocat, owinner) else "disagree"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("-n", type=int, default=0, help="games to sample (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--oracle", default=DEFAULT_ORACLE)
    ap.add_argument("-v", "--verbose", action="store_true", help="a line for every game")
    a = ap.parse_args()
    judge = Judge(load_oracle(a.oracle))
    games = []
    for p in a.pgn:
        if not os.path.exists(p):
            print(f"rejudge: {p}: no such file", file=sys.stderr)
            sys.exit(2)
        games += read_games(p)
    if a.n and a.n < len(games):
        games = random.Random(a.seed).sample(games, a.n)
    counts = {"agree": 0, "known": 0, "disagree": 0, "illegal": 0}
    by_cat = {}
    plies = 0
    early_known = early_other = 0
    for g in games:
        err, theirs, early = judge.replay(g)
        plies += len(g["moves"])
        ours = runner_ruling(g)
        if err:
            counts["illegal"] += 1
            print(f"ILLEGAL   {g['where']}: {err}")
            continue
        verdict = compare(ours, theirs)
        counts[verdict] += 1
        key = ours[0]
        agree, total = by_cat.get(key, (0, 0))
        by_cat[key] = (agree + (verdict != "disagree"), total + 1)
        line = f"{g['where']}: runner {ours[0]} ({ours[1]}), oracle {theirs[0]} ({theirs[1]}); {g['reason']}"
        if verdict == "disagree":
            print(f"DISAGREE  {line}")
        elif verdict == "known" or a.verbose:
            print(f"{verdict.upper():<9} {line}")
        if early:
            ply, (ecat, ewin) = early
            known = ecat == "move limit" or (ecat == "perpetual" and ours[0] in ("perpetual", "repetition"))
            early_known += known
            early_other += not known
            if not known or a.verbose:
                print(f"EARLIER   {g['where']}: the oracle ends it at ply {ply} ({ecat}, {ewin}), "
                      f"the runner at ply {len(g['moves'])}")
    n = len(games)
    print(f"\n{n} games re-judged ({plies} moves checked): {counts['agree']} agree, "
          f"{counts['known']} known rule differences, {counts['disagree']} disagree, "
          f"{counts['illegal']} with an illegal move")
    for cat, (agree, total) in sorted(by_cat.items()):
        print(f"  {cat:<11} {agree}/{total} agree")
    if early_known or early_other:
        print(f"  the oracle would have ended {early_known + early_other} games earlier "
              f"({early_known} by a known rule difference)")
    sys.exit(1 if counts["disagree"] or counts["illegal"] else 0)


if __name__ == "__main__":
    main()
