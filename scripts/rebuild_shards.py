#!/usr/bin/env python3
"""Rebuilds self-play shards from the shard table and checks them byte for byte.

A new machine starts without the `data/` folder. Every shard the loop made is
recorded in the shard table (engine/nets/README.md#training-data-shards) with
its positions, SHA-256 and command, and datagen is deterministic for a seed and
settings, so the table is enough to make the same files again. This script
reads a shard's row, runs its command with the binary it is given, and says
whether the file has the recorded positions and SHA-256.

    scripts/rebuild_shards.py [--table FILE] [--data DIR] [--shared DIR]
        [--binary PATH] [--net NAME=PATH ...] [--list] SHARD...

SHARD is a shard's name (`net7n1250-s1001`). `--list` prints what the table
records for each (and whether it can be rebuilt) without running anything.
The binary (default `jiangjun` on PATH, or $JIANGJUN) must have the search of
the commit the row names: the same `bench` count is the check. A row whose
command reads `--evalfile NAME` needs `--net NAME=PATH` to the file of that
net (its SHA-256 is in the row's "made by" column). `../shared/` in a command
is the shared folder (`--shared`, default `../shared` beside the checkout).

The run is at `nice 19` in a session of its own whose autogroup is lowered
(docs/nnue.md), so that it yields the cores to everything else, the caller
included, in `--data` (default `../data`). A file already there with the recorded SHA-256
is kept. Each result is appended to DATA/rebuilt.tsv: shard, positions,
SHA-256, `match` or `differs`, CPU seconds, start and end (UTC), command.
Exit status 0 when every shard matches, 1 when one differs or cannot be
rebuilt, 2 on bad arguments.
"""

import argparse
import datetime
import hashlib
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD_BYTES = 48  # one position; the file starts with one header record

ROW = re.compile(r"^\| `(?P<name>[A-Za-z0-9_]+-s\d+)` \|(?P<rest>.*)$")
FULL_SHA = re.compile(r"in full `([0-9a-f]{64})`")
SHORT_SHA = re.compile(r"SHA-256 `([0-9a-f]{6,})…([0-9a-f]{6,})`")
COUNT = re.compile(r"^\s*([0-9][0-9,]*)")
COMMIT = re.compile(r"commit `([0-9a-f]{7,40})`")
COMMAND = re.compile(r"`(jiangjun datagen [^`]+)`")


class Row:
    """What the table records for one shard."""

    def __init__(self, name, line):
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        self.name = name
        positions = cells[2] if len(cells) > 2 else ""
        made_by = cells[3] if len(cells) > 3 else ""
        command = cells[4] if len(cells) > 4 else ""
        m = COUNT.match(positions)
        self.positions = int(m.group(1).replace(",", "")) if m else None
        full = FULL_SHA.search(positions)
        short = SHORT_SHA.search(positions)
        self.sha = full.group(1) if full else None
        self.sha_ends = (short.group(1), short.group(2)) if short else None
        commit = COMMIT.search(made_by)
        self.commit = commit.group(1) if commit else None
        m = COMMAND.search(command)
        self.command = m.group(1) if m else None

    def problem(self):
        """Why this row cannot be rebuilt and checked, or None."""
        if self.positions is None:
            return "no position count recorded"
        if self.sha is None and self.sha_ends is None:
            return "no SHA-256 recorded"
        if self.command is None:
            return "no command of its own recorded (the row says: see another row)"
        if f"--out {self.name}.jjdata" not in self.command:
            return "its command writes another file"
        return None

    def sha_matches(self, digest):
        if self.sha is not None:
            return digest == self.sha
        head, tail = self.sha_ends
        return digest.startswith(head) and digest.endswith(tail)


def read_table(path):
    rows = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group("name")] = Row(m.group("name"), line)
    return rows


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def positions_in(path):
    return os.path.getsize(path) // RECORD_BYTES - 1


def command_args(row, binary, shared, nets):
    """The row's command as an argument list for this machine, or an error."""
    args = shlex.split(row.command)
    out = [binary]
    i = 1
    while i < len(args):
        arg = args[i]
        if arg == "--evalfile" and i + 1 < len(args):
            name = args[i + 1]
            if name not in nets:
                return None, f"its command reads --evalfile {name}: give --net {name}=PATH"
            out += [arg, nets[name]]
            i += 2
            continue
        if arg.startswith("../shared/"):
            arg = os.path.join(shared, arg[len("../shared/"):])
        out.append(arg)
        i += 1
    return out, None


