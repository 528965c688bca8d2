//! Rough cost of the NNUE operations on a random network of net 2's
//! architecture, or of another one given as `FEATURES L1 BUCKETS`:
//! `cargo run --release -p jiangjun-engine --example nnue_bench [-- kingbucket6 512 8]`.
//! With a fourth argument, writes that random network to the file it
//! names instead (to measure a shape's search speed with `jiangjun bench
//! --evalfile FILE` before any is trained); a fifth, `zero-threats`, makes
//! a threat set's network the random network of its piece-square set with
//! all threat weights 0: it evaluates exactly as that one, so a search with
//! either visits the same nodes and the speeds compare the cost alone.

use jiangjun_engine::bench::POSITIONS;
use jiangjun_engine::nnue::features::squares_of;
use jiangjun_engine::nnue::finny::RefreshCache;
use jiangjun_engine::nnue::threats::ThreatList;
use jiangjun_engine::nnue::{Accumulator, Arch, FeatureSet, Network, evaluate};
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

/// The architecture the arguments name (net 2's without any).
fn arch() -> Result<Arch, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(Arch::NET2),
        [f, l1, b] | [f, l1, b, _] | [f, l1, b, _, _] => {
            let features = FeatureSet::from_name(f).ok_or(format!("unknown feature set {f}"))?;
            let num = |s: &str| s.parse::<usize>().map_err(|e| format!("{s}: {e}"));
            Arch::new(features, num(l1)?, num(b)?).map_err(|e| e.to_string())
        }
        _ => Err("arguments: [FEATURES L1 BUCKETS [SAVE_TO [zero-threats]]]".into()),
    }
}

/// The random network of `arch`'s piece-square set, with zero threat rows.
fn zero_threats(arch: Arch) -> Network {
    let base_set = match arch.features {
        FeatureSet::PieceSquareThreats => FeatureSet::PieceSquare,
        FeatureSet::KingBucket6Threats => FeatureSet::KingBucket6,
        other => other,
    };
    let base = Network::random_arch(
        Arch::new(base_set, arch.l1, arch.output_buckets).expect("a supported shape"),
        1,
    );
    let mut l1_w: Vec<i16> = (0..base_set.inputs())
        .flat_map(|f| base.l1_row(f).to_vec())
        .collect();
    l1_w.resize(arch.inputs() * arch.l1, 0);
    let out_w: Vec<i16> = (0..arch.output_buckets)
        .flat_map(|b| base.output_weights(b).to_vec())
        .collect();
    let out_b: Vec<i16> = (0..arch.output_buckets)
        .map(|b| base.output_bias(b))
        .collect();
    Network::new(arch, &l1_w, base.l1_bias(), &out_w, &out_b).expect("within the limits")
}

fn main() {
    let arch = match arch() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    println!("{arch}");
    let mut net = Network::random_arch(arch, 1);
    if std::env::args().nth(5).as_deref() == Some("zero-threats") {
        net = zero_threats(arch);
    }
    if let Some(path) = std::env::args().nth(4) {
        if let Err(e) = net.save(&path) {
            eprintln!("{e}");
            std::process::exit(1);
        }
        println!("written to {path}");
        return;
    }
    let boards: Vec<Board> = POSITIONS
        .iter()
        .map(|f| Board::from_fen(f).expect("bench FEN"))
        .collect();
    // Every legal move of every position, split into quiet moves and captures.
    // King moves apart: with king buckets they may refresh a perspective.
    let mut quiet: Vec<(usize, Move)> = Vec::new();
    let mut captures: Vec<(usize, Move)> = Vec::new();
    let mut kings: Vec<(usize, Move)> = Vec::new();
    for (i, b) in boards.iter().enumerate() {
        for m in b.legal_moves().iter() {
            if m.from() == b.king_square(b.side_to_move()) {
                kings.push((i, m));
            } else if b.piece_at(m.to()).is_some() {
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
    let king_ns = time_ns(2_000_000, || {
        k = (k + 1) % kings.len();
        let (i, m) = kings[k];
        scratch.update_from(black_box(&accs[i]), &net, &boards[i], m);
        black_box(&scratch);
    });
    // The same through the refresh cache: consecutive king moves are
    // mostly from the same position, as in a search tree.
    let mut cache = RefreshCache::new();
    let mut k = 0;
    let king_cached_ns = time_ns(2_000_000, || {
        k = (k + 1) % kings.len();
        let (i, m) = kings[k];
        scratch.update_from_cached(black_box(&accs[i]), &net, &boards[i], m, &mut cache);
        black_box(&scratch);
    });
    let mut k = 0;
    let mut sum = 0i64;
    let eval_ns = time_ns(2_000_000, || {
        k = (k + 1) % accs.len();
        sum += evaluate(&net, black_box(&accs[k]), boards[k].side_to_move()) as i64;
    });
    black_box(sum);
    // The attack list alone (what a threat set's update recomputes).
    let squares: Vec<_> = boards.iter().map(squares_of).collect();
    let mut k = 0;
    let mut total = 0usize;
    let list_ns = time_ns(2_000_000, || {
        k = (k + 1) % squares.len();
        total += ThreatList::of(black_box(&squares[k])).as_slice().len();
    });
    black_box(total);
    println!("full refresh (both perspectives): {refresh:8.1} ns");
    println!(
        "incremental update, quiet move:   {quiet_ns:8.1} ns  ({} moves)",
        quiet.len()
    );
    println!(
        "incremental update, capture:      {capture_ns:8.1} ns  ({} moves)",
        captures.len()
    );
    println!(
        "update, king move:                {king_ns:8.1} ns  ({} moves)",
        kings.len()
    );
    println!("update, king move, refresh cache: {king_cached_ns:8.1} ns");
    println!("evaluate:                         {eval_ns:8.1} ns");
    if arch.features.has_threats() {
        println!("attack list of a position:        {list_ns:8.1} ns");
    }
}
