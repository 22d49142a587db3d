//! The engine against small hand-written rules: who acts when, ties, timers, triggers,
//! the end.

use super::*;
use crate::{FirstOption, ScriptedDecisions, ScriptedDice, VecTrace};
use alloc::boxed::Box;
use alloc::string::ToString;
use alloc::vec;

#[derive(Debug, Clone, Default, PartialEq)]
struct C {
    init: i64,
    hp: i64,
}

type Log = Vec<String>;
type TurnFn = Box<dyn FnMut(&mut Fight<C>, Fighter, &mut Log)>;

struct Rules {
    shape: FightShape,
    log: Log,
    turn: TurnFn,
    /// Trigger 0 (per fighter): hp <= 1.
    low: bool,
    /// Bob's trigger brings Ann to 1 hp.
    cascade: bool,
    /// How many more times a firing timer sets itself again for now.
    again: u32,
    /// A repeating timer stops once Ann (fighter 0) has at most this many hit points.
    stop_at: i64,
}

fn shape(ties: Ties) -> FightShape {
    FightShape {
        ties,
        round_length: 0,
        hooks: [None, Some(false), Some(false), None, Some(false)],
        every: Cow::Borrowed(&[]),
        triggers: Cow::Borrowed(&[]),
        site: 0,
        trigger_sites: Cow::Borrowed(&[]),
        repeats: Cow::Borrowed(&[]),
    }
}

impl<D, X, T> FightRules<C, D, X, T> for Rules {
    fn shape(&self) -> &FightShape {
        &self.shape
    }
    fn key(&mut self, _: &mut Env<D, X, T>, f: &mut Fight<C>, who: Fighter) -> Res<Key> {
        Ok(Key::from_slice(&[f[who].init]))
    }
    fn is_out(&mut self, _: &mut Env<D, X, T>, f: &mut Fight<C>, who: Fighter) -> Res<bool> {
        if f[who].hp == BROKEN {
            // A rule that cannot be read for this combatant.
            return Err(RuleError::new(9, crate::RuleErrorKind::DivideByZero));
        }
        Ok(f[who].hp <= 0)
    }
    fn hook(
        &mut self,
        _: &mut Env<D, X, T>,
        f: &mut Fight<C>,
        hook: Hook,
        who: Option<Fighter>,
    ) -> Res<()> {
        match (hook, who) {
            (Hook::Turn, Some(w)) => (self.turn)(f, w, &mut self.log),
            (Hook::Every(i), _) => self.log.push(format!("every {i} at {}", f.time())),
            (h, _) => self.log.push(format!("{h:?} {}", f.round())),
        }
        Ok(())
    }
    fn fire(
        &mut self,
        _: &mut Env<D, X, T>,
        f: &mut Fight<C>,
        action: u32,
        args: &[i64],
    ) -> Res<()> {
        self.log
            .push(format!("fire {action} {args:?} at {}", f.time()));
        if self.again > 0 {
            self.again -= 1;
            let now = f.time_later(0);
            f.schedule(now, action, args.to_vec());
        }
        Ok(())
    }
    fn condition(
        &mut self,
        _: &mut Env<D, X, T>,
        f: &mut Fight<C>,
        _: usize,
        who: Option<Fighter>,
    ) -> Res<bool> {
        Ok(self.low && who.is_some_and(|w| f[w].hp <= 1))
    }
    fn trigger(
        &mut self,
        _: &mut Env<D, X, T>,
        f: &mut Fight<C>,
        _: usize,
        who: Option<Fighter>,
    ) -> Res<()> {
        let w = who.unwrap();
        self.log.push(format!("low {}", f.name(w)));
        if self.cascade && w == Fighter(1) {
            f[Fighter(0)].hp = 1;
        }
        Ok(())
    }
    fn stops(&mut self, _: &mut Env<D, X, T>, f: &mut Fight<C>, _: u32, _: &[i64]) -> Res<bool> {
        Ok(f[Fighter(0)].hp <= self.stop_at)
    }
    fn copy(&mut self, c: &C) -> C {
        c.clone()
    }
    fn land(&mut self, now: &mut C, before: &C, after: &C, site: u32) -> Res<()> {
        land::other(&mut now.init, &before.init, &after.init);
        land::ranged(&mut now.hp, before.hp, after.hp, (-5, 10), site)
    }
}

/// Hit points that make the `out` rule meet a rule error.
const BROKEN: i64 = -99;

