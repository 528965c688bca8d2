//! CBF, CCBridge's XML game, read.
//!
//! `<ChineseChessRecord>` holds a `<Head>` (`Name`, `Contest`, `Date`,
//! `Site`, `Red`, `Black`, `Commentator`, `RecordResult`, `FEN`) and a
//! `<MoveList>` of `<Move value="XY-XY">` elements, X the file and Y the
//! row from Black's back rank, the text of a move its comment. A first move
//! `00-00` is the root, carrying the game's comment. The samples have one
//! line of moves; elements this reader does not know are left aside.
//!
//! Facts from the `cchess` package's reader and the sample files; the code is ours.

use crate::error::FormatError;
use crate::game::{Game, GameResult, Headers};
use crate::text::from_gbk;
use crate::tree::{self, Record};
use xiangqi::{Board, Square};

/// The text of the XML: UTF-8 (a byte-order mark dropped), or GBK when
/// the declaration says so.
fn decode(data: &[u8]) -> Result<String, FormatError> {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let decl_end = data.iter().position(|&b| b == b'>').unwrap_or(0);
    let decl =
        String::from_utf8_lossy(data.get(..decl_end).unwrap_or_default()).to_ascii_lowercase();
    if decl.contains("gb2312") || decl.contains("gbk") || decl.contains("gb18030") {
        return Ok(from_gbk(data));
    }
    String::from_utf8(data.to_vec())
        .map_err(|e| FormatError::Corrupt(format!("not UTF-8 text: {e}")))
}

/// A square `XY` of the file, if on the board.
fn square(x: u8, y: u8) -> Option<Square> {
    let (x, y) = (x.checked_sub(b'0')?, y.checked_sub(b'0')?);
    (x < 9 && y < 10).then(|| Square::new(usize::from(x), 9 - usize::from(y)))
}

/// The first child element of `parent` named `name`.
fn child<'a, 'i>(parent: roxmltree::Node<'a, 'i>, name: &str) -> Option<roxmltree::Node<'a, 'i>> {
    parent.children().find(|n| n.has_tag_name(name))
}

/// Reads a CBF game's bytes.
pub fn read(data: &[u8]) -> Result<Game, FormatError> {
    let text = decode(data)?;
    let doc =
        roxmltree::Document::parse(&text).map_err(|e| FormatError::Corrupt(format!("XML: {e}")))?;
    let root = doc.root_element();
    if root.tag_name().name() != "ChineseChessRecord" {
        return Err(FormatError::BadMagic("CBF"));
    }
    let head = child(root, "Head").ok_or_else(|| FormatError::Corrupt("no <Head>".into()))?;
    let field = |name: &str| {
        child(head, name)
            .and_then(|n| n.text())
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    let fen = field("FEN");
    if fen.is_empty() {
        return Err(FormatError::Corrupt("no <FEN> in <Head>".into()));
    }
    let start = Board::from_fen(&fen).map_err(|why| FormatError::Position { fen, why })?;
    let result = match field("RecordResult").as_str() {
        "1" => GameResult::RedWins,
        "2" => GameResult::BlackWins,
        "3" | "4" => GameResult::Draw,
        _ => GameResult::Unknown,
    };
    let headers = Headers {
        title: field("Name"),
        event: field("Contest"),
        date: field("Date"),
        site: field("Site"),
        red: field("Red"),
        black: field("Black"),
        result,
        annotator: field("Commentator"),
    };
    let moves: Vec<_> = child(root, "MoveList")
        .map(|l| l.children().filter(|n| n.has_tag_name("Move")).collect())
        .unwrap_or_default();
    let comment_of = |n: &roxmltree::Node<'_, '_>| {
        let t: String = n.children().filter_map(|c| c.text()).collect();
        Some(t.trim().to_string()).filter(|t| !t.is_empty())
    };
    let mut root_comment = None;
    let mut records = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let value = m.attribute("value").unwrap_or_default().as_bytes();
        if i == 0 && value == b"00-00" {
            root_comment = comment_of(m);
            continue;
        }
        let (from, to) = match value {
            [a, b, b'-', c, d] => (square(*a, *b), square(*c, *d)),
            _ => (None, None),
        };
        records.push(Record {
            from,
            to,
            next: i + 1 < moves.len(),
            var: false,
            comment: comment_of(m),
        });
    }
    let mut game = tree::build(start, root_comment, records);
    game.headers = headers;
    Ok(game)
}
