#!/usr/bin/env python3
"""Measure `stop` latency and `go movetime` accuracy of a UCI engine.

    scripts/protocol_timing.py ENGINE [--runs 20] [--movetime 500]

Latency: `go infinite`, wait, `stop`, time until `bestmove`.
Accuracy: time from `go movetime T` to `bestmove`, over several positions.
"""
import argparse
import statistics
import subprocess
import time

FENS = [
    "startpos",
    "fen r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "fen 1rb1kab2/4a4/nc1c2n2/p1p1p3p/6p2/PN1R3R1/2P1P1r1P/2C1C1N2/4A4/2BAK1B2 w - - 0 1",
    "fen 2bak4/4a4/4b4/p7p/9/6R2/P7P/4B4/9/3AK1B2 b - - 0 1",
]


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith(prefix):
                return line

    def ready(self):
        self.send("isready")
        self.wait("readyok")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--movetime", type=int, default=500)
    a = ap.parse_args()
    e = Engine(a.engine)
    lat = []
    for i in range(a.runs):
        e.send(f"position {FENS[i % len(FENS)]}")
        e.ready()
        e.send("go infinite")
        time.sleep(0.2)
        t = time.perf_counter()
        e.send("stop")
        e.wait("bestmove")
        lat.append((time.perf_counter() - t) * 1000)
    print(f"stop latency over {a.runs} runs: median {statistics.median(lat):.2f} ms, max {max(lat):.2f} ms")
    mt = []
    for i in range(a.runs):
        e.send(f"position {FENS[i % len(FENS)]}")
        e.ready()
        t = time.perf_counter()
        e.send(f"go movetime {a.movetime}")
        e.wait("bestmove")
        mt.append((time.perf_counter() - t) * 1000)
    print(
        f"go movetime {a.movetime} over {a.runs} runs: median {statistics.median(mt):.1f} ms, "
        f"min {min(mt):.1f} ms, max {max(mt):.1f} ms"
    )
    e.send("quit")


if __name__ == "__main__":
    main()
