//! `expect:` in a scenario: what its run must give, held against what it gave.
//!
//! ```yaml
//! expect:
//!   result: { Hit: { level: Moderate, box: 7 } }   # or `result: Miss`, `result: 14`
//!   state:                                          # fields of arguments after the run
//!     defender: { wounds: [7] }
//! ```
//!
//! Values are written as [values in YAML](../../docs/reference.md) are, and compared as
//! the trace shows them. An outcome, record or list written as a mapping or a list is
//! compared part by part: only the tags and fields it names are held to. Each part that
//! differs is a [`Mismatch`], which carries the YAML that would make it hold, for
//! `rulesc test --update` ([`rewrite`]).

use crate::analyze::exact::{fraction, to_f64, Prob};
use crate::analyze::Distribution;
use crate::check::Reader;
use crate::diag::{suggest, Diagnostic, Diagnostics};
use crate::eval::{self, Value};
use crate::ir::{Function, Program, Ty};
use crate::scenario::Ran;
use crate::source::{Sources, Span};
use crate::yaml::{YNode, YValue};
use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use rulesc_runtime::RuleError;

/// The keys of `expect:`.
pub const KEYS: &[&str] = &["result", "state", "odds"];

/// One expectation that did not hold.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// What differs: `result`, `result.level`, `state.defender.hp`.
    pub at: String,
    /// The expected value, as the trace shows values.
    pub expected: String,
    /// The value the run gave, as the trace shows it.
    pub actual: String,
    /// Where the expectation is written, and the YAML that would make it hold (what
    /// `--update` writes there); `None` for a value YAML cannot write.
    pub fix: Option<(Span, String)>,
    /// A word to look for in the trace (the field that differs).
    pub field: Option<String>,
}

/// Holds a run against its scenario's `expect:` node: every part that differs, or the
/// diagnostics of an expectation that cannot be read (`E0406`).
pub fn compare(
    p: &Program,
    sources: &Sources,
    expect: &YNode,
    f: &Function,
    ran: &Ran,
    odds: Option<&Distribution>,
    diags: &mut Diagnostics,
) -> Vec<Mismatch> {
    let (params, ret) = (&f.params, &f.ret);
    let mut c = Comparer {
        p,
        sources,
        reader: Reader::new(p, sources),
        diags,
        out: Vec::new(),
    };
    let Some(map) = expect.as_map() else {
        c.wrong(
            expect,
            "`expect` is a mapping",
            "write `expect: { result: ..., state: { <parameter>: { <field>: ... } } }`",
        );
        return Vec::new();
    };
    for (k, v) in map {
        let key = k.scalar_text().unwrap_or_default();
        match key.as_str() {
            "result" => match &ran.result {
                Ok(value) => c.value("result", v, value, ret),
                Err(e) => c.push_rule_error(p, v, e),
            },
            "state" => c.state(v, params, &ran.args, &ran.fighters),
            "odds" => {
                if let Some(d) = odds {
                    c.odds(v, d, ret)
                }
            }
            _ => c.diags.push(
                Diagnostic::error("E0406", k.span, format!("unknown key `{key}` in `expect`"))
                    .label("unknown key")
                    .help(suggest(&key, KEYS, "keys of `expect`")),
            ),
        }
    }
    c.out
}

/// Holds one value (of type `ty`) to the expectation `node`, at `at` (a fight's
/// combatant at the end of a scripted fight: `state.Aldren`), as `state:` holds an
/// argument: part by part.
pub fn compare_value(
    p: &Program,
    sources: &Sources,
    (at, node): (&str, &YNode),
    actual: &Value,
    ty: &Ty,
    diags: &mut Diagnostics,
) -> Vec<Mismatch> {
    let mut c = Comparer {
        p,
        sources,
        reader: Reader::new(p, sources),
        diags,
        out: Vec::new(),
    };
    c.value(at, node, actual, ty);
    c.out
}

struct Comparer<'a, 'd> {
    p: &'a Program,
    sources: &'a Sources,
    reader: Reader,
    diags: &'d mut Diagnostics,
    out: Vec<Mismatch>,
}

