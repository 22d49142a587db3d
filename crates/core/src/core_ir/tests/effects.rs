//! Tracks, dice and decisions on the VM, each in the plain and the full code: a track's filled
//! boxes and their parts, die tables rolled whole and among rows, a roll's faces, decisions among a
//! list's items, boxes filled, dice held, multiplied and rolled.

use super::*;

#[test]
fn filled_boxes_and_their_parts_agree_in_the_plain_and_full_code() {
    let p = program();
    // (pain, numbers, worst level, more than one box); no box: the lowest level.
    for (boxes, want) in [
        (&[][..], (0, 0, 0, false)),
        (&[1][..], (1, 1, 1, false)),
        (&[1, 2][..], (3, 3, 1, true)),
        (&[2, 3][..], (7, 5, 3, true)),
        // Box 4 is past the track's three: not among its filled boxes.
        (&[2, 3, 4][..], (7, 5, 3, true)),
        (&[4][..], (0, 0, 0, false)),
    ] {
        let track = Value::Track(rulesc_runtime::Track::with_filled(boxes));
        let s = eval::record(&p, "Scarred", &[("wounds", track)]).expect("Scarred");
        let listed = same(&p, "ache", std::slice::from_ref(&s));
        // Walked in place, the loops make no list and give the same.
        let code = crate::core_ir::module(&p);
        let (id, _) = p.function("ache_in_place").unwrap();
        let f = code.func(id).expect("ache_in_place lowers");
        // (A box taken and one of its parts read at once: the VM's pair, `vm/fuse.rs`.)
        assert!(f
            .plain
            .iter()
            .any(|i| matches!(i, Inst::NextBox { .. } | Inst::NextBoxPart { .. })));
        assert!(!f.plain.iter().any(|i| matches!(i, Inst::Filled { .. })));
        assert_eq!(same(&p, "ache_in_place", &[s]), listed, "{boxes:?}");
        for v in listed {
            let Value::Outcome { fields, .. } = v else {
                panic!("an outcome")
            };
            let (pain, numbers, level, close) = want;
            assert_eq!(
                fields.to_vec(),
                [
                    Value::Int(pain),
                    Value::Int(numbers),
                    Value::Choice(level),
                    Value::Bool(close)
                ],
                "{boxes:?}"
            );
        }
    }
}

#[test]
fn die_tables_rolled_whole_and_among_rows_agree_in_the_plain_and_full_code() {
    let p = program();
    for a in [0, 1] {
        let mut seen = std::collections::BTreeSet::new();
        for v in same(&p, "strike_at", &[Value::Int(a)]) {
            let Value::Outcome { fields, .. } = v else {
                panic!("an outcome")
            };
            // Among [Serious, Grave] always Serious or worse; among [Light] never.
            assert_eq!(fields[3], Value::Bool(a > 0), "a {a}");
            seen.insert(format!("{:?}", fields[2]));
        }
        // Over 200 seeds the whole table shows every row.
        assert_eq!(seen.len(), 4, "a {a}: {seen:?}");
    }
}

#[test]
fn a_rolls_faces_agree_in_the_plain_and_full_code() {
    let p = program();
    for n in [0, 1, 3] {
        for v in same(&p, "pool", &[Value::Int(n)]) {
            let Value::Int(r) = v else { panic!("an int") };
            // Three of four dice kept (3 to 18), one dropped, n faces of the d4s, and the
            // total is the kept dice's sum.
            assert!((3..=18).contains(&(r / 1000)), "{r}");
            assert_eq!(r % 1000, 100 + 10 * n, "n {n}: {r}");
        }
    }
}

#[test]
fn decisions_among_a_lists_items_agree_in_the_plain_and_full_code() {
    let p = program();
    // The `Cycle` decider answers 1, 2, .. from the seed (past the last option, the last):
    // every member is picked, and each tactic.
    let mut seen = std::collections::BTreeSet::new();
    for v in same(&p, "pick_one", &[band(&p, &three(7))]) {
        let Value::Int(s) = v else { panic!("an int") };
        seen.insert(s);
    }
    assert_eq!(seen, [303, 310, 410, 710].into(), "{seen:?}");
    // No member: the rule error, on both.
    for traced in [false, true] {
        let vm = run(&p, "pick_one", &[band(&p, &[])], true, traced, 0);
        agrees(&p, "pick_one", &[band(&p, &[])], 0, &vm);
        assert_eq!(
            vm.0.map_err(|e| e.kind),
            Err(RuleErrorKind::NoOptions {
                decision: "champion"
            })
        );
    }
}

#[test]
fn filling_a_tracks_boxes_agrees_in_the_plain_and_full_code() {
    let p = program();
    // Hurts: box 1 and 2 Light, box 3 Grave (no escalation): the boxes filled (0 for
    // none), then how many are filled.
    for (boxes, level, want) in [
        (&[][..], 1u16, 212),
        (&[1][..], 1, 220),
        (&[1, 2][..], 1, 200),
        (&[][..], 3, 130),
        (&[3][..], 3, 100),
    ] {
        for traced in [false, true] {
            let track = Value::Track(rulesc_runtime::Track::with_filled(boxes));
            let s = || eval::record(&p, "Scarred", &[("wounds", track.clone())]).expect("Scarred");
            let vm = run(
                &p,
                "hurt_twice",
                &[s(), Value::Choice(level)],
                true,
                traced,
                0,
            );
            agrees(&p, "hurt_twice", &[s(), Value::Choice(level)], 0, &vm);
            assert_eq!(vm.0, Ok(Value::Int(want)), "{boxes:?} at {level}");
        }
    }
}

#[test]
fn dice_held_multiplied_and_rolled_agree_in_the_plain_and_full_code() {
    use rulesc_runtime::dice::MAX_DICE;
    let p = program();
    // 0 and MAX_DICE dice are a roll; one fewer or one more is a rule error.
    for n in [-1, 0, 1, 3, MAX_DICE, MAX_DICE + 1] {
        for seed in 0..20 {
            for traced in [false, true] {
                let vm = run(&p, "volley", &[Value::Int(n)], true, traced, seed);
                agrees(&p, "volley", &[Value::Int(n)], seed, &vm);
                match &vm.0 {
                    Ok(Value::Int(r)) => {
                        let (total, natural) = (r % 10_000, r / 10_000);
                        assert!((n..=6 * n).contains(&total), "n {n}: {total}");
                        assert!(n == 0 || (1..=6).contains(&natural), "n {n}: {natural}");
                    }
                    Err(e) => assert!(!(0..=MAX_DICE).contains(&n), "n {n}: {e:?}"),
                    other => panic!("n {n}: {other:?}"),
                }
            }
        }
    }
}
