//! The commands that only read the engine's state: `eval`, `d`, `probe`
//! and `bench`.

use super::super::command::PositionBase;
use super::super::command::excerpt;
use super::state::Session;
use jiangjun_engine::Position;
use jiangjun_engine::bench;
use jiangjun_engine::play::strength::Grade;
use xiangqi::types::Color;

impl Session {
    /// `eval`: the terms of the hand-made evaluation, then what the search
    /// evaluates with (the network's score after the endgame scale, or, with
    /// less `knowledge`, the hand-made evaluation with fewer terms).
    pub(super) fn eval(&self) {
        let pos = Position::new(self.board.clone());
        let knowledge = self.options.play.knowledge;
        let network = self.engine.network().filter(|_| knowledge == Grade::Large);
        if network.is_none() && knowledge == Grade::Large {
            self.out.lines(&jiangjun_engine::eval::trace(&pos));
        } else {
            let label = if knowledge == Grade::Large {
                "hand-made evaluation"
            } else {
                "hand-made evaluation (all terms)"
            };
            self.out
                .lines(&jiangjun_engine::eval::trace_as(&pos, label));
        }
        let for_red = |stm: i32| {
            if self.board.side_to_move() == Color::Red {
                stm
            } else {
                -stm
            }
        };
        if let Some(net) = network {
            let acc = jiangjun_engine::nnue::Accumulator::from_board(net, &self.board);
            let raw = jiangjun_engine::nnue::evaluate(net, &acc, self.board.side_to_move());
            self.out.line(&format!(
                "network evaluation {} (red side), {raw} (side to move)",
                for_red(raw)
            ));
        }
        if knowledge != Grade::Large {
            self.out.line(&format!(
                "knowledge {}: the search uses the hand-made evaluation with that grade's terms only",
                knowledge.name()
            ));
        }
        if self.options.play.randomness.mask() != 0 {
            self.out.line(&format!(
                "randomness {}: each search adds a noise of up to {} to every score (not included)",
                self.options.play.randomness.name(),
                self.options.play.randomness.mask()
            ));
        }
        if network.is_none() && knowledge == Grade::Large {
            // The full hand-made trace already ends with the final line.
            return;
        }
        // The search's evaluation: the network's after the endgame scale
        // (or the hand-made one in a known win), or the partial one.
        let stm = self.engine.evaluate_with_knowledge(&self.board, knowledge);
        self.out.line(&format!(
            "final evaluation {} (red side), {stm} (side to move)",
            for_red(stm)
        ));
    }

    pub(super) fn display(&self) {
        self.out.lines(&self.board.to_string());
        self.out.line(&format!("Fen: {}", self.board.to_fen()));
        self.out.line(&format!("Key: {:016X}", self.board.key()));
        let checkers: Vec<String> = self
            .board
            .checkers()
            .iter()
            .map(|s| s.to_string())
            .collect();
        self.out.line(&format!("Checkers: {}", checkers.join(" ")));
    }

    pub(super) fn probe(&mut self, base: &PositionBase, moves: &[String]) {
        let Some(b) = self.build_position(base, moves) else {
            return;
        };
        for l in self
            .dialect
            .probe_lines(&b, self.engine.hash_entry(b.key()))
        {
            self.out.line(&l);
        }
    }

    /// `bench [depth]`: the depths the command line accepts.
    pub(super) fn bench(&mut self, args: &[String]) {
        let depth = match args.first().map(|a| (a, a.parse::<i32>())) {
            None => bench::DEFAULT_DEPTH,
            Some((_, Ok(d))) if (1..=bench::MAX_DEPTH).contains(&d) => d,
            Some((text, _)) => {
                self.out.error(&format!(
                    "bench: depth must be a whole number from 1 to {}, got '{}'; nothing searched",
                    bench::MAX_DEPTH,
                    excerpt(text)
                ));
                return;
            }
        };
        // With the evaluation in force: `EvalFile` makes it a network bench.
        let r = bench::run_bench_with_network(depth, self.engine.network().cloned());
        self.out.line(&format!("Total time (ms) : {}", r.millis));
        self.out.line(&format!("Nodes searched  : {}", r.nodes));
        self.out.line(&format!("Nodes/second    : {}", r.nps()));
    }
}
