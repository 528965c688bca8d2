//! The search recurses up to `MAX_PLY` deep; native search threads get a
//! 16 MB stack, and the wasm module's main stack (1 MB by default) must be
//! as deep.
//!
//! The threaded build (`+atomics`, see build.sh) imports a shared memory
//! that every search thread's instance uses: 64 MiB at first (the host
//! makes it so: `INITIAL_PAGES` in pkg/worker.mjs), at most 4 GiB. Each
//! helper thread's host sets its own stack pointer and thread-local block
//! (`__stack_pointer`, `__wasm_init_tls`, `__tls_size`, `__tls_align`).

fn main() {
    if std::env::var("CARGO_CFG_TARGET_FAMILY").as_deref() == Ok("wasm") {
        println!("cargo:rustc-link-arg-cdylib=-zstack-size=16777216");
        let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
        if features.split(',').any(|f| f == "atomics") {
            for arg in [
                "--shared-memory",
                "--import-memory",
                "--initial-memory=67108864",
                "--max-memory=4294967296",
                "--export=__wasm_init_tls",
                "--export=__tls_size",
                "--export=__tls_align",
                "--export=__stack_pointer",
            ] {
                println!("cargo:rustc-link-arg-cdylib={arg}");
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
