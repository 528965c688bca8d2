//! Bad files: every sample of `../shared/data/gamefiles` cut short at many
//! points and with bytes changed at random (a fixed seed) is read without a
//! panic, and every error names the file.
#![allow(clippy::unwrap_used)]

#[path = "../../xiangqi/tests/common/mod.rs"]
mod common;

use std::path::PathBuf;
use xiangqi_gamefile::read_named;

/// Every sample file.
fn samples() -> Option<Vec<PathBuf>> {
    let dir = common::shared_path("data/gamefiles")?;
    let mut files = Vec::new();
    for sub in ["xqf", "cbr", "cbl", "cbf"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap() {
            files.push(e.unwrap().path());
        }
    }
    files.sort();
    Some(files)
}

/// Reads `data` as the file `path`: no panic, and an error names the file.
fn check(path: &std::path::Path, data: &[u8], what: &str, errors: &mut usize) {
    let result = std::panic::catch_unwind(|| read_named(path, data));
    let result =
        result.unwrap_or_else(|_| panic!("{} {what}: the reader panicked", path.display()));
    if let Err(e) = result {
        let text = e.to_string();
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(
            text.contains(name.as_ref()),
            "{what}: error without the file's name: {text}"
        );
        *errors += 1;
    }
}

#[test]
fn cut_and_changed_files_give_errors_not_panics() {
    let Some(files) = samples() else { return };
    assert_eq!(files.len(), 227);
    let mut rng = common::Rng::new(107);
    let (mut cases, mut errors) = (0, 0);
    for path in &files {
        let data = std::fs::read(path).unwrap();
        // The whole file reads.
        assert!(read_named(path, &data).is_ok(), "{}", path.display());
        // Cut short: at 0, inside the header, at many random points.
        let mut cuts = vec![0, 1, 15, 16, data.len() / 2, data.len() - 1];
        cuts.extend((0..30).map(|_| rng.below(data.len())));
        for cut in cuts {
            check(path, &data[..cut], &format!("cut at {cut}"), &mut errors);
            cases += 1;
        }
        // Bytes changed: one to eight at a time, anywhere.
        for _ in 0..30 {
            let mut bad = data.clone();
            let n = 1 + rng.below(8);
            for _ in 0..n {
                let at = rng.below(bad.len());
                bad[at] ^= 1 + rng.below(255) as u8;
            }
            check(path, &bad, "with bytes changed", &mut errors);
            cases += 1;
        }
        // Bytes changed in the move data only (past the headers), where a
        // reader is most exposed.
        let body = if data.len() > 2300 {
            2214
        } else {
            1024.min(data.len())
        };
        for _ in 0..10 {
            let mut bad = data.clone();
            if bad.len() > body {
                let at = body + rng.below(bad.len() - body);
                bad[at] = rng.below(256) as u8;
            }
            check(path, &bad, "with a move byte changed", &mut errors);
            cases += 1;
        }
    }
    eprintln!("{cases} bad files read, {errors} errors, no panic");
    assert!(errors > cases / 3, "too few errors: {errors} of {cases}");
}

#[test]
fn unknown_extension_and_missing_file_name_the_file() {
    let e = xiangqi_gamefile::read_path("no/such/game.xqf".as_ref()).unwrap_err();
    assert!(e.to_string().starts_with("no/such/game.xqf: "), "{e}");
    let e = read_named("notes.txt".as_ref(), b"XQ").unwrap_err();
    assert!(e.to_string().contains("notes.txt"), "{e}");
    let e = read_named("g.xqf".as_ref(), b"PK\x03\x04").unwrap_err();
    assert_eq!(
        e.to_string(),
        "g.xqf: cut short: the XQF header needs 16 bytes at byte 0, the data has 4"
    );
}
