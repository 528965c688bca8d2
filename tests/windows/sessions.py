#!/usr/bin/env python3
"""A UCCI and a UCI session, played against two builds of the engine, which
must answer alike: the Windows build under Wine against the native one
(scripts/windows-build.sh).

    sessions.py NATIVE WINDOWS [JUDGE]

NATIVE and WINDOWS are engine commands (a path; for Wine, a wrapper script).
JUDGE is a native jiangjun binary (default: NATIVE) whose `judge` rules on
every move the engines answer with. Each session goes through the handshake,
options, `position` (startpos and FEN, with moves), `go depth`, timed
searches (UCCI `go time ... increment`, UCI `go wtime ... btime`), `go
infinite` + `stop` and `quit`. What must agree is compared line by line: the
id and option lists, uciok/ucciok, readyok, and each fixed-depth search's
last `info` (depth, seldepth, score, nodes, pv: the search is deterministic
with one thread) and its bestmove. Timed searches differ in their timing, so
they are only checked to answer in time with a legal move; `quit` must end
the process with status 0. Prints each session's agreeing lines and checks;
exit status 0 if all is well, 1 if not.
"""

import queue
import re
import subprocess
import sys
import threading
import time

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# After 1. h2e2 h9g7 (a FEN, so that `position fen ... moves` is exercised).
FEN = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"

# Each step: ("send", line) or ("expect", kind, argument). Kinds: "ok" waits
# for a line and keeps the lines before it; "search" waits for bestmove and
# keeps the last info and the bestmove; "timed" waits for bestmove within a
# limit and checks its move legal; "stop" sends stop after a pause and waits
# for bestmove; "quit" waits for the process to end.
UCCI = [
    ("send", "ucci"),
    ("expect", "ok", "ucciok"),
    ("send", "setoption hashsize 16"),
    ("send", "setoption threads 1"),
    ("send", "setoption usebook false"),
    ("send", "isready"),
    ("expect", "ok", "readyok"),
    ("send", "position startpos moves h2e2 h9g7"),
    ("send", "go depth 9"),
    ("expect", "search", (START, ["h2e2", "h9g7"])),
    ("send", f"position fen {FEN} moves h0g2 b9c7"),
    ("send", "go depth 9"),
    ("expect", "search", (FEN, ["h0g2", "b9c7"])),
    ("send", "isready"),
    ("expect", "ok", "readyok"),
    ("send", "position startpos moves b2e2"),
    ("send", "go time 4000 increment 100 opptime 4000"),
    ("expect", "timed", (START, ["b2e2"], 4.0)),
    ("send", f"position fen {FEN}"),
    ("send", "go time 60000 movestogo 40"),
    ("expect", "timed", (FEN, [], 10.0)),
    ("send", "position startpos"),
    ("send", "go infinite"),
    ("expect", "stop", (START, [])),
    ("send", "quit"),
    ("expect", "quit", None),
]

UCI = [
    ("send", "uci"),
    ("expect", "ok", "uciok"),
    ("send", "setoption name Hash value 16"),
    ("send", "setoption name Threads value 1"),
    ("send", "setoption name OwnBook value false"),
    ("send", "isready"),
    ("expect", "ok", "readyok"),
    ("send", "ucinewgame"),
    ("send", "position startpos moves h2e2 h9g7"),
    ("send", "go depth 9"),
    ("expect", "search", (START, ["h2e2", "h9g7"])),
    ("send", f"position fen {FEN} moves h0g2 b9c7"),
    ("send", "go depth 9"),
    ("expect", "search", (FEN, ["h0g2", "b9c7"])),
    ("send", "isready"),
    ("expect", "ok", "readyok"),
    ("send", "position startpos moves b2e2"),
    ("send", "go wtime 4000 btime 4000 winc 100 binc 100"),
    ("expect", "timed", (START, ["b2e2"], 4.0)),
    ("send", f"position fen {FEN}"),
    ("send", "go wtime 60000 btime 60000 movestogo 40"),
    ("expect", "timed", (FEN, [], 10.0)),
    ("send", "position startpos"),
    ("send", "go infinite"),
    ("expect", "stop", (START, [])),
    ("send", "quit"),
    ("expect", "quit", None),
]

# The fields of an `info` line that must agree (not time, nps, hashfull).
KEEP = ("depth", "seldepth", "multipv", "score", "nodes", "pv")


