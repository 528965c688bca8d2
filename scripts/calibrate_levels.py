#!/usr/bin/env python3
"""Calibrate Jiangjun's strength ladder with `jiangjun match`, and write the
results: engine/src/play/ladder_ratings.rs and the ladder table in docs/levels.md.

The ladder (rungs, budgets, the Skill Level that selects each rung, the
anchor and its assumed rating) is read from `jiangjun ladder`, so this
script never disagrees with the engine it measures.

  calibrate   each rung plays the next one up, and the rungs nearest the
              anchor's strength play it (Fairy-Stockfish 11.1 at the
              calibration's control);
              the differences are chained (a weighted least-squares fit of
              every match, which with one anchor match is exactly the
              chain) into ratings anchored at the anchor's assumed rating,
              and written.
  write       only the writing, from the matches already played.
  verify      the issue's checks: UCI_Elo pairs (is each measured
              difference within its 95% interval of the claimed one?) and
              clock independence (two levels against the same fixed-node
              anchor at 2+0.02 and at 10+0.1).

Every match is a `jiangjun match --pgn FILE --resume` into OUT, so a run
that is interrupted (or a second session) continues where it stopped and a
finished match is not played again: run the same command again. The
results are written only from what the match summaries say.

Examples (from the repository root, after `cargo build --release`):

  scripts/calibrate_levels.py calibrate --dry-run          # the plan, no games
  scripts/calibrate_levels.py calibrate --out calib         # the calibration
  scripts/calibrate_levels.py write --out calib             # rewrite from calib/
  scripts/calibrate_levels.py verify --out calib-verify
  scripts/calibrate_levels.py calibrate --only 'rung([0-9]|1[0-6])-vs-rung' --out calib
      # only the matches between rungs of at most 75,000 nodes: no clock
      # binds them, so they may share the cores with other work; the rest
      # (the top budgets, full strength, the anchor) on quiet cores
  scripts/calibrate_levels.py calibrate --tiny --out /tmp/t # plumbing check:
      4 games a match at nodes=2000; writes into /tmp/t only, never the repo

Python 3.8+, standard library only.
"""

import argparse
import math
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OPENINGS = os.path.join(ROOT, "..", "shared", "data", "openings", "openings.epd")


def paths(root: str) -> Tuple[str, str]:
    """The files the writer rewrites: the ratings module and the levels document."""
    return (os.path.join(root, "engine", "src", "play", "ladder_ratings.rs"),
            os.path.join(root, "docs", "levels.md"))


TABLE_BEGIN = "<!-- ladder-table:begin (written by scripts/calibrate_levels.py) -->"
TABLE_END = "<!-- ladder-table:end -->"
# Fewer games than this in any match: the results may not become the table.
MIN_GAMES = 100
# Adjacent rungs should differ by this much (Elo).
STEP_RANGE = (50, 200)
Z95 = 1.959964


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- the ladder


@dataclass
class Rung:
    index: int
    nodes: Optional[int]  # None: full strength
    lines: int
    weakness: int
    noise: int
    skill: int
    elo: int


@dataclass
class Ladder:
    anchor_elo: int
    anchor_name: str
    tc: str
    ratings: str
    rungs: List[Rung]
    bench: int  # the engine's `bench` node count: its search and network

    @property
    def top(self) -> int:
        return len(self.rungs) - 1


def read_ladder(jj: str) -> Ladder:
    out = subprocess.run([jj, "ladder"], check=True, capture_output=True, text=True).stdout
    anchor_elo, anchor_name, tc, ratings, rungs = 0, "", "", "", []
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "anchor":
            anchor_elo, anchor_name = int(f[1]), f[2]
        elif f[0] == "tc":
            tc = f[1]
        elif f[0] == "ratings":
            ratings = f[1]
        elif f[0].isdigit():
            rungs.append(
                Rung(int(f[0]), None if f[1] == "full" else int(f[1]), int(f[2]), int(f[3]),
                     int(f[4]), int(f[5]), int(f[6])))
    if not rungs or not tc:
        sys.exit(f"cannot read the ladder from `{jj} ladder`")
    bench = subprocess.run([jj, "bench"], check=True, capture_output=True, text=True).stdout
    found = re.search(r"^Nodes searched\s*:\s*(\d+)", bench, re.M)
    if not found:
        sys.exit(f"cannot read the bench node count from `{jj} bench`")
    return Ladder(anchor_elo, anchor_name, tc, ratings, rungs, int(found.group(1)))


