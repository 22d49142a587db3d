//! Values read where they are held, with no node to evaluate: a local, or a field of a
//! local record, read in place ([`InPlace`]); a one-key table's rows at hand ([`Rows`]),
//! and the entries of a map in them.

use super::{Cx, ValueFn};
use crate::eval::expr::{field_of, map_entry};
use crate::eval::Value;
use crate::ir::{self, Const, ExprKind as K, Ty};

/// A value read where it is, without a copy or a reference count: a local, or a field of
/// a local record.
#[derive(Clone, Copy)]
pub(super) enum InPlace {
    Local(usize),
    Field(usize, usize),
}

impl Cx<'_> {
    /// `table[key].field[k]` of a one-key table of records whose field holds a map in
    /// every row: untraced, the entry read from the row, without the map (or the record)
    /// the lookup would make. Traced, the lookup and its event as ever; a key without a
    /// row is its rule error.
    pub(super) fn row_map_get(&self, m: &ir::Expr, k: &ir::Expr) -> Option<ValueFn> {
        let K::Field(r, i) = &m.kind else {
            return None;
        };
        let K::Lookup {
            table,
            key,
            column: None,
            site,
            ..
        } = &r.kind
        else {
            return None;
        };
        let rows = Rows::field(&self.p.tables[*table], *i)?;
        let (table, site, i) = (*table, *site, *i);
        let (key, k) = (self.value(key), self.value(k));
        Some(Box::new(move |it, l| {
            let row = key(it, l)?;
            let m = match rows.get_const(row.int()) {
                Some(Const::Map(items)) if !it.on() => {
                    let k = k(it, l)?.choice();
                    return Ok(items
                        .get(usize::from(k))
                        .map_or(Value::Unit, Value::from_const));
                }
                _ => field_of(&it.lookup_at(table, row, None, site)?, i),
            };
            Ok(map_entry(&m, k(it, l)?.choice()))
        }))
    }

    /// [`in_place`], at the slots the code being compiled keeps its locals in.
    pub(super) fn in_place(&self, e: &ir::Expr) -> Option<InPlace> {
        Some(match in_place(e)? {
            InPlace::Local(s) => InPlace::Local(self.slot(s)),
            InPlace::Field(s, i) => InPlace::Field(self.slot(s), i),
        })
    }
}

/// A value read where it is (in the function's own slots): a local, or a local's field.
pub(super) fn in_place(e: &ir::Expr) -> Option<InPlace> {
    match &e.kind {
        K::Local(s) => Some(InPlace::Local(*s)),
        K::Field(r, i) => match r.kind {
            K::Local(s) => Some(InPlace::Field(s, *i)),
            _ => None,
        },
        _ => None,
    }
}

/// An expression whose evaluation changes nothing: a constant, a local, a local's field.
pub(super) fn plain(e: &ir::Expr) -> bool {
    matches!(e.kind, K::Const(_)) || in_place(e).is_some()
}

impl InPlace {
    /// `f` of the value (`Unit` where a field's record is not one), read in place.
    #[inline]
    pub(super) fn read<R>(self, l: &[Value], f: impl FnOnce(&Value) -> R) -> R {
        match self {
            InPlace::Local(s) => f(&l[s]),
            InPlace::Field(s, i) => match &l[s] {
                Value::Record(r) => match r.borrow().get(i) {
                    Some(v) => f(v),
                    None => f(&Value::Unit),
                },
                _ => f(&Value::Unit),
            },
        }
    }
}

/// A one-key table of values holding no other (numbers, choices, booleans, ..), every
/// key from its first row's to its last's at hand: what `eval::lookup` reads, found once.
pub(super) struct Rows {
    lo: i64,
    values: Vec<Option<Const>>,
    default: Option<Const>,
}

impl Rows {
    /// Most keys held (tables of wider rows are looked up by the walker).
    const MAX: i64 = 1024;

    pub(super) fn new(t: &ir::Table) -> Option<Rows> {
        if !super::scalar(&t.value) {
            return None;
        }
        Self::of(t, |c| Some(c.clone()))
    }

    /// Field `i` of each row of a one-key table of records: what `table[key].field`
    /// reads of the record the lookup makes.
    pub(super) fn field(t: &ir::Table, i: usize) -> Option<Rows> {
        if !matches!(t.value, Ty::Record(_)) {
            return None;
        }
        Self::of(t, |c| match c {
            Const::Record(r) => r.fields.get(i).cloned(),
            _ => None,
        })
    }

    /// `part` of each row's value (and of the default) of a one-key table; `None` when
    /// some value has no such part.
    fn of(t: &ir::Table, part: impl Fn(&Const) -> Option<Const>) -> Option<Rows> {
        if t.columns.is_some() {
            return None;
        }
        let (lo, hi) = (t.rows.first()?.lo, t.rows.last()?.hi);
        if hi.checked_sub(lo)? >= Self::MAX {
            return None;
        }
        let default = match &t.default {
            Some(d) => Some(part(d)?),
            None => None,
        };
        let values = (lo..=hi)
            .map(|k| match t.row(k) {
                Some(r) => part(&r.value).map(Some),
                None => Some(default.clone()),
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Rows {
            lo,
            values,
            default,
        })
    }

    /// The value of `key` (as `eval::lookup`); `None` for a key with neither a row nor a
    /// default.
    #[inline]
    pub(super) fn get(&self, key: i64) -> Option<Value> {
        self.get_const(key).map(Value::from_const)
    }

    /// The constant [`Self::get`] makes a value of.
    #[inline]
    pub(super) fn get_const(&self, key: i64) -> Option<&Const> {
        let found = key
            .checked_sub(self.lo)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.values.get(i));
        match found {
            Some(v) => v.as_ref(),
            None => self.default.as_ref(),
        }
    }
}
