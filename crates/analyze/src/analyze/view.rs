//! Views of a distribution that answer a designer's questions: outcomes grouped by their
//! tag or a field (`--by level`), in the order of the field's scale; at-least and at-most
//! columns; mean and standard deviation; and goals (`--best "level >= Severe"`).
//!
//! Both read a result through a [`Path`]: field names from the result inward (`level`,
//! `defender.armor`), `tag` for an outcome's tag, or `value` for the result itself. A
//! path is checked against the result's type before anything runs, and its mistakes are
//! diagnostics pointing into the flag's own text.

// A mistake in a flag is one diagnostic, built once per command line: returned as is.
#![allow(clippy::result_large_err)]

use super::engine::Outcome;
use super::exact::Prob;
use crate::diag::{suggest, Diagnostic};
use crate::eval::{self, Value};
use crate::ir::{Program, Ty};
use crate::source::{SourceFile, Sources, Span};
use num_traits::{ToPrimitive, Zero};
use std::collections::HashMap;
use std::path::PathBuf;

/// The text of a command-line flag (`--by level`) as a source, so that diagnostics
/// point into it.
pub fn flag_source(sources: &mut Sources, flag: &str, text: &str) -> u32 {
    sources.add(SourceFile::new(
        format!("--{flag}"),
        PathBuf::new(),
        text.to_string(),
    ))
}

/// A checked path into a result.
#[derive(Debug, Clone)]
pub struct Path {
    pub text: String,
    /// Field names, from the result inward.
    fields: Vec<String>,
    /// The type the path ends at (an outcome type: its tag).
    pub end: Ty,
}

impl Path {
    /// Whether the values at the end have an order (ints and scales): the view then
    /// gives at-least and at-most columns.
    pub fn ordered(&self, p: &Program) -> bool {
        match base(&self.end) {
            Ty::Int => true,
            Ty::Choice(c) => p.choices[*c].ordered,
            _ => false,
        }
    }

    /// Whether the values at the end are numbers: the view then gives the mean and the
    /// standard deviation.
    pub fn numeric(&self) -> bool {
        matches!(base(&self.end), Ty::Int)
    }
}

fn base(t: &Ty) -> &Ty {
    match t {
        Ty::Option(inner) => base(inner),
        t => t,
    }
}

/// A type's name as a writer reads it.
fn type_name(p: &Program, t: &Ty) -> String {
    match t {
        Ty::Int => "int".into(),
        Ty::Bool => "bool".into(),
        Ty::Choice(c) => p.choices[*c].name.clone(),
        Ty::Record(r) => p.records[*r].name.clone(),
        Ty::Outcome(o) => p.outcomes[*o].name.clone(),
        Ty::Option(inner) => format!("{}?", type_name(p, inner)),
        Ty::List(_) => "a list".into(),
        Ty::Dice => "dice".into(),
        Ty::Roll => "a roll".into(),
        _ => "this value".into(),
    }
}

/// The fields reachable at type `t` (through `?`): name and type.
fn fields_of(p: &Program, t: &Ty) -> Vec<(String, Ty)> {
    match base(t) {
        Ty::Record(r) => p.records[*r]
            .fields
            .iter()
            .map(|f| (f.name.clone(), f.ty.clone()))
            .collect(),
        Ty::Outcome(o) => p.outcomes[*o]
            .tags
            .iter()
            .flat_map(|t| t.fields.iter().cloned())
            .collect(),
        _ => Vec::new(),
    }
}