def lower_priority():
    """In the child, after it has its own session (so its own autogroup):
    lowering the autogroup of the caller's session would lower everything
    else the caller runs, a whole CI run among them."""
    os.nice(19)
    try:
        with open("/proc/self/autogroup", "w") as f:
            f.write("19")
    except OSError:
        pass


def rebuild(row, args, data, log):
    """Runs the command in DATA unless a matching file is there; returns True on a match."""
    path = data / f"{row.name}.jjdata"
    if path.exists() and positions_in(path) == row.positions and row.sha_matches(sha256(path)):
        print(f"{row.name}: already here, positions and SHA-256 as in the table", file=sys.stderr)
        return True
    if path.exists():
        path.unlink()
    start = datetime.datetime.now(datetime.timezone.utc)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    child = subprocess.Popen(args, cwd=data, start_new_session=True, preexec_fn=lower_priority)
    try:
        status = child.wait()
    except KeyboardInterrupt:
        # Its own session: the terminal's interrupt does not reach it.
        child.terminate()
        child.wait()
        raise
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    end = datetime.datetime.now(datetime.timezone.utc)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if status != 0 or not path.exists():
        print(f"{row.name}: datagen failed (exit status {status})", file=sys.stderr)
        return False
    positions = positions_in(path)
    digest = sha256(path)
    ok = positions == row.positions and row.sha_matches(digest)
    verdict = "match" if ok else "differs"
    stamp = "%Y-%m-%dT%H:%M:%SZ"
    with open(log, "a", encoding="utf-8") as f:
        f.write(
            f"{row.name}\t{positions}\t{digest}\t{verdict}\t{cpu:.1f}\t"
            f"{start.strftime(stamp)}\t{end.strftime(stamp)}\t{shlex.join(args)}\n"
        )
    recorded = row.sha or "…".join(row.sha_ends)
    print(
        f"{row.name}: {positions} positions, SHA-256 {digest}: {verdict} "
        f"(table: {row.positions}, {recorded}); {cpu:.1f} CPU s",
        file=sys.stderr,
    )
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("shards", nargs="+", metavar="SHARD")
    p.add_argument("--table", default=ROOT / "engine/nets/README.md")
    p.add_argument("--data", default=ROOT.parent / "data")
    p.add_argument("--shared", default=ROOT.parent / "shared")
    p.add_argument("--binary", default=os.environ.get("JIANGJUN", "jiangjun"))
    p.add_argument("--net", action="append", default=[], metavar="NAME=PATH")
    p.add_argument("--list", action="store_true")
    a = p.parse_args()

    nets = {}
    for spec in a.net:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            p.error(f"--net wants NAME=PATH, not {spec!r}")
        nets[name] = str(Path(path).resolve())
    rows = read_table(a.table)
    missing = [s for s in a.shards if s not in rows]
    if missing:
        p.error(f"not in {a.table}: {', '.join(missing)}")

    if a.list:
        for s in a.shards:
            r = rows[s]
            print(f"{s}\t{r.positions}\t{r.sha or '…'.join(r.sha_ends or ('?', '?'))}\t"
                  f"{r.commit or '?'}\t{r.command or '-'}\t{r.problem() or 'rebuildable'}")
        return 0

    binary = shutil.which(a.binary) or a.binary
    if not os.access(binary, os.X_OK):
        p.error(f"no jiangjun binary at {a.binary} (give --binary or set JIANGJUN)")
    binary = str(Path(binary).resolve())
    shared = str(Path(a.shared).resolve())
    data = Path(a.data).resolve()
    data.mkdir(parents=True, exist_ok=True)
    all_ok = True
    for s in a.shards:
        r = rows[s]
        why = r.problem()
        args = None
        if why is None:
            args, why = command_args(r, binary, shared, nets)
        if why is not None:
            print(f"{s}: cannot rebuild: {why}", file=sys.stderr)
            all_ok = False
            continue
        all_ok &= rebuild(r, args, data, data / "rebuilt.tsv")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
