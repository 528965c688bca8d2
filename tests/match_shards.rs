//! A match played in shards equals the match played whole: `jiangjun match
//! --shard` / `--shard-games` and `jiangjun match merge` against the real
//! binary, at fixed nodes (where games are deterministic: one thread, no
//! book, tables cleared at each new game). Merging refuses shards that
//! overlap, leave games out or come from other settings; a stopped shard
//! resumes; the GNU parallel recipe (scripts/match_shards.sh) gives the
//! same match when parallel is installed.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const BIN: &str = env!("CARGO_BIN_EXE_jiangjun");
const GAMES: &str = "8";

/// The match's options (no --pgn; a later --games overrides its --games): jiangjun against itself at two node
/// counts, the second's hash size changing from game to game, so that the
/// games differ and each shard must give a game the whole match's options.
fn match_args() -> Vec<String> {
    let engine = |name: &str, nodes: u32, extra: &str| {
        format!(
            "name={name},cmd={BIN},proto=uci,option.OwnBook=false,option.Threads=1,tc=nodes={nodes}{extra}"
        )
    };
    let mut args: Vec<String> = vec![
        "--engine".into(),
        engine("A", 1500, ""),
        "--engine".into(),
        engine("B", 1000, ",option.Hash=16|8"),
        "--games".into(),
        GAMES.into(),
        "--sprt".into(),
        "elo0=0,elo1=10".into(),
        "--quiet".into(),
    ];
    let openings = common::shared_dir().join("data/openings/openings.epd");
    if openings.exists() {
        args.push("--openings".into());
        args.push(openings.to_string_lossy().into_owned());
    } else {
        eprintln!(
            "note: {} is missing; the games all start from the start position",
            openings.display()
        );
    }
    args
}

fn jiangjun(args: &[String]) -> Output {
    Command::new(BIN).args(args).output().expect("run jiangjun")
}

