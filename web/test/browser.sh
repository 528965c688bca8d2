#!/bin/sh
# The page's test in a real browser: Debian's headless Chromium driven by
# puppeteer-core (web/test/browser-test.mjs). Needs web/pkg/jiangjun.wasm
# (web/build.sh) and the native binary: target/release/jiangjun (cargo build
# --release), or the one JIANGJUN_BIN names.
#
#   web/test/browser.sh [--install]
#
# --install: install what is missing first: chromium and a font with
# Chinese characters (fonts-wqy-zenhei) from apt, as root or through sudo,
# and puppeteer-core (the version in web/test/package.json) from npm into
# target/web-test/npm, never globally. Exits 3 when they cannot be installed
# (no root, no network), so the caller can skip the test loudly.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
npm_dir="$root/target/web-test/npm"
install=no
[ "${1:-}" = "--install" ] && install=yes

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}
want=$(sed -n 's/.*"puppeteer-core": "\([^"]*\)".*/\1/p' "$here/package.json")
have=$(sed -n 's/^  "version": "\([^"]*\)".*/\1/p' "$npm_dir/node_modules/puppeteer-core/package.json" 2>/dev/null)

if [ "$install" = yes ]; then
    if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi wqy; then
        echo "web/test/browser.sh: installing chromium fonts-wqy-zenhei" >&2
        if ! { as_root apt-get update -qq \
            && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
                --no-install-recommends chromium fonts-wqy-zenhei >/dev/null; }; then
            echo "web/test/browser.sh: could not install chromium" >&2
            exit 3
        fi
    fi
    if [ "$have" != "$want" ]; then
        echo "web/test/browser.sh: installing puppeteer-core $want into $npm_dir" >&2
        mkdir -p "$npm_dir"
        cp "$here/package.json" "$npm_dir/package.json"
        if ! PUPPETEER_SKIP_DOWNLOAD=1 npm install --prefix "$npm_dir" --no-audit --no-fund \
            --loglevel=error >/dev/null; then
            echo "web/test/browser.sh: could not install puppeteer-core" >&2
            exit 3
        fi
    fi
fi
if [ ! -x /usr/bin/chromium ] || [ ! -d "$npm_dir/node_modules/puppeteer-core" ]; then
    echo "web/test/browser.sh: chromium or puppeteer-core is missing (run with --install)" >&2
    exit 3
fi
exec node "$here/browser-test.mjs"
