#!/usr/bin/env python3
"""A misbehaving UCI engine for testing the match runner.

    fake_engine.py MODE

MODE: illegal (answers a0a9, never legal in the start position family),
crash (exits when asked to move), hang (never answers `go` or `stop`),
slow (answers after 1.5 s), nomove (answers `bestmove (none)`).
"""
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    cmd = raw.strip()
    if cmd == "uci":
        out("id name Fake-" + mode)
        out("uciok")
    elif cmd == "isready":
        out("readyok")
    elif cmd.startswith("go"):
        if mode == "crash":
            sys.exit(3)
        if mode == "hang":
            continue
        if mode == "slow":
            time.sleep(1.5)
            out("bestmove a3a4")
        elif mode == "nomove":
            out("bestmove (none)")
        else:
            out("info depth 1 score cp 0 pv a0a9")
            out("bestmove a0a9")
    elif cmd == "quit":
        break
