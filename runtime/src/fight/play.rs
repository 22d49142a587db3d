//! The fight engine: rounds and turns in order, ties, hooks, timers, triggers, world
//! time and the end; generic over the rules, so both backends share it.

use super::*;

/// The fight engine. Generic over the rules, so both backends share it.
impl<C> Fight<C> {
    /// Runs the fight to its end, or until `max_rounds` rounds have been played.
    pub fn run<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
        max_rounds: u32,
    ) -> FightEnd
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        loop {
            if let Step::Ended(end) = self.step_within(rules, env, max_rounds) {
                return end;
            }
        }
    }

    /// [`Fight::step`], the fight ending undecided instead of starting a round past
    /// `max_rounds` (what [`Fight::run`] does step by step, for a caller that watches
    /// each step).
    pub fn step_within<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
        max_rounds: u32,
    ) -> Step
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        if self.phase == Phase::BetweenRounds && self.round >= max_rounds {
            let site = rules.shape().site;
            trace(env, site, || format!("round limit {max_rounds}: undecided"));
            return self.end_with(FightEnd::Undecided);
        }
        self.step(rules, env)
    }

    /// Plays the next step: the start, a round's start, one turn (or one group acting
    /// together), or a round's end.
    pub fn step<D, X, T, R>(&mut self, rules: &mut R, env: &mut Env<D, X, T>) -> Step
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        match self.try_step(rules, env) {
            Ok(step) => step,
            Err(e) => {
                // The procedure that met it has traced it; the fight stops here.
                let site = rules.shape().site;
                trace(env, site, || String::from("a rule error stops the fight"));
                self.error = Some(e);
                self.end_with(FightEnd::RuleError)
            }
        }
    }

    fn try_step<D, X, T, R>(&mut self, rules: &mut R, env: &mut Env<D, X, T>) -> Res<Step>
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        Ok(match self.phase {
            Phase::Ended(end) => Step::Ended(end),
            Phase::NotStarted => {
                self.phase = Phase::BetweenRounds;
                self.run_hook(rules, env, Hook::Start, None)?;
                self.settle(rules, env)?.unwrap_or(Step::Started)
            }
            Phase::BetweenRounds => {
                self.round = self.round.saturating_add(1);
                self.acted.iter_mut().for_each(|a| *a = false);
                self.phase = Phase::InRound;
                let site = rules.shape().site;
                let round = self.round;
                trace(env, site, || format!("round {round}"));
                self.fire_due(rules, env, |m| m == Moment::RoundStart(round))?;
                self.run_hook(rules, env, Hook::RoundStart, None)?;
                self.settle(rules, env)?
                    .unwrap_or(Step::RoundStarted(self.round))
            }
            Phase::InRound => match self.next_group(rules, env)? {
                Some(group) => {
                    self.take_turns(rules, env, &group)?;
                    self.settle(rules, env)?.unwrap_or(Step::Turn(group))
                }
                None => {
                    let round = self.round;
                    self.fire_due(rules, env, |m| m == Moment::RoundEnd(round))?;
                    self.run_hook(rules, env, Hook::RoundEnd, None)?;
                    let length = rules.shape().round_length;
                    if length > 0 {
                        self.advance(rules, env, length)?;
                    }
                    self.phase = Phase::BetweenRounds;
                    self.settle(rules, env)?.unwrap_or(Step::RoundEnded(round))
                }
            },
        })
    }

    /// Checks triggers, traces fighters newly out, and ends the fight if at most one
    /// side stands. `Some` when it ended. The fight is calm meanwhile ([`Fight::calm`]),
    /// but for the procedures of the triggers that fire.
    fn settle<D, X, T, R>(&mut self, rules: &mut R, env: &mut Env<D, X, T>) -> Res<Option<Step>>
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        self.begin_calm();
        let settled = self.settle_calmly(rules, env);
        self.end_calm();
        settled
    }

    fn settle_calmly<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
    ) -> Res<Option<Step>>
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        self.check_triggers(rules, env)?;
        let site = rules.shape().site;
        let mut standing: SmallList<Side, FIGHTER_CAP> = SmallList::new();
        for f in 0..self.len() {
            let f = Fighter(f as u32);
            if rules.is_out(env, self, f)? {
                if !self.traced_out[f.index()] {
                    self.traced_out[f.index()] = true;
                    trace(env, site, || format!("{} is out", self.name(f)));
                }
            } else {
                self.traced_out[f.index()] = false;
                let s = self.side(f);
                if !standing.contains(&s) {
                    standing.push(s);
                }
            }
        }
        let end = match &standing[..] {
            [] => FightEnd::Draw,
            [s] => FightEnd::Won(*s),
            _ => return Ok(None),
        };
        trace(env, site, || match end {
            FightEnd::Won(s) => format!("{} wins in round {}", self.side_name(s), self.round),
            _ => format!("no one stands: a draw in round {}", self.round),
        });
        Ok(Some(self.end_with(end)))
    }

    fn check_triggers<D, X, T, R>(&mut self, rules: &mut R, env: &mut Env<D, X, T>) -> Res<()>
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        let triggers = rules.shape().triggers.len();
        if self.seen_triggers != triggers {
            self.seen = SmallList::new();
            self.seen_triggers = triggers;
        }
        let mut fired = 0u32;
        // Pass after pass while some trigger fired: a trigger's procedure may turn another
        // condition true (a morale test that takes a fighter out halves a side), and that
        // one fires now, not after the next turn.
        loop {
            let fired_before = fired;
            for i in 0..triggers {
                let each = rules.shape().triggers[i];
                // Every fighter for a per-fighter trigger, else once, fight-wide.
                let whos = if each { self.len() } else { 1 };
                for k in 0..whos {
                    let who = each.then_some(Fighter(k as u32));
                    if let Some(f) = who {
                        if rules.is_out(env, self, f)? {
                            continue;
                        }
                    }
                    let slot = who.map_or(0, |f| f.index() + 1);
                    let now = rules.condition(env, self, i, who)?;
                    let before = self.saw(slot * triggers + i, now);
                    if now && !before {
                        // One site per trigger (`FightShape::trigger_sites`).
                        let site = rules.shape().trigger_sites[i];
                        if fired >= MAX_FIRES {
                            return Err(too_many_fires(env, site));
                        }
                        fired += 1;
                        if T::ENABLED {
                            let what = who.map(|f| String::from(self.name(f))).unwrap_or_default();
                            env.trace.event(TraceEvent::Fight {
                                site,
                                what,
                                cite: true,
                            });
                        }
                        // The procedure may change anything: what `out` said before
                        // it is forgotten.
                        self.end_calm();
                        rules.trigger(env, self, i, who)?;
                        self.begin_calm();
                    }
                }
            }
            if fired == fired_before {
                break;
            }
        }
        Ok(())
    }

    /// Records `now` as trigger condition bit `bit` (see `Fight::seen`) and gives what
    /// it was before (false the first time).
    fn saw(&mut self, bit: usize, now: bool) -> bool {
        let (word, mask) = (bit / 64, 1u64 << (bit % 64));
        while self.seen.len() <= word {
            self.seen.push(0);
        }
        let before = self.seen[word] & mask != 0;
        if now {
            self.seen[word] |= mask;
        } else {
            self.seen[word] &= !mask;
        }
        before
    }

    /// Runs a hook: once, or (declared per fighter) for each fighter not out in turn
    /// order. Nothing if the fight does not declare it.
    fn run_hook<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
        hook: Hook,
        who: Option<Fighter>,
    ) -> Res<()>
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        let declared = match hook {
            Hook::Start => rules.shape().hooks[0],
            Hook::RoundStart => rules.shape().hooks[1],
            Hook::Turn => rules.shape().hooks[2],
            Hook::TurnEnd => rules.shape().hooks[3],
            Hook::RoundEnd => rules.shape().hooks[4],
            Hook::Every(i) => rules.shape().every.get(usize::from(i)).map(|e| e.1),
        };
        match (declared, who) {
            (None, _) => Ok(()),
            (Some(_), Some(f)) => rules.hook(env, self, hook, Some(f)),
            (Some(true), None) => {
                let all: Group = self.fighters().collect();
                for &f in self.ordered(rules, env, &all)?.iter() {
                    if !rules.is_out(env, self, f)? {
                        rules.hook(env, self, hook, Some(f))?;
                    }
                }
                Ok(())
            }
            (Some(false), None) => rules.hook(env, self, hook, None),
        }
    }

    /// `list` ordered by the turn-order key, highest first; equal keys keep their order
    /// in `list`.
    #[doc(hidden)]
    pub fn in_order<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
        list: &[Fighter],
    ) -> Res<Vec<Fighter>>
    where
        R: FightRules<C, D, X, T>,
    {
        Ok(self.ordered(rules, env, list)?.to_vec())
    }

    /// [`Fight::in_order`] without allocating up to [`FIGHTER_CAP`] fighters: the keys
    /// are held inline while the fighters are sorted (past the cap, on the heap).
    fn ordered<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
        list: &[Fighter],
    ) -> Res<Group>
    where
        R: FightRules<C, D, X, T>,
    {
        let mut inline: [Key; FIGHTER_CAP];
        let mut heap: Vec<Key>;
        let keys: &mut [Key] = if list.len() <= FIGHTER_CAP {
            inline = core::array::from_fn(|_| Key::new());
            &mut inline[..list.len()]
        } else {
            heap = list.iter().map(|_| Key::new()).collect();
            &mut heap
        };
        for (key, &f) in keys.iter_mut().zip(list) {
            *key = rules.key(env, self, f)?;
        }
        let mut order: SmallList<usize, FIGHTER_CAP> = (0..list.len()).collect();
        // Unstable, but the position breaks ties, so the order is the stable one.
        order.sort_unstable_by(|&a, &b| keys[b].cmp(&keys[a]).then(a.cmp(&b)));
        Ok(order.iter().map(|&i| list[i]).collect())
    }

    /// The next turn of this round: the highest key among those not out and not acted,
    /// ties settled by the fight's rule. `None` when everyone has acted.
    fn next_group<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
    ) -> Res<Option<Group>>
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        let mut best: Option<Key> = None;
        let mut group = Group::new();
        for f in 0..self.len() {
            let f = Fighter(f as u32);
            if self.acted(f) || rules.is_out(env, self, f)? {
                continue;
            }
            let key = rules.key(env, self, f)?;
            match &best {
                Some(b) if key < *b => {}
                Some(b) if key == *b => group.push(f),
                _ => {
                    best = Some(key);
                    group = Group::from_slice(&[f]);
                }
            }
        }
        if group.len() <= 1 {
            return Ok(if group.is_empty() { None } else { Some(group) });
        }
        let site = rules.shape().site;
        Ok(Some(match rules.shape().ties {
            Ties::Together | Ties::AtOnce => group,
            Ties::Roll(die) => {
                let mut tied = group;
                let mut tries = 0;
                while tied.len() > 1 && tries < MAX_TIE_ROLLS {
                    tries += 1;
                    let rolls: SmallList<i64, FIGHTER_CAP> = tied
                        .iter()
                        .map(|_| dice::roll(&mut env.dice, die, &mut env.trace, site).total)
                        .collect();
                    let top = rolls.iter().copied().max().unwrap_or(0);
                    tied = tied
                        .iter()
                        .zip(&rolls)
                        .filter(|(_, &r)| r == top)
                        .map(|(f, _)| *f)
                        .collect();
                }
                Group::from_slice(&tied[..1])
            }
            Ties::Decide(name) => {
                let n = group.len() as u32;
                let i = env.decide.decide(name, n).min(n - 1);
                let chosen = group[i as usize];
                if T::ENABLED {
                    env.trace.event(TraceEvent::Decide {
                        site,
                        choice: self.name(chosen).into(),
                    });
                }
                Group::from_slice(&[chosen])
            }
        }))
    }

    /// Takes the turns of `group` (one fighter, or several acting together).
    fn take_turns<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
        group: &[Fighter],
    ) -> Res<()>
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        let at_once = group.len() > 1 && rules.shape().ties == Ties::AtOnce;
        if T::ENABLED {
            let names: Vec<&str> = group.iter().map(|&f| self.name(f)).collect();
            let line = if at_once {
                format!("turn of {} (at once)", names.join(", "))
            } else if names.len() > 1 {
                format!("turn of {} (together)", names.join(", "))
            } else {
                format!("turn of {}", names.join(""))
            };
            trace(env, rules.shape().site, || line);
        }
        if at_once {
            return self.take_turns_at_once(rules, env, group);
        }
        // Each is marked as its own turn begins, so `acted(c)` says whether `c` has had
        // its turn: a member later in the group has not, while the others act. The
        // group was chosen whole, so each still takes exactly this one turn.
        for &f in group {
            self.mark_acted(f);
            self.take_turn(rules, env, f)?;
        }
        Ok(())
    }

    /// The turns of a group acting at once ([`Ties::AtOnce`]): each member's turn runs, in
    /// the order they joined, from the combatants as they were before the group, and
    /// sees the others' `acted` as it was then (its own true from its turn's start); world
    /// time and turn counts go on from turn to turn, and every member's turn counts as
    /// under way for the moments timers are set for ([`Fight::turn_moment`]). Each turn
    /// lands on that state as it ends, in joining order ([`super::land`]); then every
    /// member is marked acted, and the timers the turns set (held till now) fire if their
    /// moment has passed. A rule error in a turn stops the group there: the turns taken,
    /// that one's as far as it went, land first.
    fn take_turns_at_once<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
        group: &[Fighter],
    ) -> Res<()>
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        // Three copies of the combatants at most, whatever the group's size: the state
        // before the group, the changes landed so far, and the turn under way.
        let before: Vec<C> = self.combatants.iter().map(|c| rules.copy(c)).collect();
        let mut landed: Vec<C> = before.iter().map(|c| rules.copy(c)).collect();
        let acted: Vec<bool> = group.iter().map(|&f| self.acted(f)).collect();
        let site = rules.shape().site;
        let held_after = self.seq;
        self.held_after = Some(held_after);
        self.at_once = group
            .iter()
            .map(|&f| (f, self.turns_taken(f).saturating_add(1)))
            .collect();
        let mut result = Ok(());
        for (i, &f) in group.iter().enumerate() {
            if i > 0 {
                self.combatants = before.iter().map(|c| rules.copy(c)).collect();
                for (&g, &a) in group.iter().zip(&acted) {
                    if let Some(slot) = self.acted.get_mut(g.index()) {
                        *slot = a;
                    }
                }
            }
            self.mark_acted(f);
            // A turn a rule error stopped lands as far as it went, then the error stops
            // the fight.
            result = self.take_turn(rules, env, f);
            for ((now, was), after) in landed.iter_mut().zip(&before).zip(&self.combatants) {
                if let Err(e) = rules.land(now, was, after, site) {
                    result = result.and(Err(crate::error::fail(&mut env.trace, e)));
                    break;
                }
            }
            if result.is_err() {
                break;
            }
        }
        self.combatants = landed;
        self.held_after = None;
        self.at_once.clear();
        for &f in group {
            self.mark_acted(f);
        }
        result?;
        // The timers the turns set fire now if their moment has passed: the start or end
        // of a turn taken in the group (a duration "until the end of its next turn" set
        // on a member acting later in the group), or a time an `advance` reached.
        let turns = self.turns.clone();
        let time = self.time;
        self.fire_where(rules, env, |t| {
            t.seq > held_after
                && match t.at {
                    Moment::TurnStart(f, n) | Moment::TurnEnd(f, n) => {
                        turns.get(f.index()).is_some_and(|&taken| n <= taken)
                    }
                    Moment::Time(at) => at <= time,
                    Moment::RoundStart(_) | Moment::RoundEnd(_) => false,
                }
        })
    }

    /// One fighter's turn: timers due at its start, the `turn` hook, timers due at its
    /// end, the `turn end` hook. Also what an interruption runs ("takes a full turn").
    #[doc(hidden)]
    pub fn take_turn<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
        f: Fighter,
    ) -> Res<()>
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        let Some(n) = self.turns.get_mut(f.index()) else {
            return Ok(());
        };
        *n = n.saturating_add(1);
        let n = *n;
        if let Some(log) = &mut self.turn_log {
            log.push(f);
        }
        self.acting.push(f);
        self.fire_due(rules, env, |m| m == Moment::TurnStart(f, n))?;
        self.run_hook(rules, env, Hook::Turn, Some(f))?;
        self.fire_due(rules, env, |m| m == Moment::TurnEnd(f, n))?;
        self.run_hook(rules, env, Hook::TurnEnd, Some(f))?;
        if let Some(i) = self.acting.iter().rposition(|&a| a == f) {
            self.acting.remove(i);
        }
        Ok(())
    }

    /// Fires every timer whose moment satisfies `due`, in scheduling order (timers they
    /// set for the same moment fire too; more than [`MAX_FIRES`] is a rule error).
    fn fire_due<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
        due: impl Fn(Moment) -> bool,
    ) -> Res<()>
    where
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        self.fire_where(rules, env, |t| due(t.at))
    }

    /// [`Fight::fire_due`] of the timers `due` takes, but those held while a group acts
    /// at once.
    fn fire_where<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
        due: impl Fn(&Timer) -> bool,
    ) -> Res<()>
    where
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        let mut fired = 0;
        while let Some(i) = self
            .timers
            .iter()
            .enumerate()
            .filter(|(_, t)| due(t) && !matches!(self.held_after, Some(s) if t.seq > s))
            .min_by_key(|(_, t)| t.seq)
            .map(|(i, _)| i)
        {
            if fired >= MAX_FIRES {
                return Err(too_many_fires(env, rules.shape().site));
            }
            let t = self.timers.remove(i);
            fired += 1;
            let repeat = rules
                .shape()
                .repeats
                .iter()
                .find(|r| r.action == t.action)
                .copied();
            if let Some(r) = repeat {
                if rules.stops(env, self, t.action, &t.args)? {
                    if T::ENABLED {
                        env.trace.event(TraceEvent::Fight {
                            site: r.site,
                            what: String::from("stops"),
                            cite: true,
                        });
                    }
                    continue;
                }
                let next = self.period_after(t.at, r.every);
                self.schedule(next, t.action, t.args.clone());
            }
            rules.fire(env, self, t.action, &t.args)?;
        }
        Ok(())
    }

    /// The moment one `period` after `at`, when a repeating timer due at `at` is set
    /// again (from now, for a moment of another kind).
    fn period_after(&self, at: Moment, period: Period) -> Moment {
        match (at, period) {
            (Moment::RoundStart(r), Period::Rounds(n)) => Moment::RoundStart(r.saturating_add(n)),
            (Moment::Time(t), Period::Time(n)) => Moment::Time(t.saturating_add(n.max(0))),
            (_, Period::Rounds(n)) => self.rounds_later(i64::from(n)),
            (_, Period::Time(n)) => self.time_later(n),
        }
    }

    /// Moves world time forward by `amount`: the timers and `on every` hooks due on the
    /// way fire in time order (at one instant: timers in scheduling order, then the
    /// `every` hooks in declaration order). What they run may `advance` again, at most
    /// [`MAX_ADVANCE_DEPTH`] deep: one more is [`RuleErrorKind::TooDeep`], before
    /// anything moves.
    #[doc(hidden)]
    pub fn advance<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
        amount: i64,
    ) -> Res<()>
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        if self.advancing >= MAX_ADVANCE_DEPTH {
            let e = RuleError::new(
                rules.shape().site,
                RuleErrorKind::TooDeep {
                    max: MAX_ADVANCE_DEPTH,
                },
            );
            return Err(crate::error::fail(&mut env.trace, e));
        }
        self.advancing += 1;
        let done = self.advance_by(rules, env, amount);
        self.advancing -= 1;
        done
    }

    fn advance_by<D, X, T, R>(
        &mut self,
        rules: &mut R,
        env: &mut Env<D, X, T>,
        amount: i64,
    ) -> Res<()>
    where
        D: DiceSource,
        X: Decide,
        T: TraceSink,
        R: FightRules<C, D, X, T>,
    {
        let target = self.time.saturating_add(amount.max(0));
        let mut fired = 0;
        loop {
            // Timers held while a group acts at once wait for its landing.
            let next_timer = self
                .timers
                .iter()
                .filter(|t| !matches!(self.held_after, Some(s) if t.seq > s))
                .filter_map(|t| match t.at {
                    Moment::Time(at) if at <= target => Some(at),
                    _ => None,
                })
                .min();
            let done = self.every_done;
            let next_every = rules
                .shape()
                .every
                .iter()
                .filter(|(p, _)| *p > 0)
                .map(|(p, _)| next_multiple(done, *p))
                .filter(|&at| at <= target)
                .min();
            let at = match (next_timer, next_every) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => break,
            };
            if fired >= MAX_FIRES {
                return Err(too_many_fires(env, rules.shape().site));
            }
            fired += 1;
            self.time = self.time.max(at);
            if next_timer == Some(at) {
                let now = self.time;
                self.fire_due(rules, env, |m| matches!(m, Moment::Time(t) if t <= now))?;
                continue;
            }
            let every: SmallList<usize, FIGHTER_CAP> = rules
                .shape()
                .every
                .iter()
                .enumerate()
                .filter(|(_, (p, _))| *p > 0 && next_multiple(done, *p) == at)
                .map(|(i, _)| i)
                .collect();
            self.every_done = at;
            for &i in every.iter() {
                self.run_hook(
                    rules,
                    env,
                    Hook::Every(i.min(usize::from(u16::MAX)) as u16),
                    None,
                )?;
            }
        }
        self.time = target.max(self.time);
        self.every_done = self.every_done.max(target);
        Ok(())
    }
}

