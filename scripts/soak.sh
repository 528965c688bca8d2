#!/usr/bin/env bash
# Reliability soak: Jiangjun against itself in five parts, two games at a time.
#
#   scripts/soak.sh BINARY OUTDIR
#
#   uci        SOAK_UCI_GAMES (1000) games in UCI
#   ucci-ms    SOAK_UCCI_MS_GAMES (1000) in UCCI, times in milliseconds
#   ucci-s     SOAK_UCCI_S_GAMES (500) in UCCI, times in seconds (timeunit=s:
#              the runner sets usemillisec off and sends whole seconds)
#   ponder     SOAK_PONDER_GAMES (200) with pondering on both sides (UCI vs UCCI)
#   threads2   SOAK_THREADS2_GAMES (200) at Threads 2 (UCI vs UCCI)
#
# Every part plays at SOAK_TC (1+0.01) with SOAK_CONCURRENCY (2) games at once,
# from the openings in SOAK_OPENINGS (../shared/data/openings/openings.epd
# beside the repository), and each engine changes Hash and Threads between
# games (SOAK_HASH "16|64", SOAK_THREADS "1|2"; the second engine takes the
# lists in reverse, so the two differ; threads2 keeps Threads at 2).
# SOAK_RUNNER names the binary that runs the matches (default BINARY): a
# native jiangjun when BINARY is the Wine wrapper of scripts/windows-build.sh.
# SOAK_GAMES=N sets every part's game count at once (SOAK_GAMES=2 for a smoke
# run); SOAK_PARTS="uci ponder" runs some parts only; SOAK_TOLERANCE_MS (100)
# is the runner's --tolerance-ms, the grace beyond the clock.
#
# Each part writes OUTDIR/PART.pgn and OUTDIR/PART.txt (the runner's summary).
# Rerunning continues where it stopped: each part is resumed from its PGN.
# At the end a summary per part and overall: games, illegal moves, time
# losses, crashes and hangs (from the PGN terminations). Exit status 1 if any,
# or if a part has fewer games than asked; 2 for bad arguments. Time losses
# with 100+ ms of host steal in their last 10 plies (the runner notes the
# hypervisor's steal from /proc/stat in the reason) are counted apart as
# "host time" and do not fail the soak: a steal burst stops every process
# on the machine.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
bin=$(realpath "$1")
out=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
[[ -x $bin ]] || { echo "soak: $1 is not an executable" >&2; exit 2; }
# The match runner: the binary itself, or SOAK_RUNNER (a native jiangjun)
# when BINARY is one the runner cannot be, such as scripts/windows-build.sh's
# wrapper that starts jiangjun.exe under Wine.
runner=$(realpath "${SOAK_RUNNER:-$bin}")
mkdir -p "$out"

tc=${SOAK_TC:-1+0.01}
conc=${SOAK_CONCURRENCY:-2}
tolerance=${SOAK_TOLERANCE_MS:-100}
openings=${SOAK_OPENINGS:-$root/../shared/data/openings/openings.epd}
hash=${SOAK_HASH:-16|64}
threads=${SOAK_THREADS:-1|2}
parts=${SOAK_PARTS:-uci ucci-ms ucci-s ponder threads2}
[[ -f $openings ]] || { echo "soak: no openings at $openings" >&2; exit 2; }

reverse() { tr '|' '\n' <<<"$1" | tac | paste -sd'|'; }
hash_b=$(reverse "$hash")
threads_b=$(reverse "$threads")

games_of() {
    local var=$1 default=$2
    echo "${SOAK_GAMES:-${!var:-$default}}"
}

# The engine spec of side a or b: spec SIDE PROTO EXTRA
spec() {
    local side=$1 proto=$2 extra=$3 h=$hash t=$threads
    if [[ $side == b ]]; then h=$hash_b t=$threads_b; fi
    local s="name=jiangjun-$side-$proto,cmd=$bin,proto=$proto"
    case $proto in
        uci) s+=",option.Hash=$h" ;;
        ucci) s+=",option.hashsize=$h" ;;
    esac
    if [[ $extra != *threads2* ]]; then
        case $proto in
            uci) s+=",option.Threads=$t" ;;
            ucci) s+=",option.threads=$t" ;;
        esac
    else
        case $proto in
            uci) s+=",option.Threads=2" ;;
            ucci) s+=",option.threads=2" ;;
        esac
    fi
    [[ $extra == *seconds* ]] && s+=",timeunit=s"
    [[ $extra == *ponder* ]] && s+=",ponder=on"
    echo "$s"
}