fn fight(inits: &[(&str, &str, i64)]) -> Fight<C> {
    let mut f = Fight::new();
    for (side, name, init) in inits {
        f.join(side, name, C { init: *init, hp: 3 });
    }
    f
}

fn rules(ties: Ties, turn: impl FnMut(&mut Fight<C>, Fighter, &mut Log) + 'static) -> Rules {
    Rules {
        shape: shape(ties),
        log: Vec::new(),
        turn: Box::new(turn),
        low: false,
        cascade: false,
        again: 0,
        stop_at: i64::MIN,
    }
}

fn turns(log: &Log) -> Vec<&str> {
    log.iter().filter_map(|l| l.strip_prefix("turn ")).collect()
}

#[test]
fn highest_key_first_and_a_lowered_key_moves_among_turns_not_taken() {
    // K4: Johan (9) takes 2 Pain to 7 during the Round and acts after the 8.
    let mut f = fight(&[("A", "Johan", 9), ("A", "Mira", 8), ("B", "Brakka", 10)]);
    let mut r = rules(Ties::Together, |f, me, log| {
        log.push(format!("turn {}", f.name(me)));
        if f.name(me) == "Brakka" && f.round() == 1 {
            f[Fighter(0)].init = 7;
        }
        if f.name(me) == "Mira" && f.round() == 1 {
            // Pain relief raises Mira above everyone: no second turn this round.
            f[Fighter(1)].init = 12;
        }
    });
    let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default());
    assert_eq!(f.step(&mut r, &mut env), Step::Started);
    assert_eq!(f.step(&mut r, &mut env), Step::RoundStarted(1));
    for _ in 0..3 {
        assert!(matches!(f.step(&mut r, &mut env), Step::Turn(_)));
    }
    assert_eq!(f.step(&mut r, &mut env), Step::RoundEnded(1));
    assert_eq!(turns(&r.log), ["Brakka", "Mira", "Johan"]);
    // Round 2 uses the current keys: Mira 12, Brakka 10, Johan 7.
    f.step(&mut r, &mut env);
    for _ in 0..3 {
        f.step(&mut r, &mut env);
    }
    assert_eq!(turns(&r.log)[3..], ["Mira", "Brakka", "Johan"]);
    assert!(r.log.contains(&"RoundStart 2".to_string()));
    assert!(r.log.contains(&"RoundEnd 1".to_string()));
}

#[test]
fn in_a_tied_group_acted_is_true_only_after_a_members_own_turn_began() {
    // Ann and Bob tie; during Ann's turn Bob has not acted yet, during Bob's both have.
    let mut f = fight(&[("A", "Ann", 5), ("B", "Bob", 5), ("B", "Cid", 1)]);
    let mut r = rules(Ties::Together, |f, me, log| {
        let seen: Vec<String> = f
            .fighters()
            .map(|o| format!("{}={}", f.name(o), f.acted(o)))
            .collect();
        log.push(format!("during {}: {}", f.name(me), seen.join(" ")));
    });
    let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default());
    f.step(&mut r, &mut env);
    f.step(&mut r, &mut env);
    assert!(matches!(f.step(&mut r, &mut env), Step::Turn(g) if g.len() == 2));
    let during: Vec<&String> = r.log.iter().filter(|l| l.starts_with("during")).collect();
    assert_eq!(
        during,
        [
            "during Ann: Ann=true Bob=false Cid=false",
            "during Bob: Ann=true Bob=true Cid=false"
        ]
    );
    // Each took one turn: the next is Cid's.
    assert_eq!(
        f.step(&mut r, &mut env),
        Step::Turn(Group::from_slice(&[Fighter(2)]))
    );
}

#[test]
fn a_tied_group_acts_together_and_a_member_put_out_in_it_still_acts() {
    let mut f = fight(&[("A", "Ann", 5), ("B", "Bob", 5)]);
    let mut r = rules(Ties::Together, |f, me, log| {
        log.push(format!("turn {}", f.name(me)));
        let foe = Fighter(1 - me.0);
        f[foe].hp -= 3;
    });
    let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default());
    let end = f.run(&mut r, &mut env, 10);
    assert_eq!(
        turns(&r.log),
        ["Ann", "Bob"],
        "Bob strikes back though Ann put him out"
    );
    assert_eq!(end, FightEnd::Draw);
    let lines = env.trace.render(&[crate::Site {
        file: "f.rules".into(),
        line: 1,
        col: 1,
        text: "fight".into(),
    }]);
    assert!(lines.contains("-- turn of Ann, Bob (together)"), "{lines}");
    assert!(
        lines.contains("-- Ann is out") && lines.contains("-- Bob is out"),
        "{lines}"
    );
    assert!(
        lines.contains("no one stands: a draw in round 1"),
        "{lines}"
    );
}

