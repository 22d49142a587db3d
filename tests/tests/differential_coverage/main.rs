//! The differential test over `fixtures/codegen/coverage`, a ruleset that is not a game
//! but uses every construct the Rust backend emits (rolls with keep and explode, table
//! rolls `among` a list, decisions from lists, fills that escalate and stop, loops with
//! early returns, `match` statements and expressions over outcomes, aggregates with
//! dice inside, names that collide with Rust; lists, new records, list indexing read and
//! assigned in and out of range, `for i in lo..hi`, appends, a scale's name as a list).
//! Every procedure and formula runs in both backends on the same seeds and must agree on
//! everything.

#[path = "../common/mod.rs"]
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

mod formulas;
mod language_v2;
mod procedures;

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

/// A `Pack`: a record holding a `Bag`.
fn pack_value(p: &Program, k: &cv::Pack) -> Value {
    rec(p, "Pack", &[("bag", bag_value(p, &k.bag))])
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
