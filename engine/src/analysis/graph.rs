//! A game's score graph as an SVG: Red's expected score (the WDL model's
//! win + half the draws) after every move, the even line across the
//! middle, and the marked moves as dots in their mark's colour, as the
//! graphs of CCBridge and BHGUI show a game (Red above, Black below).

use super::{Judged, expected};
use std::fmt::Write as _;

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 300.0;
/// Margins: left for the axis labels, top for the title.
const LEFT: f64 = 40.0;
const TOP: f64 = 30.0;
const RIGHT: f64 = 10.0;
const BOTTOM: f64 = 25.0;

/// The colour of a mark's dot.
fn colour(mark: &str) -> &'static str {
    match mark {
        "??" => "#d62728",
        "?" => "#ff7f0e",
        _ => "#e6c200",
    }
}

/// Characters XML keeps for itself, escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The graph of `judged` (a game's moves in order), titled `title`.
pub fn graph(judged: &[Judged], title: &str) -> String {
    let (w, h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let plies = judged.len().max(1) as f64;
    let x = |ply: usize| LEFT + w * ply as f64 / plies;
    let y = |red: f64| TOP + h * (1.0 - red.clamp(0.0, 1.0));
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="18" font-size="13">{}</text>"#,
        escape(title)
    );
    // The frame (the plot's area, `class="plot"`: where a page maps a click
    // to a ply), the even line, and the labels of Red's share.
    let _ = writeln!(
        s,
        r##"<rect class="plot" x="{LEFT}" y="{TOP}" width="{w}" height="{h}" fill="none" stroke="#999999"/>"##
    );
    for (share, label) in [(1.0, "100%"), (0.5, "50%"), (0.0, "0%")] {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{:.1}" text-anchor="end" fill="#555555">{label}</text>"##,
            LEFT - 4.0,
            y(share) + 4.0
        );
    }
    let _ = writeln!(
        s,
        r##"<line x1="{LEFT}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#bbbbbb" stroke-dasharray="4 3"/>"##,
        y(0.5),
        LEFT + w,
        y(0.5)
    );
    // Move numbers along the bottom, every ten moves.
    let mut ply = 0;
    while ply <= judged.len() {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#555555">{}</text>"##,
            x(ply),
            TOP + h + 15.0,
            ply / 2
        );
        ply += 20;
    }
    // Red's share before the first move, then after each move.
    let start = judged.first().map_or(0.5, |j| match j.mover {
        xiangqi::types::Color::Red => j.before,
        xiangqi::types::Color::Black => 1.0 - j.before,
    });
    let mut points = vec![format!("{:.1},{:.1}", x(0), y(start))];
    for (i, j) in judged.iter().enumerate() {
        points.push(format!("{:.1},{:.1}", x(i + 1), y(expected(j.red_score))));
    }
    let _ = writeln!(
        s,
        r##"<polyline points="{}" fill="none" stroke="#1f4e9c" stroke-width="1.5"/>"##,
        points.join(" ")
    );
    for (i, j) in judged.iter().enumerate() {
        if let Some(mark) = j.mark {
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{}"><title>{} {}{mark}</title></circle>"#,
                x(i + 1),
                y(expected(j.red_score)),
                colour(mark),
                i / 2 + 1,
                j.mv
            );
        }
    }
    s.push_str("</svg>\n");
    s
}
