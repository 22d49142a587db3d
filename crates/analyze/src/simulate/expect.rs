//! `expect:` in a fight file: what `rulesc test` holds a whole fight to.
//!
//! A fight left to chance is held to simulated rates, each within a tolerance the file
//! states (a simulated rate is never exact):
//!
//! ```yaml
//! expect:
//!   runs: 2000                 # the runs simulated (default 1000), from `seed` (default 0)
//!   seed: 7
//!   tolerance: 3%              # how far each rate may be from the one written
//!   wins: { Guild: 9%, Recruits: 91% ± 2%, draw: 0% }   # a side, `draw`, `undecided`
//!   report: { Vera stands: 9% }                         # the file's report groups
//! ```
//!
//! A scripted fight (one with `dice:`) runs once ([`super::replay`]) and is held to its
//! ending and state:
//!
//! ```yaml
//! expect:
//!   winner: Watch              # a side, `draw` or `undecided`
//!   rounds: 2                  # rounds played
//!   turns: [Joseph, Mira]      # who took each turn, in order
//!   out: [Brigand]             # exactly who is out at the end
//!   state: { Aldren: { wounds: [7] } }   # combatants at the end, the fields named
//! ```
//!
//! Exact odds (`odds:`) are refused: `rulesc test` does not hold a fight's exact odds yet
//! (`rulesc analyze` gives them).

use super::{simulate, FightEnd, FightFile, Replayed, Summary, MAX_RUNS};
use crate::diag::{suggest, Diagnostic, Diagnostics};
use crate::expect::{probability, Mismatch};
use crate::ir::{Program, Ty};
use crate::source::Sources;
use crate::yaml::{YNode, YValue};

/// The keys of a fight left to chance, and of a scripted fight.
pub const RATE_KEYS: &[&str] = &["runs", "seed", "tolerance", "wins", "report"];
pub const SCRIPT_KEYS: &[&str] = &["winner", "rounds", "turns", "out", "state"];

/// How a fight held up: what differs, and the lines of the trace a failure shows.
#[derive(Default)]
pub struct Held {
    pub mismatches: Vec<Mismatch>,
    pub context: Vec<String>,
}

fn wrong(diags: &mut Diagnostics, node: &YNode, msg: impl Into<String>, help: impl Into<String>) {
    diags.push(
        Diagnostic::error("E0406", node.span, msg)
            .label("here")
            .help(help),
    );
}

/// Holds `file` (read against `p`, its text in `sources`) to its `expect:`; an
/// expectation that cannot be read, or a script that does not fit the run, is a
/// diagnostic.
pub fn hold(p: &Program, sources: &Sources, file: &FightFile, diags: &mut Diagnostics) -> Held {
    let Some(expect) = &file.expect else {
        return Held::default();
    };
    let Some(map) = expect.as_map() else {
        wrong(
            diags,
            expect,
            "`expect` is a mapping",
            "write `expect: { wins: { <side>: 60% }, tolerance: 3% }`, or for a fight with `dice:`, `expect: { winner: <side> }`",
        );
        return Held::default();
    };
    let scripted = file.script.is_some();
    for (k, _) in map {
        let key = k.scalar_text().unwrap_or_default();
        let (own, other) = if scripted {
            (SCRIPT_KEYS, RATE_KEYS)
        } else {
            (RATE_KEYS, SCRIPT_KEYS)
        };
        if key == "odds" {
            diags.push(
                Diagnostic::error("E0406", k.span, "exact fight odds are not available yet in `expect:`: `rulesc test` does not hold them (`rulesc analyze` on the fight file gives them)")
                    .label("exact odds")
                    .help("hold simulated rates instead: `wins: { <side>: 62% }` with `tolerance: 3%` (and `runs:` for a tighter estimate)"),
            );
        } else if other.contains(&key.as_str()) {
            let help = if scripted {
                "a fight with `dice:` replays once: expect its `winner:`, `rounds:`, `turns:`, `out:` and `state:`"
            } else {
                "a fight without `dice:` is left to chance: expect `wins:` and `report:` rates with a `tolerance:` (or script its `dice:` to replay it)"
            };
            diags.push(
                Diagnostic::error("E0406", k.span, format!("`{key}` does not fit this fight"))
                    .label("not for this fight")
                    .help(help),
            );
        } else if !own.contains(&key.as_str()) {
            diags.push(
                Diagnostic::error("E0406", k.span, format!("unknown key `{key}` in `expect`"))
                    .label("unknown key")
                    .help(suggest(&key, own, "keys of `expect`")),
            );
        }
    }
    if diags.has_errors() {
        return Held::default();
    }
    if scripted {
        let ran = super::replay(p, file);
        if ran.problems.has_errors() {
            diags.extend(ran.problems);
            return Held::default();
        }
        let mismatches = scripted_end(p, sources, file, expect, &ran, diags);
        let lines: Vec<&str> = ran.trace.lines().collect();
        let context = if mismatches.is_empty() {
            Vec::new()
        } else {
            lines[lines.len().saturating_sub(8)..]
                .iter()
                .map(|l| l.to_string())
                .collect()
        };
        Held {
            mismatches,
            context,
        }
    } else {
        Held {
            mismatches: rates(p, sources, file, expect, diags),
            context: Vec::new(),
        }
    }
}

