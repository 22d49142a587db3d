//! Parsing the fight: the `fight of T { ... }` declaration, durations (`until ...`,
//! `for 2 rounds`), scheduled calls (`after ...:`, `at ...:`) and `advance`.

use super::ast::*;
use super::{kids, Builder, Rule};
use crate::source::Span;
use pest::iterators::Pair;

/// How the fight's grammar rules read in "expected ..." messages.
pub(super) fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::fight_def => "a fight declaration",
        Rule::order_clause
        | Rule::ties_clause
        | Rule::out_clause
        | Rule::time_clause
        | Rule::lasts_clause
        | Rule::hook_clause
        | Rule::when_clause => {
            "a fight clause (`order`, `ties`, `out`, `time`, `round lasts`, `on`, `when`)"
        }
        Rule::hook_name => {
            "`start`, `round start`, `turn`, `turn end`, `round end` or `every <unit>`"
        }
        Rule::time_unit => "a unit of time such as `minute = 60 second`",
        Rule::moment => "a moment such as `end of next turn of c`",
        Rule::duration => "`until <moment>` or `for <amount> <unit>`",
        Rule::schedule_stmt | Rule::repeat_stmt | Rule::advance_stmt => "a statement",
        Rule::k_until => "`until`",
        Rule::k_after => "`after`",
        Rule::k_advance => "`advance`",
        Rule::k_fight => "`fight`",
        Rule::k_of => "`of`",
        Rule::w_together => "`together`",
        Rule::w_once => "`once`",
        Rule::w_start | Rule::w_end => "`start` or `end`",
        Rule::w_next => "`next`",
        Rule::w_round => "`round`",
        Rule::w_turn => "`turn`",
        _ => return None,
    })
}

