//! The game tree every reader fills and the XQF writer writes: a start
//! position, the moves as a tree (the first child of a node is its main
//! line, the others are variations), a comment on any node, and the header
//! fields. Nodes live in one vector and point to each other by index, so
//! that a game of any length is neither built nor dropped by recursion.

use xiangqi::{Board, Move};

/// How the game ended, as the file says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameResult {
    /// Not given.
    #[default]
    Unknown,
    /// Red won.
    RedWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
}

impl GameResult {
    /// The PGN result tag: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::Unknown => "*",
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Red's score (1, 0.5, 0), if the result is known.
    pub fn red_score(self) -> Option<f64> {
        match self {
            GameResult::Unknown => None,
            GameResult::RedWins => Some(1.0),
            GameResult::BlackWins => Some(0.0),
            GameResult::Draw => Some(0.5),
        }
    }
}

/// The header fields the formats share (empty when the file has none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Headers {
    /// The game's title (XQF, CBR; CBF's `Name`).
    pub title: String,
    /// The event or match.
    pub event: String,
    /// The date, as written.
    pub date: String,
    /// The site.
    pub site: String,
    /// Red's player.
    pub red: String,
    /// Black's player.
    pub black: String,
    /// The result.
    pub result: GameResult,
    /// Who commented the game.
    pub annotator: String,
}

/// One move of the tree (the root, index 0, has no move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move that leads here (`Move::NONE` at the root).
    pub mv: Move,
    /// The comment after the move (at the root: on the whole game).
    pub comment: Option<String>,
    /// The parent's index (0 for the root itself).
    pub parent: usize,
    /// The replies: the main line first, then the variations.
    pub children: Vec<usize>,
}

/// A game: start position, headers, and the tree of moves.
#[derive(Clone, Debug)]
pub struct Game {
    /// The position before the first move (no history).
    pub start: Board,
    /// Players, event, date, result.
    pub headers: Headers,
    /// The tree; `nodes[0]` is the root.
    pub nodes: Vec<Node>,
    /// What the reader dropped, in words (a move illegal under the rules,
    /// with the rest of its branch).
    pub warnings: Vec<String>,
}

impl Game {
    /// A game of no moves from `start`.
    pub fn new(start: Board) -> Game {
        let mut start = start;
        start.clear_history();
        Game {
            start,
            headers: Headers::default(),
            nodes: vec![Node {
                mv: Move::NONE,
                comment: None,
                parent: 0,
                children: Vec::new(),
            }],
            warnings: Vec::new(),
        }
    }

    /// Adds `mv` after `parent` as its last reply and returns the new
    /// node's index. The caller has checked that the move is legal there.
    pub fn add(&mut self, parent: usize, mv: Move, comment: Option<String>) -> usize {
        let index = self.nodes.len();
        self.nodes.push(Node {
            mv,
            comment,
            parent,
            children: Vec::new(),
        });
        if let Some(p) = self.nodes.get_mut(parent) {
            p.children.push(index);
        }
        index
    }

    /// The start position's FEN.
    pub fn start_fen(&self) -> String {
        self.start.to_fen()
    }

    /// The comment on the whole game (the root's).
    pub fn comment(&self) -> Option<&str> {
        self.nodes.first().and_then(|n| n.comment.as_deref())
    }

    /// The main line: the first reply of every node from the root.
    pub fn main_line(&self) -> Vec<Move> {
        self.main_line_nodes()
            .into_iter()
            .filter_map(|i| self.nodes.get(i).map(|n| n.mv))
            .collect()
    }

    /// The main line's node indices (the root left out).
    pub fn main_line_nodes(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut at = 0;
        while let Some(&next) = self.nodes.get(at).and_then(|n| n.children.first()) {
            out.push(next);
            at = next;
        }
        out
    }

    /// How many nodes have more than one reply.
    pub fn branch_points(&self) -> usize {
        self.nodes.iter().filter(|n| n.children.len() > 1).count()
    }

    /// The moves from the root to `node`, in order.
    pub fn path_to(&self, node: usize) -> Vec<Move> {
        let mut out = Vec::new();
        let mut at = node;
        while at != 0 {
            let Some(n) = self.nodes.get(at) else { break };
            out.push(n.mv);
            at = n.parent;
        }
        out.reverse();
        out
    }

    /// Whether two games hold the same start, headers and tree (warnings
    /// and the order nodes were added in aside): what a write and a read
    /// back must keep.
    pub fn same_tree(&self, other: &Game) -> bool {
        if self.start.to_fen() != other.start.to_fen() || self.headers != other.headers {
            return false;
        }
        let mut stack = vec![(0usize, 0usize)];
        while let Some((a, b)) = stack.pop() {
            let (Some(x), Some(y)) = (self.nodes.get(a), other.nodes.get(b)) else {
                return false;
            };
            if x.mv != y.mv || x.comment != y.comment || x.children.len() != y.children.len() {
                return false;
            }
            stack.extend(x.children.iter().copied().zip(y.children.iter().copied()));
        }
        true
    }
}