/// `list` ordered by `key`, highest first; equal keys keep their order in `list`. What
/// generated code runs for `in_order(..)` (the engine's own [`Fight::in_order`] goes
/// through the rules).
pub fn in_order<C, E>(
    fight: &Fight<C>,
    list: &[Fighter],
    key: impl Fn(&Fight<C>, Fighter) -> Result<Vec<i64>, E>,
) -> Result<Vec<Fighter>, E> {
    let mut keyed: Vec<(Vec<i64>, Fighter)> = Vec::with_capacity(list.len());
    for &f in list {
        keyed.push((key(fight, f)?, f));
    }
    keyed.sort_by(|a, b| b.0.cmp(&a.0));
    Ok(keyed.into_iter().map(|(_, f)| f).collect())
}

/// The smallest multiple of `p` strictly greater than `t`.
fn next_multiple(t: i64, p: i64) -> i64 {
    let q = t.div_euclid(p);
    q.saturating_add(1).saturating_mul(p)
}

/// The rule error for one fire past [`MAX_FIRES`], recorded in the trace where the engine
/// meets it (no procedure of the rules does), so both backends trace it alike.
fn too_many_fires<D, X, T: TraceSink>(env: &mut Env<D, X, T>, site: u32) -> RuleError {
    let e = RuleError::new(site, RuleErrorKind::TooManyFires { max: MAX_FIRES });
    crate::error::fail(&mut env.trace, e)
}

/// A fight event in the trace, its text made only when the trace records anything (a
/// fight under `NoTrace` formats nothing and allocates nothing for its trace).
fn trace<D, X, T: TraceSink>(env: &mut Env<D, X, T>, site: u32, what: impl FnOnce() -> String) {
    if T::ENABLED {
        env.trace.event(TraceEvent::Fight {
            site,
            what: what(),
            cite: false,
        });
    }
}
