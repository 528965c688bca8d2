//! The `bench` node count is the search's signature: any change of search
//! behaviour (pruning, ordering, evaluation, time-independent limits) alters
//! it. A commit that changes it on purpose updates `BENCH_NODES` here and
//! says `Bench: N` in its message; an unintended change fails this test.

use jiangjun_engine::bench::{DEFAULT_DEPTH, run_bench};

const BENCH_NODES: u64 = 3_083_158;

#[test]
fn bench_node_count_is_pinned() {
    let r = run_bench(DEFAULT_DEPTH);
    assert_eq!(
        r.nodes, BENCH_NODES,
        "bench node count changed: if the search was changed on purpose, set \
         BENCH_NODES to {} and write `Bench: {}` in the commit message",
        r.nodes, r.nodes
    );
}
