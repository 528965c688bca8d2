#!/usr/bin/env python3
"""Checks the GitHub workflows, which cannot run here. Every file under
.github/workflows/ parses as YAML and is a workflow: a trigger, and jobs that
each say where they run and have steps. And ci.yml's jobs are what
CONTRIBUTING.md says:

  - `test` runs on ubuntu-latest, windows-latest and macos-latest (a matrix
    over `os`, not failing fast), every step in bash, with the whole history
    checked out (the repository budget reads it) and ../shared's absence
    stated; Linux runs .ci/run, Windows and macOS run clippy and
    `cargo test`; a test that Windows skips by name exists;
  - `rust-version` pins the toolchain the manifests declare as their minimum
    and runs .ci/check_rust_version.py.

Exit status 0 if so, 1 (naming each fault) if not. Needs PyYAML.

    python3 .ci/check_ci_workflow.py [WORKFLOW_DIR]
"""

import glob
import os
import re
import subprocess
import sys

import yaml

OSES = ["ubuntu-latest", "windows-latest", "macos-latest"]


def steps_text(job, condition):
    """The shell text of a job's steps whose `if` is `condition`, joined."""
    return "\n".join(str(s.get("run", "")) for s in job.get("steps", [])
                     if str(s.get("if", "")) == condition)


def workflow_faults(doc):
    """Faults of any workflow."""
    if not isinstance(doc, dict):
        return ["not a YAML mapping"]
    faults = []
    # YAML 1.1 reads the key `on` as true.
    if not doc.get("on", doc.get(True)):
        faults.append("no trigger (`on`)")
    jobs = doc.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        return faults + ["no jobs"]
    for name, job in jobs.items():
        if not isinstance(job, dict):
            faults.append(f"job {name}: not a mapping")
            continue
        called = job.get("uses")
        if called is not None:
            # A job that runs a reusable workflow has neither runs-on nor
            # steps; the workflow it names must be here and callable.
            if isinstance(called, str) and called.startswith("./"):
                local = called[2:]
                if not os.path.exists(local):
                    faults.append(f"job {name}: uses {called}, which is missing")
                else:
                    with open(local, encoding="utf-8") as f:
                        callee = yaml.safe_load(f) or {}
                    on = callee.get("on", callee.get(True))
                    if "workflow_call" not in (on if isinstance(on, (list, dict)) else [on]):
                        faults.append(f"job {name}: {called} has no workflow_call trigger")
            continue
        if not job.get("runs-on"):
            faults.append(f"job {name}: no runs-on")
        steps = job.get("steps")
        if not isinstance(steps, list) or not steps:
            faults.append(f"job {name}: no steps")
        elif any(not isinstance(s, dict) or not (s.get("run") or s.get("uses")) for s in steps):
            faults.append(f"job {name}: a step neither runs nor uses anything")
    return faults


def test_names():
    """The names of every test function of the workspace."""
    names = set()
    for path in glob.glob("**/*.rs", recursive=True):
        if path.startswith("target/"):
            continue
        with open(path, encoding="utf-8") as f:
            names.update(re.findall(r"\bfn\s+(\w+)\s*\(", f.read()))
    return names


def declared_toolchain():
    out = subprocess.run([sys.executable, ".ci/check_rust_version.py", "--print"],
                         capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else None


def ci_faults(doc):
    """Faults of ci.yml against what CONTRIBUTING.md says it runs."""
    faults = []
    jobs = doc.get("jobs") or {}
    test = jobs.get("test")
    if not isinstance(test, dict):
        return ["no `test` job"]
    strategy = test.get("strategy") or {}
    oses = (strategy.get("matrix") or {}).get("os")
    if not isinstance(oses, list) or sorted(oses) != sorted(OSES):
        faults.append(f"test: its matrix's os is {oses!r}, not {OSES}")
    if strategy.get("fail-fast") is not False:
        faults.append("test: fail-fast is not false (one system's failure would cancel the others)")
    if "matrix.os" not in str(test.get("runs-on", "")):
        faults.append(f"test: runs-on is {test.get('runs-on')!r}, not the matrix's os")
    if ((test.get("defaults") or {}).get("run") or {}).get("shell") != "bash":
        faults.append("test: its steps do not all run in bash (defaults: run: shell: bash)")
    if not str((test.get("env") or {}).get("JIANGJUN_SHARED_ABSENT", "")).strip():
        faults.append("test: JIANGJUN_SHARED_ABSENT does not say why ../shared is absent")
    steps = test.get("steps") or []
    checkout = [s for s in steps if "actions/checkout" in str(s.get("uses", ""))]
    if not checkout or (checkout[0].get("with") or {}).get("fetch-depth") != 0:
        faults.append("test: the checkout is shallow (fetch-depth: 0 for the repository budget)")
    if not any("core.autocrlf false" in str(s.get("run", "")) for s in steps):
        faults.append("test: Windows would check the files out with CRLF (git config core.autocrlf false)")
    if ".ci/run" not in steps_text(test, "runner.os == 'Linux'"):
        faults.append("test: Linux does not run .ci/run")
    others = steps_text(test, "runner.os != 'Linux'")
    for want in ("cargo test", "cargo clippy --workspace --all-targets -- -D warnings",
                 "-r .ci/requirements.txt"):
        if want not in others:
            faults.append(f"test: Windows and macOS never run {want!r}")
    if "brew install parallel" not in steps_text(test, "runner.os == 'macOS'"):
        faults.append("test: macOS has no GNU parallel for the shard recipes' tests")
    names = test_names()
    for skipped in re.findall(r"--skip\s+(\w+)", others):
        if skipped not in names:
            faults.append(f"test: skips {skipped}, which is no test of the workspace")
    msrv = jobs.get("rust-version")
    if not isinstance(msrv, dict):
        return faults + ["no `rust-version` job"]
    toolchain = declared_toolchain()
    pinned = [str((s.get("with") or {}).get("toolchain", "")) for s in msrv.get("steps") or []
              if "rust-toolchain" in str(s.get("uses", ""))]
    if toolchain is None:
        faults.append("the manifests do not agree on one rust-version (.ci/check_rust_version.py --print)")
    elif pinned != [toolchain]:
        faults.append(f"rust-version: pins {pinned}, not the manifests' {toolchain}")
    if ".ci/check_rust_version.py" not in "\n".join(str(s.get("run", "")) for s in msrv.get("steps") or []):
        faults.append("rust-version: does not run .ci/check_rust_version.py")
    return faults


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else ".github/workflows"
    paths = sorted(glob.glob(os.path.join(folder, "*.yml")) + glob.glob(os.path.join(folder, "*.yaml")))
    if not any(os.path.basename(p) == "ci.yml" for p in paths):
        print(f"{folder}: no ci.yml", file=sys.stderr)
        return 1
    faults = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                doc = yaml.safe_load(f)
        except (OSError, yaml.YAMLError) as e:
            faults.append(f"{path}: {e}")
            continue
        found = workflow_faults(doc)
        if not found and os.path.basename(path) == "ci.yml":
            found = ci_faults(doc)
        faults += [f"{path}: {fault}" for fault in found]
    for fault in faults:
        print(fault, file=sys.stderr)
    if not faults:
        print(f"{folder}: {len(paths)} workflows parse; ci.yml tests on {', '.join(OSES)} "
              f"and builds with the declared minimum Rust")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
