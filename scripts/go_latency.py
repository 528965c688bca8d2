#!/usr/bin/env python3
"""What one `go` costs on a short clock, and how far `bestmove` comes past
the engine's own deadline.

The engine plays a game against itself from the start position through
pipes (or, with `--positions EPD`, searches each of the file's first
`--moves` positions once, so that runs under different conditions search
the same positions). Before each move the script waits GAP seconds (0: the `go` follows
the previous `bestmove` at once, as the opponent's move does in a fast
match; 1: after a second idle, with cold caches and sleeping threads), then
sends `position startpos moves ...` and
`go wtime CLOCK btime CLOCK winc INC binc INC`. The clock is the same at
every move, so each (clock, gap) pair is a sample of one situation, not a
game's clock running down. Per `go` it records, from the moment the `go`
line is written:

- `info1`: the first `info depth 1` line (the fixed cost of starting a
  search: parsing, table and thread set-up, the accumulators, the first
  iteration);
- `best`: the `bestmove` line (what a match runner charges to the clock);
- `max`: the hard deadline the engine set itself, read from its debug log
  on stderr (`RUST_LOG=jiangjun_engine::search::time=debug`);
- `over`: `best - max`, how far the answer came past that deadline (the
  stall the time policy must keep in reserve beyond it);
- `nodes` and `depth`: those of the last `info` line before `bestmove`
  (what the move's time bought).

`--load N` starts N more processes of the same engine, each searching
`go infinite` at `nice 5` for the whole run, as an opponent thinking on
the other cores does between our moves (and evicts our caches). They run
in this script's session, so with autogroup scheduling they share its
autogroup as a match runner's engines share the runner's; `--load-apart`
starts them in sessions of their own instead, as processes of another
terminal or service would be, where `nice` no longer ranks them below the
engine measured (notes/2026-12-03-short-clock-time.md).

  scripts/go_latency.py --engine target/release/jiangjun
  scripts/go_latency.py --engine OLD --engine NEW --clock 300 --clock 20 \\
      --gap 0 --gap 1 --moves 40

Each (engine, clock, gap) runs in a fresh process with `OwnBook` off
(and any `--option NAME=VALUE`, e.g. `EvalFile=none` to tell the
network's share of the cost). One
summary line each: median, 90th percentile and largest of every figure, in
milliseconds. `--raw FILE` also writes every `go` as a tab-separated line
(engine, clock, gap, info1, best, max, over, nodes, depth) for the reserve's derivation.
Timing figures are only worth what the machine's quiet is: run it on idle
cores (or under `nice -n -10`) and say which.
"""

import argparse
import os
import queue
import re
import statistics
import subprocess
import threading
import time

MAX_RE = re.compile(r"optimum (\d+) ms, maximum (\d+) ms")


class Engine:
    def __init__(self, path, threads, options=()):
        env = dict(os.environ)
        env["RUST_LOG"] = "jiangjun_engine::search::time=debug"
        self.p = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=env,
        )
        self.budgets = queue.Queue()
        threading.Thread(target=self._stderr, daemon=True).start()
        self.send("uci")
        self.until("uciok")
        self.send("setoption name OwnBook value false")
        self.send(f"setoption name Threads value {threads}")
        for opt in options:
            name, _, value = opt.partition("=")
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.until("readyok")

    def _stderr(self):
        for line in self.p.stderr:
            m = MAX_RE.search(line)
            if m:
                # The budget is at least 1 ms (the log shows it before that).
                self.budgets.put(max(1, int(m.group(2))))

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith(prefix):
                return line

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def play(path, clock, inc, gap, moves, threads, options, fens=None):
    """One self-play game of `moves` plies, or one `go` from each of `fens`;
    a row per `go`."""
    e = Engine(path, threads, options)
    played = []
    rows = []
    for i in range(len(fens) if fens else moves):
        time.sleep(gap)
        if fens:
            pos = f"position fen {fens[i]}"
        else:
            pos = "position startpos" + (" moves " + " ".join(played) if played else "")
        e.send(pos)
        t0 = time.perf_counter()
        e.send(f"go wtime {clock} btime {clock} winc {inc} binc {inc}")
        info1 = None
        nodes = depth = float("nan")
        while True:
            line = e.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            now = time.perf_counter()
            if info1 is None and line.startswith("info depth 1 "):
                info1 = (now - t0) * 1000
            # Search lines only: an `info string` may carry the words too.
            if line.startswith("info depth ") and " nodes " in line:
                w = line.split()
                depth = int(w[w.index("depth") + 1])
                nodes = int(w[w.index("nodes") + 1])
            if line.startswith("bestmove"):
                best = (now - t0) * 1000
                mv = line.split()[1]
                break
        try:
            maximum = e.budgets.get(timeout=1)
        except queue.Empty:
            maximum = float("nan")
        rows.append(
            (info1 if info1 is not None else float("nan"), best, maximum, best - maximum, nodes, depth)
        )
        if fens:
            continue
        if mv in ("(none)", "0000"):
            break
        played.append(mv)
    e.quit()
    return rows


