//! Search tunables in one place (SPSA tuning changes these).

/// A search parameter's tuning range: SPSA perturbs it by about `step` and keeps it within
/// `min..=max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// Field name, also the UCI option name of the `tune` build.
    pub name: &'static str,
    /// Default value.
    pub default: i32,
    /// Smallest allowed value.
    pub min: i32,
    /// Largest allowed value.
    pub max: i32,
    /// SPSA perturbation size at the end of a run.
    pub step: i32,
}

impl ParamSpec {
    /// An on/off switch (range 0..=1): SPSA's `all` leaves it alone.
    pub fn is_switch(&self) -> bool {
        self.min == 0 && self.max == 1
    }
}

/// Declares the parameters once: the struct, its defaults, the spec table and name lookup.
macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $name:ident: $default:literal, $min:literal..=$max:literal, step $step:literal;)*) => {
        /// Every numeric search parameter.
        #[derive(Clone, Debug, PartialEq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $name: i32,)*
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $($name: $default,)* }
            }
        }

        impl SearchParams {
            /// Name, default, range and SPSA step of every parameter.
            pub const SPECS: &'static [ParamSpec] = &[
                $(ParamSpec { name: stringify!($name), default: $default, min: $min, max: $max, step: $step },)*
            ];

            /// The value of parameter `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($name) => Some(self.$name),)*
                    _ => None,
                }
            }

            /// Sets parameter `name` to `value`; errors on an unknown name or a value out of range.
            pub fn set(&mut self, name: &str, value: i32) -> Result<(), $crate::error::ParamError> {
                let spec = Self::SPECS
                    .iter()
                    .find(|s| s.name == name)
                    .ok_or_else(|| format!("unknown search parameter '{name}'"))?;
                if !(spec.min..=spec.max).contains(&value) {
                    return Err(format!("{name} must be within {}..={}, not {value}", spec.min, spec.max).into());
                }
                match name {
                    $(stringify!($name) => self.$name = value,)*
                    _ => unreachable!("name checked against SPECS"),
                }
                Ok(())
            }
        }
    };
}

search_params! {
    /// Reverse futility margin per depth.
    rfp_margin: 80, 20..=200, step 8;
    /// Deepest depth for reverse futility pruning.
    rfp_depth: 8, 2..=14, step 1;
    /// Null-move base reduction.
    nmp_base: 3, 1..=6, step 1;
    /// Null-move reduction growth: one more ply per this many plies of depth.
    nmp_depth_div: 3, 1..=8, step 1;
    /// Depth from which a null-move cutoff is verified by a normal search.
    nmp_verify_depth: 12, 6..=30, step 2;
    /// Futility margin: base plus per-depth.
    fp_base: 100, 0..=300, step 12;
    /// Futility margin per depth.
    fp_per_depth: 90, 20..=250, step 10;
    /// Deepest depth for futility pruning.
    fp_depth: 8, 2..=14, step 1;
    /// Late move pruning: quiet moves tried before the rest are skipped, base.
    lmp_base: 4, 0..=12, step 1;
    /// SEE pruning margin per depth for quiet moves.
    see_quiet: 60, 10..=200, step 8;
    /// SEE pruning margin per depth squared for captures.
    see_noisy: 25, 5..=100, step 3;
    /// LMR table base (x100).
    lmr_base: 75, 0..=200, step 10;
    /// LMR table divisor (x100).
    lmr_div: 225, 100..=400, step 15;
    /// History score that changes the reduction by one ply.
    lmr_history_div: 8192, 2048..=32768, step 600;
    /// Aspiration window half-width at the first try.
    aspiration: 25, 5..=100, step 3;
    /// Quiescence delta-pruning margin.
    delta_margin: 200, 50..=600, step 20;
    /// Correction history weight in percent (0 = off: its SPRT at 2+0.02 was inconclusive
    /// after 300 games, +17 +/- 36 Elo, so it stays out of the default build).
    corr_scale: 0, 0..=200, step 10;
    /// Singular extensions from this depth on (99 = off).
    se_depth: 8, 4..=99, step 1;
    /// Singular margin below the hash score, in 1/16 cp per ply of depth.
    se_margin: 24, 4..=96, step 4;
    /// How far below the singular margin a move must fail for a double extension.
    se_double_margin: 20, 0..=100, step 5;
    /// Double extensions allowed on one path.
    se_double_limit: 6, 0..=16, step 1;
    /// Razoring: deepest depth (0 = off, the default: with ProbCut it measured -3.5 +/- 32.3
    /// Elo over 300 games at 2+0.02, see docs/search.md).
    razor_depth: 0, 0..=6, step 1;
    /// Razoring margin per depth.
    razor_margin: 250, 100..=600, step 20;
    /// ProbCut: shallowest depth (99 = off, the default, measured with razoring; 5 when on).
    probcut_depth: 99, 3..=99, step 1;
    /// ProbCut: margin above beta a capture must reach.
    probcut_margin: 200, 60..=400, step 15;
    /// Continuation history also from the move four plies back (1 = on, 0 = off).
    cont_ply4: 1, 0..=1, step 1;
    /// Time: the soft limit is scaled by (base - fraction of nodes on the best move) x scale,
    /// both in percent (scale 0 = off).
    tm_node_base: 150, 100..=250, step 5;
    /// Time: see `tm_node_base`.
    tm_node_scale: 135, 0..=300, step 10;
    /// Lazy SMP: the threads vote on the move played (1 = on, 0 = off).
    thread_vote: 1, 0..=1, step 1;
}

