#!/usr/bin/env python3
"""The Windows engine under Wine must not wait for the wine server to read a
command or print a line (scripts/windows-build.sh).

    server_stall.py WRAPPER

WRAPPER runs jiangjun.exe under Wine (in a prefix of its own). Under Wine,
whatever a Windows program asks of the system beyond plain memory and file
descriptors goes through one process, the wine server. If the engine asked
it on every read and write (the standard library's console check does),
then a server waiting for a CPU held up each `go` and each `info` line, and
a search blocked in a write went past its time: games were lost on time in
match soaks. Here the server is stopped (SIGSTOP) while the engine is sent
a position and a timed `go` (in UCCI, one line at a time) and searches: its
`bestmove` must come within ANSWER_S seconds of the `go`, as it does with a
running server. Then the server goes on (SIGCONT), and the engine must still
answer `isready`. Exit status 0 if all is well, 1 if not, 2 if
the server's process cannot be found.
"""

import os
import queue
import signal
import subprocess
import sys
import threading
import time

# A middle-game position, out of the book: a real search, which prints an
# `info` pair at each iteration.
FEN = "r2akab1r/5c3/1cn1b4/p3p3p/5np2/2C1R4/P3P1P1P/1C2B1N2/9/RN1AKAB2 b - - 0 13"
# 1 s on the clock: the engine plans well under 0.2 s.
GO = "go time 1000 increment 0"
ANSWER_S = 1.0


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    engine = subprocess.Popen(
        [sys.argv[1]],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        bufsize=0,
    )
    lines = queue.Queue()

    def read():
        for raw in engine.stdout:
            lines.put(raw.decode(errors="replace").strip())
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()

    def send(line):
        engine.stdin.write((line + "\n").encode())
        engine.stdin.flush()

    def wait_for(prefix, seconds):
        end = time.monotonic() + seconds
        while True:
            try:
                line = lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                return None
            if line is None:
                return None
            if line.startswith(prefix):
                return line

    send("ucci")
    send("isready")
    if wait_for("readyok", 60) is None:
        print("server_stall: the engine did not start", file=sys.stderr)
        engine.kill()
        return 1
    # The engine's own server: the one of its prefix, started with it.
    prefix = os.environ.get("WINEPREFIX") or wrapper_prefix(sys.argv[1])
    server = server_of(prefix)
    if server is None:
        print(f"server_stall: no wine server found for {prefix}", file=sys.stderr)
        engine.kill()
        return 2
    ok = True
    os.kill(server, signal.SIGSTOP)
    try:
        send(f"position fen {FEN}")
        time.sleep(0.05)
        sent = time.monotonic()
        send(GO)
        answer = wait_for("bestmove", ANSWER_S)
        took = time.monotonic() - sent
    finally:
        os.kill(server, signal.SIGCONT)
    if answer is None:
        print(
            f"server_stall: FAILED: no bestmove within {ANSWER_S} s of '{GO}' "
            "while the wine server was stopped"
        )
        ok = False
    else:
        print(f"server_stall: '{answer}' {took * 1000:.0f} ms after '{GO}', the wine server stopped")
    send("isready")
    if wait_for("readyok", 10) is None:
        print("server_stall: FAILED: no readyok once the server went on")
        ok = False
    send("quit")
    try:
        engine.wait(timeout=10)
    except subprocess.TimeoutExpired:
        engine.kill()
    return 0 if ok else 1


def wrapper_prefix(wrapper):
    """The WINEPREFIX that scripts/windows-build.sh's wrapper exports."""
    with open(wrapper, encoding="utf-8") as f:
        for line in f:
            for word in line.split():
                if word.startswith("WINEPREFIX="):
                    return word.split("=", 1)[1].strip("'\"")
    return ""


def server_of(prefix):
    """The pid of the wine server running for `prefix`, if any: it works in
    a directory named after the prefix's device and inode."""
    st = os.stat(prefix)
    want = f"server-{st.st_dev:x}-{st.st_ino:x}"
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                name = os.path.basename(f.read().split(b"\0")[0].decode(errors="replace"))
            if not name.startswith("wineserver"):
                continue
            if os.path.basename(os.readlink(f"/proc/{pid}/cwd")) == want:
                return int(pid)
        except OSError:
            continue
    return None


if __name__ == "__main__":
    sys.exit(main())