impl Comparer<'_, '_> {
    fn wrong(&mut self, node: &YNode, msg: impl Into<String>, help: impl Into<String>) {
        self.diags.push(
            Diagnostic::error("E0406", node.span, msg)
                .label("here")
                .help(help),
        );
    }

    fn push_rule_error(&mut self, p: &Program, node: &YNode, e: &RuleError) {
        self.out.push(Mismatch {
            at: "result".into(),
            expected: source_text(node),
            actual: eval::show_result(p, &Err(e.clone()), &Ty::Unit),
            fix: None,
            field: None,
        });
    }

    /// `odds: { <outcome>: <probability> }`: each outcome's exact probability, over every
    /// roll of the dice (decisions as scripted). An outcome is named by its tag (all its
    /// results together) or as the trace shows it whole; a probability is a fraction
    /// (`3317/10296`), a decimal or a percentage (`0.25`, `25%`), exact, or with a
    /// tolerance (`32% ± 1%`, `0.32 +- 0.01`).
    fn odds(&mut self, node: &YNode, d: &Distribution, ret: &Ty) {
        let Some(map) = node.as_map() else {
            self.wrong(
                node,
                format!("`odds` is a mapping, not {}", node.kind()),
                "write `odds: { <outcome>: <probability> }`, such as `odds: { Miss: 1/4 }`",
            );
            return;
        };
        let tags: Vec<&str> = match ret {
            Ty::Outcome(o) => self.p.outcomes[*o]
                .tags
                .iter()
                .map(|t| t.name.as_str())
                .collect(),
            _ => Vec::new(),
        };
        let shown: Vec<(String, Option<&str>, &Prob)> = d
            .outcomes
            .iter()
            .map(|(o, prob)| {
                let tag = match (o, ret) {
                    (Ok(Value::Outcome { tag, .. }), Ty::Outcome(_)) => {
                        tags.get(*tag as usize).copied()
                    }
                    _ => None,
                };
                (eval::show_result(self.p, o, ret), tag, prob)
            })
            .collect();
        for (k, v) in map {
            let key = k.scalar_text().unwrap_or_default();
            let matching: Vec<&Prob> = shown
                .iter()
                .filter(|(s, tag, _)| *s == key || *tag == Some(key.as_str()))
                .map(|(_, _, p)| *p)
                .collect();
            if matching.is_empty() && !tags.is_empty() && !tags.contains(&key.as_str()) {
                self.diags.push(
                    Diagnostic::error("E0406", k.span, format!("no result of the run is `{key}`"))
                        .label("not an outcome")
                        .help(suggest(&key, &tags, "tags")),
                );
                continue;
            }
            let actual: Prob = matching.into_iter().fold(Prob::zero(), |a, b| a + b);
            // A string's text is its value, quoted or not; a number's is as written
            // (`0.10` read as a float would lose what was written).
            let text = match &v.value {
                YValue::Str(s) => s.trim().to_string(),
                _ => self.sources.slice(v.span).trim().to_string(),
            };
            let Some((want, tolerance)) = probability(&text) else {
                self.wrong(
                    v,
                    format!("`{text}` is not a probability"),
                    "write a fraction (`3317/10296`), a decimal or a percentage (`0.25`, `25%`), or one with a tolerance (`32% ± 1%`)",
                );
                continue;
            };
            if (&actual - &want).abs() > tolerance {
                let mut shown = format!("{} ({:.4}%)", fraction(&actual), to_f64(&actual) * 100.0);
                if !d.unexplored.is_zero() {
                    shown.push_str(&format!(", {} unexplored", fraction(&d.unexplored)));
                }
                self.out.push(Mismatch {
                    at: format!("odds.{key}"),
                    expected: text,
                    actual: shown,
                    fix: Some((v.span, fraction(&actual))),
                    field: None,
                });
            }
        }
    }

