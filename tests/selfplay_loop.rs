//! `scripts/selfplay_loop.sh`: the background self-play runs at the lowest
//! priority in a session of its own, and records each shard it makes. A
//! stand-in for the binary (its `bench` and `datagen`) keeps the test to a
//! second: what is checked is the script's part, not the engine's.

// Sessions read from /proc and the kernel's autogroups are Linux's; the
// script's other systems (macOS, Git's bash on Windows) have neither.
#![cfg(target_os = "linux")]
// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir(&format!("selfplay-{name}"))
}

/// A stand-in binary: `bench` prints a node count; `datagen --out FILE ...`
/// writes a header and two positions to FILE and, beside it, the session,
/// nice value and autogroup it ran with. With `STAND_IN_HOLD` set it writes
/// three positions and its pid, then holds on as a datagen part-way does;
/// with `STAND_IN_FAIL`, two positions and then it fails (status 3).
fn stand_in(dir: &Path) -> PathBuf {
    let path = dir.join("jiangjun");
    std::fs::write(
        &path,
        r#"#!/bin/sh
if [ "$1" = bench ]; then echo "Nodes searched  : 4242"; exit 0; fi
out=$3
{
    echo "session $(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f4)"
    echo "nice $(nice)"
    cat /proc/self/autogroup 2>/dev/null
    echo "pid $$"
} > "$out.ran.part"
if [ -n "$STAND_IN_FAIL" ]; then
    head -c 144 /dev/zero > "$out"
    mv "$out.ran.part" "$out.ran"
    exit 3
fi
if [ -n "$STAND_IN_HOLD" ]; then
    head -c 192 /dev/zero > "$out"
    mv "$out.ran.part" "$out.ran"
    exec sleep 60
fi
head -c 144 /dev/zero > "$out"
mv "$out.ran.part" "$out.ran"
"#,
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn own_session() -> String {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let after = &stat[stat.rfind(") ").unwrap() + 2..];
    after.split(' ').nth(3).unwrap().to_string()
}

/// A scratch folder named `name` with the stand-in binary in it, and the
/// data folder the loop is to write (not made yet).
fn setup(name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = scratch(name);
    let binary = stand_in(&dir);
    let data = dir.join("data");
    (dir, binary, data)
}

/// The loop over seeds 5 and 6 of series `t` into `data`, with the stand-in
/// binary and `--nodes 300` as the datagen's options.
fn the_loop(binary: &Path, data: &Path) -> Command {
    let mut cmd = Command::new("bash");
    cmd.arg(format!("{ROOT}/scripts/selfplay_loop.sh"))
        .args(["t", "5", "6"])
        .arg(data)
        .args(["--nodes", "300"])
        .env("JIANGJUN", binary);
    cmd
}

/// The lines of `data/shards.tsv`, each split into its cells.
fn shard_lines(data: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(data.join("shards.tsv"))
        .unwrap()
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// Started from a session it does not lead (as from a shell or a test), the
/// loop moves into one of its own before lowering its autogroup, so the
/// caller's session keeps its priority; each shard runs at `nice 19` and
/// gets its line in `shards.tsv` with the command that makes it.
#[test]
fn the_loop_runs_in_its_own_lowered_session_and_records_each_shard() {
    let (dir, binary, data) = setup("loop");
    let autogroup = || std::fs::read_to_string("/proc/self/autogroup").ok();
    let before = autogroup();
    let out = the_loop(&binary, &data).output().unwrap();
    let after = autogroup();
    if after != before {
        // Give the rest of the test run its priority back before failing.
        if let Some(nice) = before.as_deref().and_then(|b| b.split("nice ").nth(1)) {
            let _ = std::fs::write("/proc/self/autogroup", nice.trim());
        }
    }
    assert_eq!(after, before, "the caller's autogroup changed");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let lines = shard_lines(&data);
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (cells, seed) in lines.iter().zip([5, 6]) {
        assert_eq!(cells[0], format!("t-s{seed}.jjdata"));
        assert_eq!(cells[1], "2", "positions: {cells:?}");
        assert_eq!(cells[5], "4242", "the bench count: {cells:?}");
        assert_eq!(
            cells[6],
            format!(
                "jiangjun datagen --out t-s{seed}.jjdata --seed {seed} --positions 1000000 \
                 --threads 2 --quiet --nodes 300"
            )
        );
        let ran = std::fs::read_to_string(data.join(format!("t-s{seed}.jjdata.ran"))).unwrap();
        assert!(ran.contains("nice 19\n"), "not at nice 19: {ran}");
        assert!(
            !ran.contains(&format!("session {}\n", own_session())),
            "ran in the caller's session: {ran}"
        );
        if before.is_some() {
            assert!(
                ran.lines()
                    .any(|l| l.starts_with("/autogroup-") && l.ends_with("nice 19")),
                "its autogroup not lowered: {ran}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Stopped by `kill -TERM` while its datagen is paused (`kill -STOP`, as for
/// a match), the loop resumes it to end it, records the part-made shard with
/// the command that makes it again (its `--positions` the count it holds)
/// and the CPU seconds, and starts no other shard.
#[test]
fn a_stopped_loop_records_the_shard_in_progress_and_ends() {
    let (dir, binary, data) = setup("stop");
    let mut child = the_loop(&binary, &data)
        .env("STAND_IN_HOLD", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let ran = data.join("t-s5.jjdata.ran");
    let started = std::time::Instant::now();
    while !ran.exists() {
        assert!(
            started.elapsed() < common::wait(),
            "the first shard never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let ran = std::fs::read_to_string(&ran).unwrap();
    let datagen = ran
        .lines()
        .find_map(|l| l.strip_prefix("pid "))
        .unwrap()
        .to_string();
    let signal = |sig: &str, pid: &str| {
        let ok = Command::new("kill")
            .args([sig, pid])
            .status()
            .unwrap()
            .success();
        assert!(ok, "kill {sig} {pid}");
    };
    signal("-STOP", &datagen);
    signal("-TERM", &child.id().to_string());
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        // Three waits: at autogroup 19 beside a self-play at full load the
        // stop took 8 s here (0.1 s on quiet cores); a hang takes forever.
        if started.elapsed() > 3 * common::wait() {
            let _ = child.kill();
            let _ = Command::new("kill").args(["-KILL", &datagen]).status();
            panic!("the loop did not end after kill -TERM");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    // The stand-in shares the loop's stderr: if the loop left it behind (a
    // failure), reading to the end would wait for it, so end it first.
    let left_behind = Command::new("kill")
        .args(["-KILL", &datagen])
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
        .success();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(!left_behind, "the loop left its datagen behind: {stderr}");
    assert!(status.success(), "{status}: {stderr}");
    assert!(stderr.contains("stopped at 3 positions"), "{stderr}");

    let lines = shard_lines(&data);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let cells = &lines[0];
    assert_eq!(cells[0], "t-s5.jjdata");
    assert_eq!(cells[1], "3", "positions: {cells:?}");
    assert_eq!(
        cells[6],
        "jiangjun datagen --out t-s5.jjdata --seed 5 --positions 3 --threads 2 --quiet --nodes 300"
    );
    let cpu: f64 = cells[7].parse().unwrap_or(-1.0);
    assert!(cpu >= 0.0, "CPU seconds: {cells:?}");
    assert!(!data.join("t-s6.jjdata").exists(), "a second shard started");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A datagen that fails on its own (a full disk, a bad option) ends the
/// loop with its status, after the games it wrote are recorded as a shard
/// cut short; no other shard is started.
#[test]
fn a_failed_datagen_ends_the_loop_with_its_status() {
    let (dir, binary, data) = setup("fail");
    let out = the_loop(&binary, &data)
        .env("STAND_IN_FAIL", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    let lines = shard_lines(&data);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0][1], "2", "positions: {lines:?}");
    assert!(
        lines[0][6].contains("--seed 5 --positions 2 --threads 2"),
        "{lines:?}"
    );
    assert!(!data.join("t-s6.jjdata").exists(), "a second shard started");
    let _ = std::fs::remove_dir_all(&dir);
}

/// With `SELFPLAY_CPU_BUDGET`, a new series makes whole shards; the series'
/// earlier lines in `shards.tsv` count: the next shard asks only for the
/// positions the rest of the budget makes at the series' rate (5 % more), and
/// a series whose lines already hold the budget starts no shard.
#[test]
fn a_cpu_budget_sizes_the_last_shard_and_then_ends_the_series() {
    let (dir, binary, data) = setup("budget");
    // The loop with a budget; it must succeed. Its stderr.
    let with_budget = |budget: &str| {
        let out = the_loop(&binary, &data)
            .env("SELFPLAY_CPU_BUDGET", budget)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{stderr}");
        stderr
    };
    // A new series in a new folder (no shards.tsv yet): whole shards.
    with_budget("100");
    let lines = shard_lines(&data);
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (cells, seed) in lines.iter().zip([5, 6]) {
        assert!(
            cells[6].contains(&format!("--seed {seed} --positions 1000000 ")),
            "{cells:?}"
        );
    }
    std::fs::remove_dir_all(&data).unwrap();

    std::fs::create_dir_all(&data).unwrap();
    // Series `t` has made 1,000 positions in 90 CPU seconds; another series'
    // line must not count.
    let earlier = "t-s1.jjdata\t1000\tsha\tstart\tend\t4242\tjiangjun datagen\t90.0\n\
                   u-s1.jjdata\t5000\tsha\tstart\tend\t4242\tjiangjun datagen\t50.0\n";
    std::fs::write(data.join("shards.tsv"), earlier).unwrap();
    with_budget("100");
    let lines = shard_lines(&data);
    assert_eq!(lines.len(), 4, "{lines:?}");
    // 10 s left at 1,000 / 90 positions a second, 5 % more: 116.7, so 117;
    // the stand-in takes no CPU time, so the next shard is asked the same.
    for (cells, seed) in lines[2..].iter().zip([5, 6]) {
        assert_eq!(
            cells[6],
            format!(
                "jiangjun datagen --out t-s{seed}.jjdata --seed {seed} --positions 117 \
                 --threads 2 --quiet --nodes 300"
            )
        );
    }

    // The series' lines reach the budget: nothing more is made (the shards'
    // files gone, so that the loop does not skip their seeds as made).
    for seed in [5, 6] {
        std::fs::remove_file(data.join(format!("t-s{seed}.jjdata"))).unwrap();
    }
    let stderr = with_budget("90");
    assert!(stderr.contains("reached the budget (90)"), "{stderr}");
    assert_eq!(shard_lines(&data).len(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}