# ---------------------------------------------------------------- matches


@dataclass
class Match:
    tag: str
    first: str  # engine specs
    second: str
    games: int
    tc: str
    # What the first engine's rating minus the second's is about: rung
    # indices, or "anchor"/"ref" for the external engines.
    a: str
    b: str


@dataclass
class Result:
    games: int
    score: float  # percent, first engine
    elo: Optional[float]  # first minus second
    err: Optional[float]  # 95% half-width
    seconds: Optional[int] = None  # the match's wall time, as its summary gives it


def jj_spec(jj: str, name: str, options: Dict[str, str], proto: str = "uci") -> str:
    opts = "".join(f",option.{k}={v}" for k, v in options.items())
    return f"name={name},cmd={jj},proto={proto},option.OwnBook=false{opts}"


def rung_spec(jj: str, rung: Rung) -> str:
    return jj_spec(jj, f"Rung{rung.index}", {"Skill Level": str(rung.skill)})


def anchor_spec(fsf: str, extra: str = "") -> str:
    return f"name=FairyStockfish,cmd={fsf},proto=ucci{extra}"


def left_out(m: Match, args: argparse.Namespace) -> bool:
    """Whether `--only` keeps this run from playing `m`."""
    return bool(args.only) and not re.search(args.only, m.tag)


def run_match(jj: str, m: Match, args: argparse.Namespace) -> Optional[Result]:
    pgn = os.path.join(args.out, m.tag + ".pgn")
    txt = os.path.join(args.out, m.tag + ".txt")
    if left_out(m, args):
        # Not this run's: what an earlier run left (if anything) still counts.
        return parse_summary(txt)
    cmd = [jj, "match", "--engine", m.first, "--engine", m.second, "--games", str(m.games),
           "--tc", m.tc, "--concurrency", str(args.concurrency), "--pgn", pgn, "--resume",
           "--quiet"]
    if args.openings:
        cmd[2:2] = ["--openings", args.openings]
    if args.dry_run:
        print(" ".join(shlex.quote(c) for c in cmd))
        return None
    done = parse_summary(txt)
    if done and done.games >= m.games:
        # Finished: its summary stands. Resuming it would play nothing but
        # rewrite the summary with a wall time of 0 s, losing the real one.
        log(f"match {m.tag}: finished ({done.games} games), kept")
        return done
    log(f"match {m.tag}: {m.games} games at {m.tc}")
    with open(txt, "w") as out, open(os.path.join(args.out, m.tag + ".err"), "w") as err:
        rc = subprocess.run(cmd, stdout=out, stderr=err).returncode
    if rc != 0:
        log(f"match {m.tag} failed (exit {rc}); see {args.out}/{m.tag}.err")
    return parse_summary(txt)


def parse_summary(path: str) -> Optional[Result]:
    """The first engine's result in a `jiangjun match` summary: pentanomial
    Elo when the games came in pairs, else the trinomial one."""
    if not os.path.exists(path):
        return None
    text = open(path).read()
    g = re.search(r"^Results of .*?: (\d+) games(?: in (\d+) s)?", text, re.M)
    s = re.search(r"score ([\d.]+)%", text)
    if not g or not s:
        return None
    elo = err = None
    tri = re.search(r"^Elo ([-+\d.]+) \+/- ([\d.]+)", text, re.M)
    penta = re.search(r"^Pentanomial .*Elo ([-+\d.]+) \+/- ([\d.]+)", text, re.M)
    for found in (tri, penta):
        if found:
            elo, err = float(found.group(1)), float(found.group(2))
    secs = int(g.group(2)) if g.group(2) else None
    return Result(int(g.group(1)), float(s.group(1)), elo, err, secs)