#[test]
fn ties_by_roll_reroll_until_one_is_highest() {
    let mut f = fight(&[("A", "Ann", 5), ("B", "Bob", 5), ("B", "Cid", 5)]);
    let mut r = rules(Ties::Roll(DiceSpec::new(1, 6)), |f, me, log| {
        log.push(format!("turn {}", f.name(me)));
    });
    // First pick: 4, 6, 6 then Bob 2, Cid 5: Cid. Second: Ann 3, Bob 3, then 1, 2: Bob.
    let dice = ScriptedDice::new(&[4, 6, 6, 2, 5, 3, 3, 1, 2]);
    let mut env = Env::new(dice, FirstOption, VecTrace::default());
    f.step(&mut r, &mut env);
    f.step(&mut r, &mut env);
    for _ in 0..3 {
        f.step(&mut r, &mut env);
    }
    assert_eq!(turns(&r.log), ["Cid", "Bob", "Ann"]);
    assert!(env.dice.fits_exactly());
}

#[test]
fn ties_by_decision_ask_who_acts_first_among_the_tied() {
    let mut f = fight(&[("A", "Ann", 5), ("B", "Bob", 5), ("B", "Cid", 2)]);
    let mut r = rules(Ties::Decide("tie"), |f, me, log| {
        log.push(format!("turn {}", f.name(me)));
    });
    let answers = ScriptedDecisions::new().answer("tie", 1);
    let mut env = Env::new(ScriptedDice::new(&[]), answers, VecTrace::default());
    for _ in 0..5 {
        f.step(&mut r, &mut env);
    }
    assert_eq!(turns(&r.log), ["Bob", "Ann", "Cid"]);
    assert_eq!(env.decide.asked, [("tie".to_string(), 2)]);
}

#[test]
fn timers_fire_at_their_moment_in_scheduling_order_and_replace_their_twin() {
    let mut f = fight(&[("A", "Ann", 5), ("B", "Bob", 4)]);
    let mut r = rules(Ties::Together, |f, me, log| {
        log.push(format!("turn {}", f.name(me)));
        if f.round() == 1 && me == Fighter(0) {
            // "until the end of Bob's next turn", set twice: one timer.
            let at = f.turn_moment(Fighter(1), true, true);
            f.schedule(at, 1, vec![1]);
            f.schedule(at, 1, vec![1]);
            let at = f.turn_moment(Fighter(0), true, false);
            f.schedule(at, 2, vec![0]);
            let at = f.rounds_later(1);
            f.schedule(at, 3, vec![]);
        }
    });
    let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default());
    for _ in 0..6 {
        f.step(&mut r, &mut env);
    }
    let order: Vec<&str> = r
        .log
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("turn") || l.starts_with("fire") || l.starts_with("Round"))
        .collect();
    assert_eq!(
        order,
        [
            "RoundStart 1",
            "turn Ann",
            "fire 2 [0] at 0",
            "turn Bob",
            "fire 1 [1] at 0",
            "RoundEnd 1",
            "fire 3 [] at 0",
            "RoundStart 2",
        ]
    );
    assert!(f.timers().is_empty());
}

#[test]
fn advancing_time_fires_timers_and_every_hooks_in_time_order() {
    let mut f: Fight<C> = fight(&[("A", "Ann", 5)]);
    let mut r = rules(Ties::Together, |_, _, _| {});
    r.shape.every = Cow::Borrowed(&[(60, false)]);
    let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default());
    let at = f.time_later(90);
    f.schedule(at, 7, vec![]);
    let at = f.time_later(120);
    f.schedule(at, 8, vec![]);
    f.advance(&mut r, &mut env, 150).unwrap();
    assert_eq!(
        r.log,
        [
            "every 0 at 60",
            "fire 7 [] at 90",
            "fire 8 [] at 120",
            "every 0 at 120"
        ]
    );
    assert_eq!(f.time(), 150);
    f.advance(&mut r, &mut env, 29).unwrap();
    assert_eq!(r.log.len(), 4, "179: no minute passed since 120");
    f.advance(&mut r, &mut env, 1).unwrap();
    assert_eq!(r.log[4], "every 0 at 180");
}

