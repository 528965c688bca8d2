#!/usr/bin/env bash
# Speed of two networks, one session, alternating runs: `jiangjun bench`
# nodes per second, and the time and nodes to a fixed depth from the start
# position (one thread, no book). The trees of two nets differ, so the
# depth figures compare whole searches, not the evaluations alone.
#
# Usage (from the project root):
#   scripts/net_speed.sh NET_A NET_B [RUNS] [DEPTH]
#   scripts/net_speed.sh '<built-in>' /path/to/candidate.nnue 5 16
#
# A NET is what `EvalFile` takes: a network file, `<built-in>` or `none`.
# JJ names the binary (default target/release/jiangjun). Prints one line a
# run and a median per net; run it on quiet cores (pause background jobs).
set -euo pipefail

JJ=${JJ:-target/release/jiangjun}
[ $# -ge 2 ] || { sed -n '2,14p' "$0" >&2; exit 2; }
NETS=("$1" "$2")
RUNS=${3:-5}
DEPTH=${4:-16}
[ -x "$JJ" ] || { echo "no binary at $JJ (cargo build --release)" >&2; exit 2; }

# `jiangjun bench`'s nodes per second with NET.
bench_nps() {
    "$JJ" bench --evalfile "$1" 2>&1 | awk '/[Nn]odes\/second|nps/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) v = $i } END { print v }'
}

# "TIME_MS NODES" of the search to DEPTH from the start position with NET.
to_depth() {
    {
        printf 'uci\nsetoption name EvalFile value %s\nsetoption name OwnBook value false\n' "$1"
        printf 'setoption name Threads value 1\nisready\nposition startpos\ngo depth %s\n' "$DEPTH"
        # Wait for the answer before quitting.
        sleep 0.2
        while [ ! -s "$tmp/done" ]; do sleep 0.1; done
        echo quit
    } | "$JJ" | tee "$tmp/out" | { grep -m1 '^bestmove' >/dev/null; echo 1 > "$tmp/done"; cat >/dev/null; }
    rm -f "$tmp/done"
    awk -v d="$DEPTH" '$1 == "info" && $2 == "depth" && $3 == d {
        for (i = 1; i < NF; i++) { if ($i == "time") t = $(i + 1); if ($i == "nodes") n = $(i + 1) }
    } END { print t, n }' "$tmp/out"
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for run in $(seq "$RUNS"); do
    for k in 0 1; do
        net=${NETS[$k]}
        nps=$(bench_nps "$net")
        read -r ms nodes < <(to_depth "$net")
        echo "run $run  net $k ($net)  bench nps $nps  depth $DEPTH: $ms ms, $nodes nodes"
        echo "$nps" >> "$tmp/nps$k"
        echo "$ms" >> "$tmp/ms$k"
        echo "$nodes" >> "$tmp/nodes$k"
    done
done
for k in 0 1; do
    echo "median net $k (${NETS[$k]}): bench nps $(median < "$tmp/nps$k"), depth $DEPTH $(median < "$tmp/ms$k") ms, $(median < "$tmp/nodes$k") nodes"
done
