#!/usr/bin/env python3
"""Checks that the workspace builds with the Rust it declares as its minimum.

Every package of the workspace declares `rust-version` (inherited from
[workspace.package]); they must all be set and agree. The declared version
(`1.95` means 1.95.0, the oldest Rust it admits) is then installed with
rustup if it is not already (`--profile minimal`), and

    cargo +1.95.0 check --workspace --all-targets --locked

must pass: the sources and the locked dependencies build with it. The check
shares target/ with the other builds; only the crates whose compiler differs
are checked again.

    python3 .ci/check_rust_version.py [--print]

`--print` only prints the toolchain (1.95.0) after checking the manifests.
Exit status 0 if the build passes, 1 with the reason if not.
"""

import json
import subprocess
import sys


def declared():
    """The one rust-version of the workspace's packages, or exit naming the faults."""
    out = subprocess.run(["cargo", "metadata", "--no-deps", "--format-version", "1"],
                         capture_output=True, text=True, check=True).stdout
    versions = {p["name"]: p.get("rust_version") for p in json.loads(out)["packages"]}
    missing = sorted(name for name, v in versions.items() if not v)
    found = sorted({v for v in versions.values() if v})
    if missing or len(found) != 1:
        if missing:
            print(f"rust-version: not declared by {', '.join(missing)}", file=sys.stderr)
        if len(found) > 1:
            print("rust-version: the packages disagree: "
                  + ", ".join(f"{n} {v}" for n, v in sorted(versions.items())), file=sys.stderr)
        sys.exit(1)
    parts = found[0].split(".")
    return ".".join(parts + ["0"] * (3 - len(parts)))


def has_toolchain(toolchain):
    try:
        return subprocess.run(["rustup", "run", toolchain, "rustc", "--version"],
                              capture_output=True).returncode == 0
    except FileNotFoundError:
        return False


def main():
    toolchain = declared()
    if sys.argv[1:] == ["--print"]:
        print(toolchain)
        return 0
    if not has_toolchain(toolchain):
        print(f"rust-version: installing Rust {toolchain} with rustup", file=sys.stderr)
        try:
            installed = subprocess.run(["rustup", "toolchain", "install", toolchain,
                                        "--profile", "minimal"]).returncode == 0
        except FileNotFoundError:
            installed = False
        if not installed or not has_toolchain(toolchain):
            print(f"rust-version: the workspace declares Rust {toolchain}, which rustup could not "
                  f"install here (is rustup installed, is static.rust-lang.org reachable?): "
                  f"the minimum is unchecked", file=sys.stderr)
            return 1
    command = ["cargo", f"+{toolchain}", "check", "--workspace", "--all-targets", "--locked",
               "--quiet"]
    print(f"rust-version: {' '.join(command)}", file=sys.stderr)
    if subprocess.run(command).returncode != 0:
        print(f"rust-version: the workspace does not build with Rust {toolchain}, the minimum "
              f"it declares: raise rust-version in Cargo.toml or make it build", file=sys.stderr)
        return 1
    print(f"rust-version: the workspace builds with Rust {toolchain}, the minimum it declares")
    return 0


if __name__ == "__main__":
    sys.exit(main())