impl Builder<'_> {
    pub(super) fn fight(
        &mut self,
        mut k: std::vec::IntoIter<Pair<Rule>>,
        span: Span,
    ) -> Option<FightDef> {
        let combatant = self.ident(k.next()?);
        let mut clauses = Vec::new();
        for c in k {
            if let Some(c) = self.fight_clause(c) {
                clauses.push(c);
            }
        }
        Some(FightDef {
            combatant,
            clauses,
            span,
        })
    }

    fn fight_clause(&mut self, p: Pair<Rule>) -> Option<FightClause> {
        let span = self.span(&p);
        let rule = p.as_rule();
        // Without the leading word.
        let mut k = p.into_inner().skip(1);
        Some(match rule {
            Rule::order_clause => FightClause::Order {
                var: self.ident(k.next()?),
                key: self.expr(k.next()?)?,
                span,
            },
            Rule::out_clause => FightClause::Out {
                var: self.ident(k.next()?),
                cond: self.expr(k.next()?)?,
                span,
            },
            Rule::ties_clause => {
                let first = k.next()?;
                let rule = match first.as_rule() {
                    Rule::w_together => TiesRule::Together,
                    Rule::k_at => TiesRule::AtOnce,
                    Rule::k_roll => TiesRule::Roll(self.expr(k.next()?)?),
                    _ => TiesRule::Decide(self.ident(k.next()?)),
                };
                FightClause::Ties { rule, span }
            }
            Rule::time_clause => {
                let mut units = Vec::new();
                for u in k {
                    let mut uk = u.into_inner();
                    let name = self.ident(uk.next()?);
                    let size = match (uk.next(), uk.next()) {
                        (Some(n), Some(of)) => Some((self.int_text(n)?, self.ident(of))),
                        _ => None,
                    };
                    units.push((name, size));
                }
                FightClause::Time { units, span }
            }
            Rule::lasts_clause => {
                let mut k = k.skip(1);
                FightClause::RoundLasts {
                    amount: self.int_text(k.next()?)?,
                    unit: self.ident(k.next()?),
                    span,
                }
            }
            Rule::hook_clause => {
                let name = k.next()?;
                let procedure = self.ident(k.next()?);
                let words: Vec<Pair<Rule>> = name.into_inner().collect();
                let hook = match words.iter().map(|w| w.as_rule()).collect::<Vec<_>>()[..] {
                    [Rule::w_start] => HookName::Start,
                    [Rule::w_round, Rule::w_start] => HookName::RoundStart,
                    [Rule::w_round, Rule::w_end] => HookName::RoundEnd,
                    [Rule::w_turn] => HookName::Turn,
                    [Rule::w_turn, Rule::w_end] => HookName::TurnEnd,
                    _ => {
                        // `every [n] unit`
                        let mut w = words.into_iter().skip(1);
                        let first = w.next()?;
                        let (amount, unit) = if first.as_rule() == Rule::integer {
                            (self.int_text(first)?, self.ident(w.next()?))
                        } else {
                            (1, self.ident(first))
                        };
                        return Some(FightClause::Every {
                            amount,
                            unit,
                            procedure,
                            span,
                        });
                    }
                };
                FightClause::Hook {
                    hook,
                    procedure,
                    span,
                }
            }
            Rule::when_clause => {
                let rest: Vec<Pair<Rule>> = k.collect();
                let (var, cond, procedure) = match &rest[..] {
                    [v, c, p] => (Some(self.ident(v.clone())), c.clone(), p.clone()),
                    [c, p] => (None, c.clone(), p.clone()),
                    _ => return None,
                };
                FightClause::When {
                    var,
                    cond: self.expr(cond)?,
                    procedure: self.ident(procedure),
                    span,
                }
            }
            _ => return None,
        })
    }

    fn moment(&mut self, p: Pair<Rule>) -> Option<Moment> {
        let span = self.span(&p);
        let mut end = false;
        let mut next = false;
        let mut turn = false;
        let mut who = None;
        for w in p.into_inner() {
            match w.as_rule() {
                Rule::w_end => end = true,
                Rule::w_next => next = true,
                Rule::w_turn => turn = true,
                Rule::postfix => who = Some(self.expr(w)?),
                _ => {}
            }
        }
        let kind = match (turn, who) {
            (true, Some(who)) => MomentKind::Turn {
                next,
                who: Box::new(who),
            },
            _ if next => MomentKind::NextRound,
            _ => MomentKind::Round,
        };
        Some(Moment { end, kind, span })
    }

    fn until(&mut self, k: &mut std::vec::IntoIter<Pair<Rule>>) -> Option<Until> {
        let first = k.next()?;
        Some(if first.as_rule() == Rule::moment {
            Until::Moment(self.moment(first)?)
        } else {
            let amount = self.expr(first)?;
            Until::After(amount, self.ident(k.next()?))
        })
    }

    /// `place op value duration`.
    pub(super) fn timed_assign(
        &mut self,
        place: Expr,
        op: AssignOp,
        value: Expr,
        duration: Pair<Rule>,
    ) -> Option<StmtKind> {
        if op != AssignOp::Set {
            let span = self.span(&duration);
            self.error(
                span,
                "E0201",
                "a duration applies to `=` only".into(),
                "write `place = value until ...`; a timed `+=` has no value to return to",
            );
            return None;
        }
        let mut k = kids(duration).into_iter();
        let until = self.until(&mut k)?;
        Some(StmtKind::TimedAssign(place, value, until))
    }

    pub(super) fn fight_stmt(&mut self, rule: Rule, k: Vec<Pair<Rule>>) -> Option<StmtKind> {
        let mut k = k.into_iter();
        Some(match rule {
            Rule::advance_stmt => {
                let amount = self.expr(k.next()?)?;
                StmtKind::Advance(amount, self.ident(k.next()?))
            }
            Rule::repeat_stmt => {
                // Without `every`.
                let mut k = k.skip(1).peekable();
                let mut amount = None;
                if k.peek().is_some_and(|n| n.as_rule() == Rule::period) {
                    let n = k.next()?;
                    let span = self.span(&n);
                    amount = Some((self.int_text(n)?, span));
                }
                let unit = self.ident(k.next()?);
                let (amount, amount_span) = amount.unwrap_or((1, unit.span));
                let call = self.expr(k.next()?)?;
                let until = match k.next() {
                    Some(cond) => Some(self.expr(cond)?),
                    None => None,
                };
                StmtKind::Repeat(Repeat {
                    amount,
                    amount_span,
                    unit,
                    call,
                    until,
                })
            }
            _ => {
                let until = self.until(&mut k)?;
                StmtKind::Schedule(until, self.expr(k.next()?)?)
            }
        })
    }
}