#[test]
fn rounds_of_declared_length_move_the_clock() {
    let mut f = fight(&[("A", "Ann", 5), ("B", "Bob", 1)]);
    let mut r = rules(Ties::Together, |_, _, _| {});
    r.shape.round_length = 6;
    let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default());
    assert_eq!(f.run(&mut r, &mut env, 3), FightEnd::Undecided);
    assert_eq!((f.round(), f.time()), (3, 18));
}

#[test]
fn triggers_fire_when_their_condition_turns_true_again_after_false() {
    let mut f = fight(&[("A", "Ann", 5), ("B", "Bob", 1)]);
    let mut r = rules(Ties::Together, |f, me, _| {
        if me == Fighter(0) {
            // Round 1: Bob to 1 (fires); round 2: healed to 3; round 3: to 1 (fires again).
            f[Fighter(1)].hp = if f.round() == 2 { 3 } else { 1 };
        }
    });
    r.low = true;
    r.shape.triggers = Cow::Borrowed(&[true]);
    r.shape.trigger_sites = Cow::Borrowed(&[0]);
    let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default());
    f.run(&mut r, &mut env, 3);
    let lows: Vec<&String> = r.log.iter().filter(|l| l.starts_with("low")).collect();
    assert_eq!(lows, ["low Bob", "low Bob"]);
}

#[test]
fn a_condition_a_trigger_turns_true_fires_in_the_same_check() {
    // Ann's turn brings Bob to 1: his trigger fires and brings Ann (checked before him)
    // to 1; hers fires at once, before Bob's turn, not after it.
    let mut f = fight(&[("A", "Ann", 5), ("B", "Bob", 1)]);
    let mut r = rules(Ties::Together, |f, me, log| {
        log.push(format!("turn {}", f.name(me)));
        if me == Fighter(0) {
            f[Fighter(1)].hp = 1;
        }
    });
    r.low = true;
    r.cascade = true;
    r.shape.triggers = Cow::Borrowed(&[true]);
    r.shape.trigger_sites = Cow::Borrowed(&[0]);
    let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default());
    f.run(&mut r, &mut env, 1);
    let events: Vec<&String> = r
        .log
        .iter()
        .filter(|l| l.starts_with("low") || l.starts_with("turn"))
        .collect();
    assert_eq!(events, ["turn Ann", "low Bob", "low Ann", "turn Bob"]);
}

#[test]
fn the_last_side_standing_wins() {
    let mut f = fight(&[("A", "Ann", 5), ("B", "Bob", 1), ("B", "Cid", 1)]);
    let mut r = rules(Ties::Together, |f, me, _| {
        if me == Fighter(0) {
            for b in [1, 2] {
                if f[Fighter(b)].hp > 0 {
                    f[Fighter(b)].hp -= 2;
                    break;
                }
            }
        }
    });
    let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default());
    assert_eq!(f.run(&mut r, &mut env, 20), FightEnd::Won(Side(0)));
    assert_eq!(f.round(), 4, "two blows each for Bob and Cid");
    assert_eq!(
        f.step(&mut r, &mut env),
        Step::Ended(FightEnd::Won(Side(0)))
    );
}

#[test]
fn a_rule_error_stops_the_fight_and_is_kept() {
    let mut f = fight(&[("A", "Ann", 5), ("B", "Bob", 1)]);
    let mut r = rules(Ties::Together, |f, me, _| {
        if me == Fighter(0) {
            f[Fighter(1)].hp = BROKEN;
        }
    });
    let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default());
    assert_eq!(f.run(&mut r, &mut env, 10), FightEnd::RuleError);
    assert_eq!(f.rule_error().map(|e| e.site), Some(9));
    assert_eq!(f.round(), 1, "it stopped in the round it happened");
    assert_eq!(f.step(&mut r, &mut env), Step::Ended(FightEnd::RuleError));
}

/// The rule error one fire past [`MAX_FIRES`] meets, and its trace event.
fn too_many_fires(env: &Env<ScriptedDice, FirstOption, VecTrace>) {
    let traced = env.trace.events.iter().any(|e| {
        matches!(e, TraceEvent::RuleError { message, .. }
            if message.contains("more than 10000 timers, hooks and triggers"))
    });
    assert!(traced, "the rule error is traced: {:?}", env.trace.events);
}

