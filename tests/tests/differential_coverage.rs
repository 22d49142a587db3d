//! The differential test over `fixtures/codegen/coverage`, a ruleset that is not a game
//! but uses every construct the Rust backend emits (rolls with keep and explode, table
//! rolls `among` a list, decisions from lists, fills that escalate and stop, loops with
//! early returns, `match` statements and expressions over outcomes, aggregates with
//! dice inside, names that collide with Rust; lists, new records, list indexing read and
//! assigned in and out of range, `for i in lo..hi`, appends, a scale's name as a list).
//! Every procedure and formula runs in both backends on the same seeds and must agree on
//! everything.

mod common;

use common::{Draw, RandomDecide};
use rulesc::eval::{self, Value};
use rulesc::ir::Program;
use rulesc_runtime::{
    DiceSource, DiceSpec, Env, Keep, NoTrace, SeededDice, TraceEvent, Track, VecTrace,
};
use rulesc_tests::coverage as cv;
use rulesc_tests::differential::shown;
use rulesc_tests::support::Shown;
use std::path::Path;
use std::rc::Rc;

const SEEDS: u64 = 3_000;

fn program() -> Program {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/codegen/coverage");
    let (p, diags, _) = rulesc::compile_dir(&dir);
    p.unwrap_or_else(|| panic!("coverage does not check: {:?}", diags.items))
}

fn dice(d: &mut Draw) -> DiceSpec {
    let keep = match d.int(0, 3) {
        0 => Keep::Highest(d.int(1, 2) as u32),
        1 => Keep::Lowest(1),
        _ => Keep::All,
    };
    DiceSpec {
        count: d.int(0, 3) as u32,
        sides: d.pick(&[1, 4, 6, 8]),
        explode: d.chance(30),
        keep,
    }
}

fn gear(d: &mut Draw) -> cv::Gear {
    match d.int(0, 3) {
        0 => cv::Gear::sword(),
        1 => cv::Gear::shield(),
        _ => cv::Gear {
            kind: d.pick(&cv::Kind::ALL),
            power: d.int(0, 10),
            dice: dice(d),
            hue: d.pick(&cv::Color::ALL),
        },
    }
}

fn track(d: &mut Draw, boxes: u32) -> Track {
    let mut t = Track::default();
    for b in 0..boxes {
        if d.chance(35) {
            t.filled |= 1 << b;
        }
    }
    t
}

fn wound(d: &mut Draw) -> cv::Wound {
    cv::Wound {
        part: d.pick(&cv::Color::ALL),
        severity: d.pick(&cv::Level::ALL),
        progress: d.int(-2, 9),
        bleeding: d.chance(50),
        healed: d.chance(50),
        marks: [d.int(0, 3), d.int(-1, 1), d.int(0, 2)],
        ticks: track(d, 2),
        notes: (0..d.int(0, 3)).map(|_| d.int(-5, 5)).collect(),
    }
}

fn hero(d: &mut Draw) -> cv::Hero {
    cv::Hero {
        r#type: d.int(-2, 6),
        hit_points: d.int(0, 12),
        hit_points_2: d.int(0, 5),
        gear: (0..d.int(0, 3)).map(|_| gear(d)).collect(),
        main: gear(d),
        marks: [d.chance(50), d.chance(50), d.chance(50)],
        levels: [
            d.pick(&cv::Level::ALL),
            d.pick(&cv::Level::ALL),
            d.pick(&cv::Level::ALL),
        ],
        harm: track(d, 4),
        stress: track(d, 2),
        damage: dice(d),
        tag: d.pick(&cv::T2::ALL),
        wounds: (0..d.int(0, 3)).map(|_| wound(d)).collect(),
        nums: (0..d.int(0, 3)).map(|_| d.int(-9, 9)).collect(),
    }
}

fn colors(d: &mut Draw) -> Vec<cv::Color> {
    (0..d.int(0, 4)).map(|_| d.pick(&cv::Color::ALL)).collect()
}

fn rec(p: &Program, ty: &str, fields: &[(&str, Value)]) -> Value {
    eval::record(p, ty, fields).unwrap_or_else(|| panic!("{ty}: a field name is wrong"))
}

fn gear_value(p: &Program, g: &cv::Gear) -> Value {
    rec(
        p,
        "Gear",
        &[
            ("kind", Value::Choice(g.kind as u16)),
            ("power", Value::Int(g.power)),
            ("dice", Value::Dice(g.dice)),
            ("hue", Value::Choice(g.hue as u16)),
        ],
    )
}

/// A `Bag`: maps of records, variants, lists and optional values.
fn bag_value(p: &Program, b: &cv::Bag) -> Value {
    let map = |xs: Vec<Value>| Value::Map(Rc::new(xs));
    rec(
        p,
        "Bag",
        &[
            (
                "kits",
                map(b.kits.iter().map(|g| gear_value(p, g)).collect()),
            ),
            (
                "kinds",
                map(b.kinds.iter().map(|k| Value::Choice(*k as u16)).collect()),
            ),
            (
                "piles",
                map(b.piles.iter().map(|x| ints_value(x)).collect()),
            ),
            (
                "spare",
                map(b
                    .spare
                    .iter()
                    .map(|x| x.map_or(Value::None, Value::Int))
                    .collect()),
            ),
        ],
    )
}

fn ints_value(xs: &[i64]) -> Value {
    Value::List(Rc::new(xs.iter().map(|x| Value::Int(*x)).collect()))
}