run_part() {
    local part=$1 games=$2 a=$3 b=$4
    echo "== $part: $games games at $tc" >&2
    local start=$SECONDS
    "$runner" match --engine "$a" --engine "$b" --games "$games" --tc "$tc" \
        --concurrency "$conc" --tolerance-ms "$tolerance" --openings "$openings" \
        --pgn "$out/$part.pgn" --resume | tee "$out/$part.txt"
    echo "   ($((SECONDS - start)) s)" >&2
}

declare -A want
for part in $parts; do
    case $part in
        uci)
            n=$(games_of SOAK_UCI_GAMES 1000)
            run_part uci "$n" "$(spec a uci "")" "$(spec b uci "")" ;;
        ucci-ms)
            n=$(games_of SOAK_UCCI_MS_GAMES 1000)
            run_part ucci-ms "$n" "$(spec a ucci "")" "$(spec b ucci "")" ;;
        ucci-s)
            n=$(games_of SOAK_UCCI_S_GAMES 500)
            run_part ucci-s "$n" "$(spec a ucci seconds)" "$(spec b ucci seconds)" ;;
        ponder)
            n=$(games_of SOAK_PONDER_GAMES 200)
            run_part ponder "$n" "$(spec a uci ponder)" "$(spec b ucci ponder)" ;;
        threads2)
            n=$(games_of SOAK_THREADS2_GAMES 200)
            run_part threads2 "$n" "$(spec a uci threads2)" "$(spec b ucci threads2)" ;;
        *)
            echo "soak: unknown part '$part'" >&2
            exit 2 ;;
    esac
    want[$part]=$n
done

args=()
for part in $parts; do
    args+=("$part=${want[$part]}=$out/$part.pgn")
done

# Count the games and their endings from the PGNs.
python3 - "${args[@]}" <<'EOF'
import re
import sys

def games(path):
    """(tags, last comment) of each complete game."""
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except FileNotFoundError:
        return []
    out = []
    for block in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]\s*$', block, re.M))
        comments = re.findall(r"\{([^}]*)\}", block)
        body = re.sub(r"\{[^}]*\}", " ", block.split("\n\n", 1)[-1]).split()
        if tags and body and body[-1] == tags.get("Result"):
            out.append((tags, comments[-1] if comments else ""))
    return out

KINDS = ["games", "illegal", "time", "crash", "hang", "nomove", "other forfeit", "host time"]
# A time loss with at least this much CPU taken by the hypervisor in its last
# plies (the runner writes "host steal N ms" into the reason) is the host's:
# a steal burst stops the engines and the runner alike.
HOST_STEAL_MS = 100

def host_steal(reason):
    m = re.search(r"host steal (\d+) ms", reason)
    return int(m.group(1)) if m else 0

def count(path):
    c = dict.fromkeys(KINDS, 0)
    for tags, reason in games(path):
        c["games"] += 1
        term = tags.get("Termination", "")
        if "illegal move" in reason:
            c["illegal"] += 1
        elif term == "time forfeit" and host_steal(reason) >= HOST_STEAL_MS:
            c["host time"] += 1
        elif term == "time forfeit":
            c["time"] += 1
        elif "crashed" in reason or "could not start" in reason:
            c["crash"] += 1
        elif "hung" in reason:
            c["hang"] += 1
        elif "gave no move" in reason:
            c["nomove"] += 1
        elif term in ("abandoned", "rules infraction", "unterminated"):
            c["other forfeit"] += 1
    return c

total = dict.fromkeys(KINDS, 0)
bad = False
print()
print("%-10s %6s %7s %6s %7s %6s %7s %6s %10s" % ("part", "games", "illegal", "time", "crashes", "hangs", "no move", "other", "host time"))
for arg in sys.argv[1:]:
    part, want, path = arg.split("=", 2)
    c = count(path)
    short = c["games"] < int(want)
    problems = sum(c[k] for k in KINDS[1:-1])
    bad |= short or problems > 0
    for k in KINDS:
        total[k] += c[k]
    note = "" if not short else "  (%s games asked)" % want
    print("%-10s %6d %7d %6d %7d %6d %7d %6d %10d%s" % (part, *(c[k] for k in KINDS), note))
print("%-10s %6d %7d %6d %7d %6d %7d %6d %10d" % ("overall", *(total[k] for k in KINDS)))
if total["host time"]:
    print("%d time losses came with %d+ ms of host steal in their last plies: the hypervisor"
          " stopped this machine; they are listed apart and do not fail the soak."
          % (total["host time"], HOST_STEAL_MS))
print("soak: %s" % ("FAILED" if bad else "ok"))
sys.exit(1 if bad else 0)
EOF