#[test]
fn an_advance_past_max_fires_every_hooks_is_a_rule_error_not_a_silent_stop() {
    let mut f: Fight<C> = fight(&[("A", "Ann", 5)]);
    let mut r = rules(Ties::Together, |_, _, _| {});
    r.shape.every = Cow::Borrowed(&[(1, false)]);
    let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default());
    // Exactly MAX_FIRES instants: all fire.
    f.advance(&mut r, &mut env, i64::from(MAX_FIRES)).unwrap();
    assert_eq!(r.log.len(), MAX_FIRES as usize);
    assert_eq!(r.log.last().unwrap(), "every 0 at 10000");
    // One more than MAX_FIRES: a rule error once MAX_FIRES have fired.
    r.log.clear();
    let e = f
        .advance(&mut r, &mut env, i64::from(MAX_FIRES) + 1)
        .unwrap_err();
    assert_eq!(e.kind, RuleErrorKind::TooManyFires { max: MAX_FIRES });
    assert_eq!(r.log.len(), MAX_FIRES as usize);
    too_many_fires(&env);
}

#[test]
fn a_timer_setting_itself_for_now_past_max_fires_is_a_rule_error() {
    for (again, ok) in [(MAX_FIRES - 1, true), (MAX_FIRES, false)] {
        let mut f: Fight<C> = fight(&[("A", "Ann", 5)]);
        let mut r = rules(Ties::Together, |_, _, _| {});
        r.again = again;
        let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default());
        let at = f.time_later(1);
        f.schedule(at, 7, vec![]);
        let done = f.advance(&mut r, &mut env, 1);
        // `again` reschedulings after the first: again + 1 fires in all.
        assert_eq!(done.is_ok(), ok, "{again}: {done:?}");
        assert_eq!(r.log.len(), MAX_FIRES as usize, "{again}");
        if !ok {
            assert_eq!(
                done.unwrap_err().kind,
                RuleErrorKind::TooManyFires { max: MAX_FIRES }
            );
            too_many_fires(&env);
        }
    }
}

/// Rules whose `on every 10` hook moves world time `by` itself (the host's own rules, or
/// a ruleset's hook calling `advance`).
struct Advancing {
    shape: FightShape,
    by: i64,
    hooks: u32,
}

impl<D: DiceSource, X: Decide, T: TraceSink> FightRules<C, D, X, T> for Advancing {
    fn shape(&self) -> &FightShape {
        &self.shape
    }
    fn key(&mut self, _: &mut Env<D, X, T>, _: &mut Fight<C>, _: Fighter) -> Res<Key> {
        Ok(Key::from_slice(&[0]))
    }
    fn is_out(&mut self, _: &mut Env<D, X, T>, _: &mut Fight<C>, _: Fighter) -> Res<bool> {
        Ok(false)
    }
    fn hook(
        &mut self,
        env: &mut Env<D, X, T>,
        f: &mut Fight<C>,
        _: Hook,
        _: Option<Fighter>,
    ) -> Res<()> {
        self.hooks += 1;
        let by = self.by;
        f.advance(self, env, by)
    }
    fn fire(&mut self, _: &mut Env<D, X, T>, _: &mut Fight<C>, _: u32, _: &[i64]) -> Res<()> {
        Ok(())
    }
    fn condition(
        &mut self,
        _: &mut Env<D, X, T>,
        _: &mut Fight<C>,
        _: usize,
        _: Option<Fighter>,
    ) -> Res<bool> {
        Ok(false)
    }
    fn trigger(
        &mut self,
        _: &mut Env<D, X, T>,
        _: &mut Fight<C>,
        _: usize,
        _: Option<Fighter>,
    ) -> Res<()> {
        Ok(())
    }
    fn stops(&mut self, _: &mut Env<D, X, T>, _: &mut Fight<C>, _: u32, _: &[i64]) -> Res<bool> {
        Ok(false)
    }
    fn copy(&mut self, c: &C) -> C {
        c.clone()
    }
    fn land(&mut self, now: &mut C, _: &C, after: &C, _: u32) -> Res<()> {
        *now = after.clone();
        Ok(())
    }
}

