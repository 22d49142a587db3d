//! The constructs of language version 2 (`faces`, rule errors, two-key tables, optional
//! values, `first ... where`, maps over any key), fields held to their ranges, and ranges
//! past `MAX_LOOP`.

use super::*;

/// The constructs of language version 2 (`lang2.rules`), rule errors included: both
/// backends give the same result or the same rule error, trace and state.
#[test]
fn language_v2_matches_the_interpreter() {
    let p = program();
    let ints = |xs: &[i64]| Value::List(Rc::new(xs.iter().map(|&x| Value::Int(x)).collect()));
    let mut errors = std::collections::BTreeMap::new();
    for seed in 0..SEEDS {
        let mut d = Draw::new(seed);
        let h = hero(&mut d);
        let n = d.int(-1, 4);
        same(&p, "p_faces", seed, vec![Value::Int(n)], |e| {
            (show_ints(cv::p_faces(e, n)), vec![Value::Int(n)])
        });
        // Indices and divisors just inside and just outside.
        let xs: Vec<i64> = (0..d.int(0, 4)).map(|_| d.int(0, 6)).collect();
        let i = d.int(-1, xs.len() as i64);
        let div = d.int(-1, 1);
        same(
            &p,
            "p_rule_errors",
            seed,
            vec![ints(&xs), Value::Int(i), Value::Int(div)],
            |e| {
                let r = cv::p_rule_errors(e, &xs, i, div);
                if let Err(err) = &r {
                    *errors
                        .entry(format!("{:?}", std::mem::discriminant(&err.kind)))
                        .or_insert(0) += 1;
                }
                (r.shown(), vec![ints(&xs), Value::Int(i), Value::Int(div)])
            },
        );
        let cs = colors(&mut d);
        same(
            &p,
            "p_options",
            seed,
            vec![hero_value(&p, &h), colors_value(&cs), Value::Int(n)],
            |e| {
                let r = cv::p_options(e, &h, &cs, n);
                (
                    r.shown(),
                    vec![hero_value(&p, &h), colors_value(&cs), Value::Int(n)],
                )
            },
        );
        // Rows and columns just inside and outside their ranges.
        let (gn, gm) = (d.int(-2, 6), d.int(-2, 6));
        let gc = d.pick(&[cv::Color::Red, cv::Color::Green, cv::Color::Blue]);
        let gargs = vec![Value::Int(gn), Value::Int(gm), Value::Choice(gc as u16)];
        same(&p, "p_grid", seed, gargs.clone(), |e| {
            (cv::p_grid(e, gn, gm, gc).to_string(), gargs)
        });
        let bag = cv::Bag::default();
        let margs = |b: &cv::Bag| vec![bag_value(&p, b), Value::Int(gn), Value::Choice(gc as u16)];
        same(&p, "p_maps", seed, margs(&bag), |e| {
            let mut b = bag.clone();
            let r = cv::p_maps(e, &mut b, gn, gc);
            (r.shown(), margs(&b))
        });
        let pack = cv::Pack::default();
        let kargs =
            |k: &cv::Pack| vec![pack_value(&p, k), Value::Int(gn), Value::Choice(gc as u16)];
        same(&p, "p_bag_copy", seed, kargs(&pack), |e| {
            let mut k = pack.clone();
            let r = cv::p_bag_copy(e, &mut k, gn, gc);
            (r.shown(), kargs(&k))
        });
        let (id, _) = p.function("f_first_heavy").expect("f_first_heavy");
        let heavy = eval::call(&p, &mut env(seed), id, vec![hero_value(&p, &h)]);
        let want = cv::f_first_heavy(&h).map_or(Value::None, |g| gear_value(&p, &g));
        assert_eq!(heavy, Ok(want), "`f_first_heavy`, seed {seed}");
        let hv = hero_value(&p, &h);
        same(&p, "p_write_errors", seed, vec![hv, Value::Int(i)], |e| {
            let mut x = h.clone();
            let r = cv::p_write_errors(e, &mut x, i);
            (r.shown(), vec![hero_value(&p, &x), Value::Int(i)])
        });
    }
    // Every kind of rule error the procedure can meet was met (index, division,
    // decision without options, die table off its faces).
    assert_eq!(errors.len(), 4, "{errors:?}");
}

