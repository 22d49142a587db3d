//! How values read in traces and results: the text both backends print.

use super::Value;
use crate::ir::{Program, Ty};
use rulesc_runtime::{Fight, Fighter, RuleError, Side};

/// How a value prints in traces and results (as generated code's `Display` does).
pub fn show(p: &Program, v: &Value, ty: &Ty) -> String {
    let mut out = Shown {
        text: String::new(),
        limit: usize::MAX - 1,
        fight: None,
    };
    show_into(p, v, ty, &mut out);
    out.text
}

/// [`show`] for a trace event: cut after `show::MAX_SHOWN` bytes, as generated code cuts
/// (`rulesc_runtime::__private::show::cut`), and never built past that, however large the value.
pub fn show_traced(p: &Program, v: &Value, ty: &Ty) -> String {
    show_traced_in(p, None, v, ty)
}

/// [`show_traced`], with the fight whose fighters and sides print by name.
pub fn show_traced_in(p: &Program, fight: Option<&Fight<Value>>, v: &Value, ty: &Ty) -> String {
    let mut out = Shown {
        text: String::new(),
        limit: rulesc_runtime::__private::show::MAX_SHOWN,
        fight,
    };
    show_into(p, v, ty, &mut out);
    rulesc_runtime::__private::show::cut(out.text)
}

/// Text being shown, kept only a little past `limit` bytes (whole characters): enough
/// for [`rulesc_runtime::__private::show::cut`] to cut it as it would cut the whole text.
struct Shown<'f> {
    text: String,
    limit: usize,
    /// The fight whose fighters and sides print by name.
    fight: Option<&'f Fight<Value>>,
}

impl Shown<'_> {
    fn full(&self) -> bool {
        self.text.len() > self.limit
    }

    fn push(&mut self, s: &str) {
        if self.full() {
            return;
        }
        let mut end = (self.limit + 1 - self.text.len()).min(s.len());
        while !s.is_char_boundary(end) {
            end += 1;
        }
        self.text.push_str(&s[..end]);
    }
}

fn show_into(p: &Program, v: &Value, ty: &Ty, out: &mut Shown<'_>) {
    // Items of a list, a map or a record, separated by `, `, until the text is full.
    fn items<'a, I: Iterator<Item = (String, &'a Value, &'a Ty)>>(
        p: &Program,
        parts: I,
        out: &mut Shown<'_>,
    ) {
        for (i, (prefix, v, ty)) in parts.enumerate() {
            if out.full() {
                return;
            }
            if i > 0 {
                out.push(", ");
            }
            out.push(&prefix);
            show_into(p, v, ty, out);
        }
    }
    match (v, ty) {
        (Value::None, _) => out.push("none"),
        (v, Ty::Option(t)) => show_into(p, v, t, out),
        (Value::Choice(i), Ty::Choice(c)) => {
            if let Some(v) = p.choices[*c].variants.get(*i as usize) {
                out.push(&v.label);
            }
        }
        (Value::Fighter(_) | Value::Int(_), Ty::Fighter) => {
            let f = Fighter(u32::try_from(v.int()).unwrap_or_else(|_| {
                unreachable!("a fighter is held as its number in the fight (u32)")
            }));
            let name = match out.fight {
                Some(x) => x.name(f).to_string(),
                None => format!("fighter {}", f.0),
            };
            out.push(&name);
        }
        (Value::Side(_) | Value::Int(_), Ty::Side) => {
            let s = Side(u16::try_from(v.int()).unwrap_or_else(|_| {
                unreachable!("a side is held as its number in the fight (u16)")
            }));
            let name = match out.fight {
                Some(x) => x.side_name(s).to_string(),
                None => format!("side {}", s.0),
            };
            out.push(&name);
        }
        (Value::Int(i), _) => out.push(&i.to_string()),
        (Value::Roll(r), _) => out.push(&r.total.to_string()),
        (Value::Bool(b), _) => out.push(&b.to_string()),
        (Value::Dice(d), _) => out.push(&d.to_string()),
        (Value::Track(t), _) => {
            let boxes: Vec<String> = t.boxes().map(|b| b.to_string()).collect();
            out.push(&format!("[{}]", boxes.join(", ")));
        }
        (Value::TrackBox { number, .. }, _) => out.push(&format!("box {number}")),
        (Value::List(list), Ty::List(elem)) => {
            out.push("[");
            items(p, list.iter().map(|i| (String::new(), i, &**elem)), out);
            out.push("]");
        }
        (Value::Map(map), Ty::Map(k, vt)) => {
            out.push("{");
            let parts = map
                .iter()
                .zip(&p.choices[*k].variants)
                .map(|(i, var)| (format!("{}: ", var.label), i, &**vt));
            items(p, parts, out);
            out.push("}");
        }
        (Value::SortedMap(map), Ty::SortedMap(kt, vt)) => {
            out.push("{");
            let parts = map
                .iter()
                .map(|(k, v)| (format!("{}: ", show(p, k, kt)), v, &**vt));
            items(p, parts, out);
            out.push("}");
        }
        (Value::Record(fields), Ty::Record(r)) => {
            let t = &p.records[*r];
            out.push(&t.name);
            out.push("(");
            let fields = fields.borrow();
            let parts = t
                .fields
                .iter()
                .zip(fields.iter())
                .map(|(f, v)| (format!("{}: ", f.name), v, &f.ty));
            items(p, parts, out);
            out.push(")");
        }
        (Value::Outcome { tag, fields }, Ty::Outcome(o)) => {
            let Some(t) = p.outcomes[*o].tags.get(*tag as usize) else {
                return;
            };
            out.push(&t.label);
            if !t.fields.is_empty() {
                out.push("(");
                let parts = t
                    .fields
                    .iter()
                    .zip(fields.iter())
                    .map(|((n, ty), v)| (format!("{n}: "), v, ty));
                items(p, parts, out);
                out.push(")");
            }
        }
        _ => {}
    }
}

/// How a run's result reads in traces and reports: the value, or
/// `rule error at FILE:LINE: MESSAGE`.
pub fn show_result(p: &Program, result: &Result<Value, RuleError>, ty: &Ty) -> String {
    match result {
        Ok(v) => show(p, v, ty),
        Err(e) => {
            // A rule error of another program (its site not one of `p`'s) shows no place.
            let at = p
                .sites
                .get(e.site as usize)
                .map(|s| format!(" at {}:{}", s.file, s.line))
                .unwrap_or_default();
            format!("rule error{at}: {e}")
        }
    }
}
