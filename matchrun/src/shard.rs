//! Shards of a match: a range of its games, played on its own (on another
//! core or machine) with the opening and colours the whole match gives each
//! game, for [`crate::merge`] to join into the match's result.
//!
//! A shard's PGN `X.pgn` has a settings file `X.pgn.settings` beside it:
//! every setting that makes two runs parts of one match (engines, time
//! control, openings, number of games, SPRT, adjudication and rules), then
//! the games of this shard and the seconds it took. The engines' programs
//! are named by their contents too, so a shard played by another build is
//! not merged with the rest. It is written before
//! the first game, so a shard that was stopped still says what it is; a
//! shard resumed with other settings is refused.

use crate::engine::EngineSpec;
use crate::{MatchConfig, MatchError};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The first line of a settings file.
const HEADER: &str = "# jiangjun match shard: the match's settings (the same in every shard), then this shard's games";

/// The settings file beside a shard's PGN: its path with `.settings` added.
pub fn settings_path(pgn: &Path) -> PathBuf {
    let mut s = pgn.as_os_str().to_owned();
    s.push(".settings");
    PathBuf::from(s)
}

/// Shard `k` of `n` (from 1) of a match of `games` games: the games of
/// the `k`-th of `n` runs of whole pairs (an opening with both colours), as
/// even as they can be. Errors name what is wrong.
pub fn shard_of(k: usize, n: usize, games: usize) -> Result<Range<usize>, String> {
    let pairs = games.div_ceil(2);
    if n == 0 || k == 0 || k > n {
        return Err(format!("shard {k}/{n}: need 1 <= K <= N"));
    }
    if n > pairs {
        return Err(format!(
            "shard {k}/{n}: {games} games are {pairs} pairs, too few for {n} shards"
        ));
    }
    let (lo, hi) = ((k - 1) * pairs / n, k * pairs / n);
    Ok(2 * lo..(2 * hi).min(games))
}

/// Parse `K/N` (see [`shard_of`]).
pub fn parse_shard(text: &str, games: usize) -> Result<Range<usize>, String> {
    let bad = || format!("--shard '{text}' is not K/N (e.g. 2/4)");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k = k.trim().parse().map_err(|_| bad())?;
    let n = n.trim().parse().map_err(|_| bad())?;
    shard_of(k, n, games)
}

/// Parse `A..B`: the game indices from `A` (from 0) up to `B` excluded,
/// i.e. the PGN's rounds `A+1` to `B`, within a match of `games` games.
pub fn parse_range(text: &str, games: usize) -> Result<Range<usize>, String> {
    let bad = || format!("--shard-games '{text}' is not A..B (game indices from 0, B excluded)");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let a: usize = a.trim().parse().map_err(|_| bad())?;
    let b: usize = b.trim().parse().map_err(|_| bad())?;
    if a >= b || b > games {
        return Err(format!(
            "--shard-games {a}..{b}: need A < B <= the match's {games} games"
        ));
    }
    Ok(a..b)
}

/// FNV-1a, 64 bits: a fingerprint of the opening list that stays the same
/// on every machine and version (std's hashers promise neither).
fn fnv1a(parts: &[String]) -> u64 {
    let mut h = FNV_START;
    for p in parts {
        h = fnv1a_bytes(h, p.as_bytes());
        h = fnv1a_bytes(h, b"\n");
    }
    h
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv1a_bytes(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The files an engine runs, by content: its program (found as the
/// operating system finds it: on `PATH` unless the name has a `/`) and each
/// argument that names a file (a script). Shards played by other builds
/// installed at the same path are so told apart.
fn program_fingerprint(spec: &EngineSpec) -> String {
    let dir = spec.dir.as_deref().map(Path::new);
    let in_dir = |name: &str| -> Option<PathBuf> {
        let p = Path::new(name);
        let candidates = dir.map(|d| d.join(p)).into_iter().chain([p.to_path_buf()]);
        candidates.into_iter().find(|c| c.is_file())
    };
    let program = if spec.cmd.contains('/') {
        in_dir(&spec.cmd)
    } else {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|d| d.join(&spec.cmd))
                .find(|c| c.is_file())
        })
    };
    let print = |path: Option<PathBuf>| match path.map(std::fs::read) {
        Some(Ok(bytes)) => format!(
            "fnv1a64={:016x},bytes={}",
            fnv1a_bytes(FNV_START, &bytes),
            bytes.len()
        ),
        _ => "unknown".to_string(),
    };
    let mut text = format!("program {} {}", spec.name, print(program));
    for a in &spec.args {
        if let Some(file) = in_dir(a) {
            text.push_str(&format!(" arg {a} {}", print(Some(file))));
        }
    }
    text
}

