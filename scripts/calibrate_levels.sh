#!/usr/bin/env bash
# Calibrate the Elo scale of the skill levels (UCI `Skill Level`, and so
# `UCI_Elo`) by matches with `jiangjun match`:
#
#   1. full-strength Jiangjun against Fairy-Stockfish (UCCI mode), which
#      places Fairy-Stockfish on the scale;
#   2. each level against full-strength Jiangjun;
#   3. each level against Fairy-Stockfish.
#
# The scale: full-strength Jiangjun at this time control is ANCHOR Elo (the
# top of `LEVEL_ELO` in engine/src/strength.rs). Each level gets one
# estimate per opponent (the match's Elo difference plus the opponent's
# Elo, pentanomial 95% intervals; the Fairy-Stockfish estimate also carries
# the anchor match's error) and their inverse-variance mean. A match won or
# lost without a single point measures nothing and is left out. The table
# is printed, then a `LEVEL_ELO` line for engine/src/strength.rs.
#
# Usage (from the project root; all settings are environment variables):
#
#   scripts/calibrate_levels.sh
#   GAMES=400 TC=10+0.1 CONCURRENCY=2 LEVELS="0 5 10 15 19" scripts/calibrate_levels.sh
#   GAMES=2 LEVELS="0 19" TC=2+0.02 scripts/calibrate_levels.sh   # a smoke run
#
#   JJ           the engine binary (default target/release/jiangjun, built if missing)
#   FSF          Fairy-Stockfish (default /usr/games/fairy-stockfish;
#                apt-get install fairy-stockfish); FSF=none skips it
#   OPENINGS     opening FENs/EPD (default ../shared/data/openings/openings.epd)
#   GAMES        games per match (default 200; even: each opening twice)
#   TC           time control (default 10+0.1)
#   CONCURRENCY  games at once (default 2)
#   LEVELS       levels to measure (default 0 to 19)
#   FSF_LEVELS   levels that also play Fairy-Stockfish (default: LEVELS)
#   ANCHOR       Elo of full-strength Jiangjun (default 2850)
#   OUT          directory for the PGN files and match logs (default calibration-<date>)
#
# Both Jiangjun engines play without their opening book (the openings vary
# the games) with the default hash and one thread. The figures hold for the
# time control they were measured at: the weak levels are capped in depth,
# so they gain less from more time than full strength does.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
JJ=${JJ:-$ROOT/target/release/jiangjun}
FSF=${FSF:-/usr/games/fairy-stockfish}
OPENINGS=${OPENINGS:-$ROOT/../shared/data/openings/openings.epd}
GAMES=${GAMES:-200}
TC=${TC:-10+0.1}
CONCURRENCY=${CONCURRENCY:-2}
LEVELS=${LEVELS:-$(seq -s ' ' 0 19)}
FSF_LEVELS=${FSF_LEVELS:-$LEVELS}
ANCHOR=${ANCHOR:-2850}
OUT=${OUT:-calibration-$(date +%Y%m%d-%H%M%S)}

if [[ ! -x $JJ ]]; then
    echo "building $JJ" >&2
    (cd "$ROOT" && cargo build --release -p jiangjun >&2)
fi
use_fsf=1
if [[ $FSF == none ]]; then
    use_fsf=0
elif [[ ! -x $FSF ]]; then
    echo "no Fairy-Stockfish at $FSF (apt-get install fairy-stockfish, or FSF=none)" >&2
    exit 2
fi
opening_args=()
if [[ -f $OPENINGS ]]; then
    opening_args=(--openings "$OPENINGS")
else
    echo "no openings at $OPENINGS: playing from the start position" >&2
fi
mkdir -p "$OUT"

FULL="name=Jiangjun,cmd=$JJ,proto=uci,option.OwnBook=false"
FAIRY="name=FairyStockfish,cmd=$FSF,proto=ucci"
level_spec() { echo "name=Level$1,cmd=$JJ,proto=uci,option.OwnBook=false,option.Skill Level=$1"; }

# Play a match (engine 1 is the one measured); print "ELO ERR SCORE" from
# its summary (pentanomial figures when the games came in pairs).
play() {
    local tag=$1 first=$2 second=$3
    echo "match $tag: $GAMES games at $TC" >&2
    "$JJ" match --engine "$first" --engine "$second" "${opening_args[@]}" \
        --games "$GAMES" --tc "$TC" --concurrency "$CONCURRENCY" \
        --pgn "$OUT/$tag.pgn" --quiet >"$OUT/$tag.txt" 2>"$OUT/$tag.err" || {
        echo "match $tag failed; see $OUT/$tag.err" >&2
        echo "nan nan nan"
        return
    }
    awk '
        /^W [0-9]+ +D [0-9]+ +L [0-9]+/ { score = $8; sub(/%/, "", score) }
        /^Elo / { elo = $2; err = $4 }
        /^Pentanomial/ { for (i = 1; i <= NF; i++) if ($i == "Elo") { pelo = $(i + 1); perr = $(i + 3) } }
        END {
            if (pelo != "") { elo = pelo; err = perr }
            if (elo == "") { print "nan nan nan" } else { print elo + 0, err + 0, score + 0 }
        }' "$OUT/$tag.txt"
}

