#!/bin/sh
# Cargo runner for Windows test binaries under Wine: the whole test suite,
# built for Windows, run here.
#
#   scripts/windows-build.sh   # once: the Wine prefix and the stand-in DLL
#   CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc \
#   CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=tests/windows/wine-runner.sh \
#       cargo test --target x86_64-pc-windows-gnu
#
# Puts the test-only bcryptprimitives.dll (see bcryptprimitives.c) beside the
# test binary and beside the jiangjun.exe the tests start, then runs the
# binary in windows-build.sh's prefix. Slow (pipes through Wine): the whole
# suite took 12 minutes here.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
test=$root/target/windows-test
dll=$test/bin/bcryptprimitives.dll
if [ ! -f "$dll" ] || [ ! -f "$test/wineprefix/system.reg" ]; then
    echo "wine-runner: run scripts/windows-build.sh first (no $dll or Wine prefix)" >&2
    exit 2
fi
dir=$(dirname "$1")
for d in "$dir" "$dir/.."; do
    [ -f "$d/bcryptprimitives.dll" ] || cp "$dll" "$d/"
done
export WINEPREFIX="$test/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES=bcryptprimitives=n,b
exec /usr/lib/wine/wine64 "$@"
