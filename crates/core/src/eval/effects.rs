//! What draws on the environment or the program's data: rolls, table lookups, die
//! tables rolled, decisions, wound tracks filled.

use super::{expr::values_equal, leak_name, show_traced, Value};
use crate::ir::{self, Const, TableKey, Ty};
use rulesc_runtime::{dice, DiceSpec, RuleErrorKind, TraceEvent};

/// The steps a roll of `spec` takes past its statement's and its dice expression's: one
/// per die thrown beyond the first (the count as `dice::roll` clamps it), so a roll of
/// many dice in a long loop spends the budget by the faces it draws. The extra dice of
/// an explosion are not counted (each die adds at most `dice::MAX_EXPLOSIONS`). Taken
/// before the dice are drawn, by every backend alike.
#[inline]
pub fn dice_steps(spec: DiceSpec) -> u64 {
    u64::from(spec.count.min(dice::MAX_DICE as u32).saturating_sub(1))
}

/// `fill track at lvl` of the track `old` (of `def`, whose boxes' levels are `levels`):
/// the box filled (0 for none) and the level it filled at (`lvl` when none was).
pub fn fill_track(def: &ir::TrackDef, levels: &[u8], lvl: u16, old: &mut Value) -> (i64, u16) {
    let Value::Track(mut t) = *old else {
        unreachable!("`fill` of {old:?}: the checker fills only a track")
    };
    let result = t.fill(levels, level_byte(lvl), def.escalate);
    *old = Value::Track(t);
    match result {
        Some((n, l)) => (n as i64, u16::from(l)),
        None => (0, lvl),
    }
}

/// The trace event of a fill of track `tid` at `site` that gave `(slot, level)`.
pub fn fill_event(
    prog: &ir::Program,
    tid: ir::Id,
    (slot, level): (i64, u16),
    site: u32,
) -> TraceEvent {
    let label = show_traced(
        prog,
        &Value::Choice(level),
        &Ty::Choice(prog.tracks[tid].scale),
    );
    TraceEvent::Fill {
        site,
        level: label,
        slot,
    }
}

/// Each box's level of a track, as `Track::fill` takes them.
pub fn track_levels(def: &ir::TrackDef) -> Vec<u8> {
    def.boxes.iter().map(|b| level_byte(b.level)).collect()
}

/// A level as `Track::fill` takes it, a byte: a scale has at most 255 levels (`E0360`).
pub fn level_byte(level: u16) -> u8 {
    u8::try_from(level).unwrap_or_else(|_| {
        unreachable!("level {level}: the checker allows 255 levels a scale (E0360)")
    })
}

/// An option's name, for a decider answering by name: a variant's name as the rules
/// write it, a fighter or side by name, anything else as the trace shows it.
pub fn option_label(
    prog: &ir::Program,
    fight: Option<&rulesc_runtime::Fight<Value>>,
    v: &Value,
    ty: &Ty,
) -> String {
    match (v, ty) {
        (Value::Choice(i), Ty::Choice(c)) => match prog.choices[*c].variants.get(*i as usize) {
            Some(x) => x.name.clone(),
            None => {
                unreachable!("level {i} of a scale or enum of {c}: a level is one of its type's")
            }
        },
        _ => super::show_traced_in(prog, fight, v, ty),
    }
}

pub use crate::ir::DIE_ROWS;

/// The row holding `key`, else the default; `None` when neither (a die table read with
/// `[k]` off its faces): a rule error, never a made-up row.
/// `table[key]` or `table[key, column]` (the one rule the VM reads tables
/// by): the row's (the cell's) value, or the table's default; a key no row holds (and no
/// default) is the `NoRow` rule error naming the key as `show` shows it. With `traced`,
/// also the key and the value as the `Lookup` trace event shows them.
pub fn look_up(
    t: &ir::Table,
    k: &Value,
    col: Option<&Value>,
    traced: bool,
    show: &dyn Fn(&Value, &Ty) -> String,
) -> Result<(Value, Option<(String, String)>), RuleErrorKind> {
    let key_ty = |k: &TableKey| match k {
        TableKey::Choice(c) => Ty::Choice(*c),
        _ => Ty::Int,
    };
    let found = match (col, &t.columns) {
        (Some(cv), Some(cols)) => t
            .cell(k.int(), cv.int())
            .map(Value::from_const)
            .map(|v| (v, Some(key_ty(&cols.key)))),
        _ => lookup(t, k.int()).map(|v| (v, None)),
    };
    let shown = |col_ty: &Option<Ty>| {
        let ks = show(k, &key_ty(&t.key));
        match (col, col_ty) {
            (Some(cv), Some(ct)) => format!("{ks}, {}", show(cv, ct)),
            _ => ks,
        }
    };
    let Some((v, col_ty)) = found else {
        let col_ty = t.columns.as_ref().map(|cols| key_ty(&cols.key));
        return Err(RuleErrorKind::NoRow {
            table: leak_name(&t.name),
            key: shown(&col_ty),
        });
    };
    let event = traced.then(|| (shown(&col_ty), show(&v, &t.value)));
    Ok((v, event))
}

