//! Rust types, constant values and trace text of the language's types.

use super::{int_lit, Gen, RT};
use crate::ir::{Const, Program, RecordOrigin, Ty};
use rulesc_runtime::{DiceSpec, Keep};

impl Gen<'_> {
    /// The Rust type that holds a value of `ty` (in a field, a local, a result).
    pub fn rust_ty(&self, ty: &Ty) -> Result<String, String> {
        Ok(match ty {
            Ty::Int => "i64".into(),
            Ty::Bool => "bool".into(),
            Ty::Dice => format!("{RT}::DiceSpec"),
            Ty::Roll => format!("{RT}::Roll"),
            Ty::Choice(c) => self.id.choice[*c].clone(),
            Ty::Record(r) => self.id.record[*r].clone(),
            Ty::Track(t) => self.id.track[*t].clone(),
            Ty::TrackBox(_) => "usize".into(),
            Ty::Outcome(o) => self.id.outcome[*o].clone(),
            Ty::List(t) => format!("Vec<{}>", self.rust_ty(t)?),
            Ty::Option(t) => format!("Option<{}>", self.rust_ty(t)?),
            Ty::Faces => format!("{RT}::Faces"),
            Ty::Map(k, v) => format!(
                "[{}; {}]",
                self.rust_ty(v)?,
                self.p.choices[*k].variants.len()
            ),
            Ty::SortedMap(k, v) => format!(
                "{RT}::SortedMap<{}, {}>",
                self.rust_ty(k)?,
                self.rust_ty(v)?
            ),
            Ty::Fighter => format!("{RT}::Fighter"),
            Ty::Side => format!("{RT}::Side"),
            Ty::Unit => "()".into(),
            Ty::Error => return Err("rulesc bug: a type error reached the Rust backend".into()),
        })
    }

    /// Whether a list of `elem` is computed as a [`rulesc_runtime::SmallList`] and kept
    /// in a table as a `&'static [T]`: numbers, flags and names (small `Copy` values whose
    /// constants are Rust constants).
    pub fn small_elem(&self, elem: &Ty) -> bool {
        super::small_elem(elem)
    }

    /// The `SmallList` type a computed `list<T>` of small elements is held in (`None` for
    /// any other type): inline up to 16 items, or up to every name of an enum of more
    /// (at most 64), so a list of distinct names never allocates.
    pub fn small_list_ty(&self, ty: &Ty) -> Result<Option<String>, String> {
        let Ty::List(elem) = ty else { return Ok(None) };
        if !self.small_elem(elem) {
            return Ok(None);
        }
        let n = match **elem {
            Ty::Choice(c) => self.p.choices[c].variants.len().clamp(16, 64),
            _ => 16,
        };
        Ok(Some(format!(
            "{RT}::SmallList<{}, {n}>",
            self.rust_ty(elem)?
        )))
    }

    /// The Rust type a function returns a value of `ty` as: a list of small elements is a
    /// `SmallList` (the rules computed it), anything else as [`Self::rust_ty`].
    pub fn ret_ty(&self, ty: &Ty) -> Result<String, String> {
        match self.small_list_ty(ty)? {
            Some(t) => Ok(t),
            None => self.rust_ty(ty),
        }
    }

    /// How a parameter of type `ty` is passed: `Copy` values by value, records by
    /// reference (`&mut` when the function changes them), lists as slices.
    pub fn param_ty(&self, ty: &Ty, mutated: bool) -> Result<String, String> {
        Ok(match ty {
            Ty::Record(_) if mutated => format!("&mut {}", self.rust_ty(ty)?),
            Ty::List(t) => format!("&[{}]", self.rust_ty(t)?),
            _ if self.is_copy(ty) => self.rust_ty(ty)?,
            _ => format!("&{}", self.rust_ty(ty)?),
        })
    }

    pub fn is_copy(&self, ty: &Ty) -> bool {
        self.p.is_copy(ty)
    }

    /// Whether a value of `ty` holds a record (a record, or a list or outcome of them).
    pub fn holds_record(&self, ty: &Ty) -> bool {
        self.p.holds_record(ty)
    }

    /// Whether a value of `ty` can be a Rust `const`.
    pub fn is_const_ty(&self, ty: &Ty) -> bool {
        match ty {
            Ty::List(_) | Ty::SortedMap(..) | Ty::Record(_) | Ty::Error | Ty::Unit => false,
            Ty::Map(_, v) | Ty::Option(v) => self.is_const_ty(v),
            Ty::Outcome(o) => self.outcome_is_copy(*o),
            _ => true,
        }
    }

    pub fn outcome_is_copy(&self, o: usize) -> bool {
        self.p.outcome_is_copy(o)
    }

    /// A Rust expression for constant `c` of type `ty`.
    pub fn const_expr(&self, c: &Const, ty: &Ty) -> Result<String, String> {
        Ok(match (c, ty) {
            (Const::Int(i), Ty::Fighter) => {
                format!("{RT}::Fighter({})", (*i).clamp(0, i64::from(u32::MAX)))
            }
            (Const::Int(i), Ty::Side) => {
                format!("{RT}::Side({})", (*i).clamp(0, i64::from(u16::MAX)))
            }
            (Const::Opt(None), Ty::Option(t)) => format!("None::<{}>", self.rust_ty(t)?),
            (Const::Opt(Some(c)), Ty::Option(t)) => format!("Some({})", self.const_expr(c, t)?),
            (Const::Int(i), _) => int_lit(*i),
            (Const::Bool(b), _) => b.to_string(),
            (Const::Dice(d), _) => dice_expr(*d),
            (Const::Choice(i), Ty::Choice(ch)) => {
                let v = self.id.variant[*ch]
                    .get(*i as usize)
                    .ok_or("rulesc bug: variant out of range")?;
                format!("{}::{v}", self.id.choice[*ch])
            }
            (Const::Choice(i), Ty::Outcome(o)) => {
                // The zero of an outcome: its first tag, when that tag has no fields.
                let t = &self.p.outcomes[*o].tags[*i as usize];
                if !t.fields.is_empty() {
                    return Err(format!(
                        "outcome `{}` has no field-less first tag to start from",
                        self.p.outcomes[*o].name
                    ));
                }
                format!("{}::{}", self.id.outcome[*o], self.id.tag[*o][*i as usize])
            }
            (Const::Choice(i), Ty::TrackBox(_)) => i.to_string(),
            (Const::Track(t), _) => format!("{RT}::Track {{ filled: {} }}", t.filled),
            (Const::List(items), Ty::List(elem)) => {
                if items.is_empty() {
                    "Vec::new()".into()
                } else {
                    let xs: Result<Vec<String>, String> =
                        items.iter().map(|i| self.const_expr(i, elem)).collect();
                    format!("vec![{}]", xs?.join(", "))
                }
            }
            (Const::SortedMap(entries, _), Ty::SortedMap(k, v)) => {
                if entries.is_empty() {
                    format!("{RT}::SortedMap::default()")
                } else {
                    let xs: Vec<String> = entries
                        .iter()
                        .map(|(key, value)| {
                            Ok(format!(
                                "({}, {})",
                                self.const_expr(key, k)?,
                                self.const_expr(value, v)?
                            ))
                        })
                        .collect::<Result<_, String>>()?;
                    format!("{RT}::SortedMap::from_entries(vec![{}])", xs.join(", "))
                }
            }
            (Const::Map(items), Ty::Map(_, v)) => {
                let xs: Vec<String> = items
                    .iter()
                    .map(|i| self.const_expr(i, v))
                    .collect::<Result<_, _>>()?;
                match xs.first() {
                    // `[x; N]` copies `x`: only for values that are `Copy`.
                    Some(first)
                        if xs.len() > 1 && self.is_copy(v) && xs.iter().all(|x| x == first) =>
                    {
                        format!("[{first}; {}]", xs.len())
                    }
                    _ => format!("[{}]", xs.join(", ")),
                }
            }
            // A named record, or a type's default, is referred to, never repeated: the
            // generated code grows with the rules' text, however records nest.
            (Const::Record(value), Ty::Record(r)) => match value.origin {
                RecordOrigin::Instance(i)
                    if self
                        .p
                        .instances
                        .get(i)
                        .is_some_and(|inst| inst.record == *r) =>
                {
                    format!("{}::{}()", self.id.record[*r], self.id.instance[i])
                }
                RecordOrigin::Zero => format!("{}::default()", self.id.record[*r]),
                _ => self.record_literal(&value.fields, *r)?,
            },
            _ => {
                return Err(format!(
                    "rulesc bug: constant {c:?} does not fit type {}",
                    self.p.ty_name(ty)
                ))
            }
        })
    }

    /// A struct literal of record type `r` with these field values (the body of a
    /// record's constructor, or of its `default()`).
    pub fn record_literal(&self, fields: &[Const], r: usize) -> Result<String, String> {
        let rec = &self.p.records[r];
        let mut parts = Vec::new();
        for (fi, (f, v)) in rec.fields.iter().zip(fields).enumerate() {
            parts.push(format!(
                "{}: {}",
                self.id.field[r][fi],
                self.const_expr(v, &f.ty)?
            ));
        }
        Ok(if parts.is_empty() {
            format!("{} {{}}", self.id.record[r])
        } else {
            format!("{} {{ {} }}", self.id.record[r], parts.join(", "))
        })
    }

    /// [`Self::show`] for a trace event: cut as the interpreter's `eval::show_traced`
    /// cuts it.
    pub fn traced(&self, ty: &Ty, x: &str) -> String {
        match ty {
            // Never near the limit: a number, a die, 64 boxes at most.
            Ty::Int | Ty::Bool | Ty::Dice | Ty::Roll | Ty::TrackBox(_) | Ty::Track(_) => {
                self.show(ty, x)
            }
            _ => format!("{RT}::__private::show::cut({})", self.show(ty, x)),
        }
    }

    /// A Rust expression of type `String`: how the interpreter's `eval::show` prints the
    /// value of expression `x` (a value, a place or a reference) of type `ty`.
    pub fn show(&self, ty: &Ty, x: &str) -> String {
        if matches!(ty, Ty::Int | Ty::Bool)
            && (x.parse::<i64>().is_ok() || x == "true" || x == "false")
        {
            // A literal prints as itself (and `5.to_string()` would not know its type).
            return format!("String::from({})", super::ident::lit(x));
        }
        let x = super::body::recv(x);
        match ty {
            Ty::Int | Ty::Bool | Ty::Dice | Ty::Choice(_) | Ty::Outcome(_) | Ty::Record(_) => {
                format!("{x}.to_string()")
            }
            Ty::Roll => format!("{x}.total.to_string()"),
            Ty::Track(_) => format!("{RT}::__private::show::list({x}.boxes())"),
            Ty::TrackBox(_) => format!("{RT}::__private::show::track_box({x})"),
            Ty::List(elem) => {
                let param = if matches!(**elem, Ty::Unit) {
                    "_"
                } else {
                    "item"
                };
                format!(
                    "{RT}::__private::show::list({x}.iter().map({}))",
                    super::body::closure(param, &self.show(elem, "item"))
                )
            }
            Ty::Map(k, v) => format!(
                "{RT}::__private::show::map({}::ALL.iter().zip({x}.iter()).map(|(key, value)| (key, {})))",
                self.id.choice[*k],
                self.show(v, "value")
            ),
            Ty::SortedMap(k, v) => format!(
                "{RT}::__private::show::map({x}.iter().map(|(key, value)| ({}, {})))",
                self.show(k, "key"),
                self.show(v, "value")
            ),
            Ty::Fighter => format!("fight.name({x}).to_string()"),
            Ty::Side => format!("fight.side_name({x}).to_string()"),
            Ty::Option(t) => format!(
                "{x}.as_ref().map_or_else(|| String::from(\"none\"), |value| {})",
                self.show(t, "value")
            ),
            Ty::Unit | Ty::Faces | Ty::Error => "String::new()".into(),
        }
    }
}

