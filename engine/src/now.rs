//! The clock the search reads. Native builds use `std::time::Instant`; a
//! `wasm32-unknown-unknown` build has no clock of its own (std's `Instant::now`
//! panics there), so the host supplies one with `set_source`.

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub(crate) use std::time::Instant;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub(crate) use host::Instant;
// The host's way in (`crate::set_time_source`).
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub use host::set_source;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
mod host {
    use std::ops::Sub;
    use std::sync::OnceLock;
    use std::time::Duration;

    /// Milliseconds from a fixed origin, never decreasing (`performance.now()`).
    static SOURCE: OnceLock<fn() -> f64> = OnceLock::new();

    /// Read the time from `source` from now on (the first call wins). Until
    /// then the clock stands still at 0: searches are bounded by depth and
    /// nodes only.
    pub fn set_source(source: fn() -> f64) {
        let _ = SOURCE.set(source);
    }

    /// A point in time, in milliseconds on the host's clock.
    /// `default()` is the clock's origin.
    #[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
    pub(crate) struct Instant(f64);

    impl Instant {
        pub(crate) fn now() -> Instant {
            Instant(SOURCE.get().map_or(0.0, |f| f()))
        }

        pub(crate) fn duration_since(&self, earlier: Instant) -> Duration {
            // A host clock that steps back is read as no time passing.
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }

        pub(crate) fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }
    }

    impl Sub<Duration> for Instant {
        type Output = Instant;
        fn sub(self, d: Duration) -> Instant {
            Instant(self.0 - d.as_secs_f64() * 1000.0)
        }
    }
}