    /// `state: { <parameter>: <value> }`: each argument after the run; in a scenario's
    /// fight, a combatant by its name too.
    fn state(
        &mut self,
        node: &YNode,
        params: &[crate::ir::Param],
        args: &[Value],
        fighters: &[(String, Value)],
    ) {
        let Some(map) = node.as_map() else {
            self.wrong(
                node,
                format!("`state` is a mapping, not {}", node.kind()),
                "write `state: { <parameter>: { <field>: <value> } }`",
            );
            return;
        };
        for (k, v) in map {
            let name = k.scalar_text().unwrap_or_default();
            let fighter = fighters.iter().find(|(n, _)| *n == name);
            match (params.iter().position(|q| q.name == name), fighter) {
                (Some(i), _) => {
                    let at = format!("state.{name}");
                    let ty = combatant_ty(self.p, &params[i].ty);
                    self.value(&at, v, &args[i], &ty);
                }
                (None, Some((_, found))) => {
                    let at = format!("state.{name}");
                    let ty = combatant_ty(self.p, &Ty::Fighter);
                    self.value(&at, v, found, &ty);
                }
                (None, None) => {
                    let cands: Vec<&str> = params
                        .iter()
                        .map(|q| q.name.as_str())
                        .chain(fighters.iter().map(|(n, _)| n.as_str()))
                        .collect();
                    self.diags.push(
                        Diagnostic::error(
                            "E0406",
                            k.span,
                            format!("the procedure has no parameter `{name}`"),
                        )
                        .label("unknown parameter")
                        .help(suggest(&name, &cands, "parameters")),
                    );
                }
            }
        }
    }

    /// Holds `actual` (of type `ty`) to the expectation `node`, at `at`.
    fn value(&mut self, at: &str, node: &YNode, actual: &Value, ty: &Ty) {
        match (ty, &node.value, actual) {
            (Ty::Outcome(o), _, Value::Outcome { tag, fields }) => {
                self.outcome(at, node, *o, *tag, fields)
            }
            (Ty::Record(r), YValue::Map(entries), Value::Record(values)) => {
                let values = values.borrow().clone();
                self.fields(at, node, entries, *r, &values)
            }
            (Ty::List(elem), YValue::Seq(items), Value::List(values))
                if items.len() == values.len() =>
            {
                for (i, (item, v)) in items.iter().zip(values.iter()).enumerate() {
                    self.value(&format!("{at}[{i}]"), item, v, elem);
                }
            }
            (Ty::Option(inner), _, v) if !matches!(v, Value::None) && !is_none(node) => {
                self.value(at, node, v, inner)
            }
            _ => self.whole(at, node, actual, ty),
        }
    }

    /// An expectation read as one value of type `ty` and compared whole.
    fn whole(&mut self, at: &str, node: &YNode, actual: &Value, ty: &Ty) {
        let ty = match ty {
            Ty::Roll => &Ty::Int,
            t => t,
        };
        let Some(expected) = self.reader.read(node, ty, self.diags) else {
            return;
        };
        let expected = eval::show(self.p, &Value::from_const(&expected), ty);
        let shown = eval::show(self.p, actual, ty);
        if expected != shown {
            self.mismatch(at, node, expected, shown, actual, ty);
        }
    }

    fn mismatch(
        &mut self,
        at: &str,
        node: &YNode,
        expected: String,
        actual_text: String,
        actual: &Value,
        ty: &Ty,
    ) {
        let field = at
            .rsplit(['.', '['])
            .next()
            .filter(|f| !f.ends_with(']') && *f != "result")
            .map(str::to_string);
        self.out.push(Mismatch {
            at: at.to_string(),
            expected,
            actual: actual_text,
            fix: to_yaml(self.p, actual, ty).map(|y| (node.span, y)),
            field,
        });
    }

