//! Every procedure of the fixture, on the same seeds in both backends.

use super::*;

#[test]
fn procedures_match_the_interpreter() {
    let p = program();
    for seed in 0..SEEDS {
        let mut d = Draw::new(seed);
        let (h, other, cs, n) = (hero(&mut d), hero(&mut d), colors(&mut d), d.int(-3, 6));
        let hv = || hero_value(&p, &h);

        same(&p, "p_rolls", seed, vec![hv()], |e| {
            (cv::p_rolls(e, &h).shown(), vec![hero_value(&p, &h)])
        });
        same(&p, "p_tables", seed, vec![hv(), colors_value(&cs)], |e| {
            (
                cv::p_tables(e, &h, &cs).to_string(),
                vec![hero_value(&p, &h), colors_value(&cs)],
            )
        });
        same(&p, "p_decide", seed, vec![hv(), colors_value(&cs)], |e| {
            (
                cv::p_decide(e, &h, &cs).shown(),
                vec![hero_value(&p, &h), colors_value(&cs)],
            )
        });
        same(&p, "p_helper", seed, vec![hv()], |e| {
            let mut x = h.clone();
            cv::p_helper(e, &mut x);
            (String::new(), vec![hero_value(&p, &x)])
        });
        same(&p, "p_state", seed, vec![hv(), Value::Int(n)], |e| {
            let mut x = h.clone();
            let r = cv::p_state(e, &mut x, n);
            (r.to_string(), vec![hero_value(&p, &x), Value::Int(n)])
        });
        same(&p, "p_merged", seed, vec![hv(), Value::Int(n)], |e| {
            (
                cv::p_merged(e, &h, n).to_string(),
                vec![hero_value(&p, &h), Value::Int(n)],
            )
        });
        same(&p, "p_changes", seed, vec![hv(), Value::Int(n)], |e| {
            let mut x = h.clone();
            let r = cv::p_changes(e, &mut x, n);
            (r.to_string(), vec![hero_value(&p, &x), Value::Int(n)])
        });
        same(&p, "p_passes", seed, vec![hv(), Value::Int(n)], |e| {
            let mut x = h.clone();
            let r = cv::p_passes(e, &mut x, n);
            (r.shown(), vec![hero_value(&p, &x), Value::Int(n)])
        });
        same(&p, "p_flow", seed, vec![hv(), colors_value(&cs)], |e| {
            (
                cv::p_flow(e, &h, &cs).to_string(),
                vec![hero_value(&p, &h), colors_value(&cs)],
            )
        });
        same(
            &p,
            "p_outer",
            seed,
            vec![hv(), hero_value(&p, &other), Value::Int(n)],
            |e| {
                let mut x = h.clone();
                let r = cv::p_outer(e, &mut x, &other, n);
                (
                    r.shown(),
                    vec![hero_value(&p, &x), hero_value(&p, &other), Value::Int(n)],
                )
            },
        );

        same(&p, "p_loot", seed, vec![hv(), colors_value(&cs)], |e| {
            let mut x = h.clone();
            let r = cv::p_loot(e, &mut x, &cs);
            (r.shown(), vec![hero_value(&p, &x), colors_value(&cs)])
        });
        // A record result prints as `Type(field: value, ...)`; it is also compared whole.
        same(&p, "p_pick", seed, vec![hv()], |e| {
            (cv::p_pick(e, &h).shown(), vec![hero_value(&p, &h)])
        });
        let (id, _) = p.function("p_pick").expect("p_pick");
        let picked = eval::call(&p, &mut env(seed), id, vec![hv()]);
        assert_eq!(
            picked,
            cv::p_pick(&mut env(seed), &h).map(|g| gear_value(&p, &g)),
            "`p_pick`, seed {seed}"
        );

        // Lists, new records, indexing in and out of range, ranges, appends.
        same(&p, "p_wounds", seed, vec![hv(), Value::Int(n)], |e| {
            let mut x = h.clone();
            let r = cv::p_wounds(e, &mut x, n);
            (r.shown(), vec![hero_value(&p, &x), Value::Int(n)])
        });
        same(&p, "p_gear_lists", seed, vec![hv(), Value::Int(n)], |e| {
            let mut x = h.clone();
            let r = cv::p_gear_lists(e, &mut x, n);
            (r.shown(), vec![hero_value(&p, &x), Value::Int(n)])
        });
        same(&p, "p_heal_first", seed, vec![hv()], |e| {
            let mut x = h.clone();
            let r = cv::p_heal_first(e, &mut x);
            (r.shown(), vec![hero_value(&p, &x)])
        });
        same(
            &p,
            "p_local_changed",
            seed,
            vec![hv(), Value::Int(n)],
            |e| {
                let mut x = h.clone();
                let r = cv::p_local_changed(e, &mut x, n);
                (r.shown(), vec![hero_value(&p, &x), Value::Int(n)])
            },
        );
        same(&p, "p_alias_in_range", seed, vec![hv()], |e| {
            let mut x = h.clone();
            cv::p_alias_in_range(e, &mut x);
            (String::new(), vec![hero_value(&p, &x)])
        });
        same(
            &p,
            "p_pick_then_change",
            seed,
            vec![hv(), hero_value(&p, &other), Value::Int(n)],
            |e| {
                let mut x = h.clone();
                let r = cv::p_pick_then_change(e, &mut x, &other, n);
                (
                    r.shown(),
                    vec![hero_value(&p, &x), hero_value(&p, &other), Value::Int(n)],
                )
            },
        );
        same(
            &p,
            "p_loop_vars",
            seed,
            vec![hv(), colors_value(&cs)],
            |e| {
                (
                    cv::p_loop_vars(e, &h, &cs).to_string(),
                    vec![hero_value(&p, &h), colors_value(&cs)],
                )
            },
        );
        let marks = [d.int(-3, 3), d.int(-3, 3), d.int(-3, 3)];
        let marks_value = || Value::Map(Rc::new(marks.iter().map(|m| Value::Int(*m)).collect()));
        same(
            &p,
            "p_list_param",
            seed,
            vec![ints_value(&h.nums), marks_value(), Value::Int(n)],
            |e| {
                let r = cv::p_list_param(e, &h.nums, marks, n);
                (
                    r.shown(),
                    vec![ints_value(&h.nums), marks_value(), Value::Int(n)],
                )
            },
        );
        same(&p, "p_agg_effects", seed, vec![hv()], |e| {
            let mut x = h.clone();
            let r = cv::p_agg_effects(e, &mut x);
            (r.shown(), vec![hero_value(&p, &x)])
        });
        same(&p, "p_outcome_copy", seed, vec![hv()], |e| {
            let mut x = h.clone();
            let r = cv::p_outcome_copy(e, &mut x);
            (r.to_string(), vec![hero_value(&p, &x)])
        });
        same(&p, "p_enums", seed, vec![hv(), colors_value(&cs)], |e| {
            (
                cv::p_enums(e, &h, &cs).shown(),
                vec![hero_value(&p, &h), colors_value(&cs)],
            )
        });
        let (lo, hi) = (d.int(-4, 4), d.int(-4, 6));
        same(
            &p,
            "p_range",
            seed,
            vec![Value::Int(lo), Value::Int(hi)],
            |e| {
                (
                    cv::p_range(e, lo, hi).shown(),
                    vec![Value::Int(lo), Value::Int(hi)],
                )
            },
        );

        // Without a trace: the same results and dice.
        let mut e = Env::new(
            SeededDice::new(seed ^ 0x5eed),
            RandomDecide::new(seed),
            NoTrace,
        );
        let mut x = h.clone();
        let quiet = (
            cv::p_flow(&mut e, &h, &cs),
            cv::p_state(&mut e, &mut x, n),
            cv::p_decide(&mut e, &h, &cs).shown(),
            cv::p_wounds(&mut e, &mut x, n),
            cv::p_gear_lists(&mut e, &mut x, n),
        );
        let mut e = env(seed);
        let mut y = h.clone();
        let loud = (
            cv::p_flow(&mut e, &h, &cs),
            cv::p_state(&mut e, &mut y, n),
            cv::p_decide(&mut e, &h, &cs).shown(),
            cv::p_wounds(&mut e, &mut y, n),
            cv::p_gear_lists(&mut e, &mut y, n),
        );
        assert_eq!(quiet, loud, "seed {seed}");
        assert_eq!(x, y, "seed {seed}");
    }
}