#[test]
fn an_advance_nested_past_max_advance_depth_is_a_rule_error_not_a_stack_overflow() {
    let advancing = |by| Advancing {
        shape: FightShape {
            every: Cow::Borrowed(&[(10, false)]),
            site: 4,
            ..shape(Ties::Together)
        },
        by,
        hooks: 0,
    };
    // A hook moving time past its own next period runs itself inside itself, forever:
    // the advance MAX_ADVANCE_DEPTH deep stops it (each level ran the hook once).
    let mut f: Fight<C> = fight(&[("A", "Ann", 5)]);
    let mut r = advancing(10);
    let mut env = Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default());
    let e = f.advance(&mut r, &mut env, 10).unwrap_err();
    assert_eq!(
        e.kind,
        RuleErrorKind::TooDeep {
            max: MAX_ADVANCE_DEPTH
        }
    );
    assert_eq!(e.site, 4);
    assert_eq!(r.hooks, MAX_ADVANCE_DEPTH);
    let traced = env.trace.events.iter().filter(|e| {
        matches!(e, TraceEvent::RuleError { message, .. }
            if message == "advance nested more than 8 deep: what an advance runs advances again")
    });
    assert_eq!(traced.count(), 1, "traced once: {:?}", env.trace.events);
    // Every level has unwound: the fight can advance again (and meets the same bound).
    let e = f.advance(&mut r, &mut env, 10).unwrap_err();
    assert_eq!(
        e.kind,
        RuleErrorKind::TooDeep {
            max: MAX_ADVANCE_DEPTH
        }
    );
    assert_eq!(r.hooks, 2 * MAX_ADVANCE_DEPTH);
    // A hook moving time less than its period nests once and ends.
    let mut f: Fight<C> = fight(&[("A", "Ann", 5)]);
    let mut r = advancing(3);
    f.advance(&mut r, &mut env, 30).unwrap();
    assert_eq!(r.hooks, 3);
    assert_eq!(f.time(), 33);
}

/// Ann and Bob tie at 5 and act at once; Cid (1) acts after them.
fn at_once(
    hp: [i64; 3],
    turn: impl FnMut(&mut Fight<C>, Fighter, &mut Log) + 'static,
) -> (Fight<C>, Rules) {
    let mut f = fight(&[("A", "Ann", 5), ("B", "Bob", 5), ("B", "Cid", 1)]);
    for (c, hp) in f.combatants.iter_mut().zip(hp) {
        c.hp = hp;
    }
    (f, rules(Ties::AtOnce, turn))
}

fn env() -> Env<ScriptedDice, FirstOption, VecTrace> {
    Env::new(ScriptedDice::new(&[]), FirstOption, VecTrace::default())
}

fn rendered(env: &Env<ScriptedDice, FirstOption, VecTrace>) -> String {
    env.trace.render(&[crate::Site {
        file: "f.rules".into(),
        line: 1,
        col: 1,
        text: "fight".into(),
    }])
}

#[test]
fn at_once_two_fighters_who_would_each_drop_the_other_both_land_and_both_are_out() {
    // Each sees the other standing at 3 and deals 3: both blows land, a draw.
    let (mut f, mut r) = at_once([3, 3, 0], |f, me, log| {
        let foe = Fighter(1 - me.0);
        log.push(format!(
            "turn {} sees {} at {}, itself at {}",
            f.name(me),
            f.name(foe),
            f[foe].hp,
            f[me].hp
        ));
        f[foe].hp -= 3;
    });
    let mut env = env();
    assert_eq!(f.run(&mut r, &mut env, 10), FightEnd::Draw);
    assert_eq!(
        turns(&r.log),
        [
            "Ann sees Bob at 3, itself at 3",
            "Bob sees Ann at 3, itself at 3"
        ]
    );
    assert_eq!((f[Fighter(0)].hp, f[Fighter(1)].hp), (0, 0));
    let lines = rendered(&env);
    assert!(lines.contains("-- turn of Ann, Bob (at once)"), "{lines}");
    assert!(
        lines.contains("no one stands: a draw in round 1"),
        "{lines}"
    );
}

#[test]
fn at_once_numbers_land_as_changes_summed_and_other_fields_the_later_joiners() {
    // Ann takes 4 from Cid and sets his key to 7, Bob takes 5 and sets it to 8.
    let (mut f, mut r) = at_once([10, 10, 10], |f, me, _| {
        if f.round() == 1 && me.0 < 2 {
            let cid = Fighter(2);
            f[cid].hp -= 4 + i64::from(me.0);
            f[cid].init = 7 + i64::from(me.0);
        }
    });
    let mut env = env();
    f.step(&mut r, &mut env);
    f.step(&mut r, &mut env);
    assert_eq!(
        f.step(&mut r, &mut env),
        Step::Turn(Group::from_slice(&[Fighter(0), Fighter(1)]))
    );
    assert_eq!(f[Fighter(2)], C { init: 8, hp: 1 });
    // One change alone lands as it was made.
    assert_eq!((f[Fighter(0)].hp, f[Fighter(1)].hp), (10, 10));
}

