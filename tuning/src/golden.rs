//! Golden-section search for the minimum of a unimodal function (the sigmoid scales K of the
//! Texel tuner and of the network trainer).

/// The minimiser of `f` on `[lo, hi]`, narrowing the bracket until `done(width, steps)`.
pub fn golden_section_min(f: impl Fn(f64) -> f64, lo: f64, hi: f64, done: impl Fn(f64, usize) -> bool) -> f64 {
    let inv_phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo, hi);
    let mut c = b - inv_phi * (b - a);
    let mut d = a + inv_phi * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    let mut steps = 0;
    while !done(b - a, steps) {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - inv_phi * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + inv_phi * (b - a);
            fd = f(d);
        }
        steps += 1;
    }
    (a + b) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_minimum_of_a_parabola() {
        let x = golden_section_min(|x| (x - 1.234).powi(2), -10.0, 10.0, |w, _| w < 1e-9);
        assert!((x - 1.234).abs() < 1e-8, "{x}");
        let y = golden_section_min(|x| (x - 3.0).abs(), 0.0, 10.0, |_, n| n >= 60);
        assert!((y - 3.0).abs() < 1e-9, "{y}");
    }
}