/// An `int(lo..hi)` field (`Gear.power`, `int(0..10)`) written just inside and just
/// outside both ends, by `=`, `+=`, `-=` and a new record: the same result, rule error,
/// trace and state in both backends, and each error where the number is written.
#[test]
fn ranged_fields_are_held_to_their_range_in_both_backends() {
    use rulesc_runtime::{RuleError, RuleErrorKind};
    let p = program();
    let gear = cv::Gear {
        kind: cv::Kind::Box,
        power: 5,
        dice: DiceSpec::new(1, 6),
        hue: cv::Color::Red,
    };
    let site = |text: &str| {
        let found = p
            .sites
            .iter()
            .position(|s| s.text.trim() == text)
            .unwrap_or_else(|| panic!("no site `{text}`"));
        found as u32
    };
    let out = |value, site| {
        Err(RuleError::new(
            site,
            RuleErrorKind::OutOfRange {
                value,
                lo: 0,
                hi: 10,
            },
        ))
    };
    let mut seed = 0;
    for set in [-1, 0, 10, 11] {
        for by in [-1, 0, 1] {
            seed += 1;
            let args = |g: &cv::Gear| vec![gear_value(&p, g), Value::Int(set), Value::Int(by)];
            same(&p, "p_ranged", seed, args(&gear), |e| {
                let mut g = gear.clone();
                let r = cv::p_ranged(e, &mut g, set, by);
                (r.shown(), args(&g))
            });
            let mut g = gear.clone();
            let r = cv::p_ranged(&mut env(seed), &mut g, set, by);
            let inside = |v: i64| (0..=10).contains(&v);
            let (want, power) = if !inside(set - by) {
                (out(set - by, site("power: set - by")), 5)
            } else if !inside(set) {
                (out(set, site("g.power = set")), 5)
            } else if !inside(set + by) {
                // A failed write leaves the field as it was.
                (out(set + by, site("g.power += by")), set)
            } else {
                let kept = (set + by).clamp(0, 10);
                (Ok((set - by) * 100 + kept), kept)
            };
            assert_eq!(r, want, "set {set}, by {by}");
            assert_eq!(g.power, power, "set {set}, by {by}");
        }
    }
    // Only the last write, `min(10, max(0, ..))`, is proven inside: it is not checked.
    let (_, f) = p.function("p_ranged").expect("p_ranged");
    let rulesc::ir::Body::Procedure(stmts) = &f.body else {
        panic!("p_ranged is a procedure")
    };
    let ranges: Vec<_> = stmts
        .iter()
        .filter_map(|s| match s {
            rulesc::ir::Stmt::Assign { place, .. } => Some(place.range),
            _ => None,
        })
        .collect();
    assert_eq!(ranges, [Some((0, 10)), Some((0, 10)), Some((0, 10)), None]);
}

