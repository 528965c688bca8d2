#!/usr/bin/env python3
"""Checks .github/workflows/release.yml, which cannot run here: it parses as
YAML and says what docs/install.md promises. On a `v*` tag, a `build` job
builds and tests Linux x86-64 (static, musl), Windows x86-64 and macOS
aarch64 with the tag as JIANGJUN_VERSION, and zips and checks each with
scripts/release-zips.sh (the script CI runs here), with no step needing
python3; a `release` job, after it and whatever became of each platform,
attaches the zips. Exit status 0 if so, 1 (naming each fault) if not. Needs
PyYAML.

    python3 .ci/check_release_workflow.py [WORKFLOW]
"""

import os
import sys

import yaml

TARGETS = {
    "x86_64-unknown-linux-musl": "ubuntu-latest",
    "x86_64-pc-windows-msvc": "windows-latest",
    "aarch64-apple-darwin": "macos-latest",
}


def runs(job):
    """The shell text of a job's steps, joined."""
    return "\n".join(str(s.get("run", "")) for s in job.get("steps", []))


def check(doc):
    faults = []
    if not isinstance(doc, dict):
        return ["the file is not a YAML mapping"]
    # YAML 1.1 reads the key `on` as true.
    on = doc.get("on", doc.get(True))
    tags = (on or {}).get("push", {}).get("tags", []) if isinstance(on, dict) else []
    if "v*" not in tags:
        faults.append(f"not triggered by pushing a v* tag (on: {on!r})")
    jobs = doc.get("jobs") or {}
    build, release = jobs.get("build"), jobs.get("release")
    if not build:
        return faults + ["no `build` job"]
    include = build.get("strategy", {}).get("matrix", {}).get("include", [])
    got = {e.get("target"): e.get("os") for e in include}
    for target, os_ in TARGETS.items():
        if got.get(target) != os_:
            faults.append(f"build: no {target} on {os_} (has {got})")
    if "github.ref_name" not in str(build.get("env", {}).get("JIANGJUN_VERSION", "")):
        faults.append("build: JIANGJUN_VERSION is not set from the tag")
    text = runs(build)
    ci = jobs.get("ci") or {}
    if ci.get("uses") != "./.github/workflows/ci.yml":
        faults.append("no `ci` job running the CI workflow (uses: ./.github/workflows/ci.yml): nothing tests the release")
    if build.get("needs") != "ci" and "ci" not in (build.get("needs") or []):
        faults.append("build: does not wait for the CI workflow (needs: ci)")
    for want in ("cargo build --release",
                 "scripts/release-zips.sh --only linux-x86_64", "scripts/release-zips.sh --package"):
        if want not in text:
            faults.append(f"build: its steps never mention {want!r}")
    if "python" in text or any("setup-python" in str(s.get("uses", "")) for s in build.get("steps", [])):
        faults.append("build: a step needs python (not on every runner): use bash")
    if not any("upload-artifact" in str(s.get("uses", "")) for s in build.get("steps", [])):
        faults.append("build: the zips are not uploaded")
    if not release:
        faults.append("no `release` job")
    else:
        needs = release.get("needs")
        if needs != "build" and "build" not in (needs or []):
            faults.append("release: does not wait for build")
        if "ci" not in (needs or []) or "needs.ci.result == 'success'" not in str(release.get("if", "")):
            faults.append("release: not held back when the CI workflow fails (needs ci, and its `if` asks needs.ci.result == 'success')")
        cond = str(release.get("if", ""))
        if "always()" not in cond and "!cancelled()" not in cond:
            faults.append("release: skipped when one platform fails (its `if` needs !cancelled() or always())")
        if (release.get("permissions") or {}).get("contents") != "write":
            faults.append("release: cannot write the release (permissions: contents: write)")
        if "gh release" not in runs(release):
            faults.append("release: attaches nothing")
    for path in ("scripts/release-zips.sh", "packaging/README.md", "packaging/INSTALL-zh.md",
                 "packaging/BOOK-AND-NETWORK.txt",
                 "LICENSE", "docs/install.md"):
        if not os.path.exists(path):
            faults.append(f"{path}, which the zips carry, is missing")
    return faults


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else ".github/workflows/release.yml"
    try:
        with open(path, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        print(f"{path}: {e}", file=sys.stderr)
        return 1
    faults = check(doc)
    for fault in faults:
        print(f"{path}: {fault}", file=sys.stderr)
    if not faults:
        print(f"{path}: parses; builds and tests {', '.join(TARGETS)} on a v* tag, then releases")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
