//! AVX-512 kernels: 32 lanes of i16 per 512-bit register (AVX-512F and BW), the last 16 lanes
//! of a hidden size that is an odd multiple of 16 with the AVX2 kernels' helpers. Callers
//! must have checked that the processor has AVX2, AVX-512F and AVX-512BW (`Kernels::new`).

use super::x86_avx2 as ymm;
use super::OUTPUT_CHUNK;
use std::arch::x86_64::*;

/// i16 lanes per register.
const LANES: usize = 32;

/// Loads 32 lanes.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn load(lanes: &[i16; LANES]) -> __m512i {
    // SAFETY: the reference covers exactly the 64 bytes read; `loadu` has no alignment
    // requirement.
    unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
}

/// Stores 32 lanes.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn store(lanes: &mut [i16; LANES], value: __m512i) {
    // SAFETY: the exclusive reference covers exactly the 64 bytes written; `storeu` has no
    // alignment requirement.
    unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), value) }
}

/// The `at`-th group of 32 lanes of a row.
#[inline(always)]
fn group<const H: usize>(row: &[i16; H], at: usize) -> &[i16; LANES] {
    &row.as_chunks::<LANES>().0[at]
}

/// See `Kernels::update`; the usual moves have their own loops as in the AVX2 kernels.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(super) fn update<const H: usize>(dst: &mut [i16; H], src: &[i16; H], sub: &[&[i16; H]], add: &[&[i16; H]]) {
    let (wide, tail) = dst.as_chunks_mut::<LANES>();
    match (sub, add) {
        ([r], [a]) => {
            for (at, d) in wide.iter_mut().enumerate() {
                let v = _mm512_sub_epi16(load(group(src, at)), load(group(r, at)));
                store(d, _mm512_add_epi16(v, load(group(a, at))));
            }
        }
        ([r1, r2], [a]) => {
            for (at, d) in wide.iter_mut().enumerate() {
                let v = _mm512_sub_epi16(load(group(src, at)), load(group(r1, at)));
                let v = _mm512_sub_epi16(v, load(group(r2, at)));
                store(d, _mm512_add_epi16(v, load(group(a, at))));
            }
        }
        _ => {
            for (at, d) in wide.iter_mut().enumerate() {
                let mut v = load(group(src, at));
                for row in sub {
                    v = _mm512_sub_epi16(v, load(group(row, at)));
                }
                for row in add {
                    v = _mm512_add_epi16(v, load(group(row, at)));
                }
                store(d, v);
            }
        }
    }
    // A hidden size that is an odd multiple of 16 ends with one group of 16 lanes.
    if let Some(d) = tail.as_chunks_mut::<{ ymm::LANES }>().0.first_mut() {
        let at = H / ymm::LANES - 1;
        let mut v = ymm::load(ymm::group(src, at));
        for row in sub {
            v = _mm256_sub_epi16(v, ymm::load(ymm::group(row, at)));
        }
        for row in add {
            v = _mm256_add_epi16(v, ymm::load(ymm::group(row, at)));
        }
        ymm::store(d, v);
    }
}

/// One perspective's output sum (see `x86_avx2::screlu_terms` for the arithmetic).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn half<const H: usize>(acc: &[i16; H], weights: &[i16; H], qa: i16) -> i64 {
    let qa_ymm = _mm256_set1_epi16(qa);
    let qa = _mm512_set1_epi16(qa);
    let zero = _mm512_setzero_si512();
    let mut total = 0i64;
    for (a, w) in acc.chunks(OUTPUT_CHUNK).zip(weights.chunks(OUTPUT_CHUNK)) {
        let ((a_wide, a_tail), (w_wide, w_tail)) = (a.as_chunks::<LANES>(), w.as_chunks::<LANES>());
        let mut sum = _mm512_setzero_si512();
        for (a, w) in a_wide.iter().zip(w_wide) {
            let v = _mm512_min_epi16(_mm512_max_epi16(load(a), zero), qa);
            sum = _mm512_add_epi32(sum, _mm512_madd_epi16(_mm512_mullo_epi16(v, load(w)), v));
        }
        let mut chunk = _mm512_reduce_add_epi32(sum);
        let tails = a_tail.as_chunks::<{ ymm::LANES }>().0.iter();
        for (a, w) in tails.zip(w_tail.as_chunks::<{ ymm::LANES }>().0) {
            chunk = chunk.wrapping_add(ymm::sum_lanes(ymm::screlu_terms(a, w, qa_ymm)));
        }
        total += chunk as i64;
    }
    total
}

/// See `Kernels::output`.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(super) fn output<const H: usize>(
    us: &[i16; H],
    them: &[i16; H],
    w_us: &[i16; H],
    w_them: &[i16; H],
    qa: i16,
) -> i64 {
    half(us, w_us, qa) + half(them, w_them, qa)
}
