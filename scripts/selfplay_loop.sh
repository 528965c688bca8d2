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
# resume with `kill -CONT`. Stop it with `kill -TERM` on the loop (its pid,
# the session's id, is the first line it prints) or `pkill -TERM -s` on its
# session: the shard in progress keeps its whole games and is recorded too.
#
# DATA_DIR/shards.tsv gets one line per shard: the shard, positions,
# SHA-256, start and end (UTC), the binary's `bench` count, the command and
# the CPU seconds it took (user + system of the datagen process, which the
# shell reads from the kernel when it has waited for it): positions per CPU
# second is the figure a recipe is judged by, and unlike positions per wall
# second it hardly depends on what else the cores run. Those lines are what
# the shard table in engine/nets/README.md records. A shard stopped part-way
# (a session's end) is recorded with the command that makes it again: its
# `--positions` the count it holds (datagen stops after the game that reaches
# its count, and the file holds whole games, so the shorter run writes the
# same bytes).
#
# SELFPLAY_CPU_BUDGET=S in the environment: the series stops once its
# shards' CPU seconds (its lines in shards.tsv, earlier runs' included)
# reach S, and the shard that would pass S is asked for only the positions
# the series' own rate says the rest takes (5 % more, so that it does pass):
# the data of two recipes made in the same CPU time, as a match between the
# nets trained on them asks (docs/nnue.md, "The loop").
set -euo pipefail
if [[ $# -lt 4 ]]; then
    sed -n '2,40p' "$0" >&2
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
# CPU seconds (user + system) of the children this shell has waited for,
# into `cpu_now`: bash's `times` prints them on its second line as
# `XmY.YYYs XmY.YYYs`. It must run in this shell (in a `$(...)` subshell it
# would count only the subshell's own children), so its output goes by a file.
children_cpu() {
    times > .selfplay_loop.times
    cpu_now=$(awk 'NR == 2 {
        t = 0
        for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2] }
        printf "%.3f", t
    }' .selfplay_loop.times)
    rm -f .selfplay_loop.times
}
# With a CPU budget: into `budget_positions`, `none` once this series' lines
# in shards.tsv hold that many CPU seconds, else the positions of the next
# shard: a whole one, or what the rest of the budget makes at the series' rate
# so far. No shards.tsv yet: a whole one (tested here, since awk's flavours
# differ on a missing file: mawk stops, gawk may warn and run its END).
budget_positions() {
    budget_positions=1000000
    [[ -e shards.tsv ]] || return 0
    budget_positions=$(awk -F'\t' -v s="$series-s" -v b="$SELFPLAY_CPU_BUDGET" '
        index($1, s) == 1 { c += $8; p += $2 }
        END {
            if (c >= b) { print "none"; exit }
            n = 1000000
            if (c > 0) { r = int((b - c) * p / c * 1.05) + 1; if (r < n) n = r }
            print n
        }' shards.tsv)
}
# A stop asked for by TERM, INT or HUP ends the shard in progress (datagen
# keeps whole games) and then the loop, after the shard's line is written.
# The datagen runs in the background so that `wait` returns at the signal.
stop=0
status=0
child=
on_stop() {
    stop=1
    if [[ -n $child ]]; then
        # A datagen paused with `kill -STOP` takes the TERM only once resumed.
        kill -TERM "$child" 2> /dev/null || true
        kill -CONT "$child" 2> /dev/null || true
    fi
}
trap on_stop TERM INT HUP
echo "selfplay_loop: pid $$ (stop with kill -TERM $$)" >&2
for seed in $(seq "$first" "$last"); do
    out="$series-s$seed.jjdata"
    if [[ -e $out ]]; then
        echo "selfplay_loop: $out exists, skipped" >&2
        continue
    fi
    if [[ $stop == 1 ]]; then
        break
    fi
    asked=1000000
    if [[ -n ${SELFPLAY_CPU_BUDGET:-} ]]; then
        budget_positions
        if [[ $budget_positions == none ]]; then
            echo "selfplay_loop: the series' CPU seconds reached the budget ($SELFPLAY_CPU_BUDGET)" >&2
            break
        fi
        asked=$budget_positions
    fi
    args=(datagen --out "$out" --seed "$seed" --positions "$asked" --threads 2 --quiet "$@")
    start=$(date -u +%FT%TZ)
    children_cpu
    cpu_before=$cpu_now
    nice -n 19 "$jj" "${args[@]}" &
    child=$!
    # `wait` returns early (status above 128) when a trapped signal comes;
    # wait again until the datagen itself has ended.
    status=0
    while :; do
        wait "$child" && status=0 || status=$?
        kill -0 "$child" 2> /dev/null || break
    done
    child=
    children_cpu
    cpu=$(awk -v a="$cpu_before" -v b="$cpu_now" 'BEGIN { printf "%.1f", b - a }')
    end=$(date -u +%FT%TZ)
    if [[ ! -e $out ]]; then
        echo "selfplay_loop: $out not written (status $status)" >&2
        break
    fi
    positions=$(( $(stat -c %s "$out") / 48 - 1 ))
    if (( positions <= 0 )); then
        echo "selfplay_loop: $out holds no position (status $status), removed" >&2
        rm -f "$out"
        break
    fi
    if [[ $stop == 1 || $status != 0 ]]; then
        # Cut short: the count it holds is what makes it again.
        args=(datagen --out "$out" --seed "$seed" --positions "$positions" --threads 2 --quiet "$@")
        echo "selfplay_loop: $out stopped at $positions positions (status $status)" >&2
    fi
    sha=$(sha256sum "$out" | cut -d' ' -f1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\tjiangjun %s\t%s\n' "$out" "$positions" "$sha" "$start" "$end" \
        "$bench" "${args[*]}" "$cpu" >> shards.tsv
    if [[ $stop == 1 || $status != 0 ]]; then
        break
    fi
done
if [[ $stop == 1 ]]; then
    echo "selfplay_loop: stopped" >&2
elif [[ $status != 0 ]]; then
    # A datagen that failed on its own: the caller sees its status.
    exit "$status"
fi
