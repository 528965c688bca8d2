//! Unit tests of the engine process wrapper: spec parsing, score parsing,
//! capped reading.

use super::*;
use crate::time_control::TimeControl;
use std::io::Cursor;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn rank_shifts() {
    assert_eq!(shift_ranks("h2e2", 1).unwrap(), "h3e3");
    assert_eq!(shift_ranks("h9g7", 1).unwrap(), "h10g8");
    assert_eq!(shift_ranks("h10g8", -1).unwrap(), "h9g7");
    assert_eq!(shift_ranks("b10c8", -1).unwrap(), "b9c7");
    assert!(shift_ranks("x1y2", 1).is_none());
    assert!(shift_ranks("h2e", 1).is_none());
}

#[test]
fn engine_specs() {
    let s = EngineSpec::parse(
        "name=FSF,cmd=/usr/games/fairy-stockfish,proto=ucci,option.Hash=64,ranks=0-9,tc=st=1",
    )
    .unwrap();
    assert_eq!(s.name, "FSF");
    assert_eq!(s.proto, Proto::Ucci);
    assert_eq!(
        s.options,
        vec![OptionSetting {
            name: "Hash".into(),
            values: vec!["64".into()]
        }]
    );
    assert!(!s.varies() && !s.ponder);
    assert_eq!(s.tc, Some(TimeControl::MoveTime(1000)));
    let s = EngineSpec::parse("cmd=./jiangjun,arg=-a,arg=b").unwrap();
    assert_eq!(s.name, "jiangjun");
    assert_eq!(s.args, vec!["-a", "b"]);
    assert_eq!(
        EngineSpec::parse("name=x").unwrap_err().to_string(),
        "engine spec: cmd= is required"
    );
    assert_eq!(
        EngineSpec::parse("cmd=x,proto=xboard")
            .unwrap_err()
            .to_string(),
        "engine spec: proto 'xboard' is not uci or ucci"
    );
    assert_eq!(
        EngineSpec::parse("cmd=x,bogus").unwrap_err().to_string(),
        "engine spec: 'bogus' is not key=value"
    );
    assert_eq!(
        EngineSpec::parse("cmd=x,hash=1").unwrap_err().to_string(),
        "engine spec: unknown key 'hash'"
    );
    assert!(EngineSpec::parse("cmd=x,tc=fast").is_err());
}

#[test]
fn options_vary_between_games() {
    let s = EngineSpec::parse(
        "cmd=x,option.Hash=16|32|64,option.MultiPV=1,option.Threads=1|2,ponder=on",
    )
    .unwrap();
    assert!(s.ponder && s.varies());
    let games: Vec<Vec<(String, String)>> = (0..7).map(|g| s.options_for_game(g)).collect();
    let pairs = |h: &str, t: &str| vec![("Hash".into(), h.into()), ("Threads".into(), t.into())];
    assert_eq!(games[0], pairs("16", "1"));
    assert_eq!(games[1], pairs("32", "1"));
    assert_eq!(games[2], pairs("64", "1"));
    assert_eq!(games[3], pairs("16", "2"));
    assert_eq!(games[5], pairs("64", "2"));
    assert_eq!(games[6], games[0]);
    // A single value is set once, not per game.
    let fixed = EngineSpec::parse("cmd=x,option.Hash=16").unwrap();
    assert!(!fixed.varies() && fixed.options_for_game(3).is_empty());
    assert_eq!(
        EngineSpec::parse("cmd=x,option.Hash=16||64")
            .unwrap_err()
            .to_string(),
        "engine spec: option.Hash has an empty value in its list"
    );
    assert_eq!(
        EngineSpec::parse("cmd=x,ponder=maybe")
            .unwrap_err()
            .to_string(),
        "engine spec: ponder 'maybe' is not on or off"
    );
}