/// The settings of a match, one `key value` a line: what must be the same
/// for two shards to be parts of one match. How many games run at once and
/// the progress line are left out: they change no game.
pub fn settings_lines(cfg: &MatchConfig) -> Vec<String> {
    let g = &cfg.game;
    let off = || "off".to_string();
    let sprt = cfg.sprt.map_or_else(off, |s| {
        let model = match s.model {
            crate::stats::SprtModel::Normalized => "normalized",
            crate::stats::SprtModel::Logistic => "logistic",
        };
        format!(
            "elo0={},elo1={},alpha={},beta={},model={model}",
            s.elo0, s.elo1, s.alpha, s.beta
        )
    });
    let resign = g
        .adjudication
        .resign
        .map_or_else(off, |r| format!("movecount={},score={}", r.moves, r.score));
    let draw = g.adjudication.draw.map_or_else(off, |d| {
        format!(
            "movenumber={},movecount={},score={}",
            d.after_move, d.moves, d.score
        )
    });
    vec![
        "format 1".to_string(),
        format!("games {}", cfg.games),
        format!("engine {}", cfg.engines[0].to_text()),
        format!("engine {}", cfg.engines[1].to_text()),
        program_fingerprint(&cfg.engines[0]),
        program_fingerprint(&cfg.engines[1]),
        format!("tc {}", cfg.tc),
        format!(
            "openings {} fnv1a64={:016x}",
            cfg.openings.len(),
            fnv1a(&cfg.openings)
        ),
        format!("sprt {sprt}"),
        format!("resign {resign}"),
        format!("draw {draw}"),
        format!(
            "rules fold={},max_plies={},tolerance_ms={},hang_timeout_s={}",
            g.fold,
            g.max_plies,
            g.tolerance.as_millis(),
            g.hang_timeout.as_secs()
        ),
        format!(
            "moves {}",
            if cfg.chinese_moves { "chinese" } else { "iccs" }
        ),
    ]
}

/// A settings file: the match's settings and this shard's games and time.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardInfo {
    pub settings: Vec<String>,
    pub games: Range<usize>,
    /// Seconds the shard's runs took, resumed runs added up.
    pub seconds: f64,
}

impl ShardInfo {
    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut s = format!("{HEADER}\n");
        for l in &self.settings {
            s.push_str(l);
            s.push('\n');
        }
        s.push_str(&format!(
            "shard {}..{}\nseconds {:.1}\n",
            self.games.start, self.games.end, self.seconds
        ));
        s
    }

    /// Read a file's text back; the error says what is missing or wrong.
    pub fn parse(text: &str) -> Result<ShardInfo, String> {
        let mut settings = Vec::new();
        let (mut games, mut seconds) = (None, None);
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "shard" => {
                    let (a, b) = value
                        .split_once("..")
                        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
                        .ok_or_else(|| format!("'{line}' is not shard A..B"))?;
                    games = Some(a..b);
                }
                "seconds" => {
                    seconds = Some(
                        value
                            .parse()
                            .map_err(|_| format!("'{line}' is not seconds N"))?,
                    )
                }
                _ => settings.push(line.to_string()),
            }
        }
        if settings.first().map(String::as_str) != Some("format 1") {
            return Err("not a match shard's settings (no 'format 1' line)".into());
        }
        Ok(ShardInfo {
            settings,
            games: games.ok_or("no 'shard A..B' line")?,
            seconds: seconds.unwrap_or(0.0),
        })
    }

    /// Read the settings file at `path`.
    pub fn read(path: &Path) -> Result<ShardInfo, MatchError> {
        let bad = |reason: String| MatchError::Settings {
            path: path.to_path_buf(),
            reason,
        };
        let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
        ShardInfo::parse(&text).map_err(bad)
    }

    /// Write it to `path`, whole or not at all (a new file renamed over the old).
    pub fn write(&self, path: &Path) -> Result<(), MatchError> {
        let bad = |e: std::io::Error| MatchError::Settings {
            path: path.to_path_buf(),
            reason: e.to_string(),
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        std::fs::write(&tmp, self.to_text()).map_err(bad)?;
        std::fs::rename(&tmp, path).map_err(bad)
    }

    /// The first setting in which `other` differs, as `ours` / `theirs`.
    pub fn first_difference(&self, other: &ShardInfo) -> Option<(String, String)> {
        let n = self.settings.len().max(other.settings.len());
        (0..n).find_map(|i| {
            let a = self.settings.get(i).map_or("(nothing)", String::as_str);
            let b = other.settings.get(i).map_or("(nothing)", String::as_str);
            (a != b).then(|| (a.to_string(), b.to_string()))
        })
    }
}

/// The settings file of a shard being played.
pub(crate) struct ShardFile {
    path: PathBuf,
    info: ShardInfo,
}

