#!/usr/bin/env python3
"""Sit between a GUI (or match runner) and an engine, pass every line through
unchanged, and log each with the wall time it passed, to find where a move's
time went when an engine loses on time although its own clock says it did not.

    scripts/line_log_proxy.py LOG_DIR ENGINE [ARGS...]

Each run writes LOG_DIR/<pid>.log: one line per protocol line, the
milliseconds since the proxy started (CLOCK_MONOTONIC), `>>` for a line to the
engine or `<<` for one from it, and the line. A wrapper script that execs this
with the engine's path can stand in for the engine anywhere a command is
asked for (scripts/soak.sh's BINARY, for example), as in
notes/2026-12-01-wine-soak-quiet.md. Its own delay per line was not
measured; compare a run through it with one without before reading small
delays into its log. The log is flushed per line so that a killed run keeps
what it saw.
"""

import os
import subprocess
import sys
import threading
import time


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    log_dir, command = sys.argv[1], sys.argv[2:]
    os.makedirs(log_dir, exist_ok=True)
    start = time.monotonic()
    log = open(os.path.join(log_dir, f"{os.getpid()}.log"), "w", buffering=1, encoding="utf-8", errors="replace")
    lock = threading.Lock()

    def note(arrow: str, line: bytes) -> None:
        ms = (time.monotonic() - start) * 1000.0
        text = line.rstrip(b"\r\n").decode("utf-8", "replace")
        with lock:
            log.write(f"{ms:10.1f} {arrow} {text}\n")

    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def to_engine() -> None:
        stdin = sys.stdin.buffer
        try:
            for line in iter(stdin.readline, b""):
                note(">>", line)
                engine.stdin.write(line)
                engine.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        finally:
            try:
                engine.stdin.close()
            except OSError:
                pass

    threading.Thread(target=to_engine, daemon=True).start()
    out = sys.stdout.buffer
    try:
        for line in iter(engine.stdout.readline, b""):
            out.write(line)
            out.flush()
            note("<<", line)
    except (BrokenPipeError, OSError):
        pass
    code = engine.wait()
    note("--", f"exit {code}".encode())
    return code


if __name__ == "__main__":
    sys.exit(main())