#[test]
fn at_once_a_sum_outside_a_ranged_field_is_a_rule_error_at_the_landing() {
    // Cid's hp is `int(-5..10)`: 3 - 4 - 4 = -5 lands, 3 - 4 - 5 = -6 does not.
    for (second, lands) in [(4, true), (5, false)] {
        let (mut f, mut r) = at_once([10, 10, 3], move |f, me, _| {
            if me.0 < 2 {
                f[Fighter(2)].hp -= if me.0 == 0 { 4 } else { second };
            }
        });
        let mut env = env();
        f.step(&mut r, &mut env);
        f.step(&mut r, &mut env);
        let step = f.step(&mut r, &mut env);
        if lands {
            assert_eq!(f[Fighter(2)].hp, -5);
            assert!(matches!(step, Step::Turn(_)), "{step:?}");
        } else {
            assert_eq!(step, Step::Ended(FightEnd::RuleError));
            assert_eq!(
                f.rule_error().map(|e| &e.kind),
                Some(&crate::RuleErrorKind::OutOfRange {
                    value: -6,
                    lo: -5,
                    hi: 10
                })
            );
            // Ann's blow landed; Bob's, which would pass the range, did not.
            assert_eq!(f[Fighter(2)].hp, -1);
            assert!(rendered(&env).contains("rule error"), "{}", rendered(&env));
        }
    }
}

#[test]
fn at_once_acted_sees_the_state_before_the_group_and_all_are_marked_after() {
    let (mut f, mut r) = at_once([3, 3, 3], |f, me, log| {
        let seen: Vec<String> = f
            .fighters()
            .map(|o| format!("{}={}", f.name(o), f.acted(o)))
            .collect();
        log.push(format!("during {}: {}", f.name(me), seen.join(" ")));
    });
    let mut env = env();
    f.step(&mut r, &mut env);
    f.step(&mut r, &mut env);
    f.step(&mut r, &mut env);
    let during: Vec<&String> = r.log.iter().filter(|l| l.starts_with("during")).collect();
    assert_eq!(
        during,
        [
            "during Ann: Ann=true Bob=false Cid=false",
            "during Bob: Ann=false Bob=true Cid=false"
        ]
    );
    assert!(f.acted(Fighter(0)) && f.acted(Fighter(1)) && !f.acted(Fighter(2)));
    assert_eq!(
        f.step(&mut r, &mut env),
        Step::Turn(Group::from_slice(&[Fighter(2)]))
    );
}

#[test]
fn a_lone_fighter_under_at_once_takes_an_ordinary_turn() {
    let (mut f, mut r) = at_once([3, 3, 3], |_, _, _| {});
    let mut env = env();
    for _ in 0..4 {
        f.step(&mut r, &mut env);
    }
    let lines = rendered(&env);
    assert!(lines.contains("-- turn of Cid\n"), "{lines}");
}

/// The round each `fire 4` happened in: timers due at a round's start fire before its
/// `RoundStart n` hook, so the one after it.
fn fired_in_rounds(log: &Log) -> Vec<u32> {
    let mut started = 0;
    let mut out = Vec::new();
    for l in log {
        if l.starts_with("RoundStart ") {
            started += 1;
        }
        if l.starts_with("fire 4 ") {
            out.push(started + 1);
        }
    }
    out
}

#[test]
fn a_repeating_timer_fires_every_third_round_until_its_condition_holds() {
    // Set before round 1 for 3 rounds later: rounds 3 and 6; Ann drops to 1 hp in
    // round 7, so at round 9 it stops, unfired.
    let mut f = fight(&[("A", "Ann", 5), ("B", "Bob", 4)]);
    let mut r = rules(Ties::Together, |f, me, _| {
        if f.round() == 7 && me == Fighter(0) {
            f[me].hp = 1;
        }
    });
    r.stop_at = 1;
    r.shape.repeats = Cow::Borrowed(&[Repeat {
        action: 4,
        every: Period::Rounds(3),
        site: 0,
    }]);
    let at = f.rounds_later(3);
    f.schedule(at, 4, vec![0]);
    let mut env = env();
    assert_eq!(f.run(&mut r, &mut env, 12), FightEnd::Undecided);
    assert_eq!(fired_in_rounds(&r.log), [3, 6]);
    assert!(f.timers().is_empty(), "stopped: not set again");
    let lines = rendered(&env);
    assert_eq!(lines.matches("fight: stops").count(), 1, "{lines}");
    assert!(
        lines.contains("round 9\nf.rules:1  fight: stops"),
        "{lines}"
    );
}

