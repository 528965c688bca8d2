#!/bin/sh
# Build web/pkg/jiangjun.wasm, the engine as a wasm32-unknown-unknown module.
#
# With rustup:  rustup target add wasm32-unknown-unknown && web/build.sh
# With Debian's packages (no rustup target needed):
#   apt-get install -y rustc-web cargo-web rust-web-src lld && web/build.sh
# The Debian rustc has no prebuilt std for the target, so std is built from
# source (-Zbuild-std, allowed by RUSTC_BOOTSTRAP=1) and linked by wasm-ld.
#
# Exits 2, saying why, when neither toolchain is there.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
target=wasm32-unknown-unknown
out="$root/target/wasm"
# wasm SIMD (Node 16.4+, every current browser): the NNUE loops vectorise.
flags="${RUSTFLAGS:-} -C target-feature=+simd128"

if command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    echo "building with rustup's $target target" >&2
    RUSTFLAGS="$flags" cargo build --release -p jiangjun-web --target "$target" \
        --target-dir "$out" --manifest-path "$root/Cargo.toml"
elif [ -x /usr/bin/rustc ] && [ -x /usr/bin/cargo ] && [ -d /usr/lib/rustlib/src/rust/library ] \
    && command -v wasm-ld >/dev/null 2>&1; then
    echo "building with /usr/bin/rustc $(/usr/bin/rustc --version | cut -d' ' -f2) and -Zbuild-std" >&2
    RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 RUSTFLAGS="$flags" \
        CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld \
        /usr/bin/cargo build --release -p jiangjun-web --target "$target" \
        -Zbuild-std=std,panic_abort --target-dir "$out" --manifest-path "$root/Cargo.toml"
else
    echo "no wasm toolchain: run 'rustup target add $target', or install Debian's" >&2
    echo "rustc-web cargo-web rust-web-src lld" >&2
    exit 2
fi
cp "$out/$target/release/jiangjun_web.wasm" "$root/web/pkg/jiangjun.wasm"
echo "web/pkg/jiangjun.wasm: $(wc -c <"$root/web/pkg/jiangjun.wasm") bytes" >&2