    /// An outcome: `Tag`, or `{ Tag: { <field>: <value> } }` (the fields named only).
    fn outcome(&mut self, at: &str, node: &YNode, o: usize, tag: u16, fields: &[Value]) {
        let ty = Ty::Outcome(o);
        let actual = Value::Outcome {
            tag,
            fields: std::rc::Rc::from(fields),
        };
        let tags = &self.p.outcomes[o].tags;
        let (name_node, field_nodes) = match &node.value {
            YValue::Str(_) => (node, None),
            YValue::Map(m) if m.len() == 1 => (&m[0].0, Some(&m[0].1)),
            _ => {
                let name = &self.p.outcomes[o].name;
                self.wrong(
                    node,
                    format!("expected a `{name}`: a tag, or one tag with its fields"),
                    "write `Miss`, or `{ Hit: { <field>: <value> } }`",
                );
                return;
            }
        };
        let name = name_node.scalar_text().unwrap_or_default();
        let Some(want) = tags.iter().position(|t| t.name == name) else {
            let cands: Vec<&str> = tags.iter().map(|t| t.name.as_str()).collect();
            let outcome = &self.p.outcomes[o].name;
            self.diags.push(
                Diagnostic::error(
                    "E0406",
                    name_node.span,
                    format!("`{name}` is not a tag of `{outcome}`"),
                )
                .label("unknown tag")
                .help(suggest(&name, &cands, "tags")),
            );
            return;
        };
        if want != tag as usize {
            let shown = eval::show(self.p, &actual, &ty);
            self.mismatch(at, node, source_text(node), shown, &actual, &ty);
            return;
        }
        let Some(field_nodes) = field_nodes else {
            return;
        };
        let Some(entries) = field_nodes.as_map() else {
            if !matches!(field_nodes.value, YValue::Null) {
                self.wrong(
                    field_nodes,
                    format!("the fields of `{name}` are a mapping"),
                    format!("write `{{ {name}: {{ <field>: <value> }} }}`"),
                );
            }
            return;
        };
        let tag_fields = tags[want].fields.clone();
        for (k, v) in entries {
            let f = k.scalar_text().unwrap_or_default();
            match tag_fields.iter().position(|(n, _)| *n == f) {
                Some(i) => self.value(&format!("{at}.{f}"), v, &fields[i], &tag_fields[i].1),
                None => self.unknown_field(k, &name, &f, &tag_fields),
            }
        }
    }

    /// `E0406` for a field `owner` (a record type or a tag) does not have.
    fn unknown_field(&mut self, key: &YNode, owner: &str, f: &str, fields: &[(String, Ty)]) {
        let cands: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
        self.diags.push(
            Diagnostic::error("E0406", key.span, format!("`{owner}` has no field `{f}`"))
                .label("unknown field")
                .help(suggest(f, &cands, "fields")),
        );
    }

    /// A record written as a mapping: the fields it names.
    fn fields(
        &mut self,
        at: &str,
        node: &YNode,
        entries: &[(YNode, YNode)],
        r: usize,
        values: &[Value],
    ) {
        let _ = node;
        let record = &self.p.records[r];
        let fields: Vec<(String, Ty)> = record
            .fields
            .iter()
            .map(|f| (f.name.clone(), f.ty.clone()))
            .collect();
        let record_name = record.name.clone();
        for (k, v) in entries {
            let f = k.scalar_text().unwrap_or_default();
            match fields.iter().position(|(n, _)| *n == f) {
                Some(i) => self.value(&format!("{at}.{f}"), v, &values[i], &fields[i].1),
                None => self.unknown_field(k, &record_name, &f, &fields),
            }
        }
    }
}

/// The type a parameter's value is held to: a fighter (in a scenario's fight) as its
/// combatant's record.
fn combatant_ty(p: &Program, ty: &Ty) -> Ty {
    match (ty, &p.fight) {
        (Ty::Fighter, Some(d)) => Ty::Record(d.combatant),
        _ => ty.clone(),
    }
}

fn is_none(node: &YNode) -> bool {
    matches!(&node.value, YValue::Null) || node.as_str() == Some("none")
}

/// A node as it was written (its scalar text, or its shape).
fn source_text(node: &YNode) -> String {
    match &node.value {
        YValue::Map(m) if m.len() == 1 => {
            let tag = m[0].0.scalar_text().unwrap_or_default();
            format!("{tag}(...)")
        }
        _ => node
            .scalar_text()
            .unwrap_or_else(|| node.kind().to_string()),
    }
}

