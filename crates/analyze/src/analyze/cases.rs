//! The cases one `rulesc analyze` call compares, as a Cartesian grid: every point of the
//! sweeps (`--sweep PATH=LO..HI`, values set under the scenario's `args:`) and every
//! answer to the decisions compared (`--decide`, `--best`).

// A mistake in a flag is one diagnostic, built once per command line: returned as is.
#![allow(clippy::result_large_err)]

use crate::diag::{suggest, Diagnostic};
use crate::ir::{self, DecideOptions, ExprKind as K, Id, Program};
use crate::source::Span;
use crate::yaml::{YNode, YValue};

/// Most cases one call analyzes (answers multiplied together, sweep points).
pub const MAX_CASES: usize = 10_000;

/// A decision the program can ask for, and its answers by name (in the order the
/// decider numbers them).
#[derive(Debug, Clone)]
pub struct Decision {
    pub name: String,
    pub answers: Vec<String>,
}

/// Every decision procedure (or formula) `f` can reach, with its answers; a decision
/// that picks from a list (whose answers are known only as it runs) has none.
pub fn reachable(p: &Program, f: Id) -> Vec<(String, Option<Vec<String>>)> {
    let mut seen = vec![false; p.functions.len()];
    let mut todo = vec![f];
    let mut out: Vec<(String, Option<Vec<String>>)> = Vec::new();
    while let Some(g) = todo.pop() {
        if std::mem::replace(&mut seen[g], true) {
            continue;
        }
        let mut visit = |e: &ir::Expr| {
            fn go(
                p: &Program,
                e: &ir::Expr,
                out: &mut Vec<(String, Option<Vec<String>>)>,
                todo: &mut Vec<Id>,
            ) {
                match &e.kind {
                    K::Decide { name, options, .. } if !out.iter().any(|(n, _)| n == name) => {
                        let answers = match options {
                            DecideOptions::Choice(c) => Some(
                                p.choices[*c]
                                    .variants
                                    .iter()
                                    .map(|v| v.name.clone())
                                    .collect(),
                            ),
                            DecideOptions::Bool => {
                                Some(vec!["false".to_string(), "true".to_string()])
                            }
                            DecideOptions::List(_) => None,
                        };
                        out.push((name.clone(), answers));
                    }
                    K::Call(id, _) => todo.push(*id),
                    _ => {}
                }
                ir::walk::for_each_child(e, &mut |x| go(p, x, out, todo));
            }
            go(p, e, &mut out, &mut todo);
        };
        ir::walk::for_each_body_expr(&p.functions[g], &mut visit);
    }
    out
}

/// The decisions named by `names` (or, if none is named, every decision `f` reaches),
/// each with its answers; `at` is where the names were given. Names the writer did not
/// give (`given` false: the scenario's scripted decisions) skip what cannot be compared
/// (decisions never asked, or picking from a list): those keep their script.
pub fn decisions(
    p: &Program,
    f: Id,
    names: &[String],
    given: bool,
    at: Span,
) -> Result<Vec<Decision>, Diagnostic> {
    let all = reachable(p, f);
    let wanted: Vec<&str> = if names.is_empty() {
        all.iter().map(|(n, _)| n.as_str()).collect()
    } else {
        names.iter().map(String::as_str).collect()
    };
    let mut out = Vec::new();
    for name in wanted {
        let found = all.iter().find(|(n, _)| n == name);
        if !given && !matches!(found, Some((_, Some(_)))) {
            continue;
        }
        let Some((_, answers)) = found else {
            let known: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
            return Err(Diagnostic::error(
                "E0508",
                at,
                format!(
                    "`{}` never asks for a decision named `{name}`",
                    p.functions[f].name
                ),
            )
            .label("this decision")
            .help(suggest(name, &known, "decisions it asks for")));
        };
        let Some(answers) = answers else {
            return Err(Diagnostic::error(
                "E0509",
                at,
                format!("decision `{name}` picks from a list"),
            )
            .label("this decision")
            .help(
                "its answers are known only as the rules run; script it in the scenario instead",
            ));
        };
        if !out.iter().any(|d: &Decision| d.name == name) {
            out.push(Decision {
                name: name.to_string(),
                answers: answers.clone(),
            });
        }
    }
    Ok(out)
}

