#!/usr/bin/env python3
"""Time `go perft N` from the start position in UCI engines, in one session.

    scripts/perft_speed.py [--depth 5] [--runs 3] ENGINE [ENGINE ...]

An ENGINE is a command line; `fairy-stockfish` gets `setoption name UCI_Variant
value xiangqi` first. Prints the best wall time of each engine (from sending
`go perft` to reading `Nodes searched`) and leaves per second.
"""
import argparse
import shlex
import subprocess
import time


def time_perft(cmd, depth):
    p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def wait_for(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError(f"{cmd} exited")
            if line.startswith(prefix):
                return line

    send("uci")
    wait_for("uciok")
    if "fairy-stockfish" in cmd:
        send("setoption name UCI_Variant value xiangqi")
    send("position startpos")
    send("isready")
    wait_for("readyok")
    start = time.perf_counter()
    send(f"go perft {depth}")
    nodes = int(wait_for("Nodes searched").split(":")[1])
    elapsed = time.perf_counter() - start
    send("quit")
    p.wait(timeout=10)
    return nodes, elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("engines", nargs="+")
    args = ap.parse_args()
    results = []
    for cmd in args.engines:
        best = None
        for _ in range(args.runs):
            nodes, t = time_perft(cmd, args.depth)
            best = t if best is None else min(best, t)
        results.append((cmd, nodes, best))
        print(f"{cmd}: perft({args.depth}) = {nodes} in {best:.3f} s, {nodes / best / 1e6:.1f} M leaves/s", flush=True)
    if len(results) > 1:
        base = results[0][2]
        for cmd, _, t in results[1:]:
            print(f"{results[0][0]} is {t / base:.2f}x faster than {cmd}")


if __name__ == "__main__":
    main()
