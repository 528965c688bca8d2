//! The score graph of an analysed game as SVG: Red's expected score (from
//! the WDL model) after every ply, 1 at the top, 0 at the bottom, the even
//! line across the middle, and a dot on every marked move in its mark's
//! colour (red `??`, orange `?`, yellow `?!`).

use crate::tools::annotate::{Analysis, Mark, red_curve, verdicts};

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 300.0;
const PAD: f64 = 30.0;

/// Text safe inside an SVG element.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG document of the game's graph.
pub fn svg(a: &Analysis) -> String {
    let curve = red_curve(a);
    let plies = curve.len().saturating_sub(1).max(1) as f64;
    let x = |i: usize| PAD + (WIDTH - 2.0 * PAD) * i as f64 / plies;
    let y = |v: f64| PAD + (HEIGHT - 2.0 * PAD) * (1.0 - v.clamp(0.0, 1.0));
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\">\n"
    );
    out.push_str(&format!(
        "<title>{} - {}: Red's expected score after each ply</title>\n",
        escape(&a.game.red),
        escape(&a.game.black)
    ));
    out.push_str(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"white\"/>\n"
    ));
    // The frame, the even line and its labels.
    out.push_str(&format!(
        "<rect x=\"{PAD}\" y=\"{PAD}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n",
        WIDTH - 2.0 * PAD,
        HEIGHT - 2.0 * PAD
    ));
    out.push_str(&format!(
        "<line x1=\"{PAD}\" y1=\"{m:.1}\" x2=\"{}\" y2=\"{m:.1}\" stroke=\"#ccc\" stroke-dasharray=\"4 4\"/>\n",
        WIDTH - PAD,
        m = y(0.5)
    ));
    for (v, label) in [(1.0, "Red wins"), (0.5, "even"), (0.0, "Black wins")] {
        out.push_str(&format!(
            "<text x=\"2\" y=\"{:.1}\" font-size=\"9\" fill=\"#555\">{label}</text>\n",
            y(v) - 3.0
        ));
    }
    out.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#555\" text-anchor=\"end\">ply {}</text>\n",
        WIDTH - PAD,
        HEIGHT - 8.0,
        curve.len().saturating_sub(1)
    ));
    let points: Vec<String> = curve
        .iter()
        .enumerate()
        .map(|(i, &v)| format!("{:.1},{:.1}", x(i), y(v)))
        .collect();
    out.push_str(&format!(
        "<polyline fill=\"none\" stroke=\"#c00\" stroke-width=\"2\" points=\"{}\"/>\n",
        points.join(" ")
    ));
    for (i, (_, mark)) in verdicts(a).iter().enumerate() {
        let Some(mark) = mark else { continue };
        let colour = match mark {
            Mark::Blunder => "#d00",
            Mark::Mistake => "#f80",
            Mark::Inaccuracy => "#ec0",
        };
        // The dot sits where the move led: the position after it.
        let v = curve.get(i + 1).copied().unwrap_or(0.5);
        out.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{colour}\"><title>ply {} {}</title></circle>\n",
            x(i + 1),
            y(v),
            i + 1,
            mark.symbol()
        ));
    }
    out.push_str("</svg>\n");
    out
}