/// A whole number under `key` within `range`, or `default`.
fn number(
    diags: &mut Diagnostics,
    expect: &YNode,
    key: &str,
    range: (u64, u64),
    default: u64,
) -> u64 {
    match expect.get(key) {
        None => default,
        Some(n) => match n.value {
            YValue::Int(x) if x >= 0 && (range.0..=range.1).contains(&(x as u64)) => x as u64,
            _ => {
                wrong(
                    diags,
                    n,
                    format!("`{key}` is a whole number from {} to {}", range.0, range.1),
                    format!("write `{key}: {default}`"),
                );
                default
            }
        },
    }
}

/// The text of a rate as written (a quoted or plain string, or a number as typed).
fn written(sources: &Sources, v: &YNode) -> String {
    match &v.value {
        YValue::Str(s) => s.trim().to_string(),
        _ => sources.slice(v.span).trim().to_string(),
    }
}

/// Simulated rates, each within its tolerance.
fn rates(
    p: &Program,
    sources: &Sources,
    file: &FightFile,
    expect: &YNode,
    diags: &mut Diagnostics,
) -> Vec<Mismatch> {
    let runs = number(diags, expect, "runs", (1, MAX_RUNS.min(1_000_000)), 1000);
    let seed = number(diags, expect, "seed", (0, u64::MAX >> 1), 0);
    let tolerance = expect.get("tolerance").and_then(|t| {
        let text = written(sources, t);
        match probability(&text) {
            Some((tol, zero)) if zero == crate::analyze::exact::Prob::from_integer(0.into()) => {
                Some(crate::analyze::exact::to_f64(&tol))
            }
            _ => {
                wrong(
                    diags,
                    t,
                    format!("`{text}` is not a tolerance"),
                    "write a share of the runs: `tolerance: 3%` or `tolerance: 0.03`",
                );
                None
            }
        }
    });
    // Every figure to hold: where it is written, what it is, and the runs it counts.
    let mut figures: Vec<(String, &YNode, u64)> = Vec::new();
    let sides: Vec<&str> = file.sides.iter().map(|(s, _)| s.as_str()).collect();
    let groups: Vec<&str> = file.groups.iter().map(|g| g.name.as_str()).collect();
    let summary_needed = expect.get("wins").is_some() || expect.get("report").is_some();
    if !summary_needed {
        wrong(
            diags,
            expect,
            "the fight expects no rate",
            "add `wins: { <side>: <share> }` or `report: { <group>: <share> }`",
        );
    }
    if diags.has_errors() {
        return Vec::new();
    }
    let s: Summary = simulate(p, file, runs, seed);
    if let Some(w) = expect.get("wins") {
        for (k, v) in w.as_map().unwrap_or(&[]) {
            let name = k.scalar_text().unwrap_or_default();
            let count = match name.as_str() {
                "draw" => Some(s.draws),
                "undecided" => Some(s.undecided),
                _ => sides.iter().position(|x| *x == name).map(|i| s.wins[i]),
            };
            match count {
                Some(c) => figures.push((format!("wins.{name}"), v, c)),
                None => diags.push(
                    Diagnostic::error("E0406", k.span, format!("no side is named `{name}`"))
                        .label("unknown side")
                        .help(suggest(
                            &name,
                            &[&sides[..], &["draw", "undecided"]].concat(),
                            "sides (or draw, undecided)",
                        )),
                ),
            }
        }
        if w.as_map().is_none() {
            wrong(
                diags,
                w,
                "`wins` is a mapping",
                "write `wins: { <side>: 62% }`",
            );
        }
    }
    if let Some(r) = expect.get("report") {
        for (k, v) in r.as_map().unwrap_or(&[]) {
            let name = k.scalar_text().unwrap_or_default();
            match groups.iter().position(|x| *x == name) {
                Some(i) => figures.push((format!("report.{name}"), v, s.groups[i])),
                None => diags.push(
                    Diagnostic::error(
                        "E0406",
                        k.span,
                        format!("the fight file reports no group `{name}`"),
                    )
                    .label("unknown group")
                    .help(suggest(&name, &groups, "report groups")),
                ),
            }
        }
        if r.as_map().is_none() {
            wrong(
                diags,
                r,
                "`report` is a mapping",
                "write `report: { <group>: 40% }`",
            );
        }
    }
    let mut out = Vec::new();
    for (at, v, count) in figures {
        let text = written(sources, v);
        let Some((want, own)) = probability(&text) else {
            wrong(diags, v, format!("`{text}` is not a share of the runs"), "write a percentage or a decimal (`62%`, `0.62`), optionally with its own tolerance (`62% ± 2%`)");
            continue;
        };
        let has_own = text.contains('±') || text.contains("+-");
        let tol = if has_own {
            crate::analyze::exact::to_f64(&own)
        } else if let Some(t) = tolerance {
            t
        } else {
            wrong(
                diags,
                v,
                format!("`{text}` has no tolerance: a simulated rate is never exact"),
                "add `tolerance: 3%` under `expect:`, or write this rate as `62% ± 3%`",
            );
            continue;
        };
        let want = crate::analyze::exact::to_f64(&want);
        let n = s.runs.max(1);
        let share = count as f64 / n as f64;
        if (share - want).abs() > tol + 1e-12 {
            let rate = format!("{:.2}%", share * 100.0);
            let fix = match text.find('±').or_else(|| text.find("+-")) {
                Some(i) => format!("{rate} {}", &text[i..]),
                None => rate.clone(),
            };
            out.push(Mismatch {
                at,
                expected: if has_own {
                    text
                } else {
                    format!("{text} (± {:.2}%)", tol * 100.0)
                },
                actual: format!("{rate} ({count} of {} runs, seed {seed})", s.runs),
                fix: Some((v.span, fix)),
                field: None,
            });
        }
    }
    for (what, k) in &s.errors {
        out.push(Mismatch {
            at: "rule errors".into(),
            expected: "none".into(),
            actual: format!("{k} run(s) stopped at {what}"),
            fix: None,
            field: None,
        });
    }
    out
}

