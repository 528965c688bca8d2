//! Rough cost of the NNUE operations on a random network of net 2's
//! architecture, or of another one given as `FEATURES L1 BUCKETS [H1 H2]`
//! (`H1 H2`: hidden layers after the accumulator):
//! `cargo run --release -p jiangjun-engine --example nnue_bench [-- psq 1024 8 16 32]`.
//! `--write FILE` also saves the random network (to measure a shape's
//! search speed with `jiangjun bench --evalfile FILE` before any is
//! trained: its speed, not its play). `--zero-threats` makes a threat
//! set's network the random network of its piece-square set (same hidden
//! layers) with all threat weights 0: it evaluates exactly as that one, so
//! a search with either visits the same nodes and the speeds compare the
//! cost alone.

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

/// The architecture the arguments name (net 2's without any), and the
/// file to write the random network to, if asked, and whether its threat
/// rows are to be zero (`--zero-threats`).
fn arch() -> Result<(Arch, Option<String>, bool), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut write = None;
    if let Some(i) = args.iter().position(|a| a == "--write") {
        write = Some(args.get(i + 1).ok_or("--write needs a file")?.clone());
        args.drain(i..i + 2);
    }
    let zero = args.iter().position(|a| a == "--zero-threats");
    if let Some(i) = zero {
        args.remove(i);
    }
    let num = |s: &str| s.parse::<usize>().map_err(|e| format!("{s}: {e}"));
    let arch = match args.as_slice() {
        [] => Ok(Arch::NET2),
        [f, l1, b, hidden @ ..] if hidden.is_empty() || hidden.len() == 2 => {
            let features = FeatureSet::from_name(f).ok_or(format!("unknown feature set {f}"))?;
            let a = Arch::new(features, num(l1)?, num(b)?).map_err(|e| e.to_string())?;
            match hidden {
                [h1, h2] => a.with_hidden(num(h1)?, num(h2)?).map_err(|e| e.to_string()),
                _ => Ok(a),
            }
        }
        _ => Err(
            "arguments: [FEATURES L1 BUCKETS [H1 H2]] [--write FILE] [--zero-threats]".to_string(),
        ),
    }?;
    Ok((arch, write, zero.is_some()))
}

/// The random network of `arch`'s piece-square set (with the same hidden
/// layers, if any), with zero threat rows.
fn zero_threats(arch: Arch) -> Network {
    let base_set = match arch.features {
        FeatureSet::PieceSquareThreats => FeatureSet::PieceSquare,
        FeatureSet::KingBucket6Threats => FeatureSet::KingBucket6,
        other => other,
    };
    let base = Network::random_arch(
        Arch {
            features: base_set,
            ..arch
        },
        1,
    );
    let mut blocks: Vec<Vec<i16>> = base.blocks().iter().map(|b| b.to_vec()).collect();
    // The threat rows follow the piece-square rows.
    blocks[0].resize(arch.inputs() * arch.l1, 0);
    let blocks: Vec<&[i16]> = blocks.iter().map(|b| &b[..]).collect();
    Network::from_blocks(arch, &blocks).expect("within the limits")
}

fn main() {
    let (arch, write, zero) = match arch() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    println!("{arch}");
    let net = if zero {
        zero_threats(arch)
    } else {
        Network::random_arch(arch, 1)
    };
    if let Some(path) = write {
        if let Err(e) = net.save(&path) {
            eprintln!("{e}");
            std::process::exit(1);
        }
        println!("wrote {path}");
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
