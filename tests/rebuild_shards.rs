//! `scripts/rebuild_shards.py`: a new machine remakes the loop's shards from
//! the shard table's rows (positions, SHA-256, command) and learns whether
//! each file is the one recorded, byte for byte.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::run_jiangjun;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// A small shard's settings: a few games of shallow searches.
const SETTINGS: &str = "--threads 2 --quiet --nodes 300 --start-nodes 200 --max-plies 60 --hash 2 \
     --openings ../shared/openings.epd";

fn scratch(name: &str) -> PathBuf {
    let dir = common::scratch_dir(&format!("rebuild-{name}"));
    std::fs::create_dir_all(dir.join("shared")).unwrap();
    std::fs::create_dir_all(dir.join("made")).unwrap();
    std::fs::write(
        dir.join("shared/openings.epd"),
        format!("{}\n", xiangqi::Board::startpos().to_fen()),
    )
    .unwrap();
    dir
}

fn sha256(path: &Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()[..64].to_string()
}

/// One shard made directly, as the loop makes it, in DIR/made (whose
/// `../shared` is DIR/shared): its positions and SHA-256.
fn make_shard(dir: &Path, name: &str, seed: u64) -> (u64, String) {
    let made = dir.join("made");
    let out = made.join(format!("{name}.jjdata"));
    let openings = dir.join("shared/openings.epd");
    let settings = SETTINGS.replace("../shared/openings.epd", openings.to_str().unwrap());
    let mut args = vec![
        "datagen".to_string(),
        "--out".into(),
        out.to_str().unwrap().into(),
        "--seed".into(),
        seed.to_string(),
        "--positions".into(),
        "300".into(),
    ];
    args.extend(settings.split_whitespace().map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, _, err) = run_jiangjun(&args);
    assert!(ok, "{err}");
    let positions = std::fs::metadata(&out).unwrap().len() / 48 - 1;
    assert!(positions >= 300, "{positions}");
    (positions, sha256(&out))
}

/// A table row as the loop's rows are written, with `{count}` and `{sha}`
/// in the positions column.
fn row(name: &str, seed: u64, positions: &str, command_tail: &str) -> String {
    format!(
        "| `{name}` | {seed} | {positions} | net 7 built in, commit `edd63be` | \
         `jiangjun datagen --out {name}.jjdata --seed {seed} --positions 300 {SETTINGS}{command_tail}` |\n"
    )
}

/// Runs `scripts/rebuild_shards.py ARGS`, or [`common::skip`]s and gives
/// None when there is no python3.
fn script(args: &[&str]) -> Option<std::process::Output> {
    common::python_script("rebuild_shards.py", args)
}