/// Maps keyed by numbers, flags and records (`Board`, `p_keyed`): keys not held read the
/// zero, writes add them, `keys` is ascending, in both backends alike (the board after the
/// run, shown whole, and the trace).
#[test]
fn maps_over_any_key_match_the_interpreter() {
    let p = program();
    let (id, f) = p.function("p_keyed").expect("p_keyed");
    let board = p
        .records
        .iter()
        .position(|r| r.name == "Board")
        .expect("Board");
    let board_ty = rulesc::ir::Ty::Record(board);
    let zero = p.zero(&board_ty);
    let (mut sizes, mut errors) = (std::collections::BTreeSet::new(), 0);
    for seed in 0..500 {
        let mut d = Draw::new(seed);
        let (n, m) = (d.int(-3, 9), d.int(-3, 9));
        let mut e = env(seed);
        let arg = Value::from_const(&zero);
        let v = eval::call(
            &p,
            &mut e,
            id,
            vec![arg.clone(), Value::Int(n), Value::Int(m)],
        );
        // The result, the board as the run left it (after a rule error too), the trace.
        let interp = (
            shown(&p, &v, &f.ret),
            eval::show(&p, &arg, &board_ty),
            e.trace.events,
        );
        let mut e = env(seed);
        let mut b = cv::Board::default();
        let r = cv::p_keyed(&mut e, &mut b, n, m);
        let result = match &r {
            Ok(b) => b.to_string(),
            Err(err) => rulesc_tests::support::shown_error(err),
        };
        let generated = (result, b.to_string(), e.trace.events);
        assert_eq!(interp, generated, "n {n}, m {m}");
        // A failed write through a key not held leaves the key added, at the zero.
        if r.is_err() {
            errors += 1;
            assert_eq!(b.gears.get(&n).power, 0, "n {n}, m {m}");
            assert!(b.gears.keys().any(|k| *k == n), "n {n}, m {m}");
        }
        sizes.insert((b.tallies.len(), b.marks.len()));
    }
    assert!(sizes.len() > 3 && errors > 0, "{sizes:?}, {errors} errors");
    // Ascending keys, the zero for a key not held, a record key ordered field by field.
    let mut b = cv::Board::default();
    let r = cv::p_keyed(&mut env(0), &mut b, 2, 5).expect("no rule error");
    assert_eq!(
        r.to_string(),
        "Board(tallies: {-2: 5, 0: 693163, 2: 5, 3: 1, 4: 1}, sides: {false: Blue}, \
         marks: {Square(file: 1, rank: 2): [2], Square(file: 2, rank: 5): [2, 5]}, kits: {}, \
         gears: {2: Gear(kind: Self, power: 5, dice: 0d1, hue: Blue)})"
    );
}

fn show_ints(r: Result<impl AsRef<[i64]>, rulesc_runtime::RuleError>) -> String {
    match r {
        Ok(v) => {
            let items: Vec<String> = v.as_ref().iter().map(i64::to_string).collect();
            format!("[{}]", items.join(", "))
        }
        Err(e) => rulesc_tests::support::shown_error(&e),
    }
}

/// A range whose bounds the rules do not fix holds at most `MAX_LOOP` numbers: one more is
/// the rule error `RangeTooLong` before the first turn, in both backends alike (same
/// result, trace and error), up to the ends of the integers.
#[test]
fn ranges_past_max_loop_are_rule_errors() {
    let p = program();
    let max = rulesc_runtime::MAX_LOOP;
    let cases = [
        (0, i64::MAX),
        (i64::MIN, i64::MAX),
        (i64::MAX - 3, i64::MAX),
        (i64::MIN, i64::MIN + 2),
        (5, 2),
        (7, 7),
        (-max, 0),
        (-max - 1, 0),
        (3, max + 3),
        (3, max + 4),
    ];
    for (seed, (lo, hi)) in cases.into_iter().enumerate() {
        same(
            &p,
            "p_range",
            seed as u64,
            vec![Value::Int(lo), Value::Int(hi)],
            |e| {
                (
                    cv::p_range(e, lo, hi).shown(),
                    vec![Value::Int(lo), Value::Int(hi)],
                )
            },
        );
    }
    let mut e = env(0);
    // Exactly `MAX_LOOP` turns run whole (the last is `-1`, shown as -1 % 100).
    assert_eq!(cv::p_range(&mut e, -max, 0), Ok(max * 100 - 1));
    assert_eq!(
        cv::p_range(&mut e, 3, max + 3),
        Ok(max * 100 + (max + 2) % 100)
    );
    for (lo, hi, len) in [
        (-max - 1, 0, max as u64 + 1),
        (3, max + 4, max as u64 + 1),
        (0, i64::MAX, i64::MAX as u64),
        (i64::MIN, i64::MAX, u64::MAX),
    ] {
        let err = cv::p_range(&mut e, lo, hi).expect_err("past MAX_LOOP");
        assert_eq!(
            err.kind,
            rulesc_runtime::RuleErrorKind::RangeTooLong {
                len,
                max: max as u64
            },
            "{lo}..{hi}"
        );
    }
}
