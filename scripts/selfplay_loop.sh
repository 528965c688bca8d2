#!/usr/bin/env bash
# Continuous self-play in the background: one 1 M-position shard after another,
# each recorded as soon as it is done with what rebuilds it byte for byte.
#
#   scripts/selfplay_loop.sh SERIES FIRST_SEED LAST_SEED DATA_DIR [datagen options...]
#
# SERIES names the shards (`SERIES-sSEED.jjdata`, e.g. `net7n2500`), DATA_DIR
# holds them (outside the checkout: a `data/` folder beside it). Each shard is
# `jiangjun datagen --out SERIES-sSEED.jjdata --seed SEED --positions 1000000
# --threads 2 --quiet [options]`; the options should at least name `--nodes`
# and `--openings`. Environment: JIANGJUN, the binary (default `jiangjun` on
# PATH): copy the release build somewhere a rebuild does not overwrite, since
# a shard is only reproducible with the binary that made it.
#
# It runs at `nice 19` in a session of its own whose kernel autogroup is
# lowered to 19 as well, so builds and matches in other sessions take the
# cores first (docs/nnue.md#jiangjun-datagen); the shell that starts it keeps
# its own. Pause it for a match with `kill -STOP` on the datagen process and
# resume with `kill -CONT`; stop it with `pkill -s` and the loop's session.
#
# DATA_DIR/shards.tsv gets one line per finished shard: the shard, positions,
# SHA-256, start and end (UTC), the binary's `bench` count, the command and
# the CPU seconds it took (user + system, from /usr/bin/time when present):
# positions per CPU second is the figure a recipe is judged by, and unlike
# positions per wall second it hardly depends on what else the cores run.
# Those lines are what the shard table in engine/nets/README.md records; a
# shard stopped part-way (the session ended) keeps whole games, and its
# `--positions` is then the count it holds.
set -euo pipefail
if [[ $# -lt 4 ]]; then
    sed -n '2,28p' "$0" >&2
    exit 2
fi
# The autogroup belongs to the whole session: lowered from a shell's session it
# would slow the shell and all it starts too (a CI run did so on 2026-12-02,
# notes/2026-12-02-new-machine-rebuild.md). So the loop runs in a session of its
# own, started here unless it already leads one (`setsid scripts/selfplay_loop.sh`).
# Sessions' autogroups are Linux's: elsewhere it runs as it is, at `nice 19`.
if [[ -r /proc/$$/stat ]] && command -v setsid > /dev/null &&
    [[ $(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f4) != "$$" ]]; then
    exec setsid -w "$BASH" "$0" "$@"
fi
series=$1 first=$2 last=$3 dir=$4
shift 4
jj=$(command -v "${JIANGJUN:-jiangjun}") || { echo "selfplay_loop: no jiangjun binary" >&2; exit 2; }
mkdir -p "$dir"
cd "$dir"
# Lower this session's autogroup (the loop's own, above): with autogroup
# scheduling on, `nice` alone does not yield to other sessions
# (notes/2026-11-25-autogroup.md).
echo 19 > /proc/self/autogroup 2>/dev/null || true
bench=$(nice -n 19 "$jj" bench 2>&1 | sed -n 's/^Nodes searched *: *//p')
for seed in $(seq "$first" "$last"); do
    out="$series-s$seed.jjdata"
    if [[ -e $out ]]; then
        echo "selfplay_loop: $out exists, skipped" >&2
        continue
    fi
    args=(datagen --out "$out" --seed "$seed" --positions 1000000 --threads 2 --quiet "$@")
    start=$(date -u +%FT%TZ)
    cpu=-
    if [[ -x /usr/bin/time ]]; then
        nice -n 19 /usr/bin/time -f '%U %S' -o "$out.cpu" "$jj" "${args[@]}"
        cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$out.cpu")
        rm -f "$out.cpu"
    else
        nice -n 19 "$jj" "${args[@]}"
    fi
    end=$(date -u +%FT%TZ)
    positions=$(( $(stat -c %s "$out") / 48 - 1 ))
    sha=$(sha256sum "$out" | cut -d' ' -f1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\tjiangjun %s\t%s\n' "$out" "$positions" "$sha" "$start" "$end" \
        "$bench" "${args[*]}" "$cpu" >> shards.tsv
done
