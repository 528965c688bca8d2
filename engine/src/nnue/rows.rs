//! Row kernels shared by the accumulators and the refresh cache: adding and
//! subtracting one weight row, compiled per common L1 width.

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

#[inline(always)]
pub(crate) fn add_row<const N: usize>(dst: &mut [i16], w: &[i16]) {
    let n = width::<N>(dst.len());
    let (dst, w) = (&mut dst[..n], &w[..n]);
    for i in 0..n {
        dst[i] = dst[i].wrapping_add(w[i]);
    }
}

#[inline(always)]
pub(crate) fn sub_row<const N: usize>(dst: &mut [i16], w: &[i16]) {
    let n = width::<N>(dst.len());
    let (dst, w) = (&mut dst[..n], &w[..n]);
    for i in 0..n {
        dst[i] = dst[i].wrapping_sub(w[i]);
    }
}