fn wound_value(p: &Program, w: &cv::Wound) -> Value {
    rec(
        p,
        "Wound",
        &[
            ("part", Value::Choice(w.part as u16)),
            ("severity", Value::Choice(w.severity as u16)),
            ("progress", Value::Int(w.progress)),
            ("bleeding", Value::Bool(w.bleeding)),
            ("healed", Value::Bool(w.healed)),
            (
                "marks",
                Value::Map(Rc::new(w.marks.iter().map(|m| Value::Int(*m)).collect())),
            ),
            ("ticks", Value::Track(w.ticks)),
            ("notes", ints_value(&w.notes)),
        ],
    )
}

fn hero_value(p: &Program, h: &cv::Hero) -> Value {
    rec(
        p,
        "Hero",
        &[
            ("type", Value::Int(h.r#type)),
            ("hitPoints", Value::Int(h.hit_points)),
            ("hit_points", Value::Int(h.hit_points_2)),
            (
                "gear",
                Value::List(Rc::new(h.gear.iter().map(|g| gear_value(p, g)).collect())),
            ),
            ("main", gear_value(p, &h.main)),
            (
                "marks",
                Value::Map(Rc::new(h.marks.iter().map(|m| Value::Bool(*m)).collect())),
            ),
            (
                "levels",
                Value::Map(Rc::new(
                    h.levels.iter().map(|l| Value::Choice(*l as u16)).collect(),
                )),
            ),
            ("harm", Value::Track(h.harm)),
            ("stress", Value::Track(h.stress)),
            ("damage", Value::Dice(h.damage)),
            ("tag", Value::Choice(h.tag as u16)),
            (
                "wounds",
                Value::List(Rc::new(
                    h.wounds.iter().map(|w| wound_value(p, w)).collect(),
                )),
            ),
            ("nums", ints_value(&h.nums)),
        ],
    )
}

fn colors_value(c: &[cv::Color]) -> Value {
    Value::List(Rc::new(
        c.iter().map(|c| Value::Choice(*c as u16)).collect(),
    ))
}

type TracedEnv = Env<SeededDice, RandomDecide, VecTrace>;

fn env(seed: u64) -> TracedEnv {
    Env::new(
        SeededDice::new(seed ^ 0x5eed),
        RandomDecide::new(seed),
        VecTrace::default(),
    )
}

#[derive(Debug, PartialEq)]
struct Run {
    result: String,
    events: Vec<TraceEvent>,
    asked: Vec<(&'static str, u32)>,
    next_face: u32,
    args: Vec<Value>,
}

fn finish(mut e: TracedEnv, result: String, args: Vec<Value>) -> Run {
    Run {
        result,
        events: e.trace.events,
        asked: e.decide.asked,
        next_face: e.dice.face(1_000_000),
        args,
    }
}

/// Runs `name` in the interpreter and `gen` (the generated function, which returns its
/// result and the arguments afterwards) on one seed, and requires the same everything.
fn same(
    p: &Program,
    name: &str,
    seed: u64,
    args: Vec<Value>,
    gen: impl FnOnce(&mut TracedEnv) -> (String, Vec<Value>),
) {
    let (id, f) = p.function(name).unwrap_or_else(|| panic!("no `{name}`"));
    let mut e = env(seed);
    let v = eval::call(p, &mut e, id, args.clone());
    let interp = finish(e, shown(p, &v, &f.ret), args);
    let mut e = env(seed);
    let (result, args) = gen(&mut e);
    let generated = finish(e, result, args);
    if interp != generated {
        let render = |r: &Run| {
            VecTrace {
                events: r.events.clone(),
            }
            .render(&p.sites)
        };
        panic!(
            "`{name}`, seed {seed}: the backends differ\n--- interpreter: {}\n{}--- generated: {}\n{}\n{interp:#?}\n{generated:#?}",
            interp.result,
            render(&interp),
            generated.result,
            render(&generated)
        );
    }
}

#[test]
fn sites_match() {
    assert_eq!(cv::SITES, program().sites.as_slice());
}

#[test]
fn names_that_collide_with_rust_are_escaped() {
    // Keywords, names equal after case conversion, names the generated code reserves.
    let _ = (
        cv::Kind::Self_,
        cv::Kind::Box,
        cv::Kind::FooBar,
        cv::Kind::FooBar2,
        cv::T2::A,
    );
    let h = cv::Hero::default();
    assert_eq!((h.r#type, h.hit_points, h.hit_points_2), (0, 10, 3));
    assert_eq!((cv::foo_bar(1), cv::foo_bar_2(1)), (2, 0));
    assert_eq!(cv::Level::Zero.to_string(), "zero {0} \"quoted\" \\ back");
    assert_eq!(format!("{:>6}|", cv::Level::One), "   One|");
    let _: cv::Result2 = cv::Result2::Nothing;
}

#[test]
fn procedures_match_the_interpreter() {
    let p = program();
    for seed in 0..SEEDS {
        let mut d = Draw::new(seed);
        let (h, other, cs, n) = (hero(&mut d), hero(&mut d), colors(&mut d), d.int(-3, 6));
        let hv = || hero_value(&p, &h);

        same(&p, "p_rolls", seed, vec![hv()], |e| {
            (cv::p_rolls(e, &h).to_string(), vec![hero_value(&p, &h)])
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
                    r.to_string(),
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
                cv::f_dice(&h, n).to_string(),
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
