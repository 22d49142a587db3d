//! Places changed on the VM, each in the plain and the full code: fields in place (set, added to,
//! taken from, ranged), places with indices and keys, a new record's ranged field, optional values,
//! a local list appended to and replaced.

use super::*;

#[test]
fn fields_changed_in_place_agree_in_the_plain_and_full_code() {
    let p = program();
    for a in [-2, 0, 1, 3] {
        for hurt in 0..4 {
            let c = fighter(&p, 1, 2, true, hurt);
            for v in same(&p, "wounded", &[c.clone(), Value::Int(a)]) {
                let Value::Outcome { fields, .. } = v else {
                    panic!("an outcome")
                };
                // The skill added to, the level stepped (clamped at the top), the flag set.
                assert_eq!(fields[0], Value::Int(2 + a));
                assert_eq!(fields[2], Value::Choice((hurt + 1).min(3)));
                assert_eq!(fields[3], Value::Bool(2 + a > 2));
            }
        }
    }
}

#[test]
fn a_ranged_field_refuses_a_value_past_either_bound_in_the_plain_and_full_code() {
    let p = program();
    let guard = |grit| guard(&p, grit);
    // grit is int(0..5): 0 and 5 are inside, -1 and 6 are not.
    for (grit, a, want) in [
        (2, 3, Ok(503)),
        (2, 4, Err(6)),
        (2, -2, Ok(3)),
        (2, -3, Err(-1)),
    ] {
        for traced in [false, true] {
            let vm = run(&p, "brace", &[guard(grit), Value::Int(a)], true, traced, 0);
            agrees(&p, "brace", &[guard(grit), Value::Int(a)], 0, &vm);
            match (&vm.0, want) {
                (Ok(v), Ok(w)) => assert_eq!(*v, Value::Int(w)),
                (Err(e), Err(value)) => assert_eq!(
                    e.kind,
                    RuleErrorKind::OutOfRange {
                        value,
                        lo: 0,
                        hi: 5
                    },
                    "grit {grit} + {a}"
                ),
                (got, _) => panic!("grit {grit} + {a}: {got:?}"),
            }
        }
    }
}

#[test]
fn indexed_and_keyed_places_and_new_records_agree_in_the_plain_and_full_code() {
    let p = program();
    let guard = || guard(&p, 1);
    // Three members: 0 and 2 are inside, -1 and 3 are not.
    for i in [-1, 0, 2, 3] {
        for traced in [false, true] {
            let args = || [band(&p, &three(7)), guard(), Value::Int(i)];
            let vm = run(&p, "drill", &args(), true, traced, 0);
            agrees(&p, "drill", &args(), 0, &vm);
            match &vm.0 {
                Ok(v) => {
                    let skill = [7, 4, 3][i as usize];
                    assert_eq!(*v, Value::Int((skill + 1) * 100 + i * 10 + 2 * i + 5));
                }
                Err(e) => assert_eq!(e.kind, RuleErrorKind::Index { index: i, len: 3 }),
            }
            assert_eq!(vm.0.is_ok(), (0..3).contains(&i), "i {i}");
        }
    }
}

#[test]
fn a_new_records_ranged_field_is_checked_in_the_plain_and_full_code() {
    let p = program();
    // grit is int(0..5): 0 and 5 are inside, -1 and 6 are not.
    for (n, inside) in [(-1, false), (0, true), (5, true), (6, false)] {
        for traced in [false, true] {
            let vm = run(&p, "forge", &[Value::Int(n)], true, traced, 0);
            agrees(&p, "forge", &[Value::Int(n)], 0, &vm);
            match inside {
                true => assert_eq!(vm.0, Ok(Value::Int(n + 3))),
                false => assert_eq!(
                    vm.0.map_err(|e| e.kind),
                    Err(RuleErrorKind::OutOfRange {
                        value: n,
                        lo: 0,
                        hi: 5
                    })
                ),
            }
        }
    }
}

#[test]
fn optional_values_agree_in_the_plain_and_full_code() {
    let p = program();
    for (n, want) in [(2, -1), (3, 3)] {
        for v in same(&p, "maybe", &[Value::Int(n)]) {
            assert_eq!(v, Value::Int(want), "{n}");
        }
    }
}

#[test]
fn a_local_list_appended_to_and_replaced_agrees_in_the_plain_and_full_code() {
    let p = program();
    for n in [0, 5] {
        for v in same(&p, "gather", &[Value::Int(n)]) {
            // ys keeps the three items when xs is replaced.
            assert_eq!(v, Value::Int(1000 + 300 + 3 * n + 3), "{n}");
        }
    }
}

#[test]
fn a_copy_of_a_map_of_records_shares_none_of_them() {
    // `let c = h.body` copies the body, its map of limbs with it: hurting the copy's arm
    // leaves the holder's (value semantics, as generated code's clone gives).
    let p = eval::test_program(
        "ruleset: { name: copies }\nscales:\n  Part: [Arm, Leg]\ntypes:\n  Limb:\n    hp: int\n  Body:\n    limbs: { type: \"map<Part, Limb>\", default: { Arm: { hp: 5 }, Leg: { hp: 7 } } }\n  Holder:\n    body: Body\n",
        "procedure hurt(b: Body) {\n  b.limbs[Arm].hp -= 1\n}\n\nprocedure copy_then_hurt(h: Holder) -> int {\n  let c = h.body\n  hurt(c)\n  return h.body.limbs[Arm].hp * 100 + c.limbs[Arm].hp\n}\n",
    );
    let body = eval::record(&p, "Body", &[]).expect("a Body");
    let holder = eval::record(&p, "Holder", &[("body", body)]).expect("a Holder");
    let id = p.function("copy_then_hurt").expect("declared").0;
    let mut env = Env::new(SeededDice::new(0), FirstOption, NoTrace);
    assert_eq!(
        eval::call(&p, &mut env, id, [holder.clone()]),
        Ok(Value::Int(504))
    );
    // And the caller's holder is as it was.
    let limbs = eval::field(
        &p,
        "Body",
        &eval::field(&p, "Holder", &holder, "body").unwrap(),
        "limbs",
    );
    let Some(Value::Map(limbs)) = limbs else {
        panic!("{limbs:?}")
    };
    assert_eq!(
        eval::field(&p, "Limb", &limbs[0], "hp"),
        Some(Value::Int(5))
    );
}
