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
//! cost alone. `--net FILE` times a trained network instead (its shape is
//! the file's; the arguments are then ignored), and says how many of its
//! hidden layers' inputs are zero, which random weights do not show.

use jiangjun_engine::bench::POSITIONS;
use jiangjun_engine::nnue::features::{THREATS, squares_of};
use jiangjun_engine::nnue::finny::RefreshCache;
use jiangjun_engine::nnue::threats::threat_list;
use jiangjun_engine::nnue::{Accumulator, Arch, FeatureSet, Network, QA, evaluate, stack};
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

/// The value of `--NAME FILE` among `args`, removed from them.
fn take_file(args: &mut Vec<String>, name: &str) -> Result<Option<String>, String> {
    match args.iter().position(|a| a == name) {
        Some(i) => {
            let file = args
                .get(i + 1)
                .ok_or(format!("{name} needs a file"))?
                .clone();
            args.drain(i..i + 2);
            Ok(Some(file))
        }
        None => Ok(None),
    }
}

/// What the arguments ask for.
struct Setup {
    /// The architecture they name (net 2's without any).
    arch: Arch,
    /// Where to write the random network, if asked.
    write: Option<String>,
    /// Its threat rows are to be zero (`--zero-threats`).
    zero_threats: bool,
    /// A trained network to time instead.
    net: Option<String>,
}

fn setup() -> Result<Setup, String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let write = take_file(&mut args, "--write")?;
    let net = take_file(&mut args, "--net")?;
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
            "arguments: [FEATURES L1 BUCKETS [H1 H2]] [--write FILE] [--zero-threats] [--net FILE]"
                .to_string(),
        ),
    }?;
    Ok(Setup {
        arch,
        write,
        zero_threats: zero.is_some(),
        net,
    })
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
    let setup = match setup() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let net = match &setup.net {
        Some(path) => match Network::load(path) {
            Ok(net) => net,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        },
        None if setup.zero_threats => zero_threats(setup.arch),
        None => Network::random_arch(setup.arch, 1),
    };
    let arch = net.arch();
    println!("{arch}");
    if let Some(path) = setup.write {
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
        total += threat_list(black_box(&squares[k])).as_slice().len();
    });
    black_box(total);
    if arch.has_hidden() {
        // The share of the first hidden layer's inputs (pairwise products)
        // that are not zero, by single inputs and by groups of four.
        let (mut nonzero, mut groups, mut all) = (0usize, 0usize, 0usize);
        for (acc, b) in accs.iter().zip(&boards) {
            for persp in [b.side_to_move(), b.side_to_move().flip()] {
                let a = acc.values(persp);
                let half = a.len() / 2;
                let x: Vec<i32> = (0..half)
                    .map(|j| {
                        let c = |v: i16| (v as i32).clamp(0, QA);
                        // The engine's pairwise product (`nnue::stack`).
                        let shift = stack::PAIR_SHIFT;
                        (c(a[j]) * c(a[j + half]) + (1 << (shift - 1))) >> shift
                    })
                    .collect();
                nonzero += x.iter().filter(|&&v| v != 0).count();
                groups += x.chunks(4).filter(|g| g.iter().any(|&v| v != 0)).count();
                all += half;
            }
        }
        println!(
            "first hidden layer's inputs not zero: {:.1} % (groups of 4: {:.1} %)",
            100.0 * nonzero as f64 / all as f64,
            400.0 * groups as f64 / all as f64
        );
    }
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
    if arch.features.offset_of(THREATS).is_some() {
        println!("attack list of a position:        {list_ns:8.1} ns");
    }
}
