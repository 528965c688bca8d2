//! `bench`: a fixed set of positions searched to a fixed depth on one
//! thread. The total node count is a signature of the search's behaviour
//! (any functional change alters it); nodes per second measures speed.
//! Other positions, and endgame tables, can be given ([`run_bench_on`]) to
//! measure what probing costs.

use crate::controller::Engine;
use crate::nnue::{self, Network};
use crate::now::Instant;
use crate::search::{GoRequest, Limits};
use crate::tb::Tablebases;
use std::sync::Arc;
use xiangqi::board::Board;

pub const DEFAULT_DEPTH: i32 = 13;

/// The node count the default bench must give: the search's signature,
/// pinned in `engine/bench-nodes.txt`, its one source (the scripts and
/// workflows read the file; the tests read this). Nothing in the engine
/// depends on it.
pub const PINNED_NODES: u64 = parse_count(include_str!("../bench-nodes.txt"));

/// The decimal count of `text` (one line), at compile time.
const fn parse_count(text: &str) -> u64 {
    let bytes = text.as_bytes();
    let mut n: u64 = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_digit() {
            n = n * 10 + (b - b'0') as u64;
        } else {
            assert!(
                b == b'\n' || b == b'\r',
                "engine/bench-nodes.txt holds one number"
            );
        }
        i += 1;
    }
    assert!(n > 0, "engine/bench-nodes.txt holds one number");
    n
}
/// The deepest bench the command line and the protocol accept: deeper
/// ones run for many minutes.
pub const MAX_DEPTH: i32 = 20;

/// Opening, middlegame and endgame positions (the first eleven are the
/// chessprogramming.org perft positions).
pub const POSITIONS: [&str; 20] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
    "1rb1kab2/4a4/nc1c2n2/p1p1p3p/6p2/PN1R3R1/2P1P1r1P/2C1C1N2/4A4/2BAK1B2 w - - 0 1",
    "2bakab2/9/2n1c1n2/p3p3p/2p3p2/9/P1P1P1P1P/2N1C1N2/9/2BAKAB2 w - - 0 1",
    "3ak1b2/4a4/4b4/p3p3p/9/2P3P2/P3P3P/4B4/4A4/2BAK4 w - - 0 1",
    "4k4/9/4b4/9/2p6/9/9/4B4/4A4/3AK4 w - - 0 1",
    "3k5/9/9/9/9/9/9/4R4/9/4K4 w - - 0 1",
    "2bak4/4a4/4b4/p7p/9/6R2/P7P/4B4/9/3AK1B2 b - - 0 1",
];

pub struct BenchResult {
    pub nodes: u64,
    pub millis: u64,
    /// Endgame table hits (0 without tables).
    pub tbhits: u64,
    /// Each position's nodes, table hits and milliseconds, in order.
    pub per_position: Vec<(u64, u64, u64)>,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.millis.max(1)
    }
}

/// Search every position to `depth` on one thread with an emptied 16 MB
/// table and emptied histories, so the node count depends only on the code,
/// with the evaluation engines start with (`nnue::default_network`).
pub fn run_bench(depth: i32) -> BenchResult {
    run_bench_with_network(depth, nnue::default_network())
}

/// `run_bench` evaluating with `network` (`None`: the hand-made evaluation).
pub fn run_bench_with_network(depth: i32, network: Option<Arc<Network>>) -> BenchResult {
    let boards: Vec<Board> = POSITIONS
        .iter()
        .map(|fen| Board::from_fen(fen).expect("bench positions are valid"))
        .collect();
    run_bench_on(&boards, depth, network, None)
}

/// Search `boards` as `run_bench` searches its positions, with `network`,
/// probing `tablebases` if given (to measure what probing costs: the same
/// positions with and without tables).
pub fn run_bench_on(
    boards: &[Board],
    depth: i32,
    network: Option<Arc<Network>>,
    tablebases: Option<Arc<Tablebases>>,
) -> BenchResult {
    let mut engine = Engine::new(16, 1);
    engine.set_network(network);
    engine.set_tablebases(tablebases);
    let mut per_position = Vec::with_capacity(boards.len());
    let start = Instant::now();
    for board in boards {
        engine.new_game();
        let limits = Limits::of(GoRequest {
            depth: Some(depth),
            ..GoRequest::default()
        });
        let t = Instant::now();
        let nodes = engine.search(board, limits).nodes;
        per_position.push((nodes, engine.tbhits(), t.elapsed().as_millis() as u64));
    }
    BenchResult {
        nodes: per_position.iter().map(|p| p.0).sum(),
        millis: start.elapsed().as_millis() as u64,
        tbhits: per_position.iter().map(|p| p.1).sum(),
        per_position,
    }
}
