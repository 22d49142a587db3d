//! Every formula of the fixture, and a local record passed to a procedure that changes it.

use super::*;

#[test]
fn formulas_match_the_interpreter() {
    let p = program();
    for seed in 0..SEEDS {
        let mut d = Draw::new(seed);
        let (h, cs, g) = (hero(&mut d), colors(&mut d), gear(&mut d));
        let (a, b, n) = (d.int(-20, 20), d.int(-5, 5), d.int(-3, 12));
        let (l, c, k, t) = (
            d.pick(&cv::Level::ALL),
            d.pick(&cv::Color::ALL),
            d.pick(&cv::Kind::ALL),
            d.pick(&cv::T2::ALL),
        );
        let hv = || hero_value(&p, &h);
        let r = cv::f_outcome(&h);
        let rv = {
            let (id, _) = p.function("f_outcome").expect("f_outcome");
            eval::call(&p, &mut env(seed), id, vec![hv()]).expect("`f_outcome` cannot fail")
        };
        let cases: Vec<(&str, Vec<Value>, String)> = vec![
            ("power_of", vec![hv()], cv::power_of(&h).to_string()),
            ("fooBar", vec![Value::Int(a)], cv::foo_bar(a).to_string()),
            ("foo_bar", vec![Value::Int(a)], cv::foo_bar_2(a).to_string()),
            (
                "f_arith",
                vec![Value::Int(a), Value::Int(b)],
                cv::f_arith(a, b).shown(),
            ),
            (
                "f_levels",
                vec![Value::Choice(l as u16), Value::Int(n)],
                cv::f_levels(l, n).to_string(),
            ),
            (
                "f_bools",
                vec![hv(), Value::Choice(c as u16)],
                cv::f_bools(&h, c).to_string(),
            ),
            (
                "f_match",
                vec![Value::Choice(k as u16)],
                cv::f_match(k).to_string(),
            ),
            ("f_if", vec![hv()], cv::f_if(&h).to_string()),
            (
                "f_aggs",
                vec![hv(), colors_value(&cs)],
                cv::f_aggs(&h, &cs).to_string(),
            ),
            (
                "f_any",
                vec![hv(), colors_value(&cs)],
                cv::f_any(&h, &cs).to_string(),
            ),
            ("f_max_level", vec![hv()], cv::f_max_level(&h).to_string()),
            ("f_min_power", vec![hv()], cv::f_min_power(&h).to_string()),
            (
                "f_dice",
                vec![hv(), Value::Int(n)],
                cv::f_dice(&h, n).shown(),
            ),
            ("f_outcome", vec![hv()], r.to_string()),
            (
                "f_match_outcome",
                vec![rv],
                cv::f_match_outcome(r).to_string(),
            ),
            ("f_tables", vec![Value::Int(a)], cv::f_tables(a).to_string()),
            (
                "f_die_lookup",
                vec![Value::Int(n)],
                cv::f_die_lookup(n).shown(),
            ),
            (
                "f_merged",
                vec![Value::Int(a), Value::Int(b), Value::Int(n)],
                cv::f_merged(a, b, n).to_string(),
            ),
            (
                "f_else_if",
                vec![Value::Int(a), Value::Int(b), Value::Choice(l as u16)],
                cv::f_else_if(a, b, l).to_string(),
            ),
            (
                "f_tag",
                vec![hv(), Value::Choice(t as u16)],
                cv::f_tag(&h, t).to_string(),
            ),
            (
                "f_gear_in",
                vec![hv(), gear_value(&p, &g)],
                cv::f_gear_in(&h, &g).to_string(),
            ),
            (
                "f_lists",
                vec![hv(), colors_value(&cs), Value::Int(b)],
                cv::f_lists(&h, &cs, b).shown(),
            ),
            (
                "f_wound",
                vec![hv(), Value::Int(b)],
                cv::f_wound(&h, b).shown(),
            ),
            (
                "f_pick_wound",
                vec![hv(), Value::Int(b)],
                cv::f_pick_wound(&h, b).shown(),
            ),
            ("f_box", vec![hv(), Value::Int(b)], cv::f_box(&h, b).shown()),
            (
                "f_box_number",
                vec![hv(), Value::Int(b)],
                cv::f_box_number(&h, b).shown(),
            ),
            (
                "f_make",
                vec![hv(), Value::Int(b)],
                cv::f_make(&h, b).to_string(),
            ),
            ("f_nested", vec![Value::Int(b)], cv::f_nested(b).shown()),
            (
                "f_gear_list",
                vec![hv(), Value::Int(b)],
                cv::f_gear_list(&h, b).to_string(),
            ),
            (
                "f_collect_records",
                vec![hv(), colors_value(&cs)],
                cv::f_collect_records(&h, &cs).to_string(),
            ),
        ];
        for (name, args, generated) in cases {
            let (id, f) = p.function(name).unwrap_or_else(|| panic!("no `{name}`"));
            let v = eval::call(&p, &mut env(seed), id, args);
            assert_eq!(shown(&p, &v, &f.ret), generated, "`{name}`, seed {seed}");
        }
    }
}

#[test]
fn a_local_record_passed_to_be_changed_changes_in_both_backends() {
    // `heal` empties the local wound's progress and notes 7: 0 * 100 + 1; the copy of the
    // hero's first wound is healed too (1,000 * its notes + 10 * 0), the hero's is not.
    let p = program();
    let mut h = cv::Hero::default();
    let mut e = env(1);
    assert_eq!(cv::p_local_changed(&mut e, &mut h, 5).shown(), "1");
    let (id, _) = p.function("p_local_changed").unwrap();
    let v = eval::call(&p, &mut env(1), id, vec![hero_value(&p, &h), Value::Int(5)]);
    assert_eq!(v.map(|v| v.int()).ok(), Some(1));
}