impl ShardFile {
    /// Write the settings of the shard `cfg` plays beside `pgn`. A resumed
    /// shard's file must hold the same settings and games; its seconds are
    /// carried on.
    pub(crate) fn open(cfg: &MatchConfig, pgn: &Path) -> Result<ShardFile, MatchError> {
        let path = settings_path(pgn);
        let mut info = ShardInfo {
            settings: settings_lines(cfg),
            games: cfg.games_to_play()?,
            seconds: 0.0,
        };
        if cfg.resume && path.exists() {
            let old = ShardInfo::read(&path)?;
            let refuse = |reason: String| MatchError::Resume {
                path: pgn.to_path_buf(),
                reason,
            };
            if let Some((was, now)) = old.first_difference(&info) {
                return Err(refuse(format!(
                    "it was played with other settings ('{was}'; this run has '{now}')"
                )));
            }
            if old.games != info.games {
                return Err(refuse(format!(
                    "it holds games {}..{}, this run plays {}..{}",
                    old.games.start, old.games.end, info.games.start, info.games.end
                )));
            }
            info.seconds = old.seconds;
        }
        info.write(&path)?;
        Ok(ShardFile { path, info })
    }

    /// Add this run's seconds to the file.
    pub(crate) fn finish(mut self, seconds: f64) -> Result<(), MatchError> {
        self.info.seconds += seconds;
        self.info.write(&self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_control::TimeControl;

    #[test]
    fn shards_are_whole_pairs_and_tile_the_match() {
        assert_eq!(shard_of(1, 4, 400), Ok(0..100));
        assert_eq!(shard_of(4, 4, 400), Ok(300..400));
        // 7 games are 4 pairs, the last one half played.
        let tiles: Vec<_> = (1..=3).map(|k| shard_of(k, 3, 7).unwrap()).collect();
        assert_eq!(tiles, [0..2, 2..4, 4..7]);
        assert!(shard_of(0, 3, 8).is_err());
        assert!(shard_of(4, 3, 8).is_err());
        assert!(shard_of(1, 5, 8).unwrap_err().contains("4 pairs"));
        assert_eq!(parse_shard("2/4", 400), Ok(100..200));
        assert!(parse_shard("2-4", 400).is_err());
        assert_eq!(parse_range("100..200", 400), Ok(100..200));
        assert_eq!(parse_range("0..1", 1), Ok(0..1));
        for bad in ["5..5", "0..401", "x..2", "3", "2..1"] {
            assert!(parse_range(bad, 400).is_err(), "{bad}");
        }
    }

    #[test]
    fn settings_read_back_and_name_what_differs() {
        let spec = "name=A,cmd=./a,arg=-x,proto=ucci,timeunit=s,tc=nodes=500,option.Hash=16|64";
        let a = EngineSpec::parse(spec).unwrap();
        let b = EngineSpec::parse("cmd=./b").unwrap();
        // The spec's text is read back as the same spec.
        let again = EngineSpec::parse(&a.to_text()).unwrap();
        assert_eq!(again.to_text(), a.to_text());
        assert_eq!(again.options, a.options);
        let mut cfg = MatchConfig::new([a, b], TimeControl::parse("10+0.1").unwrap());
        cfg.games = 8;
        cfg.shard = Some(2..6);
        let info = ShardInfo {
            settings: settings_lines(&cfg),
            games: 2..6,
            seconds: 12.5,
        };
        let back = ShardInfo::parse(&info.to_text()).unwrap();
        assert_eq!(back, info);
        assert_eq!(back.first_difference(&info), None);
        cfg.games = 10;
        let other = ShardInfo {
            settings: settings_lines(&cfg),
            ..info.clone()
        };
        assert_eq!(
            info.first_difference(&other),
            Some(("games 8".into(), "games 10".into()))
        );
        assert!(ShardInfo::parse("games 3\nshard 0..3\n").is_err());
        // The program's contents, not its path, and a script argument's.
        let dir = std::env::temp_dir().join(format!("xm-shard-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("e"), "abc").unwrap();
        std::fs::write(dir.join("s.py"), "x").unwrap();
        let spec = |cmd: &str| {
            let text = format!("name=E,cmd={cmd},arg=s.py,arg=uci,dir={}", dir.display());
            program_fingerprint(&EngineSpec::parse(&text).unwrap())
        };
        // FNV-1a 64 of "abc" and "x" (checked with a few lines of Python).
        let abc =
            "program E fnv1a64=e71fa2190541574b,bytes=3 arg s.py fnv1a64=af63f54c86021707,bytes=1";
        assert_eq!(spec("./e"), abc);
        assert_eq!(spec(&dir.join("e").to_string_lossy()), abc);
        assert!(spec("./none").starts_with("program E unknown arg s.py"));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(ShardInfo::parse("format 1\nshard 0-3\n").is_err());
        assert!(ShardInfo::parse("format 1\n").is_err());
    }
}
