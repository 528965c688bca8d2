#!/usr/bin/env python3
"""List the imports that run back up a module tree: a file naming an item of
a module above it (its parent, or the parent's parent, up to the crate root),
where the item is defined, not merely re-exported from below. A module file
naming its children (`mod x;`, `pub use x::Y`) points down and is not listed;
siblings and other crates are not listed either. Test modules (`mod tests`,
inline or in a file of that name, or `x_tests.rs` beside its module `x`)
are left out.

    scripts/import_arrows.py protocol/src                 # a crate
    scripts/import_arrows.py engine/src search            # one module of a crate

Prints one line per arrow, `file -> module: Items`, then the count. Exit code
0 either way: it reports, tests decide what to require.
"""

import os
import re
import sys

USE = re.compile(r"\b(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.S)
PATH = re.compile(r"\b((?:crate|super)(?:::(?:super|\w+))+)")


def strip(text):
    """The code without comments, string literals and inline test modules."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    m = re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)
    return text[: m.start()] if m else text


def expand(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e']."""
    tree = re.sub(r"\s+", "", tree)
    i = tree.find("{")
    if i < 0:
        return [re.sub(r"as\w+$", "", tree)] if tree else []
    head, body = tree[:i], tree[i + 1 : tree.rfind("}")]
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    parts.append(cur)
    out = []
    for p in parts:
        for e in expand(p):
            out.append(head + e if e != "self" else head.rstrip(":"))
    return out


def modules(src):
    """{module path tuple: file} for the crate at `src`."""
    mods = {}
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src)[:-3].split(os.sep)
            if rel[-1] in ("mod", "lib", "main"):
                rel = rel[:-1]
            if rel and (rel[-1] == "tests" or rel[-1].endswith("_tests")):
                continue
            mods[tuple(rel)] = os.path.join(dirpath, f)
    return mods


def reexports(text):
    """Names a module file re-exports from elsewhere (`pub use x::Y`)."""
    names = set()
    for m in USE.finditer(text):
        if not m.group(0).lstrip().startswith("pub"):
            continue
        for p in expand(m.group(1)):
            names.add(p.split("::")[-1])
    return names


def main():
    src = sys.argv[1]
    sub = tuple(sys.argv[2].split("::")) if len(sys.argv) > 2 else ()
    mods = modules(src)
    texts = {m: strip(open(f, encoding="utf-8").read()) for m, f in mods.items()}
    arrows = {}
    for mod, text in sorted(texts.items()):
        if mod[: len(sub)] != sub:
            continue
        paths = []
        for m in USE.finditer(text):
            paths += expand(m.group(1))
        body = USE.sub("", text)
        paths += PATH.findall(body)
        for p in paths:
            segs = p.split("::")
            if segs[0] == "crate":
                base, rest = (), segs[1:]
            elif segs[0] == "super":
                n = 0
                while n < len(segs) and segs[n] == "super":
                    n += 1
                # A file's `super` is its parent module.
                base, rest = mod[: len(mod) - n], segs[n:]
            else:
                continue
            target = base
            while rest and target + (rest[0],) in mods:
                target, rest = target + (rest[0],), rest[1:]
            if target == mod or target != mod[: len(target)] or not rest:
                continue
            item = rest[0]
            if item in reexports(texts.get(target, "")):
                continue
            arrows.setdefault((mods[mod], "::".join(target) or "crate"), set()).add(item)
    for (f, t), items in sorted(arrows.items()):
        print(f"{f} -> {t}: {', '.join(sorted(items))}")
    print(f"{len(arrows)} arrow(s) back up ({sum(map(len, arrows.values()))} names)")


if __name__ == "__main__":
    main()
