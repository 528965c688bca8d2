use super::*;
use crate::tools::records::games_from_pgn;
use jiangjun_engine::analysis::Judged;

fn verdict(score: Score, best: Option<&str>) -> Verdict {
    let best = best.map(|m| xiangqi::notation::parse_iccs(m).unwrap());
    Verdict {
        score,
        best,
        pv: best.into_iter().collect(),
        depth: 1,
    }
}

#[test]
fn the_annotated_pgn_reads_back_in_both_notations() {
    let start = Board::from_fen(xiangqi::START_FEN).unwrap();
    let moves: Vec<Move> = ["h2e2", "h9g7", "b0c2", "i9h9"]
        .iter()
        .map(|m| xiangqi::notation::parse_iccs(m).unwrap())
        .collect();
    let game = Game {
        fen: xiangqi::START_FEN.to_string(),
        moves: moves.clone(),
        result: 0.5,
    };
    let verdicts = [
        verdict(20, Some("h2e2")),
        verdict(-20, Some("h9g7")),
        verdict(30, Some("h0g2")),
        verdict(-30, Some("b9c7")),
        verdict(400, None),
    ];
    let judged: Vec<Judged> = judge_moves(&start, &moves, &verdicts);
    assert_eq!(judged[3].mark, Some("??"));
    for notation in [Notation::Iccs, Notation::Chinese] {
        let pgn = annotated_pgn(&start, &game, &judged, notation, "test");
        let parsed = games_from_pgn(&pgn);
        assert!(parsed.malformed.is_empty(), "{pgn}");
        assert_eq!(parsed.games.len(), 1, "{pgn}");
        assert_eq!(parsed.games[0].moves, moves, "{pgn}");
        assert!(pgn.contains("[Marks \"?? 1 ? 0 ?! 0\"]"), "{pgn}");
        match notation {
            Notation::Iccs => assert!(pgn.contains("i9h9??") && pgn.contains("better b9c7")),
            Notation::Chinese => assert!(pgn.contains("车9平8??") && pgn.contains("better 马2进3")),
        }
    }
    let svg = analysis::graph::graph(&judged, "a <test> game");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<circle").count(), 1);
    assert!(svg.contains("a &lt;test&gt; game"));
}
