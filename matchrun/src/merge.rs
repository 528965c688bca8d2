//! Joining the shards of a match ([`crate::shard`]) into the match's
//! result: one PGN with every game in game order, copied as written, and
//! the summary (W/D/L, Elo, pentanomial pairs, SPRT) counted from those
//! games as the whole match counts them. Shards with other settings, shards
//! that overlap, and games missing anywhere are refused with a message
//! saying which.
//!
//! The merged PGN gets a settings file of its own covering every game, so
//! a merged match is itself a shard: merging it with any other one is an
//! overlap.

use crate::engine::EngineSpec;
use crate::pgn::read_pgn;
use crate::shard::{ShardInfo, settings_path};
use crate::stats::Sprt;
use crate::tally::Tally;
use crate::time_control::TimeControl;
use crate::{MatchError, Summary, game_setup, tc_text, termination_kind};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What the summary needs from the settings.
struct MatchFacts {
    games: usize,
    names: [String; 2],
    tc: String,
    sprt: Option<Sprt>,
    openings: usize,
}

fn facts(settings: &[String]) -> Result<MatchFacts, String> {
    let get = |key: &str| {
        settings
            .iter()
            .filter_map(|l| l.split_once(' '))
            .filter(|(k, _)| *k == key)
            .map(|(_, v)| v)
            .collect::<Vec<_>>()
    };
    let one = |key: &str| match get(key).as_slice() {
        [v] => Ok(*v),
        _ => Err(format!("the settings need one '{key}' line")),
    };
    let number = |text: &str, key: &str| {
        text.parse::<usize>()
            .map_err(|_| format!("'{key} {text}' is not a number"))
    };
    let [e0, e1] = get("engine")[..] else {
        return Err("the settings need two 'engine' lines".into());
    };
    let engines = [EngineSpec::parse(e0), EngineSpec::parse(e1)];
    let [Ok(e0), Ok(e1)] = engines else {
        return Err("an 'engine' line of the settings does not parse".into());
    };
    let tc = TimeControl::parse(one("tc")?).map_err(|e| e.to_string())?;
    let tcs = [
        e0.tc.clone().unwrap_or(tc.clone()),
        e1.tc.clone().unwrap_or(tc),
    ];
    let sprt = match one("sprt")? {
        "off" => None,
        s => Some(Sprt::parse(s).map_err(|e| e.to_string())?),
    };
    let openings = one("openings")?.split(' ').next().unwrap_or("");
    Ok(MatchFacts {
        games: number(one("games")?, "games")?,
        names: [e0.name, e1.name],
        tc: tc_text(&tcs),
        sprt,
        openings: number(openings, "openings")?.max(1),
    })
}

/// A game of a shard, ready to be counted and copied.
struct Game {
    text: String,
    result: String,
    a_red: bool,
    ending: String,
}

/// Merge the shards whose PGNs are `shards` (each with its settings file)
/// into `out` (and its settings file); returns the match's summary, its
/// seconds the sum of the shards'.
pub fn merge(shards: &[PathBuf], out: &Path) -> Result<Summary, MatchError> {
    let refuse = |why: String| MatchError::Merge(why);
    let Some(first) = shards.first() else {
        return Err(refuse("no shards given".into()));
    };
    let same_file = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    };
    if let Some(p) = shards.iter().find(|p| same_file(p, out)) {
        return Err(refuse(format!("the output {} is a shard", p.display())));
    }
    let mut infos = Vec::new();
    for p in shards {
        let info = ShardInfo::read(&settings_path(p)).map_err(|e| {
            refuse(format!(
                "{e} (is {} the PGN of a shard, played with --shard?)",
                p.display()
            ))
        })?;
        infos.push((p.clone(), info));
    }
    let base = infos[0].1.clone();
    for (p, info) in &infos[1..] {
        if let Some((a, b)) = base.first_difference(info) {
            return Err(refuse(format!(
                "{} and {} are not of one match: '{a}' against '{b}'",
                first.display(),
                p.display()
            )));
        }
    }
    let facts = facts(&base.settings)
        .map_err(|e| refuse(format!("{}: {e}", settings_path(first).display())))?;
    // The shards in game order must tile 0..games.
    infos.sort_by_key(|(_, i)| (i.games.start, i.games.end));
    let mut next = 0;
    let mut prev: Option<&Path> = None;
    for (p, info) in &infos {
        let g = &info.games;
        if g.start < next {
            return Err(refuse(format!(
                "{} and {} overlap: games {}-{} are in both",
                prev.map_or(p.display(), |q| q.display()),
                p.display(),
                g.start + 1,
                next.min(g.end)
            )));
        }
        if g.start > next {
            return Err(refuse(format!(
                "games {}-{} are in no shard given",
                next + 1,
                g.start
            )));
        }
        next = g.end;
        prev = Some(p);
    }
    if next != facts.games {
        return Err(refuse(format!(
            "games {}-{} of the match's {} are in no shard given",
            next + 1,
            facts.games,
            facts.games
        )));
    }
    let mut games: BTreeMap<usize, Game> = BTreeMap::new();
    let mut fens: BTreeMap<usize, String> = BTreeMap::new();
    for (p, info) in &infos {
        read_shard(p, info, &facts, &mut games, &mut fens)?;
    }
    let mut tally = Tally::new(Summary {
        names: facts.names.clone(),
        sprt: facts.sprt,
        tc: facts.tc.clone(),
        ..Summary::default()
    });
    let mut text = String::new();
    for (&index, g) in &games {
        tally.add(index, &g.result, g.a_red, g.ending.clone());
        text.push_str(&g.text);
    }
    let write = |path: &Path, what: &str| {
        std::fs::write(path, what).map_err(|source| MatchError::CreatePgn {
            path: path.to_path_buf(),
            source,
        })
    };
    write(out, &text)?;
    let seconds = infos.iter().map(|(_, i)| i.seconds).sum();
    ShardInfo {
        settings: base.settings.clone(),
        games: 0..facts.games,
        seconds,
    }
    .write(&settings_path(out))?;
    let mut summary = tally.summary;
    summary.seconds = seconds;
    Ok(summary)
}

