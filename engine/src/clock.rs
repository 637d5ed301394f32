//! The clock the search reads, one name on every target.
//!
//! Natively [`Instant`] is `std::time::Instant` itself, so nothing changes there. On
//! `wasm32-unknown-unknown` the standard library has no clock (`Instant::now()` panics), so
//! the host injects one: the module imports `now_ms` from the import module `vorpal`, a
//! function returning milliseconds from any fixed origin that never go backwards (a page or
//! a Worker passes `() => performance.now()`), and `wall_ms`, the date's milliseconds since
//! 1970 (`() => Date.now()`, for the PGN's `Date` tag). There [`Instant`] is a small type of its own
//! with the operations the engine uses.

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub use host::Instant;

/// Seconds since 1970-01-01 UTC by the wall clock: the system's natively, the host's
/// `vorpal.wall_ms` import (`Date.now()`) on WebAssembly.
pub fn unix_seconds() -> u64 {
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    }
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    {
        (host::wall_ms() / 1000.0).max(0.0) as u64
    }
}

/// Some bits that differ from run to run (to vary a weakened engine's choices): the wall
/// clock natively, the host's clock on WebAssembly.
pub fn entropy() -> u64 {
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    }
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    {
        host::now_ms().to_bits()
    }
}

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
mod host {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    #[link(wasm_import_module = "vorpal")]
    extern "C" {
        /// The host's clock in milliseconds (`performance.now()`).
        #[link_name = "now_ms"]
        fn host_now_ms() -> f64;
        /// The host's wall clock in milliseconds since 1970 (`Date.now()`).
        #[link_name = "wall_ms"]
        fn host_wall_ms() -> f64;
    }

    /// A host's reading, 0 when it is not a finite number.
    fn finite(ms: f64) -> f64 {
        if ms.is_finite() {
            ms
        } else {
            0.0
        }
    }

    /// The host's wall clock in milliseconds since 1970.
    #[allow(unsafe_code)]
    pub(super) fn wall_ms() -> f64 {
        // SAFETY: as for `now_ms`: a host function without arguments returning an f64.
        finite(unsafe { host_wall_ms() })
    }

    /// The host's clock in milliseconds.
    #[allow(unsafe_code)]
    pub(super) fn now_ms() -> f64 {
        // SAFETY: `now_ms` is a host function without arguments that returns an f64; calling
        // an imported function is unsafe only because Rust cannot see its body. Any value is
        // accepted (a non-finite one reads as 0).
        finite(unsafe { host_now_ms() })
    }

    /// A moment of the host's clock, in milliseconds.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            Instant(now_ms())
        }

        /// Time from `earlier` to this moment (zero when `earlier` is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }

        /// The same as [`Instant::duration_since`], which saturates already (std's name).
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }

        /// Time since this moment.
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        /// This moment moved back by `d` (always representable here).
        pub fn checked_sub(&self, d: Duration) -> Option<Instant> {
            Some(Instant(self.0 - d.as_secs_f64() * 1000.0))
        }

        /// This moment moved on by `d` (always representable here).
        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            Some(Instant(self.0 + d.as_secs_f64() * 1000.0))
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }
}
