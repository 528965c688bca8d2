#!/usr/bin/env bash
# Windows build, tested under Wine: cross-compiles jiangjun.exe for
# x86_64-pc-windows-gnu and checks it against the native binary.
#
#   scripts/windows-build.sh [NATIVE]
#
# NATIVE defaults to target/release/jiangjun (brought up to date first).
# Installs what it needs when missing (as root, or through sudo): rustup's
# x86_64-pc-windows-gnu target, or else Debian's rustc-web + rust-web-src
# (std built from source with -Zbuild-std, as web/build.sh does for wasm);
# gcc-mingw-w64-x86-64 (the linker) and wine64. Then, in target/windows-test/
# (its own WINEPREFIX, set up once with `wineboot -i`):
#   - builds bcryptprimitives.dll from tests/windows/bcryptprimitives.c, a
#     test-only stand-in Wine 8.0 needs to start a binary of today's Rust
#     (it lacks ProcessPrng); it sits beside the test copy of the .exe and is
#     never part of a release;
#   - `bench`: the node count must equal the native binary's; both speeds and
#     the NNUE kernel each picked are printed;
#   - a UCCI and a UCI session (tests/windows/sessions.py) must answer as the
#     native binary does;
#   - with the wine server stopped, a `go` must still be read and answered
#     in time (tests/windows/server_stall.py: reads and writes of the
#     engine's pipes must not wait for the server);
#   - a fixed-node match, Windows (UCCI) against native (UCI), must end with
#     no illegal move, crash, hang or time loss;
#   - a path in a Chinese GUI's own encoding: with Wine's locale Chinese
#     (zh_CN, ANSI code page 936), `BOOK.DAT` in a folder named 象棋 书库,
#     the path sent as GBK bytes, must load in both dialects (needs
#     ../shared's BOOK.DAT, and glibc's locale sources to build zh_CN);
#   - tests/gui_conversations.rs, if present, runs with the Windows engine
#     (JIANGJUN_TEST_ENGINE=target/windows-test/jiangjun-wine, a wrapper
#     that runs the .exe under Wine).
# WINDOWS_TOOLCHAIN=debian takes the Debian route even where rustup is there
# (to test it; its build takes about 4 minutes more). Prints the time taken. Exit status 0 if all is well, 1 if a check fails, 2
# for a bad setup or a failed build, 3 when the packages cannot be installed
# (no root, no network): .ci/run then says SKIPPED.
set -euo pipefail

start=$SECONDS
root=$(cd "$(dirname "$0")/.." && pwd)
native=$(realpath -m "${1:-$root/target/release/jiangjun}")
cd "$root"
target=x86_64-pc-windows-gnu
out=$root/target/windows-test
wine=/usr/lib/wine/wine64
say() { echo "windows-build: $*" >&2; }
as_root() {
    if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo -n "$@"; fi
}

# --- What it needs --------------------------------------------------------
toolchain=""
if [[ ${WINDOWS_TOOLCHAIN:-} == debian ]]; then
    : # asked for the fallback (to test it): Debian's rustc and -Zbuild-std
elif command -v rustup >/dev/null && rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    toolchain=rustup
elif command -v rustup >/dev/null && rustup target add "$target" >/dev/null 2>&1; then
    toolchain=rustup
fi
packages=()
command -v x86_64-w64-mingw32-gcc >/dev/null || packages+=(gcc-mingw-w64-x86-64)
[[ -x $wine ]] || packages+=(wine64)
# The Chinese locale Wine takes its code page from, built from these.
[[ -f /usr/share/i18n/locales/zh_CN ]] && command -v localedef >/dev/null || packages+=(locales)
if [[ -z $toolchain ]] && ! [[ -x /usr/bin/rustc && -d /usr/lib/rustlib/src/rust/library ]]; then
    packages+=(rustc-web cargo-web rust-web-src)