/// Run `jiangjun match` with the match's options and `extra`; its summary.
fn play(extra: &[&str]) -> String {
    let mut args = vec!["match".to_string()];
    args.extend(match_args());
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = jiangjun(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{args:?} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// `jiangjun match merge --out OUT SHARDS...`: exit code, stdout, stderr.
fn merge(out: &Path, shards: &[&Path]) -> (i32, String, String) {
    let mut args = vec!["match".to_string(), "merge".into(), "--out".into()];
    args.push(out.to_string_lossy().into_owned());
    args.extend(shards.iter().map(|p| p.to_string_lossy().into_owned()));
    let o = jiangjun(&args);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn temp_dir(tag: &str) -> PathBuf {
    common::scratch_dir(&format!("shards-{tag}"))
}

/// A PGN as the tokens that must be equal between two runs of one match:
/// everything but the Date tag and the time each move took (the scores and
/// depths stay). Tokens, not lines: a move's time changes the comment's
/// width and so where lines wrap.
fn game_tokens(pgn: &str) -> Vec<String> {
    pgn.lines()
        .filter(|l| !l.starts_with("[Date "))
        .flat_map(str::split_whitespace)
        .map(|t| {
            let time = t.strip_suffix("s}").map(|x| x.trim_start_matches('{'));
            match time {
                Some(x) if x.parse::<f64>().is_ok() => {
                    if t.starts_with('{') { "{}" } else { "}" }.to_string()
                }
                _ => t.to_string(),
            }
        })
        .collect()
}

/// The `Round` tags in file order.
fn rounds(pgn: &str) -> Vec<String> {
    pgn.lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .map(|r| r.trim_end_matches("\"]").to_string())
        .collect()
}

/// A summary without the seconds the run took (its first line's end).
fn without_seconds(summary: &str) -> String {
    let mut lines: Vec<String> = summary.lines().map(str::to_string).collect();
    if let Some(first) = lines.first_mut()
        && let Some(cut) = first.rfind(" in ")
    {
        first.truncate(cut);
    }
    lines.join("\n")
}

/// The whole match, played once for every test here: its PGN and summary.
fn whole() -> &'static (String, String) {
    static WHOLE: OnceLock<(String, String)> = OnceLock::new();
    WHOLE.get_or_init(|| {
        let dir = temp_dir("whole");
        let pgn = dir.join("whole.pgn");
        let summary = play(&["--pgn", pgn.to_str().unwrap()]);
        let text = std::fs::read_to_string(&pgn).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        // The games differ (else equal PGNs would prove little): one per
        // opening at least, and not every game has one result.
        let games: std::collections::BTreeSet<&str> = text.split("[Event ").collect();
        let results: std::collections::BTreeSet<&str> =
            text.lines().filter(|l| l.starts_with("[Result ")).collect();
        if match_args().iter().any(|a| a == "--openings") {
            assert!(games.len() > 4, "{text}");
            assert!(results.len() > 1, "{text}");
        }
        (text, summary)
    })
}

/// The merged match equals the whole one: games in order, moves, scores,
/// results, and the summary but its seconds.
fn assert_same_as_whole(merged_pgn: &Path, merged_summary: &str) {
    let (pgn, summary) = whole();
    let merged = std::fs::read_to_string(merged_pgn).unwrap();
    let want: Vec<String> = (1..=8).map(|r| r.to_string()).collect();
    assert_eq!(rounds(pgn), want, "the whole match, one game at a time");
    assert_eq!(rounds(&merged), want, "{merged}");
    assert_eq!(
        game_tokens(&merged),
        game_tokens(pgn),
        "{merged}\n---\n{pgn}"
    );
    assert_eq!(without_seconds(merged_summary), without_seconds(summary));
    assert!(
        summary.contains(&format!(": {GAMES} games in ")),
        "{summary}"
    );
    assert!(summary.contains("Pentanomial"), "{summary}");
    assert!(
        summary.contains("SPRT (Normalized, elo0 0, elo1 10"),
        "{summary}"
    );
}

#[test]
fn two_shards_merge_into_the_whole_match() {
    let dir = temp_dir("two");
    let (s1, s2) = (dir.join("s1.pgn"), dir.join("s2.pgn"));
    let one = play(&["--shard", "1/2", "--pgn", s1.to_str().unwrap()]);
    assert!(one.contains("(one shard: games 1-4 of 8;"), "{one}");
    // The second shard two games at a time: its PGN is in the order the
    // games ended, and the merge puts them in game order.
    play(&[
        "--shard-games",
        "4..8",
        "--concurrency",
        "2",
        "--pgn",
        s2.to_str().unwrap(),
    ]);
    assert!(dir.join("s2.pgn.settings").exists());
    let out = dir.join("all.pgn");
    let (code, summary, err) = merge(&out, &[&s2, &s1]);
    assert_eq!(code, 0, "{err}");
    assert_same_as_whole(&out, &summary);
    // Merging the merged match again with anything is an overlap.
    let (code, _, err) = merge(&dir.join("again.pgn"), &[&out, &s2]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("overlap: games 5-8 are in both"), "{err}");
    refusals(&dir, &s1, &s2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Shards that are not one whole match are refused, saying why.
fn refusals(dir: &Path, s1: &Path, s2: &Path) {
    let out = dir.join("bad.pgn");
    let refused = |shards: &[&Path], why: &str| {
        let (code, stdout, err) = merge(&out, shards);
        assert_eq!(code, 2, "{shards:?}: {stdout}{err}");
        assert!(err.contains(why), "{shards:?}: wanted '{why}' in: {err}");
        assert!(stdout.is_empty(), "{stdout}");
    };
    refused(&[s1], "games 5-8 of the match's 8 are in no shard given");
    refused(&[s1, s1], "overlap: games 1-4 are in both");
    refused(&[s1, s2, &dir.join("nothing.pgn")], "played with --shard?");
    refused(&[s1, s2, s1], "overlap");
    let (code, _, err) = merge(s1, &[s1, s2]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is a shard"), "{err}");
    // Shard 2 as another match would have it: other node counts.
    let copy = |name: &str, edit: &dyn Fn(String) -> String, pgn: &dyn Fn(String) -> String| {
        let p = dir.join(name);
        let settings = std::fs::read_to_string(dir.join("s2.pgn.settings")).unwrap();
        std::fs::write(dir.join(format!("{name}.settings")), edit(settings)).unwrap();
        std::fs::write(&p, pgn(std::fs::read_to_string(s2).unwrap())).unwrap();
        p
    };
    let same = |s: String| s;
    let other = copy(
        "other.pgn",
        &|s| s.replace("tc=nodes=1000", "tc=nodes=999"),
        &same,
    );
    refused(&[s1, &other], "are not of one match");
    // Shard 2 with its last game lost.
    let cut = copy("cut.pgn", &same, &|t| {
        let last = t.rfind("[Event ").unwrap();
        t[..last].to_string()
    });
    refused(&[s1, &cut], "1 of its games are missing");
    // A game of shard 1 in shard 2's file.
    let stray = copy("stray.pgn", &same, &|t| {
        t + &std::fs::read_to_string(s1).unwrap()
    });
    refused(&[s1, &stray], "game 1 is not one of its games 5-8");
}

#[test]
fn a_stopped_shard_resumes_and_other_settings_are_refused() {
    let dir = temp_dir("resume");
    let (s1, s2) = (dir.join("s1.pgn"), dir.join("s2.pgn"));
    // Shards that split the pair of games 3 and 4: the merge still counts it.
    play(&["--shard-games", "0..3", "--pgn", s1.to_str().unwrap()]);
    // Shard 2 stopped after its first game: the rest of its PGN lost.
    play(&["--shard-games", "3..8", "--pgn", s2.to_str().unwrap()]);
    let text = std::fs::read_to_string(&s2).unwrap();
    let second = text[1..].find("[Event ").unwrap() + 1;
    std::fs::write(&s2, &text[..second]).unwrap();
    // Resuming with other settings is refused and changes nothing.
    let before = std::fs::read_to_string(&s2).unwrap();
    let mut args = vec!["match".to_string()];
    args.extend(match_args());
    args.extend(
        [
            "--games",
            "10",
            "--shard-games",
            "3..8",
            "--resume",
            "--pgn",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    args.push(s2.to_string_lossy().into_owned());
    let o = jiangjun(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains(
            "cannot resume: it was played with other settings ('games 8'; this run has 'games 10')"
        ),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&s2).unwrap(), before);
    // The same settings: the four missing games are played.
    let s2_arg = s2.to_str().unwrap();
    let summary = play(&["--shard-games", "3..8", "--resume", "--pgn", s2_arg]);
    assert!(
        summary.contains("(1 of them from the PGN resumed)"),
        "{summary}"
    );
    let out = dir.join("all.pgn");
    let (code, summary, err) = merge(&out, &[&s1, &s2]);
    assert_eq!(code, 0, "{err}");
    assert_same_as_whole(&out, &summary);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_gnu_parallel_recipe_gives_the_whole_match() {
    if !common::runs("parallel", &["--version"]) {
        return common::skip("GNU parallel is not installed (apt-get install parallel)");
    }
    let dir = temp_dir("parallel");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/match_shards.sh");
    let mut args = vec!["2".to_string(), dir.to_string_lossy().into_owned()];
    args.extend(match_args());
    let o = Command::new("bash")
        .arg(&script)
        .args(&args)
        .env("JIANGJUN", BIN)
        .env("JOBS", "2")
        .output()
        .expect("run the script");
    let summary = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{summary}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("summary.txt")).unwrap(),
        summary
    );
    assert_same_as_whole(&dir.join("match.pgn"), &summary);
    let joblog = std::fs::read_to_string(dir.join("shards.joblog")).unwrap();
    assert_eq!(joblog.lines().count(), 3, "{joblog}");
    let _ = std::fs::remove_dir_all(&dir);
}
