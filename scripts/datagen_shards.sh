#!/usr/bin/env bash
# Training-data shards on many cores or machines with GNU parallel: one
# `jiangjun datagen` run per seed, each a file of its own, then one file of
# them all. Datagen is deterministic for a seed (whatever the thread count),
# so a lost shard is rebuilt byte for byte by running its seed again, and
# JJDATA files concatenate with `cat` (the reader skips the header chunks).
#
#   scripts/datagen_shards.sh FIRST_SEED LAST_SEED OUT_DIR [datagen options...]
#
# Environment: JIANGJUN (the binary, default `jiangjun` on PATH), JOBS
# (shards at once on this machine, default 1: each shard uses --threads),
# HOSTS (GNU parallel's -S list, e.g. `8/node1,8/node2`, with jiangjun
# installed on each; default: this machine only). Writes OUT_DIR/shard-SEED.jjdata,
# OUT_DIR/shards.joblog (each shard's exact command, exit status and time)
# and OUT_DIR/all.jjdata (the shards in seed order).
#
# Example, ten 1 M-position shards of net self-play, two shards at a time:
#   JOBS=2 scripts/datagen_shards.sh 301 310 /data/net3 --positions 1000000 --threads 1
set -euo pipefail
if [[ $# -lt 3 ]]; then
    sed -n '2,19p' "$0" >&2
    exit 2
fi
first=$1 last=$2 out=$3
shift 3
jj=${JIANGJUN:-jiangjun}
command -v parallel >/dev/null || { echo "datagen_shards: GNU parallel is not installed (apt-get install parallel)" >&2; exit 3; }
mkdir -p "$out"
hosts=()
if [[ -n ${HOSTS:-} ]]; then
    # Remote shards: each host runs its own jiangjun and the file comes back.
    hosts=(-S "$HOSTS" --return "shard-{}.jjdata" --cleanup)
fi
# `--halt now,fail=1`: a failed shard stops the run rather than leaving a gap.
(cd "$out" && parallel --will-cite -j "${JOBS:-1}" "${hosts[@]}" --halt now,fail=1 \
    --joblog shards.joblog \
    "$jj" datagen --out "shard-{}.jjdata" --seed "{}" --quiet "$@" ::: $(seq "$first" "$last"))
# Seed order, whatever order the shards finished in.
files=()
for s in $(seq "$first" "$last"); do files+=("$out/shard-$s.jjdata"); done
cat "${files[@]}" > "$out/all.jjdata"
# `wc -c`, not GNU `stat -c`: the same on macOS.
echo "datagen_shards: $(( $(wc -c < "$out/all.jjdata") / 48 - (last - first + 1) )) positions in $out/all.jjdata" >&2
