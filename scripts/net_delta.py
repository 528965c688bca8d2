#!/usr/bin/env python3
"""Keeps a candidate net as its difference from the net it grew from.

A candidate trained on from a net (`jiangjun train --init PARENT`) differs
from it in small steps, so the difference of their quantised weights packs
into much less than the net itself. A delta file lets the repository keep a
candidate within its data budget (archive/README.md), and a new machine
remake the candidate in a second instead of making its self-play and
training again.

    scripts/net_delta.py make PARENT CHILD OUT    write OUT, the delta
    scripts/net_delta.py apply PARENT DELTA OUT   remake CHILD as OUT
    scripts/net_delta.py show DELTA               print what DELTA records
    scripts/net_delta.py check DIR...             remake every delta in DIRs

`check` remakes every `*.jjdelta` file in the folders from its parent, found
by SHA-256 among the `*.nnue` files there or among the children the other
deltas remake (a candidate may grow from a candidate), and prints one line
for each: the repository's deltas (archive/nets/) are checked this way by
tests/net_delta.rs.

`apply` refuses a PARENT whose SHA-256 is not the one the delta was made
from, and checks that what it writes has the child's recorded SHA-256; it
writes nothing otherwise. Both nets must have the same shape (the same
payload length): a net grown into a new shape is made from its parent
exactly by `jiangjun train --grow`, then trained, and its delta is taken
from the grown net.

The delta file, all numbers little-endian: the magic `JJDELTA\\0`, a `u16`
format version (1), the parent's SHA-256 (32 bytes), the child's SHA-256
(32 bytes), a `u32` length and the child's header (the bytes before the
payload of `i16` values), then an xz stream of the payload's differences,
child minus parent wrapping at 16 bits, zigzag-coded (0, -1, 1, -2 ... as
0, 1, 2, 3 ...), low bytes first, then high bytes: each plane is mostly
zeros and small values, which xz packs best apart (measured against the
other codings: notes/2026-12-03-m-again.md).

Exit status 0 on success, 1 when a check fails, 2 on bad arguments.
"""

import argparse
import hashlib
import lzma
import struct
import sys
from array import array
from pathlib import Path

MAGIC = b"JJDELTA\0"
VERSION = 1
NET_MAGIC = b"JJNNUE\0\0"
# The net's header ends at byte 48; the payload of i16 values follows
# (engine/src/nnue/network.rs, "File format").
NET_HEADER = 48
FIXED = len(MAGIC) + 2 + 32 + 32 + 4


class DeltaError(Exception):
    """A check failed: the message says which."""


def read_net(path):
    data = open(path, "rb").read()
    if data[:8] != NET_MAGIC or len(data) < NET_HEADER or (len(data) - NET_HEADER) % 2:
        raise DeltaError(f"{path}: not a Jiangjun network file")
    return data


def payload(net):
    values = array("h")
    values.frombytes(net[NET_HEADER:])
    if sys.byteorder != "little":
        values.byteswap()
    return values


def unzigzag(z):
    return (z >> 1) ^ -(z & 1)


def make(parent, child):
    if len(parent) != len(child):
        raise DeltaError(
            f"the nets differ in shape ({len(parent)} and {len(child)} bytes): "
            "take the delta from the grown net")
    old, new = payload(parent), payload(child)
    diff = bytearray(2 * len(old))
    n = len(old)
    for i, (a, b) in enumerate(zip(old, new)):
        d = ((b - a + 0x8000) & 0xFFFF) - 0x8000
        z = ((d << 1) ^ -(d < 0)) & 0xFFFF  # zigzag: -1 -> 1, 1 -> 2, -2 -> 3
        diff[i] = z & 0xFF
        diff[n + i] = z >> 8
    packed = lzma.compress(bytes(diff), preset=9 | lzma.PRESET_EXTREME)
    header = child[:NET_HEADER]
    return (MAGIC + struct.pack("<H", VERSION) + hashlib.sha256(parent).digest()
            + hashlib.sha256(child).digest() + struct.pack("<I", len(header)) + header
            + packed)


def parse(delta):
    if delta[:len(MAGIC)] != MAGIC or len(delta) < FIXED:
        raise DeltaError("not a net delta file")
    (version,) = struct.unpack_from("<H", delta, len(MAGIC))
    if version != VERSION:
        raise DeltaError(f"delta format version {version} (this script reads {VERSION})")
    at = len(MAGIC) + 2
    parent_sha, child_sha = delta[at:at + 32], delta[at + 32:at + 64]
    (header_len,) = struct.unpack_from("<I", delta, at + 64)
    header = delta[FIXED:FIXED + header_len]
    if len(header) != header_len:
        raise DeltaError("the delta file is cut short")
    return parent_sha, child_sha, header, delta[FIXED + header_len:]


