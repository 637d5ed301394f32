//! Search tunables in one place (SPSA tuning changes these).

/// Every numeric search parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Reverse futility margin per depth.
    pub rfp_margin: i32,
    /// Deepest depth for reverse futility pruning.
    pub rfp_depth: i32,
    /// Null-move base reduction.
    pub nmp_base: i32,
    /// Null-move reduction growth: one more ply per this many plies of depth.
    pub nmp_depth_div: i32,
    /// Depth from which a null-move cutoff is verified by a normal search.
    pub nmp_verify_depth: i32,
    /// Futility margin: base plus per-depth.
    pub fp_base: i32,
    /// Futility margin per depth.
    pub fp_per_depth: i32,
    /// Deepest depth for futility pruning.
    pub fp_depth: i32,
    /// Late move pruning: quiet moves tried before the rest are skipped, base.
    pub lmp_base: i32,
    /// SEE pruning margin per depth for quiet moves.
    pub see_quiet: i32,
    /// SEE pruning margin per depth squared for captures.
    pub see_noisy: i32,
    /// LMR table base (x100).
    pub lmr_base: i32,
    /// LMR table divisor (x100).
    pub lmr_div: i32,
    /// History score that changes the reduction by one ply.
    pub lmr_history_div: i32,
    /// Aspiration window half-width at the first try.
    pub aspiration: i32,
    /// Quiescence delta-pruning margin.
    pub delta_margin: i32,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            rfp_margin: 80,
            rfp_depth: 8,
            nmp_base: 3,
            nmp_depth_div: 3,
            nmp_verify_depth: 12,
            fp_base: 100,
            fp_per_depth: 90,
            fp_depth: 8,
            lmp_base: 4,
            see_quiet: 60,
            see_noisy: 25,
            lmr_base: 75,
            lmr_div: 225,
            lmr_history_div: 8192,
            aspiration: 25,
            delta_margin: 200,
        }
    }
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