#[test]
fn a_repeating_timer_of_world_time_fires_each_period_an_advance_passes() {
    let mut f = fight(&[("A", "Ann", 5)]);
    let mut r = rules(Ties::Together, |_, _, _| {});
    r.shape.repeats = Cow::Borrowed(&[Repeat {
        action: 4,
        every: Period::Time(60),
        site: 0,
    }]);
    let at = f.time_later(60);
    f.schedule(at, 4, vec![]);
    let mut env = env();
    f.advance(&mut r, &mut env, 179).unwrap();
    f.advance(&mut r, &mut env, 1).unwrap();
    assert_eq!(
        r.log,
        ["fire 4 [] at 60", "fire 4 [] at 120", "fire 4 [] at 180"]
    );
    assert_eq!(f.timers()[0].at, Moment::Time(240));
}

#[test]
fn a_repeating_timer_of_period_zero_is_a_rule_error_not_a_hang() {
    // The checker refuses `every 0 rounds`; the engine still stops such a timer.
    let mut f = fight(&[("A", "Ann", 5)]);
    let mut r = rules(Ties::Together, |_, _, _| {});
    r.shape.repeats = Cow::Borrowed(&[Repeat {
        action: 4,
        every: Period::Time(0),
        site: 0,
    }]);
    let at = f.time_later(10);
    f.schedule(at, 4, vec![]);
    let mut env = env();
    let e = f.advance(&mut r, &mut env, 10).unwrap_err();
    assert_eq!(
        e.kind,
        crate::RuleErrorKind::TooManyFires { max: MAX_FIRES }
    );
}

#[test]
fn at_once_timers_set_in_the_group_wait_for_the_landing_and_fire_if_their_moment_passed() {
    // Ann and Bob act at once, so each one's turn in the group is under way for the
    // other, whoever the engine runs first: "the end of the turn of" the other is the
    // end of the group (fired once the turns have landed, in the order set, not inside
    // Bob's turn); "the end of the next turn of" the other is the other's next round's.
    let (mut f, mut r) = at_once([3, 3, 3], |f, me, log| {
        log.push(format!("turn {}", f.name(me)));
        if f.round() != 1 || me.0 > 1 {
            return;
        }
        let other = Fighter(1 - me.0);
        let (next, this) = if me.0 == 0 { (1, 2) } else { (4, 3) };
        let at = f.turn_moment(other, true, true);
        f.schedule(at, next, vec![]);
        let at = f.turn_moment(other, true, false);
        f.schedule(at, this, vec![]);
    });
    // The `turn end` hook marks where each turn ends.
    r.shape.hooks[3] = Some(false);
    let mut env = env();
    f.step(&mut r, &mut env);
    f.step(&mut r, &mut env);
    assert_eq!(
        f.step(&mut r, &mut env),
        Step::Turn(Group::from_slice(&[Fighter(0), Fighter(1)]))
    );
    let seen = |log: &Log| -> Vec<String> {
        log.iter()
            .filter(|l| l.starts_with("turn") || l.starts_with("fire") || l.starts_with("TurnEnd"))
            .cloned()
            .collect()
    };
    assert_eq!(
        seen(&r.log),
        [
            "turn Ann",
            "TurnEnd 1",
            "turn Bob",
            "TurnEnd 1",
            "fire 2 [] at 0",
            "fire 3 [] at 0"
        ]
    );
    let pending: Vec<(u32, Moment)> = f.timers().iter().map(|t| (t.action, t.at)).collect();
    assert_eq!(
        pending,
        [
            (1, Moment::TurnEnd(Fighter(1), 2)),
            (4, Moment::TurnEnd(Fighter(0), 2))
        ]
    );
    // Cid's turn, then round 2: each fires at the end of its fighter's turn, inside the
    // group (set before it, so not held).
    r.log.clear();
    for _ in 0..5 {
        f.step(&mut r, &mut env);
    }
    assert_eq!(
        seen(&r.log),
        [
            "turn Cid",
            "TurnEnd 1",
            "turn Ann",
            "fire 4 [] at 0",
            "TurnEnd 2",
            "turn Bob",
            "fire 1 [] at 0",
            "TurnEnd 2",
            "turn Cid",
            "TurnEnd 2"
        ]
    );
    assert!(f.timers().is_empty());
}