/// Runs the script on TABLE for SHARDS, rebuilding into DIR/data:
/// (exit code, stderr).
fn rebuild(dir: &Path, table: &str, shards: &[&str], extra: &[&str]) -> Option<(i32, String)> {
    let path = dir.join("table.md");
    std::fs::write(&path, table).unwrap();
    let (data, shared) = (dir.join("data"), dir.join("shared"));
    let mut args = vec![
        "--table",
        path.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
        "--shared",
        shared.to_str().unwrap(),
        "--binary",
        env!("CARGO_BIN_EXE_jiangjun"),
    ];
    args.extend_from_slice(extra);
    args.extend_from_slice(shards);
    let out = script(&args)?;
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// A shard whose row records the right positions and SHA-256 (in full, or
/// abbreviated as the older rows are) is made again identical and reported
/// as a match, with a line in `rebuilt.tsv`; a row whose SHA-256 differs by
/// one digit, or whose count differs, is reported and fails the run.
#[test]
fn shards_rebuild_from_their_rows_and_are_checked_byte_for_byte() {
    let dir = scratch("rows");
    let (n31, sha31) = make_shard(&dir, "t-s31", 31);
    let (n32, sha32) = make_shard(&dir, "t-s32", 32);
    let table = row(
        "t-s31",
        31,
        &format!(
            "{n31} (SHA-256 `{}…{}`, in full `{sha31}`)",
            &sha31[..8],
            &sha31[56..]
        ),
        "",
    ) + &row(
        "t-s32",
        32,
        &format!("{n32} (SHA-256 `{}…{}`)", &sha32[..8], &sha32[56..]),
        "",
    );
    // The datagen runs at the lowest priority in a session of its own: the
    // caller's autogroup (a whole CI run's) keeps its nice value.
    let autogroup = || std::fs::read_to_string("/proc/self/autogroup").ok();
    let before = autogroup();
    let Some((code, err)) = rebuild(&dir, &table, &["t-s31", "t-s32"], &[]) else {
        return;
    };
    assert_eq!(code, 0, "{err}");
    assert_eq!(autogroup(), before, "the caller's autogroup changed");
    for (name, sha) in [("t-s31", &sha31), ("t-s32", &sha32)] {
        let made = std::fs::read(dir.join(format!("made/{name}.jjdata"))).unwrap();
        let rebuilt = std::fs::read(dir.join(format!("data/{name}.jjdata"))).unwrap();
        assert!(made == rebuilt, "{name}: not the same bytes");
        assert!(
            err.contains(&format!("{name}: ")) && err.contains(sha.as_str()),
            "{err}"
        );
    }
    let log = std::fs::read_to_string(dir.join("data/rebuilt.tsv")).unwrap();
    assert_eq!(
        log.lines().filter(|l| l.contains("\tmatch\t")).count(),
        2,
        "{log}"
    );

    // Already there with the recorded SHA-256: kept, not made again.
    let (code, err) = rebuild(&dir, &table, &["t-s31"], &[]).unwrap();
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("already here"), "{err}");

    // One digit of the SHA-256 changed: made again, and it differs.
    let last = if sha31.ends_with('0') { "1" } else { "0" };
    let wrong = format!("{}{last}", &sha31[..63]);
    let table = row(
        "t-s31",
        31,
        &format!("{n31} (SHA-256 in full `{wrong}`)"),
        "",
    );
    let (code, err) = rebuild(&dir, &table, &["t-s31"], &[]).unwrap();
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("differs"), "{err}");

    // The right SHA-256 with another count: differs too.
    let table = row("t-s31", 31, &format!("{} (in full `{sha31}`)", n31 + 1), "");
    let (code, err) = rebuild(&dir, &table, &["t-s31"], &[]).unwrap();
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("differs"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A shard of a candidate net names it by `--evalfile NAME`: without
/// `--net NAME=PATH` the script says which file it needs and runs nothing;
/// a row with no command of its own, or a shard not in the table, is refused.
#[test]
fn a_shard_it_cannot_rebuild_is_named_with_the_reason() {
    let dir = scratch("refused");
    let zeros = "0".repeat(64);
    let table = row(
        "t-s41",
        41,
        &format!("1,000 (in full `{zeros}`)"),
        " --evalfile C.nnue",
    ) + "| `t-s42` | 42 | 1,000 (SHA-256 `abcdef12…34567890`) | the same | the same with seed 42 |\n";
    let Some((code, err)) = rebuild(&dir, &table, &["t-s41", "t-s42"], &[]) else {
        return;
    };
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("t-s41: cannot rebuild") && err.contains("--net C.nnue=PATH"),
        "{err}"
    );
    assert!(err.contains("t-s42: cannot rebuild"), "{err}");
    assert!(!dir.join("data/t-s41.jjdata").exists());
    let (code, err) = rebuild(&dir, &table, &["t-s43"], &[]).unwrap();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("t-s43"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every loop shard of the real table (the series since net 7) can be
/// rebuilt by the script: a row it cannot read is a record that would not
/// bring the data back on a new machine.
#[test]
fn every_loop_shard_of_the_table_is_rebuildable() {
    let table = std::fs::read_to_string(Path::new(ROOT).join("engine/nets/README.md")).unwrap();
    let names: Vec<&str> = table
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("` | "))
        .map(|(name, _)| name)
        .filter(|n| !n.contains('`'))
        // The loop's shards: net 7's self-play (seeds from 801) and every
        // series after it, whose seeds only grow.
        .filter(|n| {
            n.rsplit_once("-s")
                .and_then(|(_, seed)| seed.parse::<u32>().ok())
                .is_some_and(|seed| seed >= 801)
        })
        .collect();
    assert!(names.len() >= 20, "{names:?}");
    let Some(out) = script(&[&["--list"][..], &names[..]].concat()) else {
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed = String::from_utf8(out.stdout).unwrap();
    assert_eq!(listed.lines().count(), names.len(), "{listed}");
    for line in listed.lines() {
        assert!(line.ends_with("\trebuildable"), "{line}");
    }
}
