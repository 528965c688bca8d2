//! The `bench` node count is the search's signature: any change of search
//! behaviour (pruning, ordering, evaluation, time-independent limits) alters
//! it. A commit that changes it on purpose writes the new count into
//! `engine/bench-nodes.txt` (its one source, read here as `PINNED_NODES`)
//! and says `Bench: N` in its message; an unintended change fails this test.

use jiangjun_engine::bench::{DEFAULT_DEPTH, PINNED_NODES as BENCH_NODES, run_bench};

#[test]
fn bench_node_count_is_pinned() {
    let r = run_bench(DEFAULT_DEPTH);
    assert_eq!(
        r.nodes, BENCH_NODES,
        "bench node count changed: if the search was changed on purpose, write {} into \
         engine/bench-nodes.txt and `Bench: {}` in the commit message (CONTRIBUTING.md)",
        r.nodes, r.nodes
    );
}

/// The ladder's ratings were measured with this search and network: a
/// change of either moves every rung, so it re-pins the bench count here
/// and must rerun `scripts/calibrate_levels.py`, which records the count it
/// measured with. (While the ratings are nominal there is nothing to
/// hold: the check starts with the first calibration written.)
#[test]
fn ladder_calibration_is_of_this_engine() {
    use jiangjun_engine::play::ladder_ratings::CALIBRATION;
    let Some(c) = CALIBRATION else {
        return;
    };
    assert_eq!(
        c.bench, BENCH_NODES,
        "the ladder was calibrated with the engine whose bench is {}, this one's is \
         {BENCH_NODES}: rerun scripts/calibrate_levels.py",
        c.bench
    );
}