/// Checks `text` as a path into a value of type `ret`; `file` is the flag's source.
pub fn path(p: &Program, ret: &Ty, text: &str, file: u32) -> Result<Path, Diagnostic> {
    let trimmed = text.trim();
    let lead = text.len() - text.trim_start().len();
    let at = |start: usize, len: usize| Span::new(file, lead + start, lead + start + len);
    if trimmed == "value" {
        return Ok(Path {
            text: trimmed.to_string(),
            fields: Vec::new(),
            end: ret.clone(),
        });
    }
    let mut ty = ret.clone();
    let mut fields = Vec::new();
    let mut offset = 0;
    let parts: Vec<&str> = trimmed.split('.').collect();
    for (i, part) in parts.iter().enumerate() {
        let span = at(offset, part.len());
        offset += part.len() + 1;
        let valid = part
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && part.chars().all(|c| c.is_alphanumeric() || c == '_');
        if !valid {
            return Err(Diagnostic::error(
                "E0501",
                span,
                format!("`{part}` is not a field name"),
            )
            .label("expected a name")
            .help("write a field of the result (`level`), fields joined by dots (`attacker.wounds`), `tag` or `value`"));
        }
        let own = fields_of(p, &ty);
        let matching: Vec<&(String, Ty)> = own.iter().filter(|(n, _)| n == part).collect();
        if *part == "tag" && matching.is_empty() && matches!(base(&ty), Ty::Outcome(_)) {
            if i + 1 != parts.len() {
                return Err(Diagnostic::error(
                    "E0501",
                    at(offset, trimmed.len().saturating_sub(offset)),
                    "a tag has no fields",
                )
                .label("after the tag")
                .help("end the path at `tag`"));
            }
            return Ok(Path {
                text: trimmed.to_string(),
                fields,
                end: base(&ty).clone(),
            });
        }
        let Some((_, fty)) = matching.first() else {
            let names: Vec<&str> = own.iter().map(|(n, _)| n.as_str()).collect();
            let has_tag = matches!(base(&ty), Ty::Outcome(_));
            let mut help = suggest(part, &names, "fields");
            if has_tag {
                help.push_str(" (`tag` groups by the outcome's tag)");
            }
            let message = if own.is_empty() {
                format!("{} has no fields", type_name(p, &ty))
            } else {
                format!("{} has no field `{part}`", type_name(p, &ty))
            };
            return Err(Diagnostic::error("E0501", span, message)
                .label("no such field")
                .help(help));
        };
        if matching.iter().any(|(_, t)| t != fty) {
            return Err(Diagnostic::error(
                "E0502",
                span,
                format!(
                    "the tags of {} have fields `{part}` of different types",
                    type_name(p, &ty)
                ),
            )
            .label("ambiguous")
            .help("group by a field whose type is the same in every tag that has it"));
        }
        fields.push(part.to_string());
        ty = fty.clone();
    }
    match base(&ty) {
        Ty::Int | Ty::Bool | Ty::Choice(_) | Ty::Outcome(_) => Ok(Path {
            text: trimmed.to_string(),
            fields,
            end: ty,
        }),
        other => {
            let names: Vec<String> = fields_of(p, other).into_iter().map(|(n, _)| n).collect();
            let help = if names.is_empty() {
                "group by a number, a yes/no, a level, an enum value or an outcome's tag"
                    .to_string()
            } else {
                format!("name one of its fields: {}", names.join(", "))
            };
            Err(Diagnostic::error(
                "E0503",
                at(0, trimmed.len()),
                format!("cannot group by {}", type_name(p, &ty)),
            )
            .label("this path")
            .help(help))
        }
    }
}

/// Where a path lands in one value.
#[derive(Debug, Clone, PartialEq)]
pub enum Reached {
    /// The value at the end, of the path's end type.
    Value(Value),
    /// `none` on the way.
    None,
    /// An outcome (of this outcome type) whose tag (this index) has no field of the
    /// path's next name.
    Lacks(usize, usize),
}

