//! The writers on hand-checked positions: tandem pieces, pawns on several
//! files, the ICCS forms.

use super::*;

/// Play `moves` from `fen` (or the start), writing each in both notations.
fn notate(fen: Option<&str>, moves: &[&str]) -> (Vec<String>, Vec<String>) {
    let mut b = match fen {
        Some(f) => Board::from_fen(f).unwrap(),
        None => Board::startpos(),
    };
    let (mut cn, mut wx) = (Vec::new(), Vec::new());
    for m in moves {
        let mv = b.parse_move(m).unwrap();
        cn.push(chinese(&b, mv));
        wx.push(wxf(&b, mv));
        b.make_move(mv);
    }
    (cn, wx)
}

fn cn(fen: Option<&str>, moves: &[&str]) -> Vec<String> {
    notate(fen, moves).0
}

fn wx(fen: Option<&str>, moves: &[&str]) -> Vec<String> {
    notate(fen, moves).1
}

/// Each move played from the same position `fen`, in both notations.
fn each(fen: &str, moves: &[&str]) -> Vec<(String, String)> {
    moves
        .iter()
        .map(|m| {
            let (c, w) = notate(Some(fen), &[m]);
            (c[0].clone(), w[0].clone())
        })
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|&(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

const OPENING: [&str; 8] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5",
];

#[test]
fn opening_moves() {
    assert_eq!(
        cn(None, &OPENING),
        vec![
            "炮二平五",
            "马8进7",
            "马二进三",
            "车9平8",
            "车一平二",
            "马2进3",
            "兵七进一",
            "卒7进1"
        ]
    );
    assert_eq!(
        cn(None, &["c0e2", "g9e7", "f0e1", "d9e8"]),
        vec!["相七进五", "象7进5", "仕四进五", "士4进5"]
    );
    assert_eq!(cn(None, &["h2h9"]), vec!["炮二进七"]);
    assert_eq!(cn(None, &["b2b1"]), vec!["炮八退一"]);
}

#[test]
fn opening_moves_wxf() {
    assert_eq!(
        wx(None, &OPENING),
        vec![
            "C2.5", "H8+7", "H2+3", "R9.8", "R1.2", "H2+3", "P7+1", "P7+1"
        ]
    );
    assert_eq!(
        wx(
            None,
            &["c0e2", "g9e7", "f0e1", "d9e8", "e0f0", "e9d9", "f0f1"]
        ),
        vec!["E7+5", "E7+5", "A4+5", "A4+5", "K5.4", "K5.4", "K4+1"]
    );
    assert_eq!(wx(None, &["b0c2", "b9c7"]), vec!["H8+7", "H2+3"]);
    assert_eq!(wx(None, &["h2h9", "i9h9"]), vec!["C2+7", "R9.8"]);
    assert_eq!(wx(None, &["b2b1"]), vec!["C8-1"]);
    assert_eq!(wx(None, &["h0g2", "b7b0"]), vec!["H2+3", "C2+7"]);
}

#[test]
fn two_pieces_on_a_file() {
    // Two red rooks on the e-file: the front one moves, then the rear one.
    let fen = "5k3/9/9/9/4R4/9/9/4R4/9/3K5 w";
    assert_eq!(
        each(fen, &["e5e8", "e2a2", "e2e1", "e5e4"]),
        pairs(&[
            ("前车进三", "R++3"),
            ("后车平九", "R-.9"),
            ("后车退一", "R--1"),
            ("前车退一", "R+-1"),
        ])
    );
    // Two black cannons on file c (Black's 3): the front is the lower one.
    let fen = "4k4/9/2c6/9/9/2c6/9/9/9/3K5 b";
    assert_eq!(
        each(fen, &["c4e4", "c7c9"]),
        pairs(&[("前炮平5", "C+.5"), ("后炮退2", "C--2")])
    );
}

#[test]
fn advisors_and_elephants_keep_the_file() {
    // Advisors on d0 and d2: the front one can only go back, the rear
    // one only forward, so the file number is enough.
    let fen = "3k5/9/9/9/9/9/9/3A5/9/3AK4 w";
    assert_eq!(
        each(fen, &["d2e1", "d0e1"]),
        pairs(&[("仕六退五", "A6-5"), ("仕六进五", "A6+5")])
    );
    let fen = "3k5/9/9/9/9/2B6/9/9/9/2B1K4 w";
    assert_eq!(
        each(fen, &["c4e2", "c0e2", "c4a2"]),
        pairs(&[
            ("相七退五", "E7-5"),
            ("相七进五", "E7+5"),
            ("相七退九", "E7-9")
        ])
    );
}

#[test]
fn tandem_pawns() {
    // Three red pawns on file c (Red's 7).
    let fen = "3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w";
    assert_eq!(
        each(fen, &["c7d7", "c6d6", "c5d5", "c7c8"]),
        pairs(&[
            ("前兵平六", "P+.6"),
            ("中兵平六", "P7.6"),
            ("后兵平六", "P-.6"),
            ("前兵进一", "P++1"),
        ])
    );
    // And two more on file g (Red's 3): the file replaces the letter.
    let fen = "3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w";
    assert_eq!(
        each(fen, &["c7d7", "c6d6", "c5d5", "g6f6", "g5f5", "g6g7"])
            .into_iter()
            .map(|p| p.1)
            .collect::<Vec<_>>(),
        vec!["7+.6", "77.6", "7-.6", "3+.4", "3-.4", "3++1"]
    );
    // In Chinese too: 前兵 alone would not say which file.
    assert_eq!(
        each(fen, &["c7d7", "c6d6", "c5d5", "g6f6", "g5f5", "g6g7"])
            .into_iter()
            .map(|p| p.0)
            .collect::<Vec<_>>(),
        vec![
            "前七平六",
            "中七平六",
            "后七平六",
            "前三平四",
            "后三平四",
            "前三进一"
        ]
    );
    // Five on one file.
    let fen = "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w";
    assert_eq!(
        each(fen, &["c9d9", "c8d8", "c7d7", "c6d6", "c5d5"]),
        pairs(&[
            ("一兵平六", "++.6"),
            ("二兵平六", "P+.6"),
            ("三兵平六", "P7.6"),
            ("四兵平六", "P-.6"),
            ("五兵平六", "--.6"),
        ])
    );
    // Four on one file: no middle pawn.
    let fen = "3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w";
    assert_eq!(
        each(fen, &["c8d8", "c7d7", "c6d6", "c5d5"])
            .into_iter()
            .map(|p| p.1)
            .collect::<Vec<_>>(),
        vec!["++.6", "P+.6", "P-.6", "--.6"]
    );
    // Two black pawns on file c (Black's 3): the front one is lower.
    let fen = "4k4/9/9/9/9/2p6/2p6/9/9/3K5 b";
    assert_eq!(
        each(fen, &["c3d3", "c4d4"]),
        pairs(&[("前卒平4", "P+.4"), ("后卒平4", "P-.4")])
    );
}

#[test]
fn iccs_forms() {
    let m = Move::parse("h2e2").unwrap();
    assert_eq!(iccs(m), "H2-E2");
    assert_eq!(iccs(Move::NONE), "0000");
    for text in ["h2e2", "H2E2", "H2-E2", "h2-e2", " h2-e2 "] {
        assert_eq!(parse_iccs(text), Some(m), "{text}");
    }
    for text in ["h2-e", "h2+e2", "h2h2", "j2e2", "h2e2e", "ü2e2", "h2ü2"] {
        assert_eq!(parse_iccs(text), None, "{text}");
    }
    // No piece on the origin: the coordinates.
    let b = Board::startpos();
    let empty = Move::parse("e4e5").unwrap();
    assert_eq!(wxf(&b, empty), "e4e5");
    assert_eq!(chinese(&b, empty), "e4e5");
}

/// Parse `text` in the position `fen` with both readers' errors as strings.
fn read_chinese(fen: Option<&str>, text: &str) -> Result<String, String> {
    let b = fen.map_or_else(Board::startpos, |f| Board::from_fen(f).unwrap());
    parse_chinese(&b, text)
        .map(|m| m.to_string())
        .map_err(|e| e.to_string())
}

fn read_wxf(fen: Option<&str>, text: &str) -> Result<String, String> {
    let b = fen.map_or_else(Board::startpos, |f| Board::from_fen(f).unwrap());
    parse_wxf(&b, text)
        .map(|m| m.to_string())
        .map_err(|e| e.to_string())
}

#[test]
fn chinese_variants_read_as_the_same_move() {
    for text in [
        "炮二平五",
        "炮2平5",
        "炮２平５",
        "砲二平五",
        "包二平五",
        " 炮二平五 ",
    ] {
        assert_eq!(read_chinese(None, text).as_deref(), Ok("h2e2"), "{text}");
    }
    for text in ["马二进三", "馬二進三", "傌二进三"] {
        assert_eq!(read_chinese(None, text).as_deref(), Ok("h0g2"), "{text}");
    }
    assert_eq!(read_chinese(None, "仕四进五").as_deref(), Ok("f0e1"));
    assert_eq!(read_chinese(None, "士四进五").as_deref(), Ok("f0e1"));
    assert_eq!(read_chinese(None, "帅五进一").as_deref(), Ok("e0e1"));
    assert_eq!(read_chinese(None, "兵七进一").as_deref(), Ok("c3c4"));
    let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";
    for text in [
        "马8进7",
        "马８进７",
        "馬八進七",
        "车9进1",
        "車９進１",
        "将5进1",
        "卒7进1",
    ] {
        assert!(read_chinese(Some(black), text).is_ok(), "{text}");
    }
    assert_eq!(read_chinese(Some(black), "马８进７").as_deref(), Ok("h9g7"));
    // Two rooks on a file, named by the position word, or by the file when
    // only one of them can make the move.
    let fen = "5k3/9/9/9/4R4/9/9/4R4/9/3K5 w";
    assert_eq!(read_chinese(Some(fen), "前车进三").as_deref(), Ok("e5e8"));
    assert_eq!(read_chinese(Some(fen), "後車退一").as_deref(), Ok("e2e1"));
    assert_eq!(read_chinese(Some(fen), "车五进三").as_deref(), Ok("e5e8"));
    assert_eq!(
        read_chinese(Some(fen), "车五平九"),
        Err(format!(
            "'车五平九' could be any of [e5a5, e2a2] in {fen} - - 0 1"
        ))
    );
}

#[test]
fn chinese_errors_say_why() {
    for text in [
        "",
        "炮二平",
        "炮二平五五",
        "炮二走五",
        "炮零平五",
        "h2e2",
        "炮前平五",
        "六兵平五",
    ] {
        assert_eq!(
            read_chinese(None, text),
            Err(format!("'{text}' is not a move in Chinese notation")),
            "{text}"
        );
    }
    let start = crate::START_FEN;
    assert_eq!(
        read_chinese(None, "车一进三"),
        Err(format!("no legal move is written '车一进三' in {start}"))
    );
    // Numbers are read whatever the side: with Red to move, 马8进7 is Red's
    // horse on file 八 going to file 七.
    assert_eq!(read_chinese(None, "马8进7").as_deref(), Ok("b0c2"));
}

#[test]
fn wxf_variants_read_as_the_same_move() {
    for text in ["C2.5", "C2=5", "c2.5", " C2.5 "] {
        assert_eq!(read_wxf(None, text).as_deref(), Ok("h2e2"), "{text}");
    }
    for text in ["H2+3", "N2+3", "h2+3"] {
        assert_eq!(read_wxf(None, text).as_deref(), Ok("h0g2"), "{text}");
    }
    assert_eq!(read_wxf(None, "E3+5").as_deref(), Ok("g0e2"));
    assert_eq!(read_wxf(None, "B3+5").as_deref(), Ok("g0e2"));
    let fen = "5k3/9/9/9/4R4/9/9/4R4/9/3K5 w";
    assert_eq!(read_wxf(Some(fen), "R++3").as_deref(), Ok("e5e8"));
    assert_eq!(read_wxf(Some(fen), "+R+3").as_deref(), Ok("e5e8"));
    assert_eq!(read_wxf(Some(fen), "R--1").as_deref(), Ok("e2e1"));
    assert_eq!(read_wxf(Some(fen), "R5+3").as_deref(), Ok("e5e8"));
    // Pawns on two files.
    let fen = "3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w";
    assert_eq!(read_wxf(Some(fen), "77.6").as_deref(), Ok("c6d6"));
    assert_eq!(read_wxf(Some(fen), "3-.4").as_deref(), Ok("g5f5"));
    assert_eq!(read_chinese(Some(fen), "中七平六").as_deref(), Ok("c6d6"));
    assert_eq!(read_chinese(Some(fen), "后三平四").as_deref(), Ok("g5f5"));
    // Five on one file.
    let fen = "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w";
    assert_eq!(read_wxf(Some(fen), "++.6").as_deref(), Ok("c9d9"));
    assert_eq!(read_wxf(Some(fen), "--.6").as_deref(), Ok("c5d5"));
    assert_eq!(read_wxf(Some(fen), "P7.6").as_deref(), Ok("c7d7"));
    assert_eq!(read_chinese(Some(fen), "四兵平六").as_deref(), Ok("c6d6"));
}

#[test]
fn wxf_errors_say_why() {
    for text in [
        "",
        "C2.",
        "C2.55",
        "C2*5",
        "X2.5",
        "C0.5",
        "78.6",
        "+-.6",
        "C+.0",
        "炮二平五",
    ] {
        assert_eq!(
            read_wxf(None, text),
            Err(format!("'{text}' is not a move in WXF notation")),
            "{text}"
        );
    }
    let start = crate::START_FEN;
    assert_eq!(
        read_wxf(None, "R1+3"),
        Err(format!("no legal move is written 'R1+3' in {start}"))
    );
}