def plumbing_stand_in(r: Result) -> Result:
    """Only for --tiny runs, whose two-game matches often measure nothing:
    half a point moved to the losing side and a huge interval, so that the
    writer has a chain to write. Never used for a real calibration."""
    p = min(max(r.score / 100, 0.5 / r.games), 1 - 0.5 / r.games)
    p = 0.5 + (p - 0.5) * 0.999 if p == 0.5 else p
    elo = -400 * math.log10(1 / p - 1)
    return Result(r.games, p * 100, elo, 2000.0)


def measured(r: Optional[Result]) -> bool:
    return (r is not None and r.elo is not None and r.err is not None and r.err > 0
            and 0 < r.score < 100 and math.isfinite(r.elo) and math.isfinite(r.err))


# ---------------------------------------------------------------- the fit


def solve(a: List[List[float]], b: List[float]) -> Tuple[List[float], List[List[float]]]:
    """x with a x = b, and a's inverse (Gauss-Jordan; `a` is symmetric
    positive definite here)."""
    n = len(b)
    m = [row[:] + [b[i]] + [1.0 if j == i else 0.0 for j in range(n)] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-15:
            raise ValueError("singular")
        m[c], m[p] = m[p], m[c]
        pivot = m[c][c]
        m[c] = [v / pivot for v in m[c]]
        for r in range(n):
            if r != c and m[r][c] != 0:
                f = m[r][c]
                m[r] = [v - f * w for v, w in zip(m[r], m[c])]
    return [m[i][n] for i in range(n)], [m[i][n + 1:] for i in range(n)]


def fit(ladder: Ladder, results: List[Tuple[Match, Result]]):
    """Ratings of the rungs from the measured matches: weighted least
    squares of rating(a) - rating(b) = elo, weights 1/sigma^2, the anchor
    fixed at its assumed rating. Returns {rung: (elo, err95, games)} for
    the rungs connected to the anchor, and the rungs that are not."""
    n = len(ladder.rungs)
    games = [0] * n
    edges = []
    for m, r in results:
        for side in (m.a, m.b):
            if side.isdigit():
                games[int(side)] += r.games
        if measured(r):
            edges.append((m.a, m.b, r.elo, (r.err / Z95) ** 2))
    # Rungs connected to the anchor by measured matches.
    linked = {"anchor"}
    grew = True
    while grew:
        grew = False
        for a, b, _, _ in edges:
            if (a in linked) != (b in linked):
                linked |= {a, b}
                grew = True
    rated = sorted(int(x) for x in linked if x.isdigit())
    missing = [i for i in range(n) if i not in rated]
    if not rated:
        return {}, missing
    pos = {r: i for i, r in enumerate(rated)}
    k = len(rated)
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y, d, var in edges:
        if x not in linked or y not in linked:
            continue
        w = 1.0 / var
        # rating(x) - rating(y) = d, with the anchor a known value.
        terms = []
        const = 0.0
        for side, sign in ((x, 1.0), (y, -1.0)):
            if side == "anchor":
                const += sign * ladder.anchor_elo
            else:
                terms.append((pos[int(side)], sign))
        for i, si in terms:
            b[i] += w * si * (d - const)
            for j, sj in terms:
                a[i][j] += w * si * sj
    x, cov = solve(a, b)
    out = {r: (x[pos[r]], Z95 * math.sqrt(max(cov[pos[r]][pos[r]], 0.0)), games[r])
           for r in rated}
    return out, missing


# ---------------------------------------------------------------- writing


def ratings_rs(ladder: Ladder, rated, games_per_match: int) -> str:
    rows = []
    for r in ladder.rungs:
        elo, err, games = rated[r.index]
        rows.append(
            f"        RungRating {{ nodes: {r.nodes or 0}, elo: {round(elo)}, err: {round(err)}, "
            f"games: {games} }},")
    head = open(paths(ROOT)[0]).read().split("pub const CALIBRATION")[0]
    body = "\n".join(rows)
    return (f"{head}pub const CALIBRATION: Option<Calibration> = Some(Calibration {{\n"
            f"    bench: {ladder.bench},\n"
            f"    time_control: {rust_str(ladder.tc)},\n"
            f"    anchor: {rust_str(ladder.anchor_name)},\n"
            f"    anchor_elo: {ladder.anchor_elo},\n"
            f"    rungs: &[\n{body}\n    ],\n}});\n")


def rust_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def levels_table(ladder: Ladder, rated, results, note: str) -> str:
    by_pair = {(m.a, m.b): r for m, r in results}
    lines = [
        f"Measured at {ladder.tc}, anchored at {ladder.anchor_name} = {ladder.anchor_elo} "
        f"(assumed), with the engine whose `bench` is {ladder.bench}. {note}", "",
        "| Rung | Skill Level | Node budget | Lines / weakness / noise | Elo (± 95%) | Games "
        "| Step from the rung below |",
        "|-----:|------------:|------------:|--------------------------|------------:|------:"
        "|--------------------------|",
    ]
    prev = None
    for r in ladder.rungs:
        elo, err, games = rated[r.index]
        step = ""
        if prev is not None:
            d = elo - prev
            pair = by_pair.get((str(r.index - 1), str(r.index)))
            step = f"{d:+.0f}"
            if pair is not None:
                step += f" (match {-pair.elo:+.0f} ± {pair.err:.0f})" if measured(pair) else \
                    f" (match score {pair.score:.1f}%)"
            if not STEP_RANGE[0] <= d <= STEP_RANGE[1]:
                step += " **outside 50-200**"
        budget = "full strength" if r.nodes is None else f"{r.nodes:,}"
        knobs = "-" if r.nodes is None else f"{r.lines} / {r.weakness} / {r.noise}"
        lines.append(f"| {r.index} | {r.skill} | {budget} | {knobs} | {elo:.0f} ± {err:.0f} "
                     f"| {games} | {step} |")
        prev = elo
    anchors = [(m, r) for m, r in results if "anchor" in (m.a, m.b)]
    if anchors:
        lines += ["", "Against the anchor: " + "; ".join(
            f"rung {m.a} {r.score:.1f}% in {r.games} games"
            + (f" ({r.elo:+.0f} ± {r.err:.0f})" if measured(r) else "")
            for m, r in anchors) + "."]
    return "\n".join(lines)


def play_time(results) -> str:
    secs = sum(r.seconds or 0 for _, r in results)
    unknown = sum(1 for _, r in results if r.seconds is None)
    text = f"{secs:,} s ({secs // 3600} h {secs % 3600 // 60} min)"
    return text + (f", {unknown} matches untimed" if unknown else "")


def replace_table(doc: str, table: str) -> str:
    i, j = doc.find(TABLE_BEGIN), doc.find(TABLE_END)
    if i < 0 or j < i:
        sys.exit(f"docs/levels.md has no {TABLE_BEGIN} ... {TABLE_END} block")
    return doc[:i + len(TABLE_BEGIN)] + "\n" + table + "\n" + doc[j:]


def write(ladder: Ladder, matches: List[Match], args: argparse.Namespace) -> int:
    results = []
    for m in matches:
        r = parse_summary(os.path.join(args.out, m.tag + ".txt"))
        if r is None:
            log(f"{m.tag}: not played yet")
            continue
        if args.tiny and not measured(r) and r.games > 0:
            r = plumbing_stand_in(r)
        results.append((m, r))
        state = f"{r.elo:+.0f} ± {r.err:.0f}" if measured(r) else "no interval"
        log(f"{m.tag}: {r.games} games, score {r.score:.1f}%, Elo {state}")
    rated, missing = fit(ladder, results)
    for i in sorted(rated):
        elo, err, games = rated[i]
        log(f"rung {i}: {elo:.0f} ± {err:.0f} ({games} games)")
    if missing:
        log(f"not rated (no measured chain to the anchor): rungs {missing}; "
            "a match without a point to one side measures nothing: retune the budgets")
        return 1
    short = [m.tag for m, r in results if r.games < MIN_GAMES]
    played = {m.tag for m, _ in results}
    unplayed = [m.tag for m in matches if m.tag not in played]
    elos = [rated[i][0] for i in range(len(ladder.rungs))]
    falling = [i for i in range(1, len(elos)) if round(elos[i]) <= round(elos[i - 1])]
    if falling:
        log(f"rungs {falling} do not rate above the rung below: the ladder is not monotone "
            "(retune the budgets); the table goes into --out, not the repository")
    tiny = bool(short or unplayed or falling) or args.tiny
    note = ("NOT A CALIBRATION (tiny, incomplete or non-monotone)." if tiny else
            f"{sum(r.games for _, r in results)} games in {len(results)} matches, "
            f"{play_time(results)} of play (the sum of the wall times that the matches' summaries "
            f"give: a match resumed from its PGN counts only its last run).")
    rs = ratings_rs(ladder, rated, args.games)
    table = levels_table(ladder, rated, results, note)
    if tiny:
        # Never into the repository: too few games to be the table.
        rs_path = os.path.join(args.out, "ladder_ratings.rs")
        md_path = os.path.join(args.out, "ladder_table.md")
        log(f"not a full calibration (--tiny, a non-monotone ladder, or fewer than {MIN_GAMES} "
            f"games in {short + unplayed}): writing {rs_path} and {md_path}, not the repository")
        with open(md_path, "w") as f:
            f.write(table + "\n")
    else:
        rs_path, doc_path = paths(args.target_root)
        with open(doc_path) as f:
            text = replace_table(f.read(), table)
        with open(doc_path, "w") as f:
            f.write(text)
        log(f"wrote {rs_path} and the table in {doc_path}")
    with open(rs_path, "w") as f:
        f.write(rs)
    # In the project's format, so that `cargo fmt --check` stays clean.
    try:
        subprocess.run(["rustfmt", "--edition", "2024", rs_path], check=False)
    except OSError:
        log("no rustfmt: run `cargo fmt --all`")
    print(table)
    return 1 if falling else 0


# ---------------------------------------------------------------- plans


def calibration_plan(jj: str, fsf: str, ladder: Ladder, args: argparse.Namespace) -> List[Match]:
    tc = args.tc or ladder.tc
    rungs = ladder.rungs
    plan = []
    for lo, hi in zip(rungs, rungs[1:]):
        plan.append(Match(f"rung{lo.index}-vs-rung{hi.index}", rung_spec(jj, lo),
                          rung_spec(jj, hi), args.games, tc, str(lo.index), str(hi.index)))
    anchor_rungs = args.anchor_rungs or [r for r in ANCHOR_RUNGS if r <= ladder.top]
    for i in anchor_rungs:
        plan.append(Match(f"rung{i}-vs-anchor", rung_spec(jj, rungs[i]), anchor_spec(fsf),
                          args.games, tc, str(i), "anchor"))
    return plan


def calibrate(args: argparse.Namespace) -> int:
    jj, ladder = prepare(args)
    plan = calibration_plan(jj, args.fsf, ladder, args)
    # Only a match this run plays against the anchor needs it: the matches
    # between rungs (`--only 'rung...-vs-rung'`) run without it.
    needs_anchor = any("anchor" in (m.a, m.b) and not left_out(m, args) for m in plan)
    if not args.dry_run and needs_anchor and not os.access(args.fsf, os.X_OK):
        sys.exit(f"no Fairy-Stockfish at {args.fsf} (apt-get install fairy-stockfish)")
    for m in plan:
        run_match(jj, m, args)
    if args.dry_run:
        return 0
    return write(ladder, plan, args)


def rewrite(args: argparse.Namespace) -> int:
    jj, ladder = prepare(args)
    return write(ladder, calibration_plan(jj, args.fsf, ladder, args), args)


def verify(args: argparse.Namespace) -> int:
    """The issue's verification runs; prints PASS/FAIL lines."""
    jj, ladder = prepare(args)
    if ladder.ratings != "measured":
        log("the ladder is not calibrated yet: the claimed differences are nominal")
    elo_of = {r.index: r.elo for r in ladder.rungs}

    def nearest(elo: int) -> int:
        return min(ladder.rungs, key=lambda r: (abs(r.elo - elo), r.index)).index

    pairs = args.pairs or [(elo_of[a], elo_of[b]) for a, b in ((2, 6), (8, 11), (14, 16))]
    ok = True
    for e1, e2 in pairs:
        spec = lambda e: jj_spec(jj, f"Elo{e}", {"UCI_LimitStrength": "true", "UCI_Elo": str(e)})
        m = Match(f"elo{e1}-vs-elo{e2}", spec(e1), spec(e2), args.games, args.tc or ladder.tc,
                  "", "")
        r = run_match(jj, m, args)
        if args.dry_run:
            continue
        claimed = elo_of[nearest(e1)] - elo_of[nearest(e2)]
        if r is None and left_out(m, args):
            print(f"UCI_Elo {e1} vs {e2}: claimed {claimed:+d}, not played here (left out by --only)")
            continue
        if not measured(r):
            print(f"UCI_Elo {e1} vs {e2}: claimed {claimed:+d}, not measured "
                  f"({r.score if r else 'no'}% score)")
            ok = False
            continue
        inside = abs(r.elo - claimed) <= r.err
        ok &= inside
        print(f"UCI_Elo {e1} vs {e2}: claimed {claimed:+d}, measured {r.elo:+.0f} ± {r.err:.0f} "
              f"in {r.games} games: {'PASS' if inside else 'FAIL'} (claim "
              f"{'inside' if inside else 'outside'} the 95% interval)")
    # Clock independence: each level against the same fixed-node anchor
    # (a reference that does not change with the clock either).
    for i, ref_nodes in args.clock_rungs:
        ref_nodes = ref_nodes or args.ref_nodes
        ref = anchor_spec(args.fsf, f",tc=nodes={ref_nodes}")
        rung = ladder.rungs[i]
        found = []
        for tc in ("2+0.02", "10+0.1"):
            m = Match(f"clock-rung{i}-{tc}-vs-ref{ref_nodes}", rung_spec(jj, rung), ref,
                      args.clock_games,
                      tc, str(i), "ref")
            found.append((tc, run_match(jj, m, args), left_out(m, args)))
        if args.dry_run:
            continue
        (t1, r1, out1), (t2, r2, out2) = found
        if r1 is None and r2 is None and out1 and out2:
            print(f"rung {i} clock check: not played here (left out by --only)")
            continue
        if not (measured(r1) and measured(r2)):
            print(f"rung {i} clock check: not measured (scores "
                  f"{[r.score if r else None for _, r, _ in found]}); choose other reference nodes")
            ok = False
            continue
        gap = abs(r1.elo - r2.elo)
        both = math.hypot(r1.err, r2.err)
        same = gap <= CLOCK_GAP_MAX
        ok &= same
        print(f"rung {i} vs Fairy-Stockfish at nodes={ref_nodes}: {t1} {r1.elo:+.0f} ± "
              f"{r1.err:.0f}, {t2} {r2.elo:+.0f} ± {r2.err:.0f}: "
              f"{'PASS' if same else 'FAIL'} (difference {gap:.0f}, bar {CLOCK_GAP_MAX}; "
              f"{'within' if gap <= both else 'outside'} their combined 95% interval {both:.0f})")
    return 0 if ok or args.dry_run else 1


def prepare(args: argparse.Namespace):
    jj = os.path.abspath(args.jj)
    if not os.access(jj, os.X_OK):
        log(f"building {jj}")
        subprocess.run(["cargo", "build", "--release", "-p", "jiangjun"], cwd=ROOT, check=True)
    if args.tiny:
        args.games, args.clock_games = 4, 4
        args.tc = args.tc or "nodes=2000"
    os.makedirs(args.out, exist_ok=True)
    return jj, read_ladder(jj)


# The rungs that play the anchor: those nearest its strength, so that the
# matches measure something. With net 3, rung 15 scored 60% and rung 16
# 67.5% in 100 games each; net 4 scored +151 against net 3 at 20,000 nodes
# a move, so with it rung 14 (2371 with net 3) is the nearest: it scored
# 63.5% in 100 games with net 4, 52.2% in 200 with net 5.
ANCHOR_RUNGS = (14,)

# The clock check's rungs and the reference's nodes against each: near-even
# matches in smoke runs of this ladder at 2+0.02, 20 games each (rung 6
# scored 90% against Fairy-Stockfish 11.1 at 1000 nodes, 82.5% at 2000, 70% at
# 4000, 42.5% at 8000, 40% at 12000; rung 10 85% at 5000, 72.5% at 10000,
# 60% at 20000, 30% at 30000, 42.5% at 45000).
CLOCK_RUNGS = "6:6000,10:25000"

# The clock check passes when a level's two results (2+0.02 and 10+0.1)
# differ by at most this many Elo (the issue's bar).
CLOCK_GAP_MAX = 100


def clock_rungs(s: str) -> List[Tuple[int, Optional[int]]]:
    out = []
    for part in s.split(","):
        rung, _, nodes = part.partition(":")
        out.append((int(rung), int(nodes) if nodes else None))
    return out


def elo_pair(s: str) -> Tuple[int, int]:
    a, b = s.split(":")
    return int(a), int(b)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("command", choices=["calibrate", "write", "verify"])
    p.add_argument("--jj", default=os.path.join(ROOT, "target", "release", "jiangjun"))
    p.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    p.add_argument("--openings", help="the matches' openings (default: %s if it exists, "
                   "else none, said on stderr; given and missing: an error)" % DEFAULT_OPENINGS)
    p.add_argument("--out", default="calibration", help="PGNs and summaries (resumable)")
    p.add_argument("--games", type=int, default=200, help="games a match (even)")
    p.add_argument("--tc", help="time control (default: the ladder's, 10+0.1)")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--anchor-rungs", type=lambda s: [int(x) for x in s.split(",")],
                   help="rungs that play the anchor (default: %s)" % ",".join(map(str, ANCHOR_RUNGS)))
    p.add_argument("--pairs", type=lambda s: [elo_pair(x) for x in s.split(",")],
                   help="verify: UCI_Elo pairs A:B,... (default: rungs 2:6, 8:11, 14:16)")
    p.add_argument("--clock-rungs", type=clock_rungs, default=clock_rungs(CLOCK_RUNGS),
                   help="verify: rungs for the clock check, each RUNG or RUNG:NODES (the "
                   f"reference's nodes a move; default {CLOCK_RUNGS})")
    p.add_argument("--clock-games", type=int, default=100)
    p.add_argument("--ref-nodes", type=int, default=3000,
                   help="verify: Fairy-Stockfish's nodes a move for a clock rung without its own")
    p.add_argument("--target-root", default=ROOT,
                   help="the tree whose engine/src/play/ladder_ratings.rs and docs/levels.md are written")
    p.add_argument("--only", metavar="REGEX",
                   help="play only the matches whose tag matches (e.g. the budget-limited "
                   "ones, which a loaded machine cannot distort, apart from those on the clock)")
    p.add_argument("--dry-run", action="store_true", help="print the matches, play nothing")
    p.add_argument("--tiny", action="store_true",
                   help="4 games a match at nodes=2000, results into --out only")
    args = p.parse_args()
    if args.openings is None:
        if os.path.exists(DEFAULT_OPENINGS):
            args.openings = DEFAULT_OPENINGS
        else:
            log(f"no openings: {DEFAULT_OPENINGS} is missing; every game starts "
                "from the start position")
    elif not os.path.exists(args.openings):
        p.error(f"--openings {args.openings}: no such file")
    return {"calibrate": calibrate, "write": rewrite, "verify": verify}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