/// How a scripted fight ended, its turns and its combatants.
fn scripted_end(
    p: &Program,
    sources: &Sources,
    file: &FightFile,
    expect: &YNode,
    ran: &Replayed,
    diags: &mut Diagnostics,
) -> Vec<Mismatch> {
    let names: Vec<&str> = file
        .sides
        .iter()
        .flat_map(|(_, m)| m.iter().map(|(n, _)| n.as_str()))
        .collect();
    let name_of = |i: u32| names.get(i as usize).copied().unwrap_or("?").to_string();
    let mut out = Vec::new();
    let mut differ =
        |at: &str, node: &YNode, expected: String, actual: String, fix: Option<String>| {
            out.push(Mismatch {
                at: at.into(),
                expected,
                actual,
                fix: fix.map(|f| (node.span, f)),
                field: None,
            });
        };
    let ending = match ran.end {
        // As `winner:` is written: a side's name, `draw`, `undecided`.
        FightEnd::Won(s) => file.side_name(s).to_string(),
        FightEnd::Draw => "draw".into(),
        FightEnd::Undecided => "undecided".into(),
        FightEnd::RuleError => format!(
            "stopped by a rule error at {}",
            ran.error.clone().unwrap_or_default()
        ),
    };
    if let Some(w) = expect.get("winner") {
        let want = w.scalar_text().unwrap_or_default();
        let sides: Vec<&str> = file.sides.iter().map(|(s, _)| s.as_str()).collect();
        if !sides.contains(&want.as_str()) && want != "draw" && want != "undecided" {
            diags.push(
                Diagnostic::error("E0406", w.span, format!("no side is named `{want}`"))
                    .label("unknown side")
                    .help(suggest(
                        &want,
                        &[&sides[..], &["draw", "undecided"]].concat(),
                        "sides (or draw, undecided)",
                    )),
            );
        } else if want != ending {
            let fix = (ran.end != FightEnd::RuleError).then(|| ending.clone());
            differ("winner", w, want, ending.clone(), fix);
        }
    }
    if let Some(r) = expect.get("rounds") {
        match r.value {
            YValue::Int(want) if want == i64::from(ran.rounds) => {}
            YValue::Int(want) => differ(
                "rounds",
                r,
                want.to_string(),
                ran.rounds.to_string(),
                Some(ran.rounds.to_string()),
            ),
            _ => wrong(
                diags,
                r,
                "`rounds` is the number of rounds played",
                "write `rounds: 2`",
            ),
        }
    }
    let names_in = |key: &str, diags: &mut Diagnostics| -> Option<(&YNode, Vec<String>)> {
        let node = expect.get(key)?;
        let Some(items) = node.as_seq() else {
            wrong(
                diags,
                node,
                format!("`{key}` is a list of combatants"),
                format!(
                    "write `{key}: [{}]`",
                    names.first().copied().unwrap_or("Vera")
                ),
            );
            return None;
        };
        let mut list = Vec::new();
        for i in items {
            let t = i.scalar_text().unwrap_or_default();
            if !names.contains(&t.as_str()) {
                diags.push(
                    Diagnostic::error("E0406", i.span, format!("no combatant is named `{t}`"))
                        .label("unknown combatant")
                        .help(suggest(&t, &names, "combatants")),
                );
            }
            list.push(t);
        }
        Some((node, list))
    };
    if let Some((node, want)) = names_in("turns", diags) {
        let got: Vec<String> = ran.turns.iter().map(|&f| name_of(f)).collect();
        if want != got {
            let shown = format!("[{}]", got.join(", "));
            differ(
                "turns",
                node,
                format!("[{}]", want.join(", ")),
                shown.clone(),
                Some(shown),
            );
        }
    }
    if let Some((node, mut want)) = names_in("out", diags) {
        let mut got: Vec<String> = (0..names.len() as u32)
            .filter(|&f| ran.out.get(f as usize).copied().unwrap_or(false))
            .map(name_of)
            .collect();
        want.sort();
        got.sort();
        if want != got {
            let shown = format!("[{}]", got.join(", "));
            differ(
                "out",
                node,
                format!("[{}]", want.join(", ")),
                shown.clone(),
                Some(shown),
            );
        }
    }
    if let Some(state) = expect.get("state") {
        let ty = p
            .fight
            .as_ref()
            .map(|d| Ty::Record(d.combatant))
            .unwrap_or(Ty::Unit);
        match state.as_map() {
            None => wrong(
                diags,
                state,
                "`state` is a mapping of combatants",
                "write `state: { <combatant>: { <field>: <value> } }`",
            ),
            Some(entries) => {
                for (k, v) in entries {
                    let who = k.scalar_text().unwrap_or_default();
                    match names.iter().position(|n| *n == who) {
                        Some(i) => out.extend(crate::expect::compare_value(
                            p,
                            sources,
                            (&format!("state.{who}"), v),
                            &ran.combatants[i],
                            &ty,
                            diags,
                        )),
                        None => diags.push(
                            Diagnostic::error(
                                "E0406",
                                k.span,
                                format!("no combatant is named `{who}`"),
                            )
                            .label("unknown combatant")
                            .help(suggest(&who, &names, "combatants")),
                        ),
                    }
                }
            }
        }
    }
    out
}
