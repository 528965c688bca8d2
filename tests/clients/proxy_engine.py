#!/usr/bin/env python3
"""A go-between for testing the match runner: runs a real engine, passes its
input and output through, logs what it is sent, and can crash or hang on cue.

    proxy_engine.py [--log FILE] [--counter FILE] [--crash-at N] [--hang-at N]
                    [--signal-at N] [--signal NAME] -- ENGINE [ARGS...]

--log FILE      append every line the runner sends to FILE
--trace FILE    append both directions to FILE, with times ("12.345 > go ...")
--counter FILE  counts the `go` commands (not `go ponder`) over every process
                that shares FILE, so that a restarted engine goes on counting
--crash-at N    exit (status 3) on the N-th counted `go`, instead of passing it on
--hang-at N     on the N-th counted `go`, pass nothing on and answer nothing
                any more (not even `stop` or `isready`) until killed
--signal-at N   on the N-th counted `go`, end by the signal --signal names
                (SIGTERM unless told): as when a cluster or a user stops the
                engine from outside (SIGTERM), or it crashes (SIGSEGV)
"""
import fcntl
import os
import signal
import subprocess
import sys
import threading
import time


def main(argv):
    log = counter = trace = None
    crash_at = hang_at = signal_at = None
    sig = signal.SIGTERM
    i = 1
    while i < len(argv) and argv[i] != "--":
        key = argv[i]
        value = argv[i + 1]
        if key == "--log":
            log = value
        elif key == "--trace":
            trace = open(value, "a", buffering=1)
        elif key == "--counter":
            counter = value
        elif key == "--crash-at":
            crash_at = int(value)
        elif key == "--hang-at":
            hang_at = int(value)
        elif key == "--signal-at":
            signal_at = int(value)
        elif key == "--signal":
            sig = signal.Signals[value]
        else:
            sys.exit(f"unknown option {key}")
        i += 2
    engine = argv[i + 1:]
    if not engine:
        sys.exit(__doc__)
    child = subprocess.Popen(engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    hung = threading.Event()
    lock = threading.Lock()

    def note(arrow, line):
        if trace:
            with lock:
                trace.write("%.3f %s %s\n" % (time.time(), arrow, line.rstrip("\n")))

    def pump():
        for line in child.stdout:
            if hung.is_set():
                continue
            note("<", line)
            sys.stdout.write(line)
            sys.stdout.flush()
        # The engine ended: so do we.
        os._exit(0)

    threading.Thread(target=pump, daemon=True).start()
    gos = 0
    for raw in sys.stdin:
        line = raw.strip()
        note(">", line)
        if log:
            with open(log, "a") as f:
                f.write(line + "\n")
        if hung.is_set():
            continue
        words = line.split()
        if words[:1] == ["go"] and "ponder" not in words:
            gos = count_go(counter) if counter else gos + 1
            if gos == crash_at:
                os._exit(3)
            if gos == signal_at:
                # The default action, whatever Python's own handlers do
                # (SIGKILL has no handler to reset).
                if sig != signal.SIGKILL:
                    signal.signal(sig, signal.SIG_DFL)
                os.kill(os.getpid(), sig)
                time.sleep(60)
            if gos == hang_at:
                hung.set()
                continue
        child.stdin.write(line + "\n")
        child.stdin.flush()
    child.stdin.close()
    child.wait()


def count_go(path):
    """Add one to the shared count and return it."""
    with open(path, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.write("g")
        f.flush()
        n = os.path.getsize(path)
        fcntl.flock(f, fcntl.LOCK_UN)
    return n


if __name__ == "__main__":
    main(sys.argv)