/// A `DiceSpec` expression.
pub fn dice_expr(d: DiceSpec) -> String {
    if !d.explode && d.keep == Keep::All {
        return format!("{RT}::DiceSpec::new({}, {})", d.count, d.sides);
    }
    let keep = match d.keep {
        Keep::All => format!("{RT}::Keep::All"),
        Keep::Highest(k) => format!("{RT}::Keep::Highest({k})"),
        Keep::Lowest(k) => format!("{RT}::Keep::Lowest({k})"),
    };
    format!(
        "{RT}::DiceSpec {{ count: {}, sides: {}, explode: {}, keep: {keep} }}",
        d.count, d.sides, d.explode
    )
}

/// The call that rolls `d` from `env.dice`, traced at `site`: the runtime's function for
/// the roll's [`Shape`] (the runtime's one choice, which the interpreter's VM reads too).
pub fn roll_call(d: DiceSpec, site: u32) -> String {
    use rulesc_runtime::__private::rolls::Shape;
    let args = |dice: String| format!("(&mut env.dice, {dice}, &mut env.trace, {site})");
    match rulesc_runtime::__private::rolls::shape(d) {
        Shape::One => format!("{RT}::__private::rolls::one{}", args(d.sides.to_string())),
        Shape::Exploding => format!(
            "{RT}::__private::rolls::exploding{}",
            args(d.sides.to_string())
        ),
        Shape::Sum => format!("{RT}::__private::rolls::sum{}", args(dice_expr(d))),
        Shape::Keep => format!(
            "{RT}::__private::rolls::keep::<{}, _, _>{}",
            d.count,
            args(dice_expr(d))
        ),
        Shape::General => format!("{RT}::roll{}", args(dice_expr(d))),
    }
}