fi
if ((${#packages[@]})); then
    say "installing ${packages[*]}"
    if ! { as_root apt-get update -qq \
        && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "${packages[@]}" >/dev/null; }; then
        say "could not install ${packages[*]}"
        exit 3
    fi
fi
[[ -n $toolchain ]] || toolchain=debian
command -v python3 >/dev/null || { say "python3 is needed for the sessions"; exit 2; }
say "setup took $((SECONDS - start)) s (toolchain: $toolchain)"
checks_start=$SECONDS

# --- The build ------------------------------------------------------------
# The project's own native binary is brought up to date (a no-op when it
# is): the sessions compare `id name`, which names the commit built.
if [[ $native == "$root/target/release/jiangjun" ]]; then
    cargo build --release --quiet -p jiangjun || exit 2
fi
[[ -x $native ]] || { say "no native binary at $native"; exit 2; }
build_start=$SECONDS
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
if [[ $toolchain == rustup ]]; then
    exe_dir=$root/target/$target/release
    cargo build --release --quiet -p jiangjun --target "$target" || exit 2
else
    # Debian's rustc has no prebuilt std for the target: build it from source.
    exe_dir=$root/target/windows-std/$target/release
    RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 /usr/bin/cargo build --release --quiet -p jiangjun \
        --target "$target" -Zbuild-std=std,panic_abort --target-dir "$root/target/windows-std" || exit 2
fi
say "jiangjun.exe built in $((SECONDS - build_start)) s"

bin=$out/bin
mkdir -p "$bin"
cp "$exe_dir/jiangjun.exe" "$bin/"
x86_64-w64-mingw32-gcc -shared -O2 -o "$bin/bcryptprimitives.dll" \
    tests/windows/bcryptprimitives.c -ladvapi32 || exit 2

export WINEPREFIX=$out/wineprefix WINEDEBUG=-all WINEARCH=win64
# Our stand-in before Wine's own bcryptprimitives (which lacks ProcessPrng).
export WINEDLLOVERRIDES="bcryptprimitives=n,b"
if [[ ! -f $WINEPREFIX/system.reg ]]; then
    say "creating the Wine prefix"
    # Its status is not the test: without Wine's 32-bit half (not needed
    # here) it reports a failure, yet the prefix is made.
    "$wine" wineboot -i </dev/null >"$out/wineboot.txt" 2>&1 || true
    /usr/lib/wine/wineserver -w </dev/null >/dev/null 2>&1 || true
    [[ -f $WINEPREFIX/system.reg ]] || { say "wineboot -i made no prefix (see $out/wineboot.txt)"; exit 2; }
fi
# One wine server for the whole run (each engine start is then quick),
# stopped on the way out so that nothing outlives the script. It and Wine's
# helper processes (services.exe and the like, started with the first
# program) keep the descriptors they were started with: given the script's
# stdout, they would hold its pipe open, and `$(...)` or `| tail` would wait
# for them for ever. So they get /dev/null, and output goes to files.
/usr/lib/wine/wineserver -p </dev/null >/dev/null 2>&1
trap '/usr/lib/wine/wineserver -k </dev/null >/dev/null 2>&1 || true' EXIT
"$wine" wineboot </dev/null >/dev/null 2>&1 || true
wrapper=$out/jiangjun-wine
cat >"$wrapper" <<EOF
#!/bin/sh
# jiangjun.exe under Wine, for tests (written by scripts/windows-build.sh).
export WINEPREFIX='$WINEPREFIX' WINEDEBUG=-all WINEARCH=win64 WINEDLLOVERRIDES='$WINEDLLOVERRIDES'
exec '$wine' '$bin/jiangjun.exe' "\$@"
EOF
chmod +x "$wrapper"

failed=0
fail() { say "FAILED: $*"; failed=1; }

# --- bench: the same search, and the speed and kernel of each ---------------
bench() { # prints "nodes nps kernel"
    local text
    "$@" bench </dev/null >"$out/bench.txt" 2>&1 || { echo "error"; return; }
    text=$(<"$out/bench.txt")
    local nodes nps kernel
    nodes=$(sed -n 's/^Nodes searched *: *//p' <<<"$text")
    nps=$(sed -n 's/^Nodes\/second *: *//p' <<<"$text")
    kernel=$(sed -n 's/^NNUE kernel: *//p' <<<"$text")
    echo "${nodes:-?} ${nps:-?} ${kernel:-none}"
}
read -r n_nodes n_nps n_kernel < <(bench "$native")
read -r w_nodes w_nps w_kernel < <(bench "$wrapper")
echo "bench native:  nodes $n_nodes  nps $n_nps  kernel $n_kernel"
echo "bench windows: nodes $w_nodes  nps $w_nps  kernel $w_kernel (under Wine)"
if [[ $w_nodes != "$n_nodes" || $n_nodes == "?" ]]; then
    fail "bench node counts differ ($w_nodes under Wine, $n_nodes natively)"
elif [[ $n_nps =~ ^[0-9]+$ && $w_nps =~ ^[0-9]+$ ]]; then
    echo "bench: same node count; Wine runs at $((100 * w_nps / n_nps))% of the native speed"
fi

# --- UCCI and UCI sessions --------------------------------------------------
python3 tests/windows/sessions.py "$native" "$wrapper" "$native" || fail "the sessions differ"

# --- No wait for the wine server on the way in or out -----------------------
# The server stopped, the engine must still read a `go` and answer it.
python3 tests/windows/server_stall.py "$wrapper" || fail "the engine waited for the wine server"

# --- A fixed-node match: Windows (UCCI) against native (UCI) ---------------
openings=()
if [[ -f ../shared/data/openings/openings.epd ]]; then
    openings=(--openings ../shared/data/openings/openings.epd)
fi
rm -f "$out/match.pgn"
match_log=$out/match.txt
if "$native" match --quiet --games 4 --tc nodes=20000 "${openings[@]}" \
    --engine "name=windows,cmd=$wrapper,proto=ucci" \
    --engine "name=native,cmd=$native,proto=uci" \
    --pgn "$out/match.pgn" >"$match_log" 2>&1; then
    sed -n '1,2p;/^Game endings/p' "$match_log"
    endings=$(sed -n 's/^Game endings: *//p' "$match_log")
    # Every ending must be one the rules make (or a resignation, which a UCCI
    # engine may send), none an engine's failure.
    bad=$(tr ';' '\n' <<<"$endings" | sed 's/^ *//; s/: [0-9]*$//' | grep -v '^$' \
        | grep -vxE 'checkmate|stalemate|perpetual check|perpetual chase|repetition|natural move limit|insufficient material|plies|resigns' || true)
    games=$(grep -c '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$out/match.pgn" || true)
    [[ -z $bad ]] || fail "match endings: $bad (see $match_log, $out/match.pgn)"
    [[ $games == 4 ]] || fail "match: $games of 4 games finished (see $match_log)"
else
    fail "the match did not run (see $match_log)"
    tail -5 "$match_log" >&2
fi

# --- A path in the GUI's own encoding ---------------------------------------
# A Chinese GUI on Windows writes paths in the ANSI code page, 936 (GBK), not
# UTF-8. Wine takes its code page from the Unix locale: zh_CN.UTF-8 (built
# here into target/windows-test/locale, no root needed) gives ACP 936, and
# Unix file names in UTF-8. The engine must read the GBK line in code page
# 936 and find the folder 象棋 书库 through the wide-character API.
gbk_book() {
    local book=../shared/data/books/BOOK.DAT
    if [[ ! -f $book ]]; then
        say "SKIPPED: the GBK path check needs $book"
        return
    fi
    local locales=$out/locale
    if [[ ! -d $locales/zh_CN.UTF-8 ]]; then
        mkdir -p "$locales"
        localedef -i zh_CN -f UTF-8 "$locales/zh_CN.UTF-8" >"$out/localedef.txt" 2>&1 \
            || { fail "localedef could not build zh_CN.UTF-8 (see $out/localedef.txt)"; return; }
    fi
    local folder="$out/gbk/象棋 书库"
    mkdir -p "$folder"
    cp "$book" "$folder/BOOK.DAT"
    # Wine's Z: drive is the Unix root.
    local windows_path="Z:${folder//\//\\}\\BOOK.DAT"
    local dialect setopt go listed
    for dialect in uci ucci; do
        if [[ $dialect == uci ]]; then
            setopt="setoption name BookFile value" go="go wtime 60000 btime 60000"
        else
            setopt="setoption bookfiles" go="go time 60000 increment 0"
        fi
        # The lines as such a GUI writes them: GBK bytes.
        python3 -c 'import sys; sys.stdout.buffer.write(sys.argv[1].encode("gbk"))' \
            "$dialect"$'\n'"$setopt $windows_path"$'\n'"position startpos"$'\n'"$go"$'\n' \
            >"$out/gbk-$dialect-in.txt"
        LOCPATH=$locales LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 timeout 300 "$wrapper" \
            <"$out/gbk-$dialect-in.txt" >"$out/gbk-$dialect-out.txt" 2>/dev/null || true
        tr -d '\r' <"$out/gbk-$dialect-out.txt" | grep -v '^option \|^id ' >"$out/gbk-$dialect.txt" || true
        echo "GBK path, $dialect:"
        sed 's/^/    /' "$out/gbk-$dialect.txt"
        # ElephantEye's BOOK.DAT has 16 moves for the start position (the
        # built-in book, which a failed load keeps, has fewer).
        listed=$(grep -c '^info string book move \|^info depth 0 score .* pv ' "$out/gbk-$dialect.txt" || true)
        if grep -q 'error' "$out/gbk-$dialect.txt" || [[ $listed != 16 ]] \
            || ! grep -q '^bestmove ' "$out/gbk-$dialect.txt"; then
            fail "the book in a GBK-named folder did not load in $dialect ($listed book moves listed; see $out/gbk-$dialect.txt)"
        fi
    done
}
gbk_book

# --- The GUI conversations, with the Windows engine -------------------------
# The test drives the engine JIANGJUN_TEST_ENGINE names, so the profile it
# is built in does not matter: the dev one, which .ci/run's `cargo test` has
# already built (a release build of the tests would take some 3 minutes).
if [[ -f tests/gui_conversations.rs ]]; then
    JIANGJUN_TEST_ENGINE=$wrapper cargo test --quiet --test gui_conversations \
        || fail "tests/gui_conversations.rs with the Windows engine"
else
    say "no tests/gui_conversations.rs: its Windows run is left out"
fi

say "the build and checks took $((SECONDS - checks_start)) s after the setup; $((SECONDS - start)) s in all"
if ((failed)); then
    say "some checks FAILED"
    exit 1
fi
say "all checks passed"
