#!/usr/bin/env bash
# Calibrate the Elo scale of the skill levels (UCI `Skill Level`, and so
# `UCI_Elo`) by matches with `jiangjun match`, as a ladder:
#
#   1. the highest level measured against full-strength Jiangjun, and each
#      level against the next one up (a weak level scores nothing against
#      full strength, so a direct match would measure nothing);
#   2. full-strength Jiangjun against Fairy-Stockfish (UCCI mode), which
#      places Fairy-Stockfish on the scale;
#   3. the levels in FSF_LEVELS also against Fairy-Stockfish: a second,
#      independent estimate for those levels.
#
# The scale: full-strength Jiangjun at this time control is ANCHOR Elo (the
# top of `LEVEL_ELO` in engine/src/strength.rs). A level's ladder estimate
# is the next level's Elo plus the match's Elo difference; the 95% errors
# (pentanomial) add in quadrature down the ladder. A Fairy-Stockfish
# estimate is Fairy-Stockfish's Elo plus the difference, with the anchor
# match's error added. The two are combined by inverse variance. A match won
# or lost without a single point measures nothing: the ladder stops there
# and the levels below are extrapolated (100 Elo a level). The table is
# printed, then a `LEVEL_ELO` line for engine/src/strength.rs.
#
# Usage (from the project root; all settings are environment variables):
#
#   scripts/calibrate_levels.sh
#   GAMES=400 TC=10+0.1 LEVELS="0 4 8 12 16 19" FSF_LEVELS="16 19" scripts/calibrate_levels.sh
#   GAMES=2 LEVELS="0 19" TC=2+0.02 scripts/calibrate_levels.sh   # a smoke run
#
#   JJ           the engine binary (default target/release/jiangjun, built if missing)
#   FSF          Fairy-Stockfish (default /usr/games/fairy-stockfish;
#                apt-get install fairy-stockfish); FSF=none skips it
#   OPENINGS     opening FENs/EPD (default ../shared/data/openings/openings.epd)
#   GAMES        games per match (default 200; even: each opening twice)
#   TC           time control (default 10+0.1)
#   CONCURRENCY  games at once (default 2)
#   LEVELS       levels to measure, any order (default "0 4 8 12 16 19")
#   FSF_LEVELS   levels that also play Fairy-Stockfish (default: none)
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
LEVELS=$(tr ' ' '\n' <<<"${LEVELS:-0 4 8 12 16 19}" | grep . | sort -n | uniq | paste -sd' ')
FSF_LEVELS=${FSF_LEVELS:-}
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

declare -A ladder vs_fsf up
read -ra asc <<<"$LEVELS"
for ((i = ${#asc[@]} - 1; i >= 0; i--)); do
    L=${asc[i]}
    if ((i == ${#asc[@]} - 1)); then
        up[$L]=20
        ladder[$L]=$(play "level$L-vs-full" "$(level_spec "$L")" "$FULL")
    else
        U=${asc[i + 1]}
        up[$L]=$U
        ladder[$L]=$(play "level$L-vs-level$U" "$(level_spec "$L")" "$(level_spec "$U")")
    fi
    if ((use_fsf)) && [[ " $FSF_LEVELS " == *" $L "* ]]; then
        vs_fsf[$L]=$(play "level$L-vs-fsf" "$(level_spec "$L")" "$FAIRY")
    else
        vs_fsf[$L]="nan nan nan"
    fi
done

# The table (from the top of the ladder down), and a LEVEL_ELO line (levels
# not measured are interpolated; the figures are made to rise).
{
    echo "anchor $ANCHOR $fsf_elo $fsf_err"
    for ((i = ${#asc[@]} - 1; i >= 0; i--)); do
        L=${asc[i]}
        echo "level $L ${up[$L]} ${ladder[$L]} ${vs_fsf[$L]}"
    done
} | awk -v tc="$TC" -v games="$GAMES" '
    # One estimate: sets E and R (Elo and 95% error) and returns 1, or
    # returns 0 when the match measured nothing (no result, or all points
    # to one side) or its base is unknown.
    function est(d, e, s, base, berr) {
        if (d == "nan" || base == "" || base == "nan" || s <= 0 || s >= 100) return 0
        E = base + d
        R = (berr == "nan" || berr == "") ? e : sqrt(e * e + berr * berr)
        return 1
    }
    function cell(ok, d, s, vs) {
        if (ok) return sprintf("%.0f +/- %.0f", E, R)
        if (d == "nan" && s == "nan") return "-"
        return sprintf("(score %s%% vs %s)", s, vs)
    }
    $1 == "anchor" {
        anchor = $2; fsf = $3; fsferr = $4; next
    }
    {
        L = $2; U = $3; n++; lv[n] = L; w = 0; sum = 0
        if (U == 20) { base = anchor; berr = "nan" } else if (U in comb) { base = comb[U]; berr = cerr[U] } else { base = "nan"; berr = "nan" }
        ok = est($4, $5, $6, base, berr); ta[L] = cell(ok, $4, $6, (U == 20 ? "full" : "level " U))
        if (ok) { w += 1 / (R * R + 1e-9); sum += E / (R * R + 1e-9) }
        ok = est($7, $8, $9, fsf, fsferr); tb[L] = cell(ok, $7, $9, "FSF")
        if (ok) { w += 1 / (R * R + 1e-9); sum += E / (R * R + 1e-9) }
        if (w > 0) { comb[L] = sum / w; cerr[L] = 1 / sqrt(w) }
        opp[L] = (U == 20) ? "full strength" : "level " U
        raw[L] = sprintf("%+.0f +/- %.0f (%s%%)", $4, $5, $6)
    }
    END {
        printf "Skill levels at %s, %s games a match; full-strength Jiangjun = %s Elo", tc, games, anchor
        if (fsf != "nan") printf "; Fairy-Stockfish 11.1 = %s +/- %s", fsf, fsferr
        printf "\n\n| Level | Ladder match | Elo difference (score) | Ladder Elo (+/- 95%%) | vs Fairy-Stockfish | Elo (combined) |\n"
        printf "|------:|--------------|------------------------|----------------------|--------------------|----------------|\n"
        printf "| %5s | %-12s | %-22s | %-20s | %-18s | %-14s |\n", 20, "(anchor)", "", anchor, "", anchor
        for (i = 1; i <= n; i++) {
            L = lv[i]
            c = (L in comb) ? sprintf("%.0f +/- %.0f", comb[L], cerr[L]) : "-"
            printf "| %5s | vs %-9s | %-22s | %-20s | %-18s | %-14s |\n", L, opp[L], raw[L], ta[L], tb[L], c
        }
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
