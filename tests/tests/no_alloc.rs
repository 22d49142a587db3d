//! With `NoTrace`, a generated resolution formats nothing and allocates nothing: every
//! trace event is built inside `if T::ENABLED { .. }`, aggregates over lists and filled
//! boxes iterate in place, a list the rules compute (a comprehension, a formula or
//! procedure returning numbers, flags or names) is a `SmallList` held inline, and a table
//! whose values are such lists hands out a `&'static` slice. One attack procedure of
//! each ruleset is run: Kingsmark's melee and ranged attacks, Hit Strength's attack,
//! Dungeon Cards' `land_blow` (wounds, stun, sever), d20-armor-slots' `attack` (the
//! defender's reactions, `reactions(c)`, are a formula's list), Victory Stars'
//! `melee_attack` (defences, blockers and aims are computed lists; impairment reads
//! `skill_parts[skill]`), and the benchmark's bare exchange.
//!
//! A list a record holds grows in its own `Vec` (a wound, a condition or a morale state appended): that
//! allocates only past the `Vec`'s capacity, so the fighters here start with room.
//!
//! A whole fight: the fight engine steps one to its end without allocating, up to
//! `fight::FIGHTER_CAP` fighters, under rules that allocate nothing themselves.

mod common;

use common::{Draw, SeededDecide};
use rulesc_runtime::{Env, NoTrace, SeededDice, VecTrace};
use rulesc_tests::kingsmark as km;
use rulesc_tests::{d20_armor_slots as d20, victory_stars as vs};
use rulesc_tests::{dungeon_cards as dc, exchange as ex, hit_strength as hs};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts allocations made on the thread that is measuring (see [`allocations_during`]):
/// the test harness's own thread may still be allocating its bookkeeping when the test
/// starts (more so on a loaded machine), and those are not the attacks'.
struct Counting;

thread_local! {
    /// On while this thread measures; a `const` thread-local, so reading it allocates
    /// nothing.
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    /// This thread's allocations while measuring: per thread, so tests running at once
    /// do not count each other's.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if MEASURING.with(Cell::get) {
            ALLOCATIONS.with(|n| n.set(n.get() + 1));
        }
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations this thread makes while `f` runs.
fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    MEASURING.with(|m| m.set(true));
    f();
    MEASURING.with(|m| m.set(false));
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn attacks_without_a_trace_do_not_allocate() {
    let mut inputs = Vec::new();
    for seed in 0..500 {
        let mut d = Draw::new(seed);
        inputs.push((d.combatant(), d.combatant(), d.weapon(), d.int(-4, 6)));
    }
    let others = Others::new();
    let mut env = Env::new(SeededDice::new(7), SeededDecide::new(7), NoTrace);
    let n = allocations_during(|| {
        for (a, d, w, realism) in inputs.iter_mut() {
            std::hint::black_box(km::melee_attack(&mut env, a, d, w));
            std::hint::black_box(km::ranged_attack(&mut env, a, d, w, *realism));
        }
    });
    assert_eq!(n, 0, "allocations in 1,000 untraced attacks");
    for (name, mut run) in others.runs() {
        let mut env = Env::new(SeededDice::new(7), SeededDecide::new(7), NoTrace);
        let n: usize = (0..500).map(|_| run(&mut env)).sum();
        assert_eq!(n, 0, "allocations in 500 untraced runs of {name}");
    }

    // The counter does count: the same attacks with a trace allocate.
    let mut env = Env::new(
        SeededDice::new(7),
        SeededDecide::new(7),
        VecTrace::default(),
    );
    let (a, d, w, _) = &mut inputs[0];
    assert!(
        allocations_during(|| {
            km::melee_attack(&mut env, a, d, w);
        }) > 0
    );
}