/// Which record types key a map (`ir::Ty::SortedMap`), themselves or as a field of such a
/// key: they derive `Eq` and `Ord`.
pub(super) fn key_records(p: &Program) -> Vec<bool> {
    fn mark(p: &Program, ty: &Ty, key: bool, out: &mut Vec<bool>) {
        match ty {
            Ty::Record(r) if key && !out[*r] => {
                out[*r] = true;
                for f in &p.records[*r].fields {
                    mark(p, &f.ty, true, out);
                }
            }
            Ty::SortedMap(k, v) => {
                mark(p, k, true, out);
                mark(p, v, key, out);
            }
            Ty::Map(_, v) | Ty::List(v) | Ty::Option(v) => mark(p, v, false, out),
            _ => {}
        }
    }
    let mut out = vec![false; p.records.len()];
    let mut types: Vec<&Ty> = Vec::new();
    types.extend(
        p.records
            .iter()
            .flat_map(|r| r.fields.iter().map(|f| &f.ty)),
    );
    types.extend(
        p.outcomes
            .iter()
            .flat_map(|o| o.tags.iter().flat_map(|t| t.fields.iter().map(|f| &f.1))),
    );
    types.extend(
        p.functions
            .iter()
            .flat_map(|f| f.locals.iter().map(|l| &l.ty).chain([&f.ret])),
    );
    types.extend(p.tables.iter().map(|t| &t.value));
    for ty in types {
        mark(p, ty, false, &mut out);
    }
    out
}
