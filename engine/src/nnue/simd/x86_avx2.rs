//! AVX2 kernels: 16 lanes of i16 per 256-bit register. Callers must have checked that the
//! processor has AVX2 (`Kernels::new`).

use super::OUTPUT_CHUNK;
use std::arch::x86_64::*;

/// i16 lanes per register.
pub(super) const LANES: usize = 16;

/// Loads 16 lanes.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn load(lanes: &[i16; LANES]) -> __m256i {
    // SAFETY: the reference covers exactly the 32 bytes read; `loadu` has no alignment
    // requirement.
    unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
}

/// Stores 16 lanes.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn store(lanes: &mut [i16; LANES], value: __m256i) {
    // SAFETY: the exclusive reference covers exactly the 32 bytes written; `storeu` has no
    // alignment requirement.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), value) }
}

/// The `at`-th group of 16 lanes of a row.
#[inline(always)]
pub(super) fn group<const H: usize>(row: &[i16; H], at: usize) -> &[i16; LANES] {
    &row.as_chunks::<LANES>().0[at]
}

/// See `Kernels::update`. The usual moves (one cell emptied and one filled; a capture, two
/// and one) have their own loops; refreshes and the rarer moves take the general one.
#[target_feature(enable = "avx2")]
pub(super) fn update<const H: usize>(dst: &mut [i16; H], src: &[i16; H], sub: &[&[i16; H]], add: &[&[i16; H]]) {
    let dst = dst.as_chunks_mut::<LANES>().0;
    match (sub, add) {
        ([r], [a]) => {
            for (at, d) in dst.iter_mut().enumerate() {
                let v = _mm256_sub_epi16(load(group(src, at)), load(group(r, at)));
                store(d, _mm256_add_epi16(v, load(group(a, at))));
            }
        }
        ([r1, r2], [a]) => {
            for (at, d) in dst.iter_mut().enumerate() {
                let v = _mm256_sub_epi16(load(group(src, at)), load(group(r1, at)));
                let v = _mm256_sub_epi16(v, load(group(r2, at)));
                store(d, _mm256_add_epi16(v, load(group(a, at))));
            }
        }
        _ => {
            for (at, d) in dst.iter_mut().enumerate() {
                let mut v = load(group(src, at));
                for row in sub {
                    v = _mm256_sub_epi16(v, load(group(row, at)));
                }
                for row in add {
                    v = _mm256_add_epi16(v, load(group(row, at)));
                }
                store(d, v);
            }
        }
    }
}

/// `Σ clamp(x, 0, qa)² · w` over one group: `(v · w) · v` with the first product in i16 and
/// pairs of the second summed into i32 lanes (`vpmaddwd`).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn screlu_terms(x: &[i16; LANES], w: &[i16; LANES], qa: __m256i) -> __m256i {
    let v = _mm256_min_epi16(_mm256_max_epi16(load(x), _mm256_setzero_si256()), qa);
    _mm256_madd_epi16(_mm256_mullo_epi16(v, load(w)), v)
}

/// The sum of the eight i32 lanes (wrapping; the callers' sums cannot overflow).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn sum_lanes(v: __m256i) -> i32 {
    let quad = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let pair = _mm_add_epi32(quad, _mm_unpackhi_epi64(quad, quad));
    let one = _mm_add_epi32(pair, _mm_shuffle_epi32::<0b01>(pair));
    _mm_cvtsi128_si32(one)
}

/// One perspective's output sum.
#[inline]
#[target_feature(enable = "avx2")]
fn half<const H: usize>(acc: &[i16; H], weights: &[i16; H], qa: i16) -> i64 {
    let qa = _mm256_set1_epi16(qa);
    let mut total = 0i64;
    for (a, w) in acc.chunks(OUTPUT_CHUNK).zip(weights.chunks(OUTPUT_CHUNK)) {
        let mut sum = _mm256_setzero_si256();
        for (a, w) in a.as_chunks::<LANES>().0.iter().zip(w.as_chunks::<LANES>().0) {
            sum = _mm256_add_epi32(sum, screlu_terms(a, w, qa));
        }
        total += sum_lanes(sum) as i64;
    }
    total
}

/// See `Kernels::output`.
#[target_feature(enable = "avx2")]
pub(super) fn output<const H: usize>(
    us: &[i16; H],
    them: &[i16; H],
    w_us: &[i16; H],
    w_them: &[i16; H],
    qa: i16,
) -> i64 {
    half(us, w_us, qa) + half(them, w_them, qa)
}
