#!/usr/bin/env python3
"""Checks that the repository keeps its data budget (archive/README.md).

The data is what the repository keeps besides its sources: the networks
(`*.nnue`), everything under `archive/`, and any PGN. Two kinds of rule:

The tree (the files of HEAD), each a fault if broken:
  - every PGN under archive/ is compressed (.pgn.gz, .pgn.bz2 or .pgn.xz, and
    its bytes are of that format), and no plain PGN elsewhere is over 64 KiB;
  - no two data files have the same content (a copy costs every checkout its
    size and says nothing new);
  - networks live only in engine/nets/ and archive/nets/; no network is over
    8 MiB and no other file over 2 MiB.

The history: a net's cycle is the commits after the commit that built in the
previous net, up to and including the one that builds in the new one
(adds engine/nets/jiangjun-N.nnue). The data a cycle adds (each new data
blob counted as git stores it whole: zlib-compressed) must stay below the new
net's raw size. For the cycle still open (no new net yet), the data added so
far plus what the current net cost must stay below its raw size, so that a
next net as large as the current one still fits. Enforced from net 8's cycle
on, and for the open cycle; the cycles before the budget are printed only.

    python3 .ci/check_repo_budget.py [--repo DIR]

Exit status 0 if every rule holds, 1 (naming each fault) if not. Needs git
and the whole history (a shallow clone is refused).
"""

import argparse
import re
import subprocess
import sys
import zlib

# The first net whose cycle is held to the budget (the budget was set in
# net 8's cycle, after net 7 was built in).
FIRST_ENFORCED_NET = 8
MAX_NET = 8 * 1024 * 1024
MAX_FILE = 2 * 1024 * 1024
MAX_PLAIN_PGN = 64 * 1024
BUILT_IN = re.compile(r"^engine/nets/jiangjun-(\d+)\.nnue$")
MAGIC = {".gz": b"\x1f\x8b", ".bz2": b"BZh", ".xz": b"\xfd7zXZ\x00"}


def git(repo, *args, data=None):
    return subprocess.run(["git", "-C", repo, *args], input=data, capture_output=True,
                          check=True).stdout


def is_data(path):
    return path.startswith("archive/") or path.endswith(".nnue") or ".pgn" in path


class Blobs:
    """Blob contents by id, read through one `git cat-file --batch`."""

    def __init__(self, repo):
        self.repo = repo

    def read(self, ids):
        if not ids:
            return {}
        out = git(self.repo, "cat-file", "--batch", data="".join(i + "\n" for i in ids).encode())
        found, pos = {}, 0
        for i in ids:
            end = out.index(b"\n", pos)
            head = out[pos:end].split()
            size = int(head[2])
            found[i] = out[end + 1:end + 1 + size]
            pos = end + 1 + size + 1
        return found


def tree_faults(repo, blobs):
    faults = []
    entries = []
    for line in git(repo, "ls-tree", "-r", "-l", "HEAD").decode().splitlines():
        meta, path = line.split("\t", 1)
        mode, kind, oid, size = meta.split()
        if kind == "blob":
            entries.append((path, oid, int(size)))
    heads = blobs.read([oid for path, oid, _ in entries if path.startswith("archive/")
                        and ".pgn" in path])
    seen = {}
    for path, oid, size in entries:
        if path.startswith("archive/") and ".pgn" in path:
            ext = path[path.rindex("."):]
            if not path.endswith(".pgn" + ext) or ext not in MAGIC:
                faults.append(f"{path}: a PGN in archive/ is kept compressed (.pgn.gz, .pgn.bz2 or .pgn.xz)")
            elif not heads[oid].startswith(MAGIC[ext]):
                faults.append(f"{path}: named {ext} but its bytes are not {ext}")
        elif path.endswith(".pgn") and size > MAX_PLAIN_PGN:
            faults.append(f"{path}: a plain PGN of {size} bytes (over {MAX_PLAIN_PGN}): compress it")
        if path.endswith(".nnue"):
            if not (path.startswith("engine/nets/") or path.startswith("archive/nets/")):
                faults.append(f"{path}: networks live in engine/nets/ or archive/nets/")
            if size > MAX_NET:
                faults.append(f"{path}: {size} bytes, over the {MAX_NET} a network may have")
        elif size > MAX_FILE:
            faults.append(f"{path}: {size} bytes, over the {MAX_FILE} a file other than a network may have")
        if is_data(path):
            if oid in seen:
                faults.append(f"{path}: the same content as {seen[oid]} (keep one, link to it)")
            else:
                seen[oid] = path
    return faults