#[test]
fn scores_saturate() {
    let score = |line: &str| {
        let mut r = Reply::default();
        parse_info(line, &mut r);
        r.score
    };
    assert_eq!(score("info depth 5 score cp 35 pv h2e2"), Some(35));
    assert_eq!(score("info depth 5 score mate 1"), Some(MATE - 1));
    assert_eq!(score("info depth 5 score mate -2"), Some(4 - MATE));
    assert_eq!(score("info depth 5 score mate 0"), Some(-MATE));
    assert_eq!(score("info depth 5 score 120"), Some(120));
    // UCCI mates as ElephantEye writes them: 10000 - plies.
    assert_eq!(score("info depth 5 score 9997"), Some(MATE - 3));
    assert_eq!(score("info depth 5 score -9996"), Some(4 - MATE));
    assert_eq!(score("info depth 5 score 9800"), Some(9800));
    assert_eq!(score("info depth 5 score -9800"), Some(-9800));
    assert_eq!(score("info depth 5 score 10001"), Some(10001));
    // Out-of-range numbers neither panic nor wrap.
    let mated = MAX_MATE_PLIES - MATE;
    let mates = MATE - MAX_MATE_PLIES;
    for (line, want) in [
        ("info score mate -2147483648", mated),
        ("info score mate 2147483647", mates),
        ("info score mate -9223372036854775808", mated),
        ("info score mate 99999999999999999999999", mates),
        ("info score mate -99999999999999999999999", mated),
        ("info score cp 99999999999999", MAX_CP),
        ("info score cp -99999999999999999999999", -MAX_CP),
        ("info score cp -2147483648", -MAX_CP),
        ("info score 99999999999999999999999", MAX_CP),
    ] {
        assert_eq!(score(line), Some(want), "{line}");
    }
    assert_eq!(score("info score cp abc"), None);
    // Every mate score is beyond every centipawn score.
    assert!(mates > MAX_CP);
}

#[test]
fn long_lines_are_cut() {
    let mut input = vec![b'x'; 10 * MAX_LINE];
    input.extend_from_slice(b"\nreadyok\nlast");
    let mut r = BufReader::with_capacity(1000, Cursor::new(input));
    let mut buf = Vec::new();
    assert!(read_line_capped(&mut r, &mut buf, MAX_LINE).unwrap());
    assert_eq!(buf.len(), MAX_LINE);
    assert!(read_line_capped(&mut r, &mut buf, MAX_LINE).unwrap());
    assert_eq!(buf, b"readyok");
    assert!(read_line_capped(&mut r, &mut buf, MAX_LINE).unwrap());
    assert_eq!(buf, b"last");
    assert!(!read_line_capped(&mut r, &mut buf, MAX_LINE).unwrap());
    let rx = spawn_reader(Cursor::new(b"a\r\n\nb".to_vec()));
    let lines: Vec<String> = rx
        .iter()
        .map_while(|l| match l {
            Line::Text(t, _) => Some(t),
            Line::Eof => None,
        })
        .collect();
    assert_eq!(lines, ["a", "", "b"]);
}

/// Endless engine output, counting the bytes taken from it.
struct Flood(Arc<AtomicUsize>);

impl Read for Flood {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        const LINE: &[u8] = b"info depth 1 score cp 0 nodes 1 pv h2e2\n";
        let n = buf.len().min(4096);
        for (i, b) in buf[..n].iter_mut().enumerate() {
            *b = LINE[(self.0.load(Ordering::Relaxed) + i) % LINE.len()];
        }
        self.0.fetch_add(n, Ordering::Relaxed);
        Ok(n)
    }
}

#[test]
fn a_flood_of_output_waits_for_the_reader() {
    let taken = Arc::new(AtomicUsize::new(0));
    let rx = spawn_reader(Flood(taken.clone()));
    std::thread::sleep(Duration::from_millis(300));
    let first = taken.load(Ordering::Relaxed);
    std::thread::sleep(Duration::from_millis(300));
    let second = taken.load(Ordering::Relaxed);
    // The queue is full and the reader waits: nothing more is read.
    assert_eq!(first, second);
    assert!(second <= (QUEUE_LINES + 2) * 64 + 2 * 8192, "{second}");
    // Taking lines lets it go on (past what its buffer holds).
    for _ in 0..QUEUE_LINES + 1000 {
        assert!(matches!(rx.recv().unwrap(), Line::Text(t, _) if t.starts_with("info")));
    }
    std::thread::sleep(Duration::from_millis(100));
    assert!(taken.load(Ordering::Relaxed) > second);
}
