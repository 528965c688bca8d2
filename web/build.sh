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

# The threaded module, web/pkg/jiangjun-threads.wasm (Lazy SMP on Web
# Workers over shared memory, see docs/web.md): atomics need std built from
# source with them (-Zbuild-std, RUSTC_BOOTSTRAP=1), from rustup's rust-src
# component (rustup component add rust-src) or Debian's rust-web-src. Without
# either, only the one-thread module is built, and this says so.
threads_out="$root/target/wasm-threads"
threads_flags="${RUSTFLAGS:-} -C target-feature=+atomics,+bulk-memory,+mutable-globals,+simd128"
rm -f "$root/web/pkg/jiangjun-threads.wasm"
if command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx "$target" \
    && rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
    echo "building the threaded module with rustup's rust-src and -Zbuild-std" >&2
    RUSTC_BOOTSTRAP=1 RUSTFLAGS="$threads_flags" cargo build --release -p jiangjun-web \
        --target "$target" -Zbuild-std=std,panic_abort --target-dir "$threads_out" \
        --manifest-path "$root/Cargo.toml"
elif [ -x /usr/bin/rustc ] && [ -x /usr/bin/cargo ] && [ -d /usr/lib/rustlib/src/rust/library ] \
    && command -v wasm-ld >/dev/null 2>&1; then
    echo "building the threaded module with /usr/bin/rustc and -Zbuild-std" >&2
    RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 RUSTFLAGS="$threads_flags" \
        CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld \
        /usr/bin/cargo build --release -p jiangjun-web --target "$target" \
        -Zbuild-std=std,panic_abort --target-dir "$threads_out" --manifest-path "$root/Cargo.toml"
else
    echo "NOT building the threaded module: no std sources (rustup component add rust-src," >&2
    echo "or Debian's rust-web-src); the engine will search on one thread" >&2
    false
fi && cp "$threads_out/$target/release/jiangjun_web.wasm" "$root/web/pkg/jiangjun-threads.wasm" \
    && echo "web/pkg/jiangjun-threads.wasm: $(wc -c <"$root/web/pkg/jiangjun-threads.wasm") bytes" >&2 \
    || echo "web/pkg/jiangjun-threads.wasm: not built; the page and package fall back to one thread" >&2

# The endgame tables the page ships (docs/web.md): one attacker (rook, horse,
# cannon or pawn) against a king with any advisors and elephants, and the
# smaller tables their captures lead to, built by the native binary
# (JIANGJUN_BIN, else target/debug/jiangjun, built here) into web/pkg/tb;
# tables already there are kept. Then their list, tables.json, which names
# every .jtb there (so tables added by hand are offered too). The page
# fetches a table only when a game reaches it. JJ_WEB_TABLES=0 skips this.
if [ "${JJ_WEB_TABLES:-1}" != 0 ]; then
    tb="$root/web/pkg/tb"
    set --
    for attacker in R N C P; do
        for defence in "" A AA B BB AB AAB ABB AABB; do
            set -- "$@" "K${attacker}vK$defence"
        done
    done
    bin="${JIANGJUN_BIN:-}"
    if [ -z "$bin" ]; then
        cargo build -p jiangjun --bin jiangjun --manifest-path "$root/Cargo.toml"
        bin="$root/target/debug/jiangjun"
    fi
    "$bin" tb gen --out "$tb" "$@" >&2
    total=0
    gz=0
    list=""
    for file in "$tb"/*.jtb; do
        name=$(basename "$file" .jtb)
        bytes=$(wc -c <"$file")
        total=$((total + bytes))
        # What a server that compresses would send: each file gzipped.
        gz=$((gz + $(gzip -9 -c "$file" | wc -c)))
        list="$list${list:+,}
    \"$name\": $bytes"
    done
    printf '{\n  "bytes": %s,\n  "tables": {%s\n  }\n}\n' "$total" "$list" >"$tb/tables.json"
    echo "web/pkg/tb: $(ls "$tb"/*.jtb | wc -l) tables, $total bytes ($gz bytes gzipped)" >&2
fi
