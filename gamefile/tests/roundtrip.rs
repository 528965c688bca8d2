//! XQF written and read back gives the same game: start position, headers,
//! the whole tree with its variations and comments. On a made game (no
//! shared data needed) and on every game of the samples.
#![allow(clippy::unwrap_used)]

#[path = "../../xiangqi/tests/common/mod.rs"]
mod common;

use xiangqi::Board;
use xiangqi_gamefile::{Format, Game, GameResult, read_bytes, write_xqf, xqf};

/// A game from the start with a variation, a sub-variation and comments.
fn made_game() -> Game {
    let mut board = Board::startpos();
    let mut g = Game::new(board.clone());
    g.headers.title = "中炮对屏风马".into();
    g.headers.event = "测试赛".into();
    g.headers.date = "2026-12-07".into();
    g.headers.red = "红方".into();
    g.headers.black = "黑方".into();
    g.headers.result = GameResult::Draw;
    g.nodes[0].comment = Some("全局注解".into());
    let mv = |b: &Board, t: &str| b.parse_move(t).unwrap();
    let a = g.add(0, mv(&board, "h2e2"), Some("当头炮".into()));
    let alt = g.add(0, mv(&board, "b2e2"), None);
    board.make_move(mv(&board, "h2e2"));
    let b = g.add(a, mv(&board, "h9g7"), None);
    let b2 = g.add(a, mv(&board, "h7e7"), Some("顺炮".into()));
    board.make_move(mv(&board, "h9g7"));
    g.add(b, mv(&board, "h0g2"), None);
    let _ = (alt, b2);
    g
}

#[test]
fn a_made_game_survives_write_and_read() {
    let g = made_game();
    let bytes = write_xqf(&g);
    assert_eq!(&bytes[..3], b"XQ\x0a");
    let back = xqf::read(&bytes).unwrap();
    assert!(back.same_tree(&g), "{back:#?}\n{g:#?}");
    assert_eq!(back.main_line().len(), 3);
    assert_eq!(back.branch_points(), 2);
    assert!(back.warnings.is_empty());
}

#[test]
fn a_long_name_is_cut_at_a_character() {
    let mut g = made_game();
    g.headers.red = "一二三四五六七八九十".into(); // 20 GBK bytes, room for 15
    let back = xqf::read(&write_xqf(&g)).unwrap();
    assert_eq!(back.headers.red, "一二三四五六七");
}

#[test]
fn every_sample_game_survives_write_and_read() {
    let Some(dir) = common::shared_path("data/gamefiles") else {
        return;
    };
    let mut games = 0;
    for sub in ["xqf", "cbr", "cbl", "cbf"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap() {
            let path = e.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            let format = Format::of_path(&path).unwrap();
            for g in read_bytes(format, &data).unwrap().into_iter().flatten() {
                let back = xqf::read(&write_xqf(&g)).unwrap();
                // Names longer than XQF's fields are cut; the rest must stay.
                let mut expected = g.clone();
                expected.headers = back.headers.clone();
                assert!(expected.same_tree(&back), "{}", path.display());
                if sub == "xqf" {
                    assert_eq!(back.headers, g.headers, "{}", path.display());
                }
                games += 1;
            }
        }
    }
    assert_eq!(games, 221 + 2 + 2 + 93 + 36);
}

/// Every line of the tree from the root to a leaf, in ICCS.
fn lines(g: &Game) -> Vec<String> {
    let mut out: Vec<String> = (0..g.nodes.len())
        .filter(|&i| i != 0 && g.nodes[i].children.is_empty())
        .map(|i| {
            g.path_to(i)
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    out.sort();
    out
}

/// Another reader, `cchess` (a player's Python library), reads the files
/// we write: the same start, every line of the tree, the names.
#[test]
fn cchess_reads_what_we_write() {
    if !common::python_has("cchess") {
        return common::skip("python3 with cchess is not installed (pip install cchess)");
    }
    let Some(dir) = common::shared_path("data/gamefiles/xqf") else {
        return;
    };
    let out = std::env::temp_dir().join(format!("jj-xqf-write-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let mut games = vec![made_game()];
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    // All but cchess's 32,000-move collection, which takes it half a minute.
    files.retain(|f| !f.to_string_lossy().contains("FiveGoats"));
    for f in &files {
        games.push(xqf::read(&std::fs::read(f).unwrap()).unwrap());
    }
    for (i, g) in games.iter().enumerate() {
        std::fs::write(out.join(format!("{i}.xqf")), write_xqf(g)).unwrap();
    }
    let script = r#"
import sys, cchess
for i in range(int(sys.argv[2])):
    g = cchess.read_from_xqf(f"{sys.argv[1]}/{i}.xqf")
    lines = sorted(" ".join(l) for l in g.dump_iccs_moves() if l)
    print("\t".join([g.init_board.to_fen(), g.info.get("red", ""), g.info.get("title", "")] + lines))
"#;
    let run = std::process::Command::new("python3")
        .args([
            "-c",
            script,
            out.to_str().unwrap(),
            &games.len().to_string(),
        ])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stdout = String::from_utf8(run.stdout).unwrap();
    let mut agree = 0;
    for (g, row) in games.iter().zip(stdout.lines()) {
        let cols: Vec<&str> = row.split('\t').collect();
        let fen = g.start_fen();
        let fen2: Vec<&str> = fen.split(' ').take(2).collect();
        // cchess reads the side to move from the first move; a game with no
        // move is Red's to it.
        let side_known = !g.main_line().is_empty();
        let fen_ok = cols[0] == fen2.join(" ")
            || (!side_known && cols[0].split(' ').next() == Some(fen2[0]));
        let names_ok = cols[1] == g.headers.red && cols[2] == g.headers.title;
        assert!(fen_ok && names_ok && cols[3..] == lines(g)[..], "{row}");
        agree += 1;
    }
    assert_eq!(agree, games.len());
}