/// A value as YAML (flow style) that reads back as it: levels and variants by name,
/// records and outcome fields as mappings. `None` for what a scenario cannot write (a
/// fighter, the dice of a roll).
pub fn to_yaml(p: &Program, v: &Value, ty: &Ty) -> Option<String> {
    Some(match (v, ty) {
        (Value::None, _) => "none".into(),
        (v, Ty::Option(t)) => to_yaml(p, v, t)?,
        (Value::Int(i), _) => i.to_string(),
        (Value::Roll(r), _) => r.total.to_string(),
        (Value::Bool(b), _) => b.to_string(),
        (Value::Dice(d), _) => d.to_string(),
        (Value::Choice(i), Ty::Choice(c)) => p.choices[*c].variants.get(*i as usize)?.name.clone(),
        (Value::Track(t), _) => {
            let boxes: Vec<String> = t.boxes().map(|b| b.to_string()).collect();
            format!("[{}]", boxes.join(", "))
        }
        (Value::List(items), Ty::List(elem)) => {
            let items: Option<Vec<String>> = items.iter().map(|i| to_yaml(p, i, elem)).collect();
            format!("[{}]", items?.join(", "))
        }
        (Value::Map(items), Ty::Map(k, vt)) => {
            let parts: Option<Vec<String>> = items
                .iter()
                .zip(&p.choices[*k].variants)
                .map(|(i, var)| Some(format!("{}: {}", var.name, to_yaml(p, i, vt)?)))
                .collect();
            braces(parts?)
        }
        (Value::SortedMap(m), Ty::SortedMap(kt, vt)) => {
            let parts: Option<Vec<String>> = m
                .iter()
                .map(|(k, v)| {
                    Some(format!(
                        "{{ key: {}, value: {} }}",
                        to_yaml(p, k, kt)?,
                        to_yaml(p, v, vt)?
                    ))
                })
                .collect();
            format!("[{}]", parts?.join(", "))
        }
        (Value::Record(fields), Ty::Record(r)) => {
            let parts: Option<Vec<String>> = p.records[*r]
                .fields
                .iter()
                .zip(fields.borrow().iter())
                .map(|(f, v)| Some(format!("{}: {}", f.name, to_yaml(p, v, &f.ty)?)))
                .collect();
            braces(parts?)
        }
        (Value::Outcome { tag, fields }, Ty::Outcome(o)) => {
            let t = p.outcomes[*o].tags.get(*tag as usize)?;
            if t.fields.is_empty() {
                t.name.clone()
            } else {
                let parts: Option<Vec<String>> = t
                    .fields
                    .iter()
                    .zip(fields.iter())
                    .map(|((n, ty), v)| Some(format!("{n}: {}", to_yaml(p, v, ty)?)))
                    .collect();
                format!("{{ {}: {} }}", t.name, braces(parts?))
            }
        }
        _ => return None,
    })
}

fn braces(parts: Vec<String>) -> String {
    if parts.is_empty() {
        "{}".into()
    } else {
        format!("{{ {} }}", parts.join(", "))
    }
}

/// What `--update` writes for a scenario with no `expect:` at all: the result, and the
/// fields of arguments the run changed. `None` when there is nothing to record.
pub fn record(p: &Program, params: &[crate::ir::Param], ret: &Ty, ran: &Ran) -> Option<String> {
    let mut out = String::new();
    if let Ok(v) = &ran.result {
        if !matches!(ret, Ty::Unit) {
            if let Some(y) = to_yaml(p, v, ret) {
                out.push_str(&format!("  result: {y}\n"));
            }
        }
    }
    let mut state = String::new();
    for ((param, before), after) in params.iter().zip(&ran.before).zip(&ran.args) {
        let (Ty::Record(r), Value::Record(b), Value::Record(a)) =
            (&combatant_ty(p, &param.ty), before, after)
        else {
            continue;
        };
        let (b, a) = (b.borrow(), a.borrow());
        let mut changed = Vec::new();
        for (f, (bv, av)) in p.records[*r].fields.iter().zip(b.iter().zip(a.iter())) {
            if eval::show(p, bv, &f.ty) != eval::show(p, av, &f.ty) {
                if let Some(y) = to_yaml(p, av, &f.ty) {
                    changed.push(format!("{}: {y}", f.name));
                }
            }
        }
        if !changed.is_empty() {
            state.push_str(&format!("    {}: {}\n", param.name, braces(changed)));
        }
    }
    if !state.is_empty() {
        out.push_str("  state:\n");
        out.push_str(&state);
    }
    (!out.is_empty()).then(|| format!("expect:\n{out}"))
}