/// Every combination of one value per axis (the first axis slowest), or `None` past
/// [`MAX_CASES`].
pub fn grid<T: Clone>(axes: &[Vec<T>]) -> Option<Vec<Vec<T>>> {
    let mut total: usize = 1;
    for a in axes {
        total = total.checked_mul(a.len()).filter(|&t| t <= MAX_CASES)?;
    }
    let mut out: Vec<Vec<T>> = vec![Vec::new()];
    for a in axes {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                a.iter().map(move |v| {
                    let mut next = prefix.clone();
                    next.push(v.clone());
                    next
                })
            })
            .collect();
    }
    Some(out)
}

/// One `--sweep PATH=VALUES`: a path under the scenario's `args` and the values it
/// takes in turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// The path as written (`attacker.skills.ArmedCombat`).
    pub path: String,
    pub values: Vec<YValue>,
}

/// Reads `PATH=LO..HI` (whole numbers, both ends included) or `PATH=A,B,C` (numbers or
/// names); the message says what is wrong (a usage error).
pub fn parse_sweep(text: &str) -> Result<Sweep, String> {
    let Some((path, values)) = text.split_once('=') else {
        return Err(format!(
            "`{text}` is not `PATH=LO..HI` or `PATH=A,B,C` (e.g. attacker.skills.ArmedCombat=0..6)"
        ));
    };
    let path = path.trim();
    let valid = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    if path.split('.').any(|s| !valid(s)) {
        return Err(format!(
            "`{path}` is not a path of names joined by dots (e.g. attacker.skills.ArmedCombat)"
        ));
    }
    let values = values.trim();
    let list: Vec<YValue> = if let Some((lo, hi)) = values.split_once("..") {
        let (Ok(lo), Ok(hi)) = (lo.trim().parse::<i64>(), hi.trim().parse::<i64>()) else {
            return Err(format!("`{values}` is not a range of whole numbers LO..HI"));
        };
        if lo > hi {
            return Err(format!(
                "the range {lo}..{hi} is empty (LO must not exceed HI)"
            ));
        }
        if (hi as i128 - lo as i128) >= MAX_CASES as i128 {
            return Err(format!(
                "the range {lo}..{hi} has more than {MAX_CASES} values"
            ));
        }
        (lo..=hi).map(YValue::Int).collect()
    } else {
        values
            .split(',')
            .map(|v| {
                let v = v.trim();
                match v.parse::<i64>() {
                    Ok(n) => Ok(YValue::Int(n)),
                    Err(_) if valid(v) || v == "true" || v == "false" => Ok(match v {
                        "true" => YValue::Bool(true),
                        "false" => YValue::Bool(false),
                        _ => YValue::Str(v.to_string()),
                    }),
                    Err(_) => Err(format!("`{v}` is not a number or a name")),
                }
            })
            .collect::<Result<_, _>>()?
    };
    if list.len() > MAX_CASES {
        return Err(format!("more than {MAX_CASES} values"));
    }
    Ok(Sweep {
        path: path.to_string(),
        values: list,
    })
}

/// A sweep's value as text.
pub fn shown(v: &YValue) -> String {
    match v {
        YValue::Int(n) => n.to_string(),
        YValue::Bool(b) => b.to_string(),
        YValue::Str(s) => s.clone(),
        _ => String::new(),
    }
}

/// Sets `path` under the scenario's `args` to `value` (maps on the way are made when
/// missing); `Err` names the part of the path (`args.attacker.wounds`) that is not a
/// mapping in the scenario.
pub fn set(root: &mut YNode, path: &str, value: &YValue) -> Result<(), String> {
    set_path(root, std::iter::once("args").chain(path.split('.')), value)
}

/// Sets the value at `keys` under `root` to `value` (maps on the way are made when
/// missing); `Err` names the part of the path (`args.attacker.wounds`) that is not a
/// mapping. What [`set`] and a fight's sweep share.
pub fn set_path<'k>(
    root: &mut YNode,
    keys: impl IntoIterator<Item = &'k str>,
    value: &YValue,
) -> Result<(), String> {
    let mut node = root;
    let mut so_far = String::new();
    for key in keys {
        let span = node.span;
        let YValue::Map(entries) = &mut node.value else {
            return Err(so_far);
        };
        if !so_far.is_empty() {
            so_far.push('.');
        }
        so_far.push_str(key);
        let i = match entries.iter().position(|(k, _)| k.as_str() == Some(key)) {
            Some(i) => i,
            None => {
                let k = YNode {
                    span,
                    value: YValue::Str(key.to_string()),
                };
                let v = YNode {
                    span,
                    value: YValue::Map(Vec::new()),
                };
                entries.push((k, v));
                entries.len() - 1
            }
        };
        node = &mut entries[i].1;
    }
    node.value = value.clone();
    Ok(())
}