def info_core(line):
    """The fields of an info line that do not depend on timing."""
    words = line.split()
    out, i = ["info"], 1
    while i < len(words):
        w = words[i]
        if w == "pv":
            out += words[i:]
            break
        if w == "score":
            # UCI: `score cp 47` or `score mate 3`; UCCI: `score 47`.
            n = 3 if i + 1 < len(words) and words[i + 1] in ("cp", "mate") else 2
            out += words[i : i + n]
            i += n
            continue
        if w in KEEP:
            out += words[i : i + 2]
        i += 2
    return " ".join(out)


class Engine:
    def __init__(self, cmd):
        self.proc = subprocess.Popen(
            [cmd],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, pred, timeout):
        """Lines up to and including the first for which pred holds."""
        got, deadline = [], time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.01))
            except queue.Empty:
                raise RuntimeError(f"no answer within {timeout} s; last lines {got[-3:]}")
            if line is None:
                raise RuntimeError(f"the engine ended; last lines {got[-3:]}")
            got.append(line)
            if pred(line):
                return got

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def legal(judge, fen, moves, best):
    r = subprocess.run(
        [judge, "judge", "--fen", fen, "--moves", *moves, best],
        capture_output=True,
        text=True,
    )
    return r.returncode == 0


def bestmove_of(lines):
    m = re.match(r"bestmove (\S+)", lines[-1])
    return m.group(1) if m else None


def play(cmd, script, judge):
    """Plays the script; returns (lines that must agree, check notes)."""
    eng = Engine(cmd)
    agree, notes = [], []
    is_best = lambda l: l.startswith("bestmove")
    try:
        for step in script:
            if step[0] == "send":
                eng.send(step[1])
                continue
            kind, arg = step[1], step[2]
            if kind == "ok":
                got = eng.until(lambda l: l == arg, 30)
                agree += [l for l in got if l.split()[0] in ("id", "option", arg)]
            elif kind == "search":
                got = eng.until(is_best, 120)
                infos = [l for l in got if l.startswith("info depth")]
                best = bestmove_of(got)
                if not infos or not best or not legal(judge, arg[0], arg[1], best):
                    raise RuntimeError(f"bad fixed-depth search: {got[-3:]}")
                agree += [info_core(infos[-1]), got[-1]]
            elif kind == "timed":
                start = time.monotonic()
                got = eng.until(is_best, 60)
                took = time.monotonic() - start
                best = bestmove_of(got)
                if not best or not legal(judge, arg[0], arg[1], best):
                    raise RuntimeError(f"timed search answered {got[-1]!r}, not a legal move")
                if took > arg[2]:
                    raise RuntimeError(f"timed search took {took:.2f} s, more than {arg[2]} s")
                notes.append(f"timed search: bestmove {best} after {took:.2f} s")
            elif kind == "stop":
                time.sleep(1.0)
                eng.send("stop")
                start = time.monotonic()
                got = eng.until(is_best, 5)
                best = bestmove_of(got)
                if not best or not legal(judge, arg[0], arg[1], best):
                    raise RuntimeError(f"stop answered {got[-1]!r}, not a legal move")
                notes.append(f"stop: bestmove {best} {time.monotonic() - start:.2f} s after stop")
            elif kind == "quit":
                status = eng.proc.wait(timeout=10)
                if status != 0:
                    raise RuntimeError(f"quit: exit status {status}")
                notes.append("quit: exit status 0")
    finally:
        eng.kill()
    return agree, notes


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    native, windows = sys.argv[1], sys.argv[2]
    judge = sys.argv[3] if len(sys.argv) == 4 else native
    ok = True
    for name, script in (("UCCI", UCCI), ("UCI", UCI)):
        try:
            a_lines, a_notes = play(native, script, judge)
            b_lines, b_notes = play(windows, script, judge)
        except Exception as e:  # a hang, a crash, a bad answer: say which
            print(f"{name} session: FAILED: {e}")
            ok = False
            continue
        if a_lines != b_lines:
            ok = False
            print(f"{name} session: the answers differ")
            for x, y in zip(a_lines, b_lines):
                if x != y:
                    print(f"  native:  {x}\n  windows: {y}")
            if len(a_lines) != len(b_lines):
                print(f"  {len(a_lines)} lines natively, {len(b_lines)} under Wine")
            continue
        options = sum(1 for l in a_lines if l.startswith("option"))
        print(f"{name} session: {len(a_lines)} lines agree ({options} options)")
        for l in a_lines:
            if not l.startswith(("option", "id ")):
                print(f"  {l}")
        for who, notes in (("native", a_notes), ("windows", b_notes)):
            print(f"  {who}: " + "; ".join(notes))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