/// Check the games of one shard's PGN and add them to `games`; `fens`
/// holds each opening's position as the games so far started it.
fn read_shard(
    path: &Path,
    info: &ShardInfo,
    facts: &MatchFacts,
    games: &mut BTreeMap<usize, Game>,
    fens: &mut BTreeMap<usize, String>,
) -> Result<(), MatchError> {
    let bad = |why: String| MatchError::Merge(format!("{}: {why}", path.display()));
    let bytes = std::fs::read(path).map_err(|source| MatchError::ReadPgn {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let file = read_pgn(&text);
    for (g, span) in file.games.iter().zip(&file.spans) {
        let round = g.tag("Round").and_then(|r| r.parse::<usize>().ok());
        let Some(index) = round.filter(|&r| r > 0).map(|r| r - 1) else {
            return Err(bad("a game has no Round number".into()));
        };
        let round = index + 1;
        if !info.games.contains(&index) {
            return Err(bad(format!(
                "game {round} is not one of its games {}-{}",
                info.games.start + 1,
                info.games.end
            )));
        }
        let (opening, a_red) = game_setup(index, facts.openings);
        let names = &facts.names;
        let want = if a_red {
            [&names[0], &names[1]]
        } else {
            [&names[1], &names[0]]
        };
        let players = [g.tag("White").unwrap_or(""), g.tag("Black").unwrap_or("")];
        if players != [want[0].as_str(), want[1].as_str()] {
            return Err(bad(format!(
                "game {round} is {} vs {}; this match has {} vs {} in it",
                players[0], players[1], want[0], want[1]
            )));
        }
        let fen = g.tag("FEN").unwrap_or("").to_string();
        let opening_tag = g.tag("OpeningIndex").and_then(|o| o.parse::<usize>().ok());
        if opening_tag.is_some_and(|o| o != opening + 1)
            || fens.get(&opening).is_some_and(|f| *f != fen)
        {
            return Err(bad(format!(
                "game {round} did not start from opening {} of this match",
                opening + 1
            )));
        }
        fens.insert(opening, fen);
        let game = Game {
            text: format!("{}\n\n", text[span.clone()].trim_end()),
            result: g.tag("Result").unwrap_or(&g.result).to_string(),
            a_red,
            ending: termination_kind(&g.reason, g.tag("Termination").unwrap_or("")),
        };
        if games.insert(index, game).is_some() {
            return Err(bad(format!("game {round} is in it twice")));
        }
    }
    let missing: Vec<usize> = info
        .games
        .clone()
        .filter(|i| !games.contains_key(i))
        .collect();
    if let Some(&m) = missing.first() {
        return Err(bad(format!(
            "{} of its games are missing (the first is game {}): finish the shard \
             (--resume) and merge again",
            missing.len(),
            m + 1
        )));
    }
    Ok(())
}
