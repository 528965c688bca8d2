//! Growing a network into a richer shape that evaluates every position
//! exactly as the old one did, so that training goes on from what the old
//! net knows instead of starting over (`jiangjun train --grow-from`).
//!
//! The first layer is copied row by row: each input of the new feature set
//! gets the weights of the input the old set reads for the same piece on
//! the same square with the same king square, found by walking every
//! palace square of both perspectives through both sets' index functions
//! ([`FeatureSet::index`]). When two king squares that read different old
//! rows would share one new row, no copy is exact and growth is refused:
//! `psq` into `kingbucket6`, whose d-file and f-file kings share a bucket,
//! one seeing the board mirrored (the old net is not left-right symmetric),
//! is such a case; `kingbucket9` keeps them apart and is exact. Every other
//! block of the old set is copied row for row into the same block of the
//! new one (refused if the new set lacks it); a block only the new set has
//! starts at zero weight; the biases and the output layer are
//! copied. With the same accumulator values and the same output layer the
//! integer evaluation is the same, bit for bit.
//!
//! Not grown: the accumulator width and the output buckets (they stay the
//! old net's), and hidden layers after a net without them. The layered
//! format (`stack`) cannot pass the old output through exactly: its input
//! is the pairwise product of two different units, rounded to 7 bits
//! (`(c1 · c2 + 256) >> 9`), where the old output needs each unit's square
//! `c²` at 16 bits, and its activations are clipped to [0, 127] with int8
//! weights, where the old output is a sum of thousands of values up to
//! ±128 · 255². It would take a skip path: the old output layer kept beside
//! the stack and added to it, with the stack's output weights starting at
//! zero (docs/nnue.md, "Growing a net").

use super::arch::{Arch, NnueError};
use super::features::{Block, FEATURES, FeatureSet, InputBlock};
use super::network::Network;
use xiangqi::{Color, FILES, Piece, PieceKind, RANKS, SQUARES, Square};

/// Palace squares of `perspective`'s own king (files d to f, its three
/// nearest ranks), the only squares a king of a legal position stands on.
fn palace(perspective: Color) -> impl Iterator<Item = Square> {
    (0..3).flat_map(move |r| {
        let rank = match perspective {
            Color::Red => r,
            Color::Black => RANKS - 1 - r,
        };
        (3..6).map(move |file| Square::from_index_unchecked(rank * FILES + file))
    })
}

/// For each piece-square input of `to`, the input of `from` it copies
/// (`None`: no king square reads it), or why no copy is exact.
fn piece_rows(from: FeatureSet, to: FeatureSet) -> Result<Vec<Option<usize>>, String> {
    let mut source: Vec<Option<usize>> = vec![None; to.piece_inputs()];
    for perspective in Color::BOTH {
        for king in palace(perspective) {
            let (old_view, new_view) = (from.view(perspective, king), to.view(perspective, king));
            for i in 0..2 * PieceKind::ALL.len() {
                let piece = Piece::new(Color::from_index(i / 7), PieceKind::from_index(i % 7));
                for s in 0..SQUARES {
                    let sq = Square::from_index_unchecked(s);
                    let old = from.index(perspective, old_view, piece, sq);
                    let new = to.index(perspective, new_view, piece, sq);
                    match source[new] {
                        Some(o) if o != old => {
                            return Err(format!(
                                "{to} gives kings that read different inputs of {from} one input \
                                 (king on {king}: bucket {}{}), so no copy of the old weights is \
                                 exact; a set whose buckets are each always mirrored or never \
                                 ({}) is",
                                new_view.bucket(),
                                if new_view.mirrored() {
                                    ", mirrored"
                                } else {
                                    ""
                                },
                                FeatureSet::with_mirror_twins()
                            ));
                        }
                        _ => source[new] = Some(old),
                    }
                }
            }
        }
    }
    debug_assert!(source.len().is_multiple_of(FEATURES));
    Ok(source)
}

/// `old` grown into architecture `to`: the same integer evaluation of
/// every legal position (see the module docs), or why that cannot be.
pub fn grow(old: &Network, to: Arch) -> Result<Network, NnueError> {
    let from = old.arch();
    let refuse = |why: String| NnueError::Growth {
        from: from.to_string(),
        to: to.to_string(),
        why,
    };
    if to.l1 != from.l1 || to.output_buckets != from.output_buckets {
        return Err(refuse(
            "the accumulator width and the output buckets must stay the old net's".into(),
        ));
    }
    if to.hidden != from.hidden {
        return Err(refuse(
            "hidden layers cannot be added exactly: the layered format has no path that passes \
             the old output through (see docs/nnue.md, \"Growing a net\")"
                .into(),
        ));
    }
    let l1 = from.l1;
    let mut weights = vec![0i16; to.inputs() * l1];
    let mut copy = |new: usize, old_row: usize| {
        weights[new * l1..(new + 1) * l1].copy_from_slice(old.l1_row(old_row));
    };
    // Block by block: the piece-square block into the new set's, in its
    // king layout; any other block into the same block of the new set,
    // row for row (its inputs do not depend on the layout). A block the
    // new set lacks would lose what the old net knows.
    for (from_at, block) in from.features.placed_blocks() {
        match block {
            Block::PieceSquare(_) => {
                let rows = piece_rows(from.features, to.features).map_err(refuse)?;
                // First in every set (`features`), so its indices are the set's.
                for (new, old_row) in rows.iter().enumerate() {
                    if let Some(o) = old_row {
                        copy(new, *o);
                    }
                }
            }
            _ => {
                let Some(to_at) = to.features.offset_of(block) else {
                    return Err(refuse(format!(
                        "the {} inputs would be dropped",
                        block.tag()
                    )));
                };
                for i in 0..block.size() {
                    copy(to_at + i, from_at + i);
                }
            }
        }
    }
    let mut blocks = old.blocks();
    blocks[0] = &weights;
    Network::from_blocks(to, &blocks)
}

#[cfg(test)]
#[path = "grow_tests.rs"]
mod tests;