impl Path {
    /// Follows the path into `v` of type `ret`; the ranks of the outcome tags passed on
    /// the way are pushed on `rank` (a tag that has the field ranks as the first tag that
    /// has it, so that equal values of different tags group together).
    pub fn follow(&self, p: &Program, v: &Value, ret: &Ty, rank: &mut Vec<i64>) -> Reached {
        let mut v = v.clone();
        let mut ty = ret.clone();
        for name in &self.fields {
            while let Ty::Option(inner) = ty {
                if v == Value::None {
                    return Reached::None;
                }
                ty = *inner;
            }
            match (&ty, &v) {
                (Ty::Record(r), Value::Record(fs)) => {
                    let def = &p.records[*r];
                    let Some(i) = def.fields.iter().position(|f| &f.name == name) else {
                        return Reached::None;
                    };
                    let next = fs.borrow()[i].clone();
                    ty = def.fields[i].ty.clone();
                    v = next;
                }
                (Ty::Outcome(o), Value::Outcome { tag, fields }) => {
                    let tags = &p.outcomes[*o].tags;
                    let tag = *tag as usize;
                    let Some(i) = tags[tag].fields.iter().position(|(n, _)| n == name) else {
                        rank.push(tag as i64);
                        return Reached::Lacks(*o, tag);
                    };
                    let first = tags
                        .iter()
                        .position(|t| t.fields.iter().any(|(n, _)| n == name))
                        .unwrap_or(tag);
                    rank.push(first as i64);
                    ty = tags[tag].fields[i].1.clone();
                    v = fields[i].clone();
                }
                _ => return Reached::None,
            }
        }
        while let Ty::Option(inner) = ty {
            if v == Value::None {
                return Reached::None;
            }
            ty = *inner;
        }
        Reached::Value(v)
    }
}

/// One group of outcomes.
#[derive(Debug, Clone)]
pub struct Group {
    pub label: String,
    pub prob: Prob,
    /// The number the group stands for (`--by` a number), for the mean.
    pub number: Option<i64>,
    /// The value the group stands for, as JSON ([`crate::values::run_value`]): the whole
    /// result, or with `--by` the value at the path's end, or the tag that lacks it;
    /// `null` for a rule error.
    pub value: serde_json::Value,
    rank: Vec<i64>,
}

impl Group {
    /// A group standing for the number `n` (a fight's rounds), labelled with it.
    pub fn number(n: i64, prob: Prob) -> Group {
        Group {
            label: n.to_string(),
            prob,
            number: Some(n),
            value: serde_json::Value::from(n),
            rank: vec![n],
        }
    }
}

/// Groups a distribution's outcomes by `path` (of a result of type `ret`), in the order
/// of the values at its end (scale order, numbers ascending, declaration order for enums
/// and tags); outcome tags without the path's field are their own groups, at their tag's
/// place; rule errors come last, one group each.
pub fn group(p: &Program, ret: &Ty, path: &Path, outcomes: &[(Outcome, Prob)]) -> Vec<Group> {
    let mut groups = Gather::default();
    for (o, prob) in outcomes {
        let mut rank = Vec::new();
        let mut value = serde_json::Value::Null;
        let (label, number) = match o {
            Err(_) => {
                rank.push(i64::MAX);
                (eval::show_result(p, o, ret), None)
            }
            Ok(v) => match path.follow(p, v, ret, &mut rank) {
                Reached::Lacks(id, tag) => {
                    value = serde_json::json!(p.outcomes[id].tags[tag].name);
                    (p.outcomes[id].tags[tag].name.clone(), None)
                }
                Reached::None => {
                    rank.push(i64::MIN);
                    ("none".to_string(), None)
                }
                Reached::Value(v) => {
                    value = crate::values::run_value(p, &v, &path.end);
                    match (&v, base(&path.end)) {
                        (Value::Int(n), _) => {
                            rank.push(*n);
                            (n.to_string(), Some(*n))
                        }
                        (Value::Bool(b), _) => {
                            rank.push(i64::from(*b));
                            (b.to_string(), None)
                        }
                        (Value::Choice(i), Ty::Choice(c)) => {
                            rank.push(i64::from(*i));
                            let name = p.choices[*c]
                                .variants
                                .get(*i as usize)
                                .map(|v| v.name.clone())
                                .unwrap_or_else(|| {
                                    unreachable!("a level is held as its index in its scale")
                                });
                            (name, None)
                        }
                        (Value::Outcome { tag, .. }, Ty::Outcome(id)) => {
                            rank.push(i64::from(*tag));
                            (p.outcomes[*id].tags[*tag as usize].name.clone(), None)
                        }
                        _ => {
                            rank.push(i64::MAX - 1);
                            (eval::show(p, &v, &path.end), None)
                        }
                    }
                }
            },
        };
        groups.add(Group {
            label,
            prob: prob.clone(),
            number,
            value,
            rank,
        });
    }
    groups.finish(true)
}

