//! `scripts/net_delta.py`: a candidate net kept as its difference from the
//! net it grew from is remade byte for byte, and a wrong parent or a damaged
//! delta is refused without writing anything.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir(&format!("delta-{name}"))
}

/// Runs `scripts/net_delta.py ARGS`, or None without python3.
fn script(args: &[&Path]) -> Option<Output> {
    common::python_script("net_delta.py", args)
}

fn archived(n: u32) -> PathBuf {
    Path::new(ROOT).join(format!("archive/nets/jiangjun-{n}.nnue"))
}

/// Net 5's delta from net 4 written to DIR/5.jjdelta, or None without
/// python3.
fn delta_4_to_5(dir: &Path) -> Option<PathBuf> {
    let delta = dir.join("5.jjdelta");
    let made = script(&[Path::new("make"), &archived(4), &archived(5), &delta])?;
    assert!(made.status.success(), "{made:?}");
    Some(delta)
}

/// Net 5 from net 4 (the same shape): the remade file is net 5 byte for
/// byte, the delta is under half of net 5's size, and `check` finds the
/// parent in the delta's folder and remakes it there too.
#[test]
fn a_delta_remakes_its_child_byte_for_byte() {
    let dir = scratch("round");
    let out = dir.join("5.nnue");
    let Some(delta) = delta_4_to_5(&dir) else {
        return;
    };
    let child = std::fs::read(archived(5)).unwrap();
    let size = std::fs::metadata(&delta).unwrap().len() as usize;
    assert!(size < child.len() / 2, "{size} bytes for {}", child.len());
    let applied = script(&[Path::new("apply"), &archived(4), &delta, &out]).unwrap();
    assert!(applied.status.success(), "{applied:?}");
    assert!(
        std::fs::read(&out).unwrap() == child,
        "the remade net differs"
    );
    std::fs::remove_file(&out).unwrap();
    std::fs::copy(archived(4), dir.join("4.nnue")).unwrap();
    let checked = script(&[Path::new("check"), &dir]).unwrap();
    let said = String::from_utf8_lossy(&checked.stdout).into_owned();
    assert!(checked.status.success(), "{said}");
    let sha = String::from_utf8(
        Command::new("sha256sum")
            .arg(archived(5))
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap()[..64]
        .to_string();
    assert!(said.contains(&format!("remade, SHA-256 {sha}")), "{said}");
    assert!(said.contains("1 deltas, 0 failed"), "{said}");
}

/// A parent that is not the delta's, a damaged delta and nets of two shapes
/// each end with exit status 1, a message, and no file written.
#[test]
fn a_wrong_parent_a_damaged_delta_and_two_shapes_are_refused() {
    let dir = scratch("refused");
    let out = dir.join("out.nnue");
    let Some(delta) = delta_4_to_5(&dir) else {
        return;
    };

    let wrong = script(&[Path::new("apply"), &archived(3), &delta, &out]).unwrap();
    assert_eq!(wrong.status.code(), Some(1), "{wrong:?}");
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("the delta was made from"));
    assert!(!out.exists());

    let mut bytes = std::fs::read(&delta).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    let damaged = dir.join("damaged.jjdelta");
    std::fs::write(&damaged, &bytes).unwrap();
    let broken = script(&[Path::new("apply"), &archived(4), &damaged, &out]).unwrap();
    assert_eq!(broken.status.code(), Some(1), "{broken:?}");
    assert!(String::from_utf8_lossy(&broken.stderr).contains("damaged"));
    assert!(!out.exists());

    let shapes = script(&[Path::new("make"), &archived(5), &archived(6), &out]).unwrap();
    assert_eq!(shapes.status.code(), Some(1), "{shapes:?}");
    assert!(String::from_utf8_lossy(&shapes.stderr).contains("differ in shape"));
    assert!(!out.exists());
}

/// Every delta the repository keeps is remade from its parent with the
/// SHA-256 it records, and that SHA-256 is written in the nets' README,
/// which says what the candidate is.
#[test]
fn the_repository_s_deltas_remake_their_candidates() {
    let nets = Path::new(ROOT).join("archive/nets");
    let deltas: Vec<PathBuf> = std::fs::read_dir(&nets)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jjdelta"))
        .collect();
    let Some(checked) = script(&[
        Path::new("check"),
        &Path::new(ROOT).join("engine/nets"),
        &nets,
    ]) else {
        return;
    };
    let said = String::from_utf8_lossy(&checked.stdout).into_owned();
    assert!(checked.status.success(), "{said}");
    assert!(
        said.contains(&format!("{} deltas, 0 failed", deltas.len())),
        "{said}"
    );
    let readme = std::fs::read_to_string(Path::new(ROOT).join("engine/nets/README.md")).unwrap();
    for line in said.lines().filter(|l| l.contains(": remade, SHA-256 ")) {
        let sha = line.rsplit(' ').next().unwrap();
        assert!(readme.contains(sha), "{line}: not in engine/nets/README.md");
    }
}
