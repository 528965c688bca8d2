//! Tables read from byte buffers (as the web build reads the files it
//! fetches) answer every probe exactly as the same files memory-mapped do,
//! and are refused for the same faults.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

use jiangjun_tablebase::build::build;
use jiangjun_tablebase::index::Indexer;
use jiangjun_tablebase::verify::fen_of;
use jiangjun_tablebase::{Material, Tablebases};
use xiangqi::Board;

/// Every `.jtb` of `dir` as (file name, bytes).
fn files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "jtb") {
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            out.push((name, std::fs::read(&path).unwrap()));
        }
    }
    out
}

#[test]
fn tables_from_bytes_probe_as_the_mapped_files_do() {
    let dir = std::env::temp_dir().join(format!("jjtb-bytes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let targets: Vec<Material> = ["KRvKA", "KNvKB", "KPvKA"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    build(&dir, &targets, |_| {}).unwrap();
    let mapped = Tablebases::open(&dir).unwrap();
    let owned = Tablebases::from_bytes(files(&dir)).unwrap();
    assert_eq!(mapped.materials(), owned.materials());
    assert_eq!(mapped.max_pieces(), owned.max_pieces());
    assert!(mapped.len() >= 9, "{mapped:?}");

    let mut probed = 0u64;
    let mut decided = 0u64;
    for m in mapped.materials() {
        let ix = Indexer::new(m);
        // Every index: the packed values agree (None for no position).
        for i in 0..ix.size() {
            let Some(pos) = ix.decode(i) else { continue };
            let a = mapped.value(&pos).map(Result::unwrap);
            assert_eq!(a, owned.value(&pos).map(Result::unwrap), "{m} index {i}");
            // Every 97th legal one also as a board, both colours, with the
            // best moves (which probe the capture tables too).
            if a.is_some() && i % 97 == 0 {
                let fen = fen_of(&pos);
                let board = Board::from_fen(&fen).unwrap();
                let p = mapped.best_moves(&board).unwrap().unwrap();
                assert_eq!(p, owned.best_moves(&board).unwrap().unwrap(), "{fen}");
                probed += 1;
                decided += u64::from(p.0.dtm.is_some());
            }
        }
    }
    assert!(
        probed > 1000 && decided > 100,
        "{probed} probed, {decided} won or lost"
    );

    // The same checks as a directory's: a damaged buffer, or one named for
    // another material, refuses the whole set, naming it.
    let mut bad = files(&dir);
    let (_, bytes) = bad.iter_mut().find(|(n, _)| n == "KRvKA.jtb").unwrap();
    bytes[300] ^= 1;
    let e = Tablebases::from_bytes(bad).unwrap_err();
    assert!(e.contains("KRvKA.jtb") && e.contains("checksum"), "{e}");
    let renamed = files(&dir)
        .into_iter()
        .map(|(n, b)| (if n == "KRvKA.jtb" { "KRvKAA".into() } else { n }, b));
    let e = Tablebases::from_bytes(renamed).unwrap_err();
    assert!(e.contains("KRvKAA: holds the table KRvKA"), "{e}");
    // A set grown one table at a time (as the page grows it) answers as
    // soon as the table of the position is in, before its captures' are.
    let mut grown = Tablebases::new();
    // The rook can take the advisor: a move into `KRvK`.
    let krvka = Board::from_fen("4k4/4a4/9/9/9/9/9/9/9/3KR4 w").unwrap();
    assert!(grown.probe(&krvka).is_none());
    let (_, bytes) = files(&dir)
        .into_iter()
        .find(|(n, _)| n == "KRvKA.jtb")
        .unwrap();
    assert_eq!(
        grown.insert_bytes("KRvKA.jtb", bytes).unwrap().to_string(),
        "KRvKA"
    );
    assert_eq!(
        grown.probe(&krvka).unwrap().unwrap(),
        mapped.probe(&krvka).unwrap().unwrap()
    );
    // The best moves need the capture tables: an error, not a wrong move.
    assert!(grown.best_moves(&krvka).unwrap().is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
