//! The functions the host supplies: imported in the wasm build, stood in
//! for natively.

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
mod imports {
    #[link(wasm_import_module = "env")]
    unsafe extern "C" {
        pub fn jj_write(ptr: *const u8, len: usize);
        pub fn jj_now() -> f64;
        pub fn jj_poll(block_ms: u32) -> u32;
    }
    #[cfg(target_feature = "atomics")]
    #[link(wasm_import_module = "env")]
    unsafe extern "C" {
        pub fn jj_spawn(slot: usize, state: usize, region: usize, len: usize) -> i32;
    }
}

/// Ask the host to start a thread on `len` bytes at `region` (its stack and
/// thread-local block) that calls `jj_thread_start(slot)`, and sets the
/// i32 at `state` when it cannot or when the thread has returned. 0 if the
/// host took the request.
#[cfg(all(
    target_family = "wasm",
    target_os = "unknown",
    target_feature = "atomics"
))]
pub fn spawn(slot: usize, state: usize, region: usize, len: usize) -> i32 {
    // SAFETY: plain integers; the host only keeps them to start the thread.
    unsafe { imports::jj_spawn(slot, state, region, len) }
}

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub fn write(line: &[u8]) {
    // SAFETY: the host copies `len` bytes from `ptr` before returning and
    // keeps no reference; the slice is valid for the whole call.
    unsafe { imports::jj_write(line.as_ptr(), line.len()) }
}

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub fn poll(block_ms: u32) -> u32 {
    // SAFETY: takes and returns plain integers; no memory is shared.
    unsafe { imports::jj_poll(block_ms) }
}

/// The engine reads its clock from the host (std has none on this target).
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub fn install_clock() {
    fn now() -> f64 {
        // SAFETY: takes nothing and returns a number; no memory is shared.
        unsafe { imports::jj_now() }
    }
    jiangjun_engine::set_time_source(now);
}

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub fn write(line: &[u8]) {
    println!("{}", String::from_utf8_lossy(line));
}

/// Natively nothing is ever sent during a search.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub fn poll(_block_ms: u32) -> u32 {
    0
}

/// Natively the engine has std's clock.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub fn install_clock() {}