pub fn lookup(t: &ir::Table, key: i64) -> Option<Value> {
    row_value(t, key).map(Value::from_const)
}

/// The constant `table[key]` reads in a one-key table: its row's, else the default
/// (`None`: no row holds the key and there is no default, the `NoRow` rule error).
pub fn row_value(t: &ir::Table, key: i64) -> Option<&ir::Const> {
    match t.row(key) {
        Some(r) => Some(&r.value),
        None => t.default.as_ref(),
    }
}

/// What to roll for a die table, and (with `among`) the allowed totals: the segments
/// ([`ir::Table::segments`]) whose value is in the list, in order. The roll is then a
/// `dN` over their totals (`N` their count), the `k`th total found by walking them;
/// none allowed: the whole die. Work grows with the rows, never with the die's faces.
pub fn table_roll_faces(
    t: &ir::Table,
    die: DiceSpec,
    allowed: Option<&[Value]>,
) -> (DiceSpec, Option<Vec<(i64, i64)>>) {
    let Some(allowed) = allowed else {
        return (die, None);
    };
    let mut segments = Vec::new();
    let spec = among_faces(die, die_segments(t, die), allowed, &mut segments);
    (spec, (!segments.is_empty()).then_some(segments))
}

/// The runs of totals of die table `t`'s die ([`ir::Table::segments`]), each with the
/// value it reads (its row's, or the table's default; `None`: neither): what `among`
/// chooses from. They depend on the table alone, so the VM finds them once.
pub fn die_segments(t: &ir::Table, die: DiceSpec) -> Vec<(i64, i64, Option<&Const>)> {
    let (lo, hi) = die.range();
    t.segments(lo, hi)
        .into_iter()
        .map(|(a, b)| (a, b, t.row(a).map(|r| &r.value).or(t.default.as_ref())))
        .collect()
}

/// [`table_roll_faces`] of a table's `segments` among `allowed`: the segments whose
/// value is in the list go into `into` (emptied first), and the die to roll over them is
/// returned; none allowed leaves `into` empty, and the whole die is rolled.
pub fn among_faces<'c>(
    die: DiceSpec,
    segments: impl IntoIterator<Item = (i64, i64, Option<&'c Const>)>,
    allowed: &[Value],
    into: &mut Vec<(i64, i64)>,
) -> DiceSpec {
    into.clear();
    into.extend(
        segments
            .into_iter()
            .filter(|&(_, _, v)| v.is_some_and(|v| allowed.iter().any(|x| holds(x, v))))
            .map(|(a, b, _)| (a, b)),
    );
    let count: i64 = into.iter().map(|(a, b)| b - a + 1).sum();
    if count == 0 {
        die
    } else {
        DiceSpec::new(1, count as u32)
    }
}

/// Whether `x` (an item of an `among` list) is the row value `v`: `values_equal` of `x`
/// and `Value::from_const(v)`, without making the value for a number, level, variant or
/// truth.
fn holds(x: &Value, v: &Const) -> bool {
    match (x, v) {
        (Value::Choice(a), Const::Choice(b)) => a == b,
        (Value::Int(_) | Value::Roll(_), Const::Int(b)) => x.int() == *b,
        (Value::Bool(a), Const::Bool(b)) => a == b,
        _ => values_equal(x, &Value::from_const(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::{holds, values_equal, Const, Value};
    use rulesc_runtime::Roll;

    /// An `among` item is a row's value exactly when the value made from the row is
    /// equal to it (`values_equal`), over the kinds a die table holds and mixed ones.
    #[test]
    fn an_among_item_holds_a_row_as_the_row_made_into_a_value() {
        let roll = |total| Value::Roll(Roll { total, natural: 1 });
        let items = [
            Value::Choice(3),
            Value::Choice(4),
            Value::Int(3),
            Value::Int(-3),
            roll(3),
            roll(4),
            Value::Bool(true),
            Value::Bool(false),
            Value::Unit,
        ];
        let rows = [
            Const::Choice(3),
            Const::Int(3),
            Const::Int(4),
            Const::Bool(true),
            Const::Bool(false),
            Const::Opt(None),
        ];
        let mut held = 0;
        for x in &items {
            for v in &rows {
                let expected = values_equal(x, &Value::from_const(v));
                assert_eq!(holds(x, v), expected, "{x:?} among a row of {v:?}");
                held += usize::from(expected);
            }
        }
        // Choice 3 and 3; Int 3 (and roll 3) and 3; roll 4 and 4; the two truths.
        assert_eq!(held, 6);
    }
}
