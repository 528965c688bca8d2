#!/bin/sh
# Build the wasm package and run the Node test on it, then the page's test
# in headless Chromium (test/browser.sh; it needs the native binary:
# target/release/jiangjun, or the one JIANGJUN_BIN names).
# SKIPS (exit 0, with a message) when no wasm toolchain or no Node is
# installed; see build.sh.
#
#   web/test.sh [--install] [NODE TEST ARGS, e.g. --no-bench]
#
# --install: without rustup's wasm32 target, add it (rustup target add); if
# that fails and Debian's packages are missing too, install those (rustc-web
# cargo-web rust-web-src lld, as root or through sudo) first, and let
# test/browser.sh install Chromium and puppeteer-core; exits 3 if they cannot
# be installed. With rustup it also adds rust-src, which the threaded module
# (web/pkg/jiangjun-threads.wasm) is built from, and then requires that
# module: the tests of Threads 2 must run (JJ_WEB_THREADS=1). Without
# --install they run if it was built, and are skipped, saying so, if not.
#
# The browser test prints `threads 1: X nps`, `threads 2: X nps` (Chromium)
# and `native threads 1: X nps`, `native threads 2: X nps` for the same
# search (`go movetime 3000` from the start position, no book;
# JJ_WEB_NPS_MS sets the time).
set -u
here=$(cd "$(dirname "$0")" && pwd)
install=no
if [ "${1:-}" = "--install" ]; then
    install=yes
    shift
fi
if ! command -v node >/dev/null 2>&1; then
    echo "SKIP: node is not installed"
    exit 0
fi
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}
# rustup's prebuilt std first (seconds to fetch, as scripts/windows-build.sh
# fetches its target); Debian's packages build std from source, some minutes
# more on two cores.
if [ "$install" = yes ] && command -v rustup >/dev/null 2>&1 \
    && ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo "web/test.sh: adding rustup's wasm32-unknown-unknown target" >&2
    rustup target add wasm32-unknown-unknown >/dev/null 2>&1 \
        || echo "web/test.sh: rustup could not add the target; trying Debian's packages" >&2
fi
if [ "$install" = yes ] && command -v rustup >/dev/null 2>&1 \
    && ! rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
    echo "web/test.sh: adding rustup's rust-src component (for the threaded module)" >&2
    rustup component add rust-src >/dev/null 2>&1 \
        || echo "web/test.sh: rustup could not add rust-src" >&2
fi
if [ "$install" = yes ] \
    && ! { rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
        && rustup component list --installed 2>/dev/null | grep -q '^rust-src'; } \
    && ! { [ -x /usr/bin/rustc ] && [ -d /usr/lib/rustlib/src/rust/library ] \
        && command -v wasm-ld >/dev/null 2>&1; }; then
    echo "web/test.sh: installing rustc-web cargo-web rust-web-src lld" >&2
    if ! { as_root apt-get update -qq \
        && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            rustc-web cargo-web rust-web-src lld >/dev/null; }; then
        echo "web/test.sh: could not install rustc-web cargo-web rust-web-src lld" >&2
        exit 3
    fi
fi
"$here/build.sh"
rc=$?
if [ "$rc" -eq 2 ]; then
    echo "SKIP: no wasm32-unknown-unknown toolchain"
    exit 0
elif [ "$rc" -ne 0 ]; then
    echo "FAIL: web/build.sh exited $rc"
    exit "$rc"
fi
if [ "$install" = yes ]; then
    if [ ! -f "$here/pkg/jiangjun-threads.wasm" ]; then
        echo "FAIL: web/pkg/jiangjun-threads.wasm was not built (see web/build.sh's output)"
        exit 1
    fi
    export JJ_WEB_THREADS=1
fi
node "$here/test/node-test.mjs" "$@" || exit 1
if [ "$install" = yes ]; then
    "$here/test/browser.sh" --install
else
    "$here/test/browser.sh"
fi
rc=$?
if [ "$rc" -eq 3 ]; then
    echo "SKIPPED: the browser test (Chromium or puppeteer-core could not be installed)"
fi
exit "$rc"
