//! The VM's work for the list instructions that search and order (`first`/`index_of`,
//! `sort`, `min_by`/`max_by`): each rule is an `eval` function, written once.

use super::{list_of, moved, scalar, store, FRAME};
use crate::core_ir::code::{IReg, Part, VReg};
use crate::eval::{ordered, Value};

/// [`crate::core_ir::code::Inst::Nth`]: item `idx` of the list in `list`, a deep copy
///, into `dst`.
#[inline(never)]
pub(super) fn nth(dst: Part, list: VReg, idx: IReg, ints: &mut [i64; FRAME], vals: &mut [Value]) {
    let item = list_of(&vals[list as usize])[ints[usize::from(idx)] as usize].deep_clone();
    store(dst, item, ints, vals);
}

/// [`crate::core_ir::code::Inst::Order`]: the items of the list in `items`, each keyed by
/// its `n` keys in the list in `keys`, ordered by `eval::ordered` into `dst`.
#[inline(never)]
pub(super) fn order(
    dst: VReg,
    (items, keys, n): (VReg, VReg, u32),
    best: Option<bool>,
    vals: &mut [Value],
) {
    let items = moved(vals, items, true);
    let keys = moved(vals, keys, true);
    let (items, keys) = (list_of(&items), list_of(&keys));
    let n = n as usize;
    let keyed = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let k = keys[i * n..(i + 1) * n].iter().map(scalar).collect();
            (k, item.clone())
        })
        .collect();
    vals[dst as usize] = ordered(keyed, best);
}
