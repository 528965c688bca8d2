//! `jiangjun bench --positions FILE --tablebase DIR` through the binary:
//! the searches are the same with and without tables wherever no table is
//! hit, table hits (draws included) are counted, and bad paths are refused.
// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::run_jiangjun_code as jiangjun;

/// Each position's `(nodes, tbhits)` from bench's stderr lines.
fn per_position(err: &str) -> Vec<(u64, u64)> {
    err.lines()
        .filter(|l| l.starts_with("position "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let at = |k: &str| {
                let i = w.iter().position(|x| *x == k).unwrap() + 1;
                w[i].parse::<u64>().unwrap()
            };
            (at("nodes"), at("tbhits"))
        })
        .collect()
}

fn total(out: &str, label: &str) -> u64 {
    out.lines()
        .find(|l| l.starts_with(label))
        .and_then(|l| l.split(':').nth(1))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {label}: {out}"))
}

#[test]
fn bench_with_tables_searches_the_same_outside_them() {
    let dir = std::env::temp_dir().join(format!("jjtb-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let tables = dir.join("tables");
    let t = tables.to_str().unwrap();
    let (code, _, err) = jiangjun(&["tb", "gen", "--out", t, "KRvK"]);
    assert_eq!(code, 0, "{err}");

    // The built-in positions as a file: the same search as plain `bench`.
    let builtin = dir.join("bench.epd");
    let lines: Vec<String> = jiangjun_engine::bench::POSITIONS
        .iter()
        .map(|f| format!("{f}; c0 \"bench\";"))
        .collect();
    std::fs::write(&builtin, format!("# bench\n{}\n", lines.join("\n"))).unwrap();
    let b = builtin.to_str().unwrap();
    let (code, plain, _) = jiangjun(&["bench", "5"]);
    assert_eq!(code, 0);
    let (code, without, err_without) = jiangjun(&["bench", "5", "--positions", b]);
    assert_eq!(code, 0, "{err_without}");
    assert_eq!(
        total(&without, "Nodes searched"),
        total(&plain, "Nodes searched")
    );
    assert!(!without.contains("Table hits"), "{without}");
    let (code, with, err_with) = jiangjun(&["bench", "5", "--positions", b, "--tablebase", t]);
    assert_eq!(code, 0, "{err_with}");
    let (a, w) = (per_position(&err_without), per_position(&err_with));
    assert_eq!((a.len(), w.len()), (20, 20), "{err_with}");
    // Only the bench's rook against a bare king (position 19) is in these
    // tables; every other search is node for node the same.
    for (i, (a, w)) in a.iter().zip(&w).enumerate() {
        if i == 18 {
            assert!(w.1 > 0 && w.0 < a.0, "{i}: {a:?} {w:?}");
        } else {
            assert_eq!((a.0, w.1), (w.0, 0), "position {}", i + 1);
        }
    }
    assert_eq!(total(&with, "Table hits"), w[18].1);

    // Probes that find a draw (the king takes the rook: a bare-kings
    // table) and a win, at the root and below it.
    let mixed = dir.join("mixed.epd");
    std::fs::write(
        &mixed,
        "4k4/4R4/9/9/9/9/9/9/9/3K5 b\n9/4k4/9/9/9/9/9/9/9/R2K5 w\n",
    )
    .unwrap();
    let m = mixed.to_str().unwrap();
    let (code, out, err) = jiangjun(&["bench", "6", "--positions", m, "--tablebase", t]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let w = per_position(&err);
    assert!(w.iter().all(|&(n, h)| n > 0 && h > 0), "{err}");
    assert!(total(&out, "Table hits") > 0);

    // Bad paths: usage errors, nothing on stdout.
    let (code, out, err) = jiangjun(&["bench", "3", "--tablebase", "/nonexistent/tb"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("/nonexistent/tb"), "{err}");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (code, _, err) = jiangjun(&["bench", "3", "--tablebase", empty.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("no tables"), "{err}");
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "4k4/9/9/9/9/9/9/9/9/3K1R3 w\nnot a fen\n").unwrap();
    let (code, out, err) = jiangjun(&["bench", "3", "--positions", bad.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains(":2:"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
