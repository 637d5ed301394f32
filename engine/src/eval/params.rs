//! Every evaluation parameter in one flat table of (middlegame, endgame) pairs, with named
//! index ranges (`layout.rs`). The tuner reads and rewrites this table; the tuned values live
//! in `engine/data/weights.txt`, embedded by `build.rs`.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A tapered score: middlegame and endgame parts in centipawns.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}
impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}
impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}
impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

pub use super::layout::*;

/// The parameter table used by the engine; its default is the tuned table (`weights.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams(pub Vec<S>);

impl EvalParams {
    /// Parameter at `index`.
    #[inline(always)]
    pub fn get(&self, index: usize) -> S {
        self.0[index]
    }
}
