#!/usr/bin/env bash
# The endgame-play suite (issue 46): the engine plays itself from every
# position of the suite, once with endgame tables on both sides and once
# with none, and the games are scored against the tables' verdicts: wins
# converted and draws held, each way.
#
#   scripts/endgame_suite.sh TABLES_DIR OUT_DIR [TC] [SUITE]
#
# TC is `jiangjun match --tc` (default 1+0.01; `nodes=2000` for a quick
# check that needs no quiet cores); SUITE defaults to
# tests/data/endgame_suite.epd. Every line is played twice (colours
# swapped, as `jiangjun match --openings` does); in self-play both games
# test the same side, and both are counted (see
# scripts/endgame_suite_summary.py). Environment: JIANGJUN (the binary,
# default target/release/jiangjun), CONCURRENCY (games at once, default 1:
# a timed run wants one quiet core per game), LINES (play only the first N
# lines, default all). Writes OUT_DIR/with-tables.pgn,
# OUT_DIR/without-tables.pgn, each match's summary (.txt) and
# OUT_DIR/summary.txt, and prints the summary. A stopped run resumes: run
# the same command again (`match --resume`).
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
tables=$1
out=$2
tc=${3:-1+0.01}
here=$(cd "$(dirname "$0")" && pwd)
suite=${4:-$here/../tests/data/endgame_suite.epd}
bin=${JIANGJUN:-target/release/jiangjun}
concurrency=${CONCURRENCY:-1}

[ -d "$tables" ] || { echo "no tables directory: $tables" >&2; exit 2; }
[ -f "$suite" ] || { echo "no suite: $suite" >&2; exit 2; }
command -v "$bin" >/dev/null || [ -x "$bin" ] || { echo "no binary: $bin" >&2; exit 2; }
mkdir -p "$out"

# The positions played: the suite's lines (blank and # lines are not
# positions), or the first LINES of them.
positions=$out/suite.epd
if [ -n "${LINES:-}" ]; then
    grep -v -e '^[[:space:]]*$' -e '^[[:space:]]*#' "$suite" | head -n "$LINES" > "$positions"
else
    cp "$suite" "$positions"
fi
n=$(grep -c -v -e '^[[:space:]]*$' -e '^[[:space:]]*#' "$positions")
games=$((2 * n))

play() {
    local name=$1
    shift
    "$bin" match \
        --engine "name=$name-A,cmd=$bin,proto=uci$*" \
        --engine "name=$name-B,cmd=$bin,proto=uci$*" \
        --openings "$positions" --games "$games" --tc "$tc" \
        --concurrency "$concurrency" --pgn "$out/$name.pgn" --resume --quiet \
        > "$out/$name.txt"
}

echo "suite: $n positions, $games games each way, tc $tc" >&2
play with-tables ",option.TablebasePath=$tables"
play without-tables ""
python3 "$here/endgame_suite_summary.py" "$positions" \
    "with tables=$out/with-tables.pgn" "without tables=$out/without-tables.pgn" \
    | tee "$out/summary.txt"
