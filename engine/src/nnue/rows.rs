//! Row kernels shared by the accumulators and the refresh cache: adding and
//! subtracting weight rows, compiled per common L1 width.

/// Run `$f::<N>($args)` with `N` the network's L1 for the common widths
/// (a constant trip count: the loops compile to straight-line SIMD code,
/// as fast as net 2's fixed-size arrays were), `N = 0` (any width, read
/// from the slices) otherwise.
macro_rules! by_width {
    ($l1:expr, $($f:ident)::+, $($arg:expr),*) => {
        match $l1 {
            256 => $($f)::+::<256>($($arg),*),
            512 => $($f)::+::<512>($($arg),*),
            768 => $($f)::+::<768>($($arg),*),
            1024 => $($f)::+::<1024>($($arg),*),
            _ => $($f)::+::<0>($($arg),*),
        }
    };
}
pub(crate) use by_width;

/// The width the kernels work on: `N`, or the slice's when `N` is 0.
#[inline(always)]
pub(crate) const fn width<const N: usize>(len: usize) -> usize {
    if N == 0 { len } else { N }
}

/// Most rows one [`apply_rows`] call takes of each sign (the most active
/// inputs of any block, the attacks; a refresh adds at most 32 pieces'
/// rows, a refresh-cache update at most one row in and one out per square).
pub(crate) const MAX_ROWS: usize = super::block::MAX_BLOCK_ACTIVE;

/// `dst += Σ add − Σ sub`, one tile of `dst` at a time: each tile is loaded
/// and stored once for all the rows instead of once per row. Tiles of 128
/// values (eight AVX2 registers), and one of 64 for a width that is not a
/// multiple of 128 (every L1 is a multiple of 64). Against adding row by
/// row (`nnue_bench`, medians of three runs, 2026-11-27): a 512-wide full
/// refresh 605 → 485 ns, a king-bucket king move 418 → 362 ns, a 1024-wide
/// threat update 737 → 673 ns, a 512-wide one no faster (477 → 492 ns);
/// tiles of 64 lost to rows on refreshes (`notes/2026-11-27-net6-data.md`).
#[inline(always)]
pub(crate) fn apply_rows<const N: usize>(dst: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
    let n = width::<N>(dst.len());
    let wide = n - n % 128;
    for t in (0..wide).step_by(128) {
        apply_tile::<128>(dst, add, sub, t);
    }
    if wide < n {
        apply_tile::<64>(dst, add, sub, wide);
    }
}

/// `dst[t..t + T] += Σ add[t..t + T] − Σ sub[t..t + T]`, in registers.
#[inline(always)]
fn apply_tile<const T: usize>(dst: &mut [i16], add: &[&[i16]], sub: &[&[i16]], t: usize) {
    let mut acc = [0i16; T];
    acc.copy_from_slice(&dst[t..t + T]);
    for row in add {
        let row = &row[t..t + T];
        for i in 0..T {
            acc[i] = acc[i].wrapping_add(row[i]);
        }
    }
    for row in sub {
        let row = &row[t..t + T];
        for i in 0..T {
            acc[i] = acc[i].wrapping_sub(row[i]);
        }
    }
    dst[t..t + T].copy_from_slice(&acc);
}