def start_load(path, n, apart):
    """`n` processes of the engine searching forever at `nice 5`."""
    procs = []
    for _ in range(n):
        p = subprocess.Popen(
            ["nice", "-n", "5", path],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=apart,
        )
        p.stdin.write("uci\nsetoption name OwnBook value false\nposition startpos\ngo infinite\n")
        p.stdin.flush()
        procs.append(p)
    time.sleep(1)
    return procs


def stop_load(procs):
    for p in procs:
        try:
            p.stdin.write("stop\nquit\n")
            p.stdin.flush()
            p.wait(timeout=10)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            p.kill()


def pct(xs, q):
    xs = sorted(x for x in xs if x == x)
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", action="append", required=True)
    ap.add_argument("--clock", type=int, action="append", help="ms on each clock (300)")
    ap.add_argument("--inc", type=int, default=3, help="increment in ms (3)")
    ap.add_argument("--gap", type=float, action="append", help="idle seconds before each go (0, 1)")
    ap.add_argument("--moves", type=int, default=40, help="plies per game, or positions read (40)")
    ap.add_argument("--positions", help="EPD file: one go from each position instead of a game")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE, sent as setoption")
    ap.add_argument("--load", type=int, default=0, help="engines searching beside it (0)")
    ap.add_argument("--load-apart", action="store_true", help="the load in sessions of its own")
    ap.add_argument("--raw", help="write every go to this file")
    a = ap.parse_args()
    clocks = a.clock or [300]
    gaps = a.gap or [0.0, 1.0]
    raw = open(a.raw, "w") if a.raw else None
    fens = None
    if a.positions:
        with open(a.positions) as f:
            fens = [
                line.split(";")[0].strip()
                for line in f
                if line.strip() and not line.startswith("#")
            ][: a.moves]
    print(
        "engine\tclock\tgap\tn\tinfo1 med/p90/max\tbest med/p90/max\tmax med\tover med/p90/max"
        "\tnodes med\tdepth mean"
    )
    for path in a.engine:
        for clock in clocks:
            for gap in gaps:
                load = start_load(path, a.load, a.load_apart)
                try:
                    rows = play(path, clock, a.inc, gap, a.moves, a.threads, a.option, fens)
                finally:
                    stop_load(load)
                cols = list(zip(*rows))
                if raw:
                    for r in rows:
                        raw.write("\t".join([path, str(clock), str(gap)] + [f"{x:.2f}" for x in r]) + "\n")

                def three(xs):
                    return f"{statistics.median(xs):.2f}/{pct(xs, 0.9):.2f}/{max(xs):.2f}"

                print(
                    f"{os.path.basename(path)}\t{clock}+{a.inc}\t{gap:g}\t{len(rows)}\t"
                    f"{three(cols[0])}\t{three(cols[1])}\t{statistics.median(cols[2]):.0f}\t{three(cols[3])}"
                    f"\t{statistics.median(cols[4]):.0f}\t{statistics.mean(cols[5]):.2f}",
                    flush=True,
                )
    if raw:
        raw.close()


if __name__ == "__main__":
    main()
