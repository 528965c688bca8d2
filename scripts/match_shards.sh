#!/usr/bin/env bash
# A match in shards on many cores or machines with GNU parallel: one
# `jiangjun match --shard K/N` per shard, each with its own PGN (and the
# match's settings beside it), then `jiangjun match merge` into the PGN and
# summary of the whole match. Each game gets the opening and colours the
# whole match gives it, so at fixed nodes the result is the whole match's.
#
#   scripts/match_shards.sh SHARDS OUT_DIR [match options...]
#
# The match options are those of one whole match (--engine twice, --games,
# --openings, --tc, --sprt, ...); do not give --pgn, --shard or --resume.
# Environment: JIANGJUN (the binary, default `jiangjun` on PATH), JOBS
# (shards at once on this machine, default 1; a shard's --concurrency games
# run at once inside it), HOSTS (GNU parallel's -S list, e.g. `4/node1,4/node2`;
# jiangjun, the engines and the openings file must be at the same paths on
# each host; default: this machine only). Writes OUT_DIR/shard-K.pgn (with
# .settings) and shard-K.txt (its summary) per shard, OUT_DIR/shards.joblog,
# OUT_DIR/match.pgn and OUT_DIR/summary.txt, and prints the summary.
# Run locally, a stopped run resumes: run the same command again.
#
# Example, 400 games in 4 shards, two at a time on this machine:
#   JOBS=2 scripts/match_shards.sh 4 /tmp/m --games 400 --tc nodes=20000 \
#       --openings openings.epd --engine name=new,cmd=./new,proto=uci \
#       --engine name=old,cmd=./old,proto=uci
set -euo pipefail
if [[ $# -lt 2 ]]; then
    sed -n '2,24p' "$0" >&2
    exit 2
fi
shards=$1 out=$2
shift 2
jj=${JIANGJUN:-jiangjun}
command -v parallel >/dev/null || { echo "match_shards: GNU parallel is not installed (apt-get install parallel)" >&2; exit 3; }
[[ $shards =~ ^[1-9][0-9]*$ ]] || { echo "match_shards: SHARDS '$shards' is not a positive number" >&2; exit 2; }
mkdir -p "$out"
# One shell command for every shard, each argument quoted: engine specs hold
# `|`, spaces and commas that the shell running the command must keep.
args=$(printf '%q ' "$@")
cmd="$(printf '%q' "$jj") match $args--shard {}/$shards --pgn shard-{}.pgn --quiet"
hosts=()
if [[ -n ${HOSTS:-} ]]; then
    # Remote shards: each host plays its shard and the files come back.
    hosts=(-S "$HOSTS" --return "shard-{}.pgn" --return "shard-{}.pgn.settings"
        --return "shard-{}.txt" --cleanup)
else
    # Local shards carry on from their PGN when the script is run again.
    cmd="$cmd --resume"
fi
# `--halt soon,fail=1`: a shard that fails (an engine that will not start,
# bad options) stops new shards from starting; the merge would refuse the gap.
(cd "$out" && parallel --will-cite -j "${JOBS:-1}" "${hosts[@]}" --halt soon,fail=1 \
    --joblog shards.joblog "$cmd > shard-{}.txt" ::: $(seq 1 "$shards"))
files=()
for k in $(seq 1 "$shards"); do files+=("$out/shard-$k.pgn"); done
"$jj" match merge --out "$out/match.pgn" "${files[@]}" > "$out/summary.txt"
cat "$out/summary.txt"
