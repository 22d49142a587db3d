//! Enumeration through the interpreter: every dice path of a resolution with its exact
//! probability, summing to one.

use rulesc::analyze::exact::Prob;
use rulesc::analyze::{paths, Limits};
use rulesc::eval::{self, Value};
use rulesc_runtime::{Env, FirstOption, NoTrace};
use std::path::Path;

fn kingsmark() -> rulesc::ir::Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/kingsmark");
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("kingsmark does not check: {:?}", diags.items))
}

#[test]
fn k1_every_initiative_roll_path_sums_to_one() {
    let p = kingsmark();
    let (id, _) = p.function("roll_initiative").expect("roll_initiative");
    // Reflexes -2, Speed -3: the floor of 1 collects the low faces.
    let limits = Limits {
        max_dice: Some(8),
        max_paths: 1_000,
        ..Limits::default()
    };
    let e = paths::walk(&limits, |dice| {
        let c = eval::record(
            &p,
            "Combatant",
            &[("reflexes", Value::Int(-2)), ("speed", Value::Int(-3))],
        )
        .unwrap();
        let mut env = Env::new(dice, FirstOption, NoTrace);
        eval::call(&p, &mut env, id, vec![c])
            .expect("no rule error")
            .int()
    });
    assert_eq!(e.paths, 12);
    assert_eq!(e.unexplored, Prob::from_integer(0.into()));
    assert_eq!(e.total(), Prob::from_integer(1.into()));
    // Faces 1..6 give 1 (the floor); faces 7..12 give 2..7, one twelfth each.
    assert_eq!(e.probability_of(&1), Prob::new(1.into(), 2.into()));
    for score in 2..=7 {
        assert_eq!(e.probability_of(&score), Prob::new(1.into(), 12.into()));
    }
}