# The Elo of an opponent, and the error of that figure.
fsf_elo=nan
fsf_err=nan
if ((use_fsf)); then
    read -r d err score < <(play full-vs-fsf "$FULL" "$FAIRY")
    # The match measured Jiangjun against Fairy-Stockfish.
    fsf_elo=$(awk -v a="$ANCHOR" -v d="$d" -v s="$score" \
        'BEGIN { if (d == "nan" || s <= 0 || s >= 100) print "nan"; else printf "%.0f", a - d }')
    fsf_err=$err
    echo "Fairy-Stockfish: $fsf_elo +/- $fsf_err (full-strength Jiangjun $ANCHOR; score $score%)" >&2
fi

declare -A vs_jj vs_fsf
for L in $LEVELS; do
    vs_jj[$L]=$(play "level$L-vs-full" "$(level_spec "$L")" "$FULL")
    if ((use_fsf)) && [[ " $FSF_LEVELS " == *" $L "* ]]; then
        vs_fsf[$L]=$(play "level$L-vs-fsf" "$(level_spec "$L")" "$FAIRY")
    else
        vs_fsf[$L]="nan nan nan"
    fi
done

# The table, and a LEVEL_ELO line (levels not measured are interpolated;
# the figures are made to rise).
{
    echo "anchor $ANCHOR $fsf_elo $fsf_err"
    for L in $LEVELS; do echo "level $L ${vs_jj[$L]} ${vs_fsf[$L]}"; done
} | awk -v tc="$TC" -v games="$GAMES" '
    # One estimate: sets E and R (Elo and 95% error) and returns 1, or
    # returns 0 when the match measured nothing (no result, or all points
    # to one side).
    function est(d, e, s, base, berr) {
        if (d == "nan" || base == "nan" || s <= 0 || s >= 100) return 0
        E = base + d
        R = (berr == "nan") ? e : sqrt(e * e + berr * berr)
        return 1
    }
    function cell(ok, d, s) {
        if (ok) return sprintf("%.0f +/- %.0f", E, R)
        if (d == "nan" && s == "nan") return "-"
        return sprintf("(score %s%%)", s)
    }
    $1 == "anchor" { anchor = $2; fsf = $3; fsferr = $4; next }
    {
        L = $2; n++; lv[n] = L; w = 0; sum = 0
        ok = est($3, $4, $5, anchor, "nan"); ta[L] = cell(ok, $3, $5)
        if (ok) { w += 1 / (R * R + 1e-9); sum += E / (R * R + 1e-9) }
        ok = est($6, $7, $8, fsf, fsferr); tb[L] = cell(ok, $6, $8)
        if (ok) { w += 1 / (R * R + 1e-9); sum += E / (R * R + 1e-9) }
        if (w > 0) { comb[L] = sum / w; cerr[L] = 1 / sqrt(w) }
    }
    END {
        printf "Skill levels at %s, %s games a match; full-strength Jiangjun = %s Elo", tc, games, anchor
        if (fsf != "nan") printf "; Fairy-Stockfish 11.1 = %s +/- %s", fsf, fsferr
        printf "\n\n| Level | vs Jiangjun (Elo +/- 95%%) | vs Fairy-Stockfish (Elo +/- 95%%) | Elo (combined) |\n"
        printf "|------:|---------------------------|----------------------------------|----------------|\n"
        for (i = 1; i <= n; i++) {
            L = lv[i]
            c = (L in comb) ? sprintf("%.0f +/- %.0f", comb[L], cerr[L]) : "-"
            printf "| %5s | %-25s | %-32s | %-14s |\n", L, ta[L], tb[L], c
        }
        printf "| %5s | %-25s | %-32s | %-14s |\n", 20, "(anchor)", "", anchor
        # LEVEL_ELO: the measured levels, the anchor at 20, the others
        # interpolated (below the lowest measured: 100 a level); then made
        # to rise strictly up to the anchor.
        known[20] = anchor
        for (L in comb) known[L + 0] = comb[L]
        lo = -1
        for (L = 0; L <= 20; L++) if ((L in known) && lo < 0) lo = L
        for (L = 0; L < lo; L++) known[L] = known[lo] - (lo - L) * 100
        prev = lo
        for (L = lo + 1; L <= 20; L++) {
            if (!(L in known)) continue
            for (k = prev + 1; k < L; k++) known[k] = known[prev] + (known[L] - known[prev]) * (k - prev) / (L - prev)
            prev = L
        }
        line = ""
        for (L = 0; L <= 20; L++) {
            v = int(known[L] + 0.5)
            if (v > anchor - (20 - L)) v = anchor - (20 - L)
            if (L > 0 && v <= pv) v = pv + 1
            pv = v
            line = line (L ? ", " : "") v
        }
        printf "\nFor engine/src/strength.rs (levels not measured are interpolated):\n"
        printf "pub const LEVEL_ELO: [i32; 21] = [%s];\n", line
    }'
echo "games and logs in $OUT" >&2