impl SearchParams {
    /// Late-move reduction for a depth and move number (both at least 1).
    pub fn lmr(&self, depth: i32, moves: i32) -> i32 {
        let (d, m) = (depth.max(1) as f64, moves.max(1) as f64);
        (self.lmr_base as f64 / 100.0 + d.ln() * m.ln() * 100.0 / self.lmr_div as f64) as i32
    }

    /// Quiet moves searched before late move pruning skips the rest.
    pub fn lmp_count(&self, depth: i32, improving: bool) -> i32 {
        let n = self.lmp_base + depth * depth;
        if improving {
            n
        } else {
            n * 2 / 3
        }
    }
}

/// Late-move reductions by depth and move number, computed once per search from the
/// parameters (the formula takes two logarithms; the table takes a load).
pub(crate) struct Reductions {
    table: Vec<i8>,
}

/// Depths and move numbers beyond these share the last row and column.
const LMR_DEPTHS: usize = 128;
const LMR_MOVES: usize = 256;

impl Reductions {
    /// The table of `params.lmr` over all depths and move numbers it distinguishes.
    pub fn new(params: &SearchParams) -> Reductions {
        let mut table = Vec::with_capacity(LMR_DEPTHS * LMR_MOVES);
        for depth in 0..LMR_DEPTHS as i32 {
            for moves in 0..LMR_MOVES as i32 {
                table.push(params.lmr(depth, moves).clamp(0, i8::MAX as i32) as i8);
            }
        }
        Reductions { table }
    }

    /// The reduction for `depth` and move number `moves`.
    #[inline(always)]
    pub fn get(&self, depth: i32, moves: i32) -> i32 {
        let d = (depth.max(0) as usize).min(LMR_DEPTHS - 1);
        let m = (moves.max(0) as usize).min(LMR_MOVES - 1);
        self.table[d * LMR_MOVES + m] as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_table_matches_the_formula() {
        let mut params = SearchParams::default();
        for (base, div) in [(75, 225), (0, 100), (200, 400)] {
            params.lmr_base = base;
            params.lmr_div = div;
            let table = Reductions::new(&params);
            for depth in 1..LMR_DEPTHS as i32 {
                for moves in 1..LMR_MOVES as i32 {
                    assert_eq!(table.get(depth, moves), params.lmr(depth, moves), "{depth} {moves}");
                }
            }
        }
    }

    #[test]
    fn specs_describe_the_defaults() {
        let d = SearchParams::default();
        assert_eq!(SearchParams::SPECS.len(), 29);
        for spec in SearchParams::SPECS {
            assert_eq!(d.get(spec.name), Some(spec.default), "{}", spec.name);
            assert!(spec.min <= spec.default && spec.default <= spec.max && spec.step > 0);
        }
    }

    #[test]
    fn set_checks_name_and_range() {
        let mut p = SearchParams::default();
        p.set("lmp_base", 7).unwrap();
        assert_eq!(p.lmp_base, 7);
        assert!(p.set("lmp_base", 13).is_err());
        assert!(p.set("no_such", 1).is_err());
        assert_eq!(p.lmp_base, 7);
    }
}