/// `text` with each `(span, replacement)` applied (spans into `text`, not overlapping).
/// A span of a collection is widened to all of it as written (see [`written_end`]).
pub fn rewrite(text: &str, mut edits: Vec<(Span, String)>) -> String {
    edits.sort_by_key(|(s, _)| std::cmp::Reverse(s.start));
    let mut out = text.to_string();
    let mut last = usize::MAX;
    for (span, with) in edits {
        let start = span.start as usize;
        let end = written_end(text, start, span.end as usize);
        if end > last || end > out.len() || start > end {
            continue;
        }
        out.replace_range(start..end, &with);
        last = start;
    }
    out
}

/// Where the value written at `start` ends: a flow collection (`{`, `[`) at its closing
/// bracket, a block collection at the end of its last line (before a comment), anything
/// else at `end`. (The YAML parser's spans of collections stop at their last scalar.)
fn written_end(text: &str, start: usize, end: usize) -> usize {
    let bytes = text.as_bytes();
    match bytes.get(start) {
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut quote: Option<u8> = None;
            for (i, &b) in bytes.iter().enumerate().skip(start) {
                match (quote, b) {
                    (Some(q), _) if b == q => quote = None,
                    (Some(_), _) => {}
                    (None, b'"' | b'\'') => quote = Some(b),
                    (None, b'{' | b'[') => depth += 1,
                    (None, b'}' | b']') => {
                        depth -= 1;
                        if depth == 0 {
                            return i + 1;
                        }
                    }
                    _ => {}
                }
            }
            end
        }
        _ if text.get(start..end).is_some_and(|t| t.contains('\n')) => {
            let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
            let line = &text[end..line_end];
            let content = line.find(" #").map_or(line, |i| &line[..i]);
            end + content.trim_end().len()
        }
        _ => end,
    }
}

/// A probability as written, with its tolerance (0 when exact): `3317/10296`, `0.25`,
/// `25%`, `32% ± 1%`, `0.32 +- 0.01`.
pub fn probability(text: &str) -> Option<(Prob, Prob)> {
    let (value, tolerance) = match text.split_once('±').or_else(|| text.split_once("+-")) {
        Some((v, t)) => (v.trim(), Some(t.trim())),
        None => (text.trim(), None),
    };
    let value = number(value)?;
    let tolerance = match tolerance {
        Some(t) => number(t)?,
        None => Prob::zero(),
    };
    Some((value, tolerance))
}

/// `3317/10296`, `0.25`, `25%`, `1` as an exact fraction (not negative).
fn number(text: &str) -> Option<Prob> {
    let (text, percent) = match text.strip_suffix('%') {
        Some(t) => (t.trim(), true),
        None => (text, false),
    };
    let value = if let Some((n, d)) = text.split_once('/') {
        let (n, d): (BigInt, BigInt) = (n.trim().parse().ok()?, d.trim().parse().ok()?);
        if d.is_zero() {
            return None;
        }
        Prob::new(n, d)
    } else {
        let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
        if whole.is_empty() && frac.is_empty()
            || !whole
                .chars()
                .chain(frac.chars())
                .all(|c| c.is_ascii_digit())
            || frac.len() > 40
        {
            return None;
        }
        let digits: BigInt = format!("{whole}{frac}").parse().ok()?;
        Prob::new(digits, BigInt::from(10u32).pow(frac.len() as u32))
    };
    let value = if percent {
        value / Prob::from_integer(100.into())
    } else {
        value
    };
    (!value.is_negative()).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::probability;

    #[test]
    fn probabilities_read_as_written() {
        let frac = |n: i64, d: i64| super::Prob::new(n.into(), d.into());
        for (text, want, tol) in [
            ("3317/10296", frac(3317, 10296), frac(0, 1)),
            ("0.25", frac(1, 4), frac(0, 1)),
            ("25%", frac(1, 4), frac(0, 1)),
            ("1", frac(1, 1), frac(0, 1)),
            ("32% ± 1%", frac(32, 100), frac(1, 100)),
            ("0.32 +- 0.01", frac(32, 100), frac(1, 100)),
            ("1/12 ± 0.001", frac(1, 12), frac(1, 1000)),
        ] {
            assert_eq!(probability(text), Some((want, tol)), "{text}");
        }
        for bad in ["", "%", "1/0", "-0.5", "a/b", "0.3.2", "1e-3", "½"] {
            assert_eq!(probability(bad), None, "{bad}");
        }
    }
}