/// Each distinct outcome (as the engines give them) as its own group, as traces show it.
pub fn each(p: &Program, ret: &Ty, outcomes: &[(Outcome, Prob)]) -> Vec<Group> {
    // The outcomes are distinct already: no merging.
    let groups = outcomes
        .iter()
        .map(|(o, prob)| Group {
            label: eval::show_result(p, o, ret),
            prob: prob.clone(),
            number: None,
            value: match o {
                Ok(v) => crate::values::run_value(p, v, ret),
                Err(_) => serde_json::Value::Null,
            },
            rank: Vec::new(),
        })
        .collect();
    Gather {
        groups,
        index: HashMap::new(),
    }
    .finish(false)
}

/// Groups being gathered: outcomes of the same place and label add up (found through an
/// index, so 200,000 distinct outcomes cost linear time).
#[derive(Debug, Default)]
pub struct Gather {
    groups: Vec<Group>,
    index: HashMap<(Vec<i64>, String), usize>,
}

impl Gather {
    /// Adds `g` to the group of the same place and label, or as a new one.
    pub fn add(&mut self, g: Group) {
        match self.index.get(&(g.rank.clone(), g.label.clone())) {
            Some(&i) => self.groups[i].prob += g.prob,
            None => {
                self.index
                    .insert((g.rank.clone(), g.label.clone()), self.groups.len());
                self.groups.push(g);
            }
        }
    }

    /// The groups in order: by their place (`by`), or likeliest first.
    pub fn finish(self, by: bool) -> Vec<Group> {
        let mut groups = self.groups;
        if by {
            groups.sort_by(|a, b| a.rank.cmp(&b.rank).then_with(|| a.label.cmp(&b.label)));
        } else {
            groups.sort_by(|a, b| b.prob.cmp(&a.prob).then_with(|| a.label.cmp(&b.label)));
        }
        groups
    }
}

/// The mean and standard deviation of the numbers of some groups.
#[derive(Debug, Clone)]
pub struct Stats {
    /// Exact.
    pub mean: Prob,
    pub sd: f64,
    /// How much of the distribution has a number (the stats are over that part).
    pub over: Prob,
}

/// The mean and standard deviation over the groups that stand for a number, or `None`
/// if none does.
pub fn stats(groups: &[Group]) -> Option<Stats> {
    let mut over = Prob::zero();
    let mut sum = Prob::zero();
    let mut squares = Prob::zero();
    for g in groups {
        let Some(n) = g.number else { continue };
        let n = Prob::from_integer(n.into());
        over += &g.prob;
        sum += &g.prob * &n;
        squares += &g.prob * &n * &n;
    }
    if over.is_zero() {
        return None;
    }
    let mean = &sum / &over;
    let var = &squares / &over - &mean * &mean;
    let sd = var.to_f64().unwrap_or(f64::NAN).max(0.0).sqrt();
    Some(Stats { mean, sd, over })
}

/// The chance of each group or any later one (at least), and of it or any earlier one
/// (at most), in the groups' order.
pub fn cumulative(groups: &[Group]) -> Vec<(Prob, Prob)> {
    let mut at_most = Vec::with_capacity(groups.len());
    let mut run = Prob::zero();
    for g in groups {
        run += &g.prob;
        at_most.push(run.clone());
    }
    let mut at_least = vec![Prob::zero(); groups.len()];
    let mut run = Prob::zero();
    for (i, g) in groups.iter().enumerate().rev() {
        run += &g.prob;
        at_least[i] = run.clone();
    }
    at_least.into_iter().zip(at_most).collect()
}
