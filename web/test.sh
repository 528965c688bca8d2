#!/bin/sh
# Build the wasm package and run the Node test on it. SKIPS (exit 0, with a
# message) when no wasm toolchain or no Node is installed; see build.sh.
# Extra arguments go to the test (e.g. --no-bench).
set -u
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v node >/dev/null 2>&1; then
    echo "SKIP: node is not installed"
    exit 0
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
exec node "$here/test/node-test.mjs" "$@"
