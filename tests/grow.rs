//! Growing a network end to end: `jiangjun train --grow-from` writes the
//! built-in net grown into a richer feature set without training, and
//! `bench` with the grown file searches the very same tree as with the
//! built-in net (the same node count), which it can only do if every
//! evaluation on the way is equal.
//! The position-by-position proof is the engine's
//! `nnue::grow::tests::builtin_grown_into_kingbucket9_evaluates_exactly_as_before`.

mod common;

use common::{bench_nodes, run_jiangjun as run};
use std::path::Path;

/// The built-in net grown into `features` with `--epochs 0`, at `out`,
/// with the further arguments `more`.
fn grow_builtin_with(features: &str, out: &Path, more: &[&str]) -> (bool, String) {
    let net = common::builtin_net_file();
    let mut args = vec![
        "train",
        "--grow-from",
        net.to_str().expect("a UTF-8 path"),
        "--features",
        features,
        "--epochs",
        "0",
        "--out",
        out.to_str().expect("a UTF-8 path"),
    ];
    args.extend(more);
    let (ok, _, err) = run(&args);
    (ok, err)
}

/// The built-in net grown into `features` with `--epochs 0`, at `out`.
fn grow_builtin(features: &str, out: &Path) -> (bool, String) {
    grow_builtin_with(features, out, &[])
}

/// The built-in net grown into `features` (with the further arguments
/// `more`) at `file` in the test folder: the command names the shape `arch`
/// and `bench` with the grown net counts the built-in net's nodes.
fn assert_grown_benches_as_builtin(file: &str, features: &str, more: &[&str], arch: &str) {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let grown = dir.join(file);
    let (ok, err) = grow_builtin_with(features, &grown, more);
    assert!(ok, "{err}");
    assert!(err.contains(arch), "{err}");
    let (ok, plain, _) = run(&["bench"]);
    assert!(ok);
    let (ok, with_grown, err) = run(&["bench", "--evalfile", grown.to_str().expect("UTF-8")]);
    assert!(ok, "{err}");
    assert_eq!(
        bench_nodes(&with_grown),
        bench_nodes(&plain),
        "{with_grown}"
    );
    let _ = std::fs::remove_file(&grown);
}

/// The built-in net with hidden layers grown beside its output layer (the
/// skip path): the same tree as the built-in net's.
#[test]
fn grown_hidden_layers_bench_as_the_builtin_net() {
    assert_grown_benches_as_builtin(
        "grow-stack.nnue",
        "psq",
        &["--hidden-layers", "16,32"],
        "psq (1260 inputs) x 1024 -> 16 -> 32 (+ skip) -> 8 output buckets",
    );
}

#[test]
fn grown_king_buckets_bench_as_the_builtin_net() {
    assert_grown_benches_as_builtin(
        "grow-kingbucket9.nnue",
        "kingbucket9",
        &[],
        "kingbucket9 (11340 inputs) x 1024 -> 8 output buckets",
    );
}

/// `kingbucket6` cannot hold the built-in net exactly: refused, nothing
/// written.
#[test]
fn growth_that_cannot_be_exact_is_refused() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let out = dir.join("grow-kingbucket6.nnue");
    let _ = std::fs::remove_file(&out);
    let (ok, err) = grow_builtin("kingbucket6", &out);
    assert!(!ok);
    assert!(
        err.contains("cannot grow") && err.contains("kingbucket9"),
        "{err}"
    );
    assert!(!out.exists());
}
