//! The search recurses up to `MAX_PLY` deep; native search threads get a
//! 16 MB stack, and the wasm module's single stack (1 MB by default) must
//! be as deep.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_FAMILY").as_deref() == Ok("wasm") {
        println!("cargo:rustc-link-arg-cdylib=-zstack-size=16777216");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
