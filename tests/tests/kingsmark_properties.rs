//! Property tests over Kingsmark's generated code: random combatants and states, 100,000
//! resolutions of melee and ranged attacks, no panic, and the invariants the rules state.

mod common;

use common::{Draw, SeededDecide};
use proptest::prelude::*;
use rulesc_runtime::{Env, NoTrace, SeededDice};
use rulesc_tests::kingsmark as km;

/// K16: the filled boxes of each level are that level's lowest boxes, with no gap.
fn filled_from_the_lowest(c: &km::Combatant) -> bool {
    let levels = km::WOUND_BOXES_LEVELS;
    for level in levels {
        let mut gap = false;
        for (i, &l) in levels.iter().enumerate() {
            if l != level {
                continue;
            }
            let filled = c.wounds.is_filled(i + 1);
            if filled && gap {
                return false;
            }
            gap |= !filled;
        }
    }
    true
}

fn check_invariants(c: &km::Combatant) -> Result<(), TestCaseError> {
    prop_assert!(
        km::initiative(c) >= 1,
        "K1/K4: initiative {} below 1",
        km::initiative(c)
    );
    prop_assert!(km::action_points(c) >= 1, "K2: action points below 1");
    prop_assert!(km::pain(c) >= 0, "pain below 0");
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config())]

    /// 100 random encounters × (500 melee + 500 ranged) = 100,000 resolutions.
    #[test]
    fn kingsmark_attacks_keep_the_rules_invariants(seed in any::<u64>(), pain_relief in 0i64..6, distress in 0i64..30) {
        let mut draw = Draw::new(seed);
        let attacker = draw.combatant();
        let weapon = draw.weapon();
        let mut defender = km::Combatant { wounds: Default::default(), pain_relief, distress, ..draw.combatant() };
        let mut env = Env::new(SeededDice::new(seed), SeededDecide::new(seed), NoTrace);
        for i in 0..1000 {
            if i % 2 == 0 {
                km::melee_attack(&mut env, &attacker, &mut defender, &weapon);
            } else {
                km::ranged_attack(&mut env, &attacker, &mut defender, &weapon, draw.int(-6, 6));
            }
            prop_assert!(filled_from_the_lowest(&defender), "K16: boxes {:b} not filled from the lowest", defender.wounds.filled);
            check_invariants(&defender)?;
            check_invariants(&attacker)?;
            if i % 100 == 99 {
                // A fresh defender now and then, so full tracks do not dominate.
                defender.wounds = Default::default();
            }
        }
    }

    /// K1, K2: the floors hold for any attributes, however low.
    #[test]
    fn kingsmark_floors_hold_for_any_attributes(reflexes in -1000i64..1000, speed in -1000i64..1000, roll in 0i64..13, distress in 0i64..1000) {
        let c = km::Combatant { reflexes, speed, initiative_roll: roll, distress, ..Default::default() };
        check_invariants(&c)?;
    }
}
