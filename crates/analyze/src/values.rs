//! The values a run gives, as JSON: what `trace`, `analyze` and scenarios print of a
//! result or a report group's value, in the shapes `rulesc export` gives constants.

use crate::ir::{Program, Ty};
use serde_json::{json, Map, Value};

/// A value a run gave (a result, an argument after the run) as JSON, in the shapes
/// [`crate::export::value`] gives constants: numbers and truths as themselves, a level or variant by its
/// name, a record as an object of its fields, a map by its keys, a track as its boxes, a
/// roll as its total, an outcome's tag by its name, and a tag with fields as
/// `{ "Tag": { field: value } }` (as a scenario's `expect:` writes it); `none` is `null`.
/// What no file can write (a fighter, a side, the dice of a roll) is `null` too.
pub fn run_value(p: &Program, v: &crate::eval::Value, ty: &Ty) -> Value {
    use crate::eval::Value as V;
    match (v, ty) {
        (V::None | V::Unit, _) => Value::Null,
        (v, Ty::Option(t)) => run_value(p, v, t),
        (V::Int(i), _) => json!(i),
        (V::Roll(r), _) => json!(r.total),
        (V::Bool(b), _) => json!(b),
        (V::Dice(d), _) => json!(d.to_string()),
        (V::Choice(i), Ty::Choice(c)) => json!(p.choices[*c]
            .variants
            .get(usize::from(*i))
            .map(|v| v.name.as_str())),
        (V::Track(t), _) => json!(t.boxes().collect::<Vec<_>>()),
        (V::TrackBox { number, .. }, _) => json!(number),
        (V::List(items), Ty::List(elem)) => {
            Value::Array(items.iter().map(|x| run_value(p, x, elem)).collect())
        }
        (V::Map(items), Ty::Map(k, vt)) => {
            let mut o = Map::new();
            for (variant, x) in p.choices[*k].variants.iter().zip(items.iter()) {
                o.insert(variant.name.clone(), run_value(p, x, vt));
            }
            Value::Object(o)
        }
        (V::SortedMap(m), Ty::SortedMap(kt, vt)) => Value::Array(
            m.iter()
                .map(|(k, x)| json!({ "key": run_value(p, k, kt), "value": run_value(p, x, vt) }))
                .collect(),
        ),
        (V::Record(fields), Ty::Record(r)) => {
            let mut o = Map::new();
            for (f, x) in p.records[*r].fields.iter().zip(fields.borrow().iter()) {
                o.insert(f.name.clone(), run_value(p, x, &f.ty));
            }
            Value::Object(o)
        }
        (V::Outcome { tag, fields }, Ty::Outcome(o)) => {
            let Some(t) = p.outcomes[*o].tags.get(usize::from(*tag)) else {
                return Value::Null;
            };
            if t.fields.is_empty() {
                return json!(t.name);
            }
            let mut o = Map::new();
            for ((n, fty), x) in t.fields.iter().zip(fields.iter()) {
                o.insert(n.clone(), run_value(p, x, fty));
            }
            json!({ t.name.clone(): Value::Object(o) })
        }
        _ => Value::Null,
    }
}