type Untraced = Env<SeededDice, SeededDecide, NoTrace>;
/// A named run that returns how many allocations its call made.
type Run = (&'static str, Box<dyn FnMut(&mut Untraced) -> usize>);

/// An attack procedure of other rulesets, with its arguments built before counting.
/// A run counts the allocations of the call alone, then restores the state the call
/// changed (uncounted), so every run starts alike.
struct Others {
    hs: (hs::Combatant, hs::Combatant, hs::Weapon),
    ex: (ex::Fighter, ex::Fighter),
    dc: (dc::Combatant, dc::Board),
    d20: (d20::Combatant, d20::Combatant),
    vs: (vs::Combatant, vs::Combatant),
}

impl Others {
    fn new() -> Self {
        let hs_fighter = hs::Combatant {
            hit_points: 12,
            max_hit_points: 20,
            defense: 12,
            attack_bonus: 5,
            endurance: 3,
            heal: 2,
            speed: 10,
            ..Default::default()
        };
        let dc_fighter = dc::Combatant {
            base_max_health: 20,
            health: 20,
            base_max_stamina: 10,
            stamina: 10,
            stats: [3, 3, 3, 3],
            equipped: vec![dc::Item::sword()],
            ..Default::default()
        };
        let dc_board = dc::Board {
            slots: (1..=3)
                .map(|position| dc::BoardSlot {
                    position,
                    ..Default::default()
                })
                .collect(),
        };
        let d20_fighter = |shield| d20::Combatant {
            abilities: [3, 2],
            skills: [2, 1, 0],
            hp: 30,
            weapon: d20::Weapon::longsword(),
            armor: d20::ArmorSet::full_chain().pieces,
            shield,
            shield_hp: 12,
            ..Default::default()
        };
        // Wounds to the arms and legs, so impairment reads `skill_parts` for each.
        let vs_fighter = |parts: [vs::BodyPart; 2]| {
            let mut c = vs::Combatant::man_at_arms();
            for part in parts {
                c.wounds.push(vs::Wound {
                    part,
                    impairment: 1,
                    ..Default::default()
                });
            }
            c
        };
        Others {
            d20: (
                d20_fighter(d20::ShieldKind::NoShield),
                d20_fighter(d20::ShieldKind::Wooden),
            ),
            vs: (
                vs_fighter([vs::BodyPart::Forearms, vs::BodyPart::Thighs]),
                vs_fighter([vs::BodyPart::UpperArms, vs::BodyPart::Calves]),
            ),
            dc: (dc_fighter, dc_board),
            hs: (hs_fighter.clone(), hs_fighter, hs::Weapon::standard_sword()),
            ex: (
                ex::Fighter {
                    physical_performance: 2,
                    skill: 3,
                },
                ex::Fighter {
                    physical_performance: 1,
                    skill: 4,
                },
            ),
        }
    }

    /// (name, one run); the closures own clones of the arguments to restore from.
    fn runs(self) -> Vec<Run> {
        let Others {
            hs,
            ex,
            dc,
            d20,
            vs,
        } = self;
        // The fighters an attack changes, restored (`clone_from`) after each run, with
        // room (a clone has none) for what it appends: a condition (d20), wounds, items
        // and morale states (Victory Stars).
        let d20_room = |c: &mut d20::Combatant, from: &d20::Combatant| {
            c.clone_from(from);
            c.conditions.reserve(8);
        };
        let vs_room = |c: &mut vs::Combatant, from: &vs::Combatant| {
            c.clone_from(from);
            c.wounds.reserve(16);
            c.held.reserve(4);
            c.morale_states.reserve(8);
        };
        let (mut ad20, mut dd20) = (d20.0.clone(), d20.1.clone());
        let (mut avs, mut dvs) = (vs.0.clone(), vs.1.clone());
        d20_room(&mut ad20, &d20.0);
        d20_room(&mut dd20, &d20.1);
        vs_room(&mut avs, &vs.0);
        vs_room(&mut dvs, &vs.1);
        let (mut ddc, mut bdc) = (dc.0.clone(), dc.1.clone());
        let sword = dc::Item::sword();
        let mut dhs = hs.1.clone();
        vec![
            (
                "hit_strength::attack",
                Box::new(move |e: &mut Untraced| {
                    let n = allocations_during(|| {
                        let _ = std::hint::black_box(hs::attack(e, &hs.0, &mut dhs, &hs.2));
                    });
                    dhs.clone_from(&hs.1);
                    n
                }),
            ),
            (
                "dungeon_cards::land_blow",
                Box::new(move |e: &mut Untraced| {
                    let n = allocations_during(|| {
                        let part = dc::BodyPart::ALL[0];
                        let r = dc::land_blow(e, &mut ddc, &mut bdc, &sword, part, 7, false);
                        std::hint::black_box(r).ok();
                    });
                    ddc.clone_from(&dc.0);
                    bdc.clone_from(&dc.1);
                    n
                }),
            ),
            (
                "d20_armor_slots::attack",
                Box::new(move |e: &mut Untraced| {
                    let n = allocations_during(|| {
                        let r = d20::attack(e, &mut ad20, &mut dd20);
                        std::hint::black_box(r).ok();
                    });
                    d20_room(&mut ad20, &d20.0);
                    d20_room(&mut dd20, &d20.1);
                    n
                }),
            ),
            (
                "victory_stars::melee_attack",
                Box::new(move |e: &mut Untraced| {
                    let n = allocations_during(|| {
                        let mode = vs::StrikeMode::BroadswordCut;
                        let r = vs::melee_attack(e, &mut avs, &mut dvs, mode);
                        std::hint::black_box(r).ok();
                    });
                    vs_room(&mut avs, &vs.0);
                    vs_room(&mut dvs, &vs.1);
                    n
                }),
            ),
            (
                "exchange::exchange",
                Box::new(move |e: &mut Untraced| {
                    allocations_during(|| {
                        std::hint::black_box(ex::exchange(e, &ex.0, &ex.1));
                    })
                }),
            ),
        ]
    }
}

/// The fight engine steps a whole fight without allocating, up to
/// `fight::FIGHTER_CAP` fighters: rounds, the turn order (keys compared, ties rolled),
/// each turn's group, per-fighter hooks in turn order, the `out` rule and the end. The
/// rules here are Kingsmark's generated formulas and melee attack (which allocate
/// nothing, above) under a `FightRules` written for the test, with a trigger per fighter
/// and a fight-wide one, so what is counted is the engine's. The shipped fights' generated rules still allocate in their own bodies
/// (the lists of fighters `enemies(c)` and the like build, combatants copied into a
/// list, a timer's arguments): those are the generated code's, not the engine's.
/// Past the cap the engine's lists move to the heap and the fight plays on.
#[test]
fn the_fight_engine_steps_a_whole_fight_without_allocating() {
    use rulesc_runtime::fight::{Key, Res, FIGHTER_CAP};
    use rulesc_runtime::{Answer, Policy, Ties};
    use rulesc_runtime::{DiceSpec, Fight, FightEnd, FightRules, FightShape, Fighter, Hook};
    use std::borrow::Cow;

    static SHAPE: FightShape = FightShape {
        ties: Ties::Roll(DiceSpec::new(1, 6)),
        round_length: 0,
        // `start` once, `turn` per fighter, `round start` per fighter in turn order.
        hooks: [Some(false), Some(true), Some(false), None, None],
        every: Cow::Borrowed(&[]),
        // One trigger per fighter (it falls), one fight-wide (round 3 begins).
        triggers: Cow::Borrowed(&[true, false]),
        site: 0,
        trigger_sites: Cow::Borrowed(&[0, 0]),
        repeats: Cow::Borrowed(&[]),
    };
    /// Each fighter's turn: a melee attack on the first enemy still standing; counts the
    /// triggers that fire.
    struct Melee {
        fired: u32,
    }
    impl<D: rulesc_runtime::DiceSource, X: rulesc_runtime::Decide>
        FightRules<km::Combatant, D, X, NoTrace> for Melee
    {
        fn shape(&self) -> &FightShape {
            &SHAPE
        }
        fn key(
            &mut self,
            _: &mut Env<D, X, NoTrace>,
            fight: &mut Fight<km::Combatant>,
            who: Fighter,
        ) -> Res<Key> {
            Ok(Key::from_slice(&[km::initiative(&fight[who])]))
        }
        fn is_out(
            &mut self,
            _: &mut Env<D, X, NoTrace>,
            fight: &mut Fight<km::Combatant>,
            who: Fighter,
        ) -> Res<bool> {
            Ok(km::incapacitated(&fight[who]))
        }
        fn hook(
            &mut self,
            env: &mut Env<D, X, NoTrace>,
            fight: &mut Fight<km::Combatant>,
            hook: Hook,
            who: Option<Fighter>,
        ) -> Res<()> {
            let (Hook::Turn, Some(me)) = (hook, who) else {
                return Ok(());
            };
            let foe = fight
                .fighters()
                .find(|&f| fight.side(f) != fight.side(me) && !km::incapacitated(&fight[f]));
            if let Some(foe) = foe {
                let (a, d) = (me.index(), foe.index());
                let (attacker, defender) = if a < d {
                    let (left, right) = fight.combatants.split_at_mut(d);
                    (&left[a], &mut right[0])
                } else {
                    let (left, right) = fight.combatants.split_at_mut(a);
                    (&right[0], &mut left[d])
                };
                km::melee_attack(env, attacker, defender, &attacker.weapon);
            }
            Ok(())
        }
        fn fire(
            &mut self,
            _: &mut Env<D, X, NoTrace>,
            _: &mut Fight<km::Combatant>,
            _: u32,
            _: &[i64],
        ) -> Res<()> {
            Ok(())
        }
        fn condition(
            &mut self,
            _: &mut Env<D, X, NoTrace>,
            fight: &mut Fight<km::Combatant>,
            index: usize,
            who: Option<Fighter>,
        ) -> Res<bool> {
            Ok(match who {
                Some(f) => km::incapacitated(&fight[f]),
                None => index == 1 && fight.round() >= 3,
            })
        }
        fn trigger(
            &mut self,
            _: &mut Env<D, X, NoTrace>,
            _: &mut Fight<km::Combatant>,
            _: usize,
            _: Option<Fighter>,
        ) -> Res<()> {
            self.fired += 1;
            Ok(())
        }
        fn stops(
            &mut self,
            _: &mut Env<D, X, NoTrace>,
            _: &mut Fight<km::Combatant>,
            _: u32,
            _: &[i64],
        ) -> Res<bool> {
            unreachable!("this fight sets no timers")
        }
        fn copy(&mut self, _: &km::Combatant) -> km::Combatant {
            unreachable!("this fight's ties are rolled, not at once")
        }
        fn land(
            &mut self,
            _: &mut km::Combatant,
            _: &km::Combatant,
            _: &km::Combatant,
            _: u32,
        ) -> Res<()> {
            unreachable!("this fight's ties are rolled, not at once")
        }
    }
    // `n` fighters drawn from `seed` (unwounded), two sides, every initiative alike so
    // that ties are rolled; played to the end, with the allocations of its steps.
    let play = |n: usize, seed: u64| {
        let mut fight = Fight::new();
        let mut d = Draw::new(seed);
        for i in 0..n {
            let mut c = d.combatant();
            c.weapon = km::Weapon::arming_sword();
            c.wounds = Default::default();
            c.reflexes = 1;
            c.initiative_roll = 5;
            let side = if i % 2 == 0 { "Watch" } else { "Brigands" };
            fight.join(side, &format!("fighter {i}"), c);
        }
        let mut env = Env::new(
            SeededDice::new(seed),
            Policy::new(Answer::Random, seed),
            NoTrace,
        );
        let mut end = FightEnd::Undecided;
        let mut rules = Melee { fired: 0 };
        let n = allocations_during(|| end = fight.run(&mut rules, &mut env, 200));
        (n, end, fight.round(), rules.fired)
    };
    for n in [2, 3, FIGHTER_CAP] {
        let (mut longest, mut fired) = (0, 0);
        for seed in 0..10 {
            let (allocations, end, rounds, fires) = play(n, seed);
            fired += fires;
            assert_eq!(allocations, 0, "{n} fighters, seed {seed}");
            assert!(
                matches!(end, FightEnd::Won(_)),
                "{n} fighters, seed {seed}: {end:?}"
            );
            longest = longest.max(rounds);
        }
        // Fights of several rounds among them: turn order across rounds was counted.
        assert!(longest >= 3, "{n} fighters: at most {longest} rounds");
        // And triggers fired (a fighter falling, round 3): their memory was counted.
        assert!(fired >= 5, "{n} fighters: {fired} triggers fired");
    }
    // One past the cap: the engine's lists grow on the heap, and the fight still plays
    // to its end.
    let (allocations, end, _, _) = play(FIGHTER_CAP + 1, 0);
    assert!(allocations > 0);
    assert!(matches!(end, FightEnd::Won(_)), "{end:?}");
}
