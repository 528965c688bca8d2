//! Tests of `train`: the gradients against finite differences, the targets.

use super::*;

/// The analytic gradient of every parameter block matches central
/// finite differences of the loss, on the parameters it moves most.
#[test]
fn gradients_match_finite_differences() {
    for arch in [
        Arch::NET2,
        Arch::new(jiangjun_engine::nnue::FeatureSet::KingBucket6, 128, 4).unwrap(),
        Arch::new(jiangjun_engine::nnue::FeatureSet::PieceSquareThreats, 64, 2).unwrap(),
        Arch::new(jiangjun_engine::nnue::FeatureSet::PieceSquare, 128, 2)
            .unwrap()
            .with_hidden(8, 16)
            .unwrap(),
        // Both at once: threat inputs feeding hidden layers.
        Arch::new(jiangjun_engine::nnue::FeatureSet::PieceSquareThreats, 64, 2)
            .unwrap()
            .with_hidden(8, 16)
            .unwrap(),
        // Hidden layers with the skip path beside them.
        Arch::new(jiangjun_engine::nnue::FeatureSet::PieceSquare, 128, 2)
            .unwrap()
            .with_hidden(8, 16)
            .and_then(|a| a.with_skip())
            .unwrap(),
        // Threat squares beside the first layer.
        Arch::new(jiangjun_engine::nnue::FeatureSet::PieceSquare, 64, 2)
            .and_then(|a| a.with_side(16))
            .unwrap(),
    ] {
        gradients_match_in(arch);
    }
}

fn gradients_match_in(arch: Arch) {
    let mut data = Vec::new();
    crate::synth::generate(24, 3, |r| data.push(r.pack()));
    let mut net = TrainState::with_arch(arch, 5).net;
    for b in &mut net.l1_b {
        *b = 0.3;
    }
    // A random start leaves the skip path at zero: give it weights.
    let mut rng = crate::rng::Rng::new(9);
    for w in &mut net.skip_w {
        *w = rng.symmetric(0.1);
    }
    let (lambda, k) = (0.5, 134.0);
    let mut grad = Grad::new(net.arch);
    for c in &data {
        grad.accumulate(&net, c, false, lambda, k);
    }
    let loss = |net: &FloatNet| -> f64 {
        data.iter()
            .map(|c| position_loss(net, c, lambda, k) as f64)
            .sum()
    };
    let largest = |g: &[f32]| {
        (0..g.len())
            .max_by(|&a, &b| g[a].abs().total_cmp(&g[b].abs()))
            .unwrap()
    };
    let analytic = [
        &grad.l1_w,
        &grad.l1_b,
        &grad.out_w,
        &grad.out_b,
        &grad.h1_w,
        &grad.h1_b,
        &grad.h2_w,
        &grad.h2_b,
        &grad.skip_w,
        &grad.skip_b,
        &grad.side.rows,
        &grad.side.bias,
        &grad.side.out,
        &grad.side.f1,
        &grad.side.f2,
    ];
    for (block, g) in analytic.into_iter().enumerate() {
        if g.is_empty() {
            let side_block = block >= 10;
            assert!(if side_block {
                net.arch.side == 0
            } else {
                !net.arch.has_hidden() || (!net.arch.skip && block >= 8)
            });
            continue;
        }
        let i = largest(g);
        // A smaller step with hidden layers: their clipped units put
        // kinks closer together (1e-3 crosses one here).
        let eps = if net.arch.has_hidden() { 1e-4 } else { 1e-3 };
        let mut plus = net.clone();
        plus.blocks_mut()[block][i] += eps;
        let mut minus = net.clone();
        minus.blocks_mut()[block][i] -= eps;
        let numeric = (loss(&plus) - loss(&minus)) / (2.0 * eps as f64);
        let a = g[i] as f64;
        assert!(
            (numeric - a).abs() <= 0.02 * a.abs() + 1e-4,
            "{}: block {block}[{i}]: analytic {a}, numeric {numeric}",
            net.arch
        );
        assert!(a.abs() > 1e-3, "block {block}: gradient too small to test");
    }
    // Only rows of features that occurred were touched.
    let l1 = net.l1();
    for f in 0..net.arch.inputs() {
        let used = grad.rows.contains(&(f as u32));
        assert_eq!(grad.touched[f], used);
        if !used {
            assert!(grad.l1_w[f * l1..(f + 1) * l1].iter().all(|&x| x == 0.0));
        }
    }
    // So for the side accumulator's rows.
    let w = net.arch.side;
    for i in 0..grad.side.touched.len() {
        if !grad.side.touched[i] {
            assert!(grad.side.rows[i * w..(i + 1) * w].iter().all(|&x| x == 0.0));
        }
    }
    if w != 0 {
        assert!(grad.side.touched.iter().filter(|&&t| t).count() > 100);
    }
    grad.reset();
    assert!(grad.l1_w.iter().all(|&x| x == 0.0) && grad.rows.is_empty());
    assert!(grad.side.rows.iter().all(|&x| x == 0.0));
}

#[test]
fn targets_blend_score_and_result() {
    let board = xiangqi::Board::startpos();
    let rec = crate::data::Record::from_board(&board, crate::data::GameResult::BlackWins, 134);
    let c = rec.pack();
    let s = sigmoid(1.0);
    assert!((target(&c, 1.0, 134.0) - s).abs() < 1e-6);
    assert!(target(&c, 0.0, 134.0).abs() < 1e-6);
    assert!((target(&c, 0.5, 134.0) - 0.5 * s).abs() < 1e-6);
    // Black to move after a Black win: result 1 from its side.
    let mut b = board.clone();
    b.make_move(board.parse_move("h2e2").unwrap());
    let c = crate::data::Record::from_board(&b, crate::data::GameResult::BlackWins, 0).pack();
    assert!((target(&c, 0.0, 134.0) - 1.0).abs() < 1e-6);
}