def apply(parent, delta):
    parent_sha, child_sha, header, packed = parse(delta)
    if hashlib.sha256(parent).digest() != parent_sha:
        raise DeltaError(f"the parent's SHA-256 is {hashlib.sha256(parent).hexdigest()}, "
                         f"the delta was made from {parent_sha.hex()}")
    try:
        diff = lzma.decompress(packed)
    except lzma.LZMAError as e:
        raise DeltaError(f"the delta's data is damaged: {e}") from e
    old = payload(parent)
    n = len(old)
    if len(diff) != 2 * n:
        raise DeltaError("the delta's data does not fit the parent's shape")
    new = array("h", [(((a + unzigzag(diff[i] | diff[n + i] << 8)) + 0x8000) & 0xFFFF) - 0x8000
                      for i, a in enumerate(old)])
    if sys.byteorder != "little":
        new.byteswap()
    child = header + new.tobytes()
    if hashlib.sha256(child).digest() != child_sha:
        raise DeltaError("the remade net's SHA-256 is not the child's: the delta is damaged")
    return child


def check(dirs):
    """Remakes every delta in DIRS; returns (lines, failures)."""
    nets, deltas = {}, {}
    for d in dirs:
        for path in sorted(Path(d).glob("*.nnue")):
            net = path.read_bytes()
            nets[hashlib.sha256(net).digest()] = net
        for path in sorted(Path(d).glob("*.jjdelta")):
            deltas[path] = path.read_bytes()
    lines, failures = [], 0
    pending = dict(deltas)
    while pending:
        progress = False
        for path, delta in list(pending.items()):
            try:
                parent_sha, child_sha, _, _ = parse(delta)
            except DeltaError as e:
                lines.append(f"{path}: {e}")
                failures += 1
                del pending[path]
                continue
            if parent_sha not in nets:
                continue
            try:
                child = apply(nets[parent_sha], delta)
                nets[child_sha] = child
                lines.append(f"{path}: remade, SHA-256 {child_sha.hex()}")
            except DeltaError as e:
                lines.append(f"{path}: {e}")
                failures += 1
            del pending[path]
            progress = True
        if not progress:
            for path, delta in pending.items():
                lines.append(f"{path}: no parent with SHA-256 {parse(delta)[0].hex()}")
                failures += 1
            break
    return lines, failures


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="verb", required=True)
    m = sub.add_parser("make")
    m.add_argument("parent")
    m.add_argument("child")
    m.add_argument("out")
    a = sub.add_parser("apply")
    a.add_argument("parent")
    a.add_argument("delta")
    a.add_argument("out")
    s = sub.add_parser("show")
    s.add_argument("delta")
    c = sub.add_parser("check")
    c.add_argument("dirs", nargs="+")
    args = p.parse_args()
    try:
        if args.verb == "make":
            parent, child = read_net(args.parent), read_net(args.child)
            delta = make(parent, child)
            open(args.out, "wb").write(delta)
            print(f"{args.out}: {len(delta)} bytes for a net of {len(child)} "
                  f"(xz alone: {len(lzma.compress(child, preset=9 | lzma.PRESET_EXTREME))})")
            print(f"parent {hashlib.sha256(parent).hexdigest()}")
            print(f"child  {hashlib.sha256(child).hexdigest()}")
        elif args.verb == "apply":
            child = apply(read_net(args.parent), open(args.delta, "rb").read())
            open(args.out, "wb").write(child)
            print(f"{args.out}: {len(child)} bytes, SHA-256 {hashlib.sha256(child).hexdigest()}")
        elif args.verb == "check":
            lines, failures = check(args.dirs)
            print("\n".join(lines + [f"{len(lines)} deltas, {failures} failed"]))
            return 1 if failures else 0
        else:
            parent_sha, child_sha, header, packed = parse(open(args.delta, "rb").read())
            print(f"parent {parent_sha.hex()}\nchild  {child_sha.hex()}\n"
                  f"child header {len(header)} bytes, packed payload {len(packed)} bytes")
    except (DeltaError, OSError) as e:
        print(f"net_delta: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
