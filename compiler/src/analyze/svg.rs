//! `--svg FILE`: the odds as a bar chart, in the manner of AnyDice: one horizontal bar
//! per group (in the groups' order), its length the group's chance against the likeliest
//! one, the percentage written beside it; with two series (`rulesc diff`), a pair of
//! bars per group and a legend. A simulated share carries its 95% interval, drawn as a
//! whisker across its bar. Several panels stack in one chart (`rulesc simulate --svg`:
//! win rates, then the rounds played).
//!
//! Written directly as SVG text: a chart of labelled rectangles needs no plotting
//! library, and the text is deterministic (a snapshot test holds it).

use crate::markup::esc;
use std::fmt::Write as _;

/// One series of bars: a name for the legend and one chance (0 to 1) per group.
#[derive(Debug, Clone)]
pub struct Series {
    pub name: String,
    pub values: Vec<f64>,
    /// Each value's interval (low, high), for a simulated share; empty for exact odds.
    pub intervals: Vec<(f64, f64)>,
}

/// One panel of a chart: its title, its groups' labels and its series.
#[derive(Debug, Clone, Copy)]
pub struct Panel<'a> {
    pub title: &'a str,
    pub labels: &'a [String],
    pub series: &'a [Series],
}

/// The chart's width in pixels; its height grows with the groups.
pub const WIDTH: u32 = 720;
const ROW: f64 = 26.0;
const TOP: f64 = 64.0;
const COLORS: [&str; 2] = ["#4e79a7", "#f28e2b"];

/// The chart's height for `groups` groups.
pub fn height(groups: usize) -> u32 {
    (TOP + ROW * groups as f64 + 24.0) as u32
}

/// The grid step, in percent: the first of 1, 2, 5, 10, 20, 25, 50 giving at most six
/// lines up to `max` percent.
fn step(max: f64) -> f64 {
    [0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0]
        .into_iter()
        .find(|s| max / s <= 6.0)
        .unwrap_or(100.0)
}

/// A bar chart of `labels` (one per group) with one or two series.
pub fn bars(title: &str, labels: &[String], series: &[Series]) -> String {
    chart(&[Panel {
        title,
        labels,
        series,
    }])
}

/// A chart of `panels`, one under the other, each with its own title and scale.
pub fn chart(panels: &[Panel]) -> String {
    let h: u32 = panels.iter().map(|p| height(p.labels.len())).sum();
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{h}" viewBox="0 0 {WIDTH} {h}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#ffffff"/>"##
    );
    let mut top = 0.0;
    for p in panels {
        panel(&mut out, top, p);
        top += f64::from(height(p.labels.len()));
    }
    out.push_str("</svg>\n");
    out
}

/// Draws panel `p` with its top at `y0`.
fn panel(out: &mut String, y0: f64, p: &Panel) {
    let Panel {
        title,
        labels,
        series,
    } = *p;
    let w = f64::from(WIDTH);
    let label_w = labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(4, 32) as f64
        * 7.0;
    let x0 = 16.0 + label_w + 8.0;
    let span = w - x0 - 80.0;
    let max_pct = series
        .iter()
        .flat_map(|s| s.values.iter().chain(s.intervals.iter().map(|(_, hi)| hi)))
        .fold(0.0f64, |m, v| m.max(v * 100.0));
    let step = step(max_pct.max(0.1));
    let scale_max = (max_pct / step).ceil().max(1.0) * step;
    let x = |pct: f64| x0 + span * pct / scale_max;
    let _ = writeln!(
        out,
        r#"<text x="16" y="{:.0}" font-size="15" font-weight="bold">{}</text>"#,
        y0 + 22.0,
        esc(title)
    );
    // Legend (two series only).
    if series.len() > 1 {
        let mut lx = 16.0;
        for (s, color) in series.iter().zip(COLORS) {
            let _ = writeln!(
                out,
                r#"<rect x="{lx:.1}" y="{:.0}" width="10" height="10" fill="{color}"/><text x="{:.1}" y="{:.0}">{}</text>"#,
                y0 + 31.0,
                lx + 14.0,
                y0 + 40.0,
                esc(&s.name)
            );
            lx += 14.0 + 7.0 * s.name.chars().count() as f64 + 20.0;
        }
    }
    // Grid lines and their percentages.
    let top = y0 + TOP;
    let bottom = top + ROW * labels.len() as f64;
    let mut g = 0.0;
    while g <= scale_max + 1e-9 {
        let gx = x(g);
        let _ = writeln!(
            out,
            r##"<line x1="{gx:.1}" y1="{:.1}" x2="{gx:.1}" y2="{bottom:.1}" stroke="#d0d0d0"/><text x="{gx:.1}" y="{:.1}" text-anchor="middle" fill="#606060">{}%</text>"##,
            top - 6.0,
            top - 10.0,
            trim(g)
        );
        g += step;
    }
    // One row per group.
    let bar_h = 18.0 / series.len().max(1) as f64;
    for (i, label) in labels.iter().enumerate() {
        let y = top + ROW * i as f64 + 4.0;
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            x0 - 8.0,
            y + 13.0,
            esc(label)
        );
        for (k, (s, color)) in series.iter().zip(COLORS).enumerate() {
            let v = s.values.get(i).copied().unwrap_or(0.0) * 100.0;
            let by = y + bar_h * k as f64;
            let bw = (x(v) - x0).max(0.0);
            let mut end = x0 + bw;
            let _ = write!(
                out,
                r#"<rect x="{x0:.1}" y="{by:.1}" width="{bw:.1}" height="{bar_h:.1}" fill="{color}"/>"#
            );
            if let Some(&(lo, hi)) = s.intervals.get(i) {
                // The interval: a whisker across the bar's middle, with end caps.
                let (lx, hx, my) = (x(lo * 100.0), x(hi * 100.0), by + bar_h / 2.0);
                let _ = write!(
                    out,
                    r##"<path d="M{lx:.1} {my:.1}H{hx:.1}M{lx:.1} {:.1}V{:.1}M{hx:.1} {:.1}V{:.1}" stroke="#303030" fill="none"><title>95% interval {:.2}% to {:.2}%</title></path>"##,
                    my - 4.0,
                    my + 4.0,
                    my - 4.0,
                    my + 4.0,
                    lo * 100.0,
                    hi * 100.0
                );
                end = end.max(hx);
            }
            let _ = writeln!(
                out,
                r#"<text x="{:.1}" y="{:.1}" font-size="{}">{v:.2}%</text>"#,
                end + 4.0,
                by + bar_h - 2.0,
                if series.len() > 1 { 9 } else { 12 },
            );
        }
    }
}

/// A grid percentage without trailing zeros.
fn trim(v: f64) -> String {
    let s = format!("{v:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}
