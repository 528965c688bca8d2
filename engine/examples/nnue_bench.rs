//! Rough cost of the NNUE operations on a random network:
//! `cargo run --release -p jiangjun-engine --example nnue_bench`.

use jiangjun_engine::bench::POSITIONS;
use jiangjun_engine::nnue::{Accumulator, Network, evaluate};
use std::hint::black_box;
use std::time::Instant;
use xiangqi::{Board, Move};

fn time_ns(iterations: usize, mut f: impl FnMut()) -> f64 {
    // Warm up, then measure.
    for _ in 0..iterations / 10 {
        f();
    }
    let t = Instant::now();
    for _ in 0..iterations {
        f();
    }
    t.elapsed().as_nanos() as f64 / iterations as f64
}

fn main() {
    let net = Network::random(1);
    let boards: Vec<Board> = POSITIONS
        .iter()
        .map(|f| Board::from_fen(f).expect("bench FEN"))
        .collect();
    // Every legal move of every position, split into quiet moves and captures.
    let mut quiet: Vec<(usize, Move)> = Vec::new();
    let mut captures: Vec<(usize, Move)> = Vec::new();
    for (i, b) in boards.iter().enumerate() {
        for m in b.legal_moves().iter() {
            if b.piece_at(m.to()).is_some() {
                captures.push((i, m));
            } else {
                quiet.push((i, m));
            }
        }
    }
    let accs: Vec<Accumulator> = boards
        .iter()
        .map(|b| Accumulator::from_board(&net, b))
        .collect();
    let mut scratch = accs[0].clone();

    let mut k = 0;
    let refresh = time_ns(200_000, || {
        k = (k + 1) % boards.len();
        scratch.refresh(&net, black_box(&boards[k]));
        black_box(&scratch);
    });
    let mut k = 0;
    let quiet_ns = time_ns(2_000_000, || {
        k = (k + 1) % quiet.len();
        let (i, m) = quiet[k];
        scratch.update_from(black_box(&accs[i]), &net, &boards[i], m);
        black_box(&scratch);
    });
    let mut k = 0;
    let capture_ns = time_ns(2_000_000, || {
        k = (k + 1) % captures.len();
        let (i, m) = captures[k];
        scratch.update_from(black_box(&accs[i]), &net, &boards[i], m);
        black_box(&scratch);
    });
    let mut k = 0;
    let mut sum = 0i64;
    let eval_ns = time_ns(2_000_000, || {
        k = (k + 1) % accs.len();
        sum += evaluate(&net, black_box(&accs[k]), boards[k].side_to_move()) as i64;
    });
    black_box(sum);
    println!("full refresh (both perspectives): {refresh:8.1} ns");
    println!(
        "incremental update, quiet move:   {quiet_ns:8.1} ns  ({} moves)",
        quiet.len()
    );
    println!(
        "incremental update, capture:      {capture_ns:8.1} ns  ({} moves)",
        captures.len()
    );
    println!("evaluate:                         {eval_ns:8.1} ns");
}
