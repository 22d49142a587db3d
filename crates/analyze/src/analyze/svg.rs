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

/// The chart's width in pixels when its labels are at most [`LABEL_ROOM`] characters; it
/// grows with longer labels (up to [`MAX_LABEL`] characters, a longer one shown by its
/// end, `…` first), so a label is never cut off. Its height grows with the groups.
pub const WIDTH: u32 = 720;
/// The label characters [`WIDTH`] has room for.
pub const LABEL_ROOM: usize = 32;
/// The most characters of a label the chart shows.
pub const MAX_LABEL: usize = 100;
/// Pixels per character of a label (DejaVu Sans at 12 px, on average, and a little more).
const CHAR_W: f64 = 7.0;
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
/// Each panel's label column is as wide as its longest label (at least 4 and at most
/// [`MAX_LABEL`] characters); past [`LABEL_ROOM`] the chart widens by as much, so the
/// bars keep their room.
pub fn chart(panels: &[Panel]) -> String {
    let h: u32 = panels.iter().map(|p| height(p.labels.len())).sum();
    let chars = panels.iter().map(label_chars).max().unwrap_or(0);
    let width = WIDTH + (chars.saturating_sub(LABEL_ROOM) as f64 * CHAR_W) as u32;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" viewBox="0 0 {width} {h}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#ffffff"/>"##
    );
    let mut top = 0.0;
    for p in panels {
        panel(&mut out, top, p, width);
        top += f64::from(height(p.labels.len()));
    }
    out.push_str("</svg>\n");
    out
}

/// The characters of panel `p`'s label column: its longest label's, from 4 to
/// [`MAX_LABEL`].
fn label_chars(p: &Panel) -> usize {
    p.labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(4, MAX_LABEL)
}

/// Draws panel `p` with its top at `y0`, in a chart `width` pixels wide.
fn panel(out: &mut String, y0: f64, p: &Panel, width: u32) {
    let Panel {
        title,
        labels,
        series,
    } = *p;
    let w = f64::from(width);
    let x0 = 16.0 + label_chars(p) as f64 * CHAR_W + 8.0;
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
            esc(&shown(label))
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

/// A label as the chart shows it: whole up to [`MAX_LABEL`] characters, else its end
/// after `…` (the end is what tells long outcomes of one kind apart).
fn shown(label: &str) -> String {
    let n = label.chars().count();
    if n <= MAX_LABEL {
        return label.to_string();
    }
    let tail: String = label.chars().skip(n - (MAX_LABEL - 1)).collect();
    format!("…{tail}")
}

/// A grid percentage without trailing zeros.
fn trim(v: f64) -> String {
    let s = format!("{v:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number in the first `attr="…"` after `from` in `svg`.
    fn number(svg: &str, from: &str, attr: &str) -> f64 {
        let at = svg.find(from).unwrap();
        svg[at..]
            .split(&format!("{attr}=\""))
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    }

    /// The chart's width, where its label ends and where it starts, for a label of `n`
    /// characters in the second of two panels (the first with a short label).
    fn layout(n: usize) -> (f64, f64, f64) {
        let series = [Series {
            name: "s".into(),
            values: vec![0.5],
            intervals: vec![],
        }];
        let (short, long) = (["a".to_string()], ["x".repeat(n)]);
        let svg = chart(&[
            Panel {
                title: "one",
                labels: &short,
                series: &series,
            },
            Panel {
                title: "two",
                labels: &long,
                series: &series,
            },
        ]);
        let width = number(&svg, "<svg", "width");
        let label_end = svg
            .split("<text x=\"")
            .filter(|t| t.contains("text-anchor=\"end\""))
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse::<f64>()
            .unwrap();
        // The first panel keeps its own narrow label column.
        assert_eq!(number(&svg, "<rect x=", "x"), 16.0 + 4.0 * CHAR_W + 8.0);
        (
            width,
            label_end,
            label_end - n.min(MAX_LABEL) as f64 * CHAR_W,
        )
    }

    #[test]
    fn a_long_label_widens_the_chart_instead_of_running_off_it() {
        // Up to 32 characters the chart keeps its width; one more widens it by one
        // character; past 100 the label is cut to its end; every label starts inside.
        for (n, width) in [
            (4, 720.0),
            (32, 720.0),
            (33, 727.0),
            (70, 986.0),
            (100, 1196.0),
            (140, 1196.0),
        ] {
            let (w, _, start) = layout(n);
            assert_eq!(w, width, "{n} characters");
            assert!(start >= 16.0 - 1e-9, "{n} characters start at {start}");
        }
        // The label column's right edge moves with the 33rd character, not before.
        assert_eq!(layout(4).1, layout(32).1 - 28.0 * CHAR_W);
        assert_eq!(layout(33).1, layout(32).1 + CHAR_W);
        assert_eq!(shown(&"y".repeat(100)), "y".repeat(100));
        let cut = shown(&format!("a{}", "y".repeat(100)));
        assert_eq!(cut.chars().count(), MAX_LABEL);
        assert_eq!(cut, format!("…{}", "y".repeat(99)));
    }
}
