//! The portable kernels: plain loops over whole rows, which the compiler vectorises for the
//! baseline of the target (SSE2 on x86-64). Every other path must give exactly their results.

use super::OUTPUT_CHUNK;

/// `dst = src - Σ sub + Σ add`, lane by lane, wrapping like the i16 arithmetic of the file
/// format.
#[inline(always)]
pub fn update<const H: usize>(dst: &mut [i16; H], src: &[i16; H], sub: &[&[i16; H]], add: &[&[i16; H]]) {
    match (sub, add) {
        ([r], [a]) => {
            for (((d, &s), &r), &a) in dst.iter_mut().zip(src).zip(*r).zip(*a) {
                *d = s.wrapping_sub(r).wrapping_add(a);
            }
        }
        ([r1, r2], [a]) => {
            for ((((d, &s), &r1), &r2), &a) in dst.iter_mut().zip(src).zip(*r1).zip(*r2).zip(*a) {
                *d = s.wrapping_sub(r1).wrapping_sub(r2).wrapping_add(a);
            }
        }
        _ => {
            dst.copy_from_slice(src);
            for row in sub {
                for (d, &w) in dst.iter_mut().zip(*row) {
                    *d = d.wrapping_sub(w);
                }
            }
            for row in add {
                for (d, &w) in dst.iter_mut().zip(*row) {
                    *d = d.wrapping_add(w);
                }
            }
        }
    }
}

/// `Σ screlu(us) · w_us + Σ screlu(them) · w_them` with `screlu(x) = clamp(x, 0, qa)²`,
/// computed as `(v · w) · v` so that the first product stays in i16 (the network checks
/// `qa · |w| ≤ 32767` at load), summed in i32 over chunks of [`OUTPUT_CHUNK`] and then in i64.
#[inline(always)]
pub fn output<const H: usize>(us: &[i16; H], them: &[i16; H], w_us: &[i16; H], w_them: &[i16; H], qa: i16) -> i64 {
    dot(us, w_us, qa) + dot(them, w_them, qa)
}

#[inline(always)]
fn dot(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
    let mut total = 0i64;
    for (a, w) in acc.chunks(OUTPUT_CHUNK).zip(weights.chunks(OUTPUT_CHUNK)) {
        let mut sum = 0i32;
        for (&x, &w) in a.iter().zip(w) {
            let v = x.clamp(0, qa);
            sum += (v.wrapping_mul(w) as i32) * v as i32;
        }
        total += sum as i64;
    }
    total
}