def net_commits(repo):
    """(commit, net number, blob id) of each commit that built in a net, oldest first."""
    out = git(repo, "log", "--topo-order", "--reverse", "--diff-filter=A", "--format=@%H",
              "--raw", "--no-renames", "--no-abbrev", "--", "engine/nets/").decode()
    found, commit = [], None
    for line in out.splitlines():
        if line.startswith("@"):
            commit = line[1:]
        elif line.startswith(":"):
            meta, path = line.split("\t", 1)
            m = BUILT_IN.match(path)
            if m:
                found.append((commit, int(m.group(1)), meta.split()[3]))
    return found


def added_data(repo, blobs, new, old):
    """The data blobs reachable from `new` but not from `old`, each as git stores it
    whole: (zlib size, path), largest first."""
    out = git(repo, "rev-list", "--objects", new, f"^{old}").decode()
    paths = {}
    for line in out.splitlines():
        parts = line.split(" ", 1)
        if len(parts) == 2 and is_data(parts[1]):
            paths[parts[0]] = parts[1]
    kinds = git(repo, "cat-file", "--batch-check=%(objectname) %(objecttype)",
                data="".join(i + "\n" for i in paths).encode()).decode().split("\n")
    ids = [k.split()[0] for k in kinds if k.endswith(" blob")]
    contents = blobs.read(ids)
    return sorted(((len(zlib.compress(contents[i])), paths[i]) for i in ids), reverse=True)


def mb(n):
    return f"{n / 1e6:.2f} MB"


def history_faults(repo, blobs):
    if git(repo, "rev-parse", "--is-shallow-repository").strip() == b"true":
        return ["a shallow clone: the budget needs the whole history (actions/checkout: fetch-depth: 0)"]
    nets = net_commits(repo)
    if not nets:
        return ["no commit builds in a net (engine/nets/jiangjun-N.nnue)"]
    faults = []
    sizes = {oid: len(data) for oid, data in blobs.read([oid for _, _, oid in nets]).items()}
    for (old, _, _), (new, n, oid) in zip(nets, nets[1:]):
        added = added_data(repo, blobs, new, old)
        total = sum(s for s, _ in added)
        verdict = "within" if total < sizes[oid] else "over"
        enforced = n >= FIRST_ENFORCED_NET
        print(f"net {n}'s cycle ({old[:7]}..{new[:7]}): data added {mb(total)}, "
              f"net {n} {mb(sizes[oid])} raw: {verdict}"
              + ("" if enforced else " (before the budget, not enforced)"))
        if enforced and total >= sizes[oid]:
            faults.append(f"net {n}'s cycle added {total} bytes of data, not less than the net's "
                          f"{sizes[oid]}: " + ", ".join(f"{p} {s}" for s, p in added[:5]))
    last, n, oid = nets[-1]
    added = added_data(repo, blobs, "HEAD", last)
    net_cost = len(zlib.compress(blobs.read([oid])[oid]))
    total = sum(s for s, _ in added)
    room = sizes[oid] - net_cost
    print(f"open cycle since net {n} ({last[:7]}..HEAD): data added {mb(total)} of the "
          f"{mb(room)} a next net as large as net {n} leaves ({mb(sizes[oid])} raw, "
          f"{mb(net_cost)} stored)")
    for s, p in added[:5]:
        print(f"    {s:>9}  {p}")
    if total >= room:
        faults.append(f"the open cycle has added {total} bytes of data since net {n}, not less than "
                      f"the {room} left once a net like net {n} ({net_cost} bytes stored) is added")
    return faults


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", default=".")
    args = parser.parse_args()
    blobs = Blobs(args.repo)
    try:
        faults = tree_faults(args.repo, blobs) + history_faults(args.repo, blobs)
    except subprocess.CalledProcessError as e:
        print(f"git failed: {e.cmd}: {e.stderr.decode(errors='replace')}", file=sys.stderr)
        return 1
    for fault in faults:
        print(f"repository budget: {fault}", file=sys.stderr)
    if not faults:
        print("repository budget: kept (archive/README.md)")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
