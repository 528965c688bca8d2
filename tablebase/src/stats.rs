//! The figures of one generated table, which the generator counts and the
//! file format writes in its header: a leaf both read, so neither imports
//! the other.

/// Figures of one generation, for the log and the docs.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Indices.
    pub size: u64,
    /// Legal positions.
    pub legal: u64,
    /// Wins, draws and losses for the side to move.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Positions lost by the perpetual-check rule (the side to move can
    /// only check forever).
    pub rule_losses: u64,
    /// The longest distance to mate.
    pub max_dtm: u16,
    /// Passes of the retrograde (1 + rounds of perpetual check found).
    pub passes: u32,
}
