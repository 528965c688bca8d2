#!/usr/bin/env python3
"""How deep a short search gets after the engine has sat idle.

In a game the engine waits while the opponent thinks, then searches for a
few milliseconds. If the machine makes memory that sat untouched slow to
touch again (on a virtual machine, most likely its nested page walks), a
5 ms search can end at depth 1. The engine plays a game against itself from
the start position; before each of one side's moves it sleeps GAP seconds,
then sends
`go wtime MS btime MS winc INC binc INC` and reports the depth reached, the
wall time from `go` to `bestmove`, and the page faults the engine took.

  scripts/idle_search_probe.py --engine target/release/jiangjun --gap 1
  scripts/idle_search_probe.py --engine OLD --engine NEW --gap 0 --gap 1

Each (engine, gap) pair is run in a fresh process; the summary line is the
median over the moves. Linux only (it reads /proc/PID/stat for the faults).
"""

import argparse
import statistics
import subprocess
import sys
import time

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.until("uciok")
        self.send("setoption name OwnBook value false")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"engine ended before '{prefix}'")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def faults(self):
        fields = open(f"/proc/{self.p.pid}/stat").read().rsplit(")", 1)[1].split()
        return int(fields[7]), int(fields[9])

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def search(e, played, clock_ms, inc_ms):
    """Search the game so far on the clock given; the engine's output lines."""
    e.send(" ".join(["position fen", START, "moves", *played]))
    e.send(f"go wtime {clock_ms} btime {clock_ms} winc {inc_ms} binc {inc_ms}")
    return e.until("bestmove")


def probe(path, gap, moves, clock_ms, inc_ms):
    e = Engine(path)
    played = []
    depths, walls, majors = [], [], []
    for _ in range(moves):
        time.sleep(gap)
        before = e.faults()
        start = time.perf_counter()
        lines = search(e, played, clock_ms, inc_ms)
        walls.append((time.perf_counter() - start) * 1000)
        majors.append(e.faults()[1] - before[1])
        info = [l.split() for l in lines if l.startswith("info depth")]
        depths.append(int(info[-1][2]) if info else 0)
        best = lines[-1].split()[1]
        if best in ("(none)", "0000"):
            break
        played.append(best)
        # The reply: the engine's own choice for the other side, searched
        # without a pause, so that only our side's searches follow a gap.
        reply = search(e, played, clock_ms, inc_ms)[-1].split()[1]
        if reply in ("(none)", "0000"):
            break
        played.append(reply)
    e.quit()
    return depths, walls, majors


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", action="append", required=True)
    ap.add_argument("--gap", action="append", type=float, help="seconds idle before each move")
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--clock-ms", type=int, default=299)
    ap.add_argument("--inc-ms", type=int, default=3)
    a = ap.parse_args()
    for path in a.engine:
        for gap in a.gap or [1.0]:
            d, w, m = probe(path, gap, a.moves, a.clock_ms, a.inc_ms)
            print(
                f"{path} gap {gap:g} s: {len(d)} moves, median depth {statistics.median(d):g}, "
                f"median wall {statistics.median(w):.1f} ms, major faults {sum(m)}"
            )


if __name__ == "__main__":
    main()
