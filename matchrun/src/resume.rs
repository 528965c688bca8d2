//! Resuming a match from its PGN: the games already played are checked
//! against the match and counted, and the file is cut after its last
//! complete game so that the next ones follow it.

use crate::pgn;
use crate::tally::Tally;
use crate::{MatchConfig, MatchError, game_setup, termination_kind};
use std::io::Write;
use std::path::Path;

/// The games of the PGN at `path` (none if there is no such file), checked
/// against the match: count them into `tally`. Returns the indices of the
/// games found and the length of the PGN's complete part.
pub(crate) fn resume_from(
    cfg: &MatchConfig,
    path: &Path,
    tally: &mut Tally,
) -> Result<(Vec<usize>, usize), MatchError> {
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(source) => {
            return Err(MatchError::ReadPgn {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let bad = |reason: String| MatchError::Resume {
        path: path.to_path_buf(),
        reason,
    };
    let file = pgn::read_pgn(&text);
    let range = cfg.games_to_play()?;
    let names = [&cfg.engines[0].name, &cfg.engines[1].name];
    let mut seen = std::collections::BTreeSet::new();
    for (k, g) in file.games.iter().enumerate() {
        let round = g
            .tag("Round")
            .and_then(|r| r.parse::<usize>().ok())
            .filter(|&r| r > 0)
            .ok_or_else(|| bad(format!("game {} has no Round number", k + 1)))?;
        let index = round - 1;
        if !range.contains(&index) {
            return Err(bad(format!(
                "game {round} is not one of the games {}-{} this run plays",
                range.start + 1,
                range.end
            )));
        }
        if !seen.insert(index) {
            return Err(bad(format!("game {round} is in it twice")));
        }
        let (opening, a_red) = game_setup(index, cfg.openings.len());
        let (red, black) = (g.tag("White").unwrap_or(""), g.tag("Black").unwrap_or(""));
        let want = if a_red { names } else { [names[1], names[0]] };
        if [red, black] != [want[0].as_str(), want[1].as_str()] {
            return Err(bad(format!(
                "game {round} is {red} vs {black}; this match has {} vs {} in it",
                want[0], want[1]
            )));
        }
        if g.tag("FEN") != Some(cfg.openings[opening].as_str()) {
            return Err(bad(format!(
                "game {round} did not start from opening {} of this match",
                opening + 1
            )));
        }
        let result = g.tag("Result").unwrap_or(&g.result);
        let ending = termination_kind(&g.reason, g.tag("Termination").unwrap_or(""));
        tally.add(index, result, a_red, ending);
    }
    if file.complete_len < text.len() && !text[file.complete_len..].trim().is_empty() {
        eprintln!(
            "{}: dropping a game that was cut short ({} bytes); it is played again",
            path.display(),
            text.len() - file.complete_len
        );
    }
    // Keep what follows the last game if it is only blank lines.
    let keep = if text[file.complete_len..].trim().is_empty() {
        text.len()
    } else {
        file.complete_len
    };
    Ok((seen.into_iter().collect(), keep))
}

/// Open the PGN: a new file, or the one resumed, cut after its last
/// complete game and ready for the next one.
pub(crate) fn open_pgn(
    path: &Path,
    resume_len: Option<usize>,
) -> Result<std::fs::File, MatchError> {
    let create = |source| MatchError::CreatePgn {
        path: path.to_path_buf(),
        source,
    };
    let Some(len) = resume_len.filter(|_| path.exists()) else {
        return std::fs::File::create(path).map_err(create);
    };
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(create)?;
    f.set_len(len as u64).map_err(MatchError::WritePgn)?;
    let mut tail = Vec::new();
    if len > 0 {
        use std::io::{Read, Seek, SeekFrom};
        f.seek(SeekFrom::Start(len.saturating_sub(2) as u64))
            .and_then(|_| f.read_to_end(&mut tail))
            .map_err(MatchError::WritePgn)?;
        // A blank line between the games.
        let gap = match tail.as_slice() {
            [.., b'\n', b'\n'] => "",
            [.., b'\n'] => "\n",
            _ => "\n\n",
        };
        f.write_all(gap.as_bytes()).map_err(MatchError::WritePgn)?;
    }
    Ok(f)
}
