//! The network's inner loops in one portable and several vector forms, one of which is chosen
//! when a network is loaded: AVX2 where the processor has it (`is_x86_feature_detected!`), or
//! the path the environment names (`VORPAL_SIMD=portable` forces the portable loops,
//! `VORPAL_SIMD=avx512` the AVX-512 ones, which measured no faster than AVX2 on the
//! 128-neuron network). Every form gives exactly the
//! portable results (integer arithmetic only, no sum can overflow; the tests compare them on
//! random weights and positions, and the bench signature is the same under each).
//!
//! This is the engine's one module with `unsafe` code: calling a function compiled for a
//! target feature, vector loads and stores through pointers of references, and the prefetch
//! of a transposition-table bucket ([`prefetch`]), which is a hint like the others.

mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_avx512;

use std::fmt;

/// Output terms summed in i32 before moving to i64: with activations at most `qa` ≤ 512 and
/// `qa · |w| ≤ 32767`, 128 terms stay below 2^31 (checked when a network loads).
pub const OUTPUT_CHUNK: usize = 128;

/// A form of the network's inner loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SimdPath {
    /// Plain loops (what the compiler makes of them for the build's baseline target).
    Portable,
    /// 256-bit AVX2: 16 lanes of i16, `vpmaddwd` for the output.
    Avx2,
    /// 512-bit AVX-512 (F and BW): 32 lanes of i16.
    Avx512,
}

impl SimdPath {
    /// Every path, narrowest first.
    pub const ALL: [SimdPath; 3] = [SimdPath::Portable, SimdPath::Avx2, SimdPath::Avx512];

    /// The name `VORPAL_SIMD` takes and `bench` prints.
    pub fn name(self) -> &'static str {
        match self {
            SimdPath::Portable => "portable",
            SimdPath::Avx2 => "avx2",
            SimdPath::Avx512 => "avx512",
        }
    }

    /// The path of a name (`portable`, `avx2`, `avx512`), if any.
    pub fn parse(name: &str) -> Option<SimdPath> {
        SimdPath::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Whether this processor runs the path.
    pub fn is_supported(self) -> bool {
        match self {
            SimdPath::Portable => true,
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx2 => is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx512 => {
                is_x86_feature_detected!("avx2")
                    && is_x86_feature_detected!("avx512f")
                    && is_x86_feature_detected!("avx512bw")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The path used unless the environment names another: AVX2 where the processor has it,
    /// else the portable one. AVX-512 is not chosen by itself: on the bench with the built-in
    /// network (128 neurons, four 512-bit registers a row) it measured no faster than AVX2
    /// (six alternating pairs, median ratio 0.96), and wide vectors lower the clock of some
    /// processors.
    pub fn automatic() -> SimdPath {
        [SimdPath::Avx2, SimdPath::Portable]
            .into_iter()
            .find(|p| p.is_supported())
            .unwrap_or(SimdPath::Portable)
    }

    /// The path for a `VORPAL_SIMD` value: a supported path by name; anything else (unset,
    /// `auto`, unknown, or a path this processor lacks) gives [`SimdPath::automatic`].
    pub fn requested(value: Option<&str>) -> SimdPath {
        value
            .and_then(SimdPath::parse)
            .filter(|p| p.is_supported())
            .unwrap_or_else(SimdPath::automatic)
    }

    /// The path the environment asks for (`VORPAL_SIMD`), see [`SimdPath::requested`].
    pub fn from_environment() -> SimdPath {
        SimdPath::requested(std::env::var("VORPAL_SIMD").ok().as_deref())
    }
}

impl fmt::Display for SimdPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kernels of one supported path. Only [`Kernels::new`] makes one, after checking that
/// the processor runs the path, which is what makes the calls below sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernels {
    path: SimdPath,
}

impl Kernels {
    /// The kernels of `path`, if this processor runs it.
    pub fn new(path: SimdPath) -> Option<Kernels> {
        path.is_supported().then_some(Kernels { path })
    }

    /// The path.
    pub fn path(self) -> SimdPath {
        self.path
    }

    /// `dst = src - Σ sub + Σ add`, lane by lane with wrapping i16 arithmetic.
    #[inline(always)]
    pub fn update<const H: usize>(self, dst: &mut [i16; H], src: &[i16; H], sub: &[&[i16; H]], add: &[&[i16; H]]) {
        match self.path {
            // SAFETY: `Kernels::new` checked that the processor has AVX2.
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx2 => unsafe { x86_avx2::update(dst, src, sub, add) },
            // SAFETY: `Kernels::new` checked that the processor has AVX2, AVX-512F and BW.
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx512 => unsafe { x86_avx512::update(dst, src, sub, add) },
            _ => portable::update(dst, src, sub, add),
        }
    }

    /// `Σ clamp(us, 0, qa)² · w_us + Σ clamp(them, 0, qa)² · w_them`, exactly (see
    /// [`OUTPUT_CHUNK`]).
    #[inline(always)]
    pub fn output<const H: usize>(
        self,
        us: &[i16; H],
        them: &[i16; H],
        w_us: &[i16; H],
        w_them: &[i16; H],
        qa: i16,
    ) -> i64 {
        match self.path {
            // SAFETY: `Kernels::new` checked that the processor has AVX2.
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx2 => unsafe { x86_avx2::output(us, them, w_us, w_them, qa) },
            // SAFETY: `Kernels::new` checked that the processor has AVX2, AVX-512F and BW.
            #[cfg(target_arch = "x86_64")]
            SimdPath::Avx512 => unsafe { x86_avx512::output(us, them, w_us, w_them, qa) },
            _ => portable::output(us, them, w_us, w_them, qa),
        }
    }
}

/// Asks the processor to bring `item`'s cache line in (a hint: it never faults and changes
/// no result; a no-op off x86-64).
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch reads nothing architecturally and cannot fault; the address is
        // that of a live reference. SSE (which has it) is part of every x86-64 processor.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
