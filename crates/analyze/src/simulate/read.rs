//! Reading a fight file (`sides:`, `rounds:`, `decisions:`, `report:`) against a
//! program, with diagnostics (E0404) pointing into the file.

use super::{FightFile, Group, GroupEnd, Script, Scripted, MAX_ROUNDS};
use crate::check;
use crate::diag::{suggest, Diagnostic, Diagnostics};
use crate::ir::{self, Const, DecideOptions, ExprKind as K, FightTies, Program, Ty};
use crate::load;
use crate::source::{Sources, Span};
use crate::yaml::{YNode, YValue};
use rulesc_runtime::{Answer, Policy};
use std::collections::HashSet;
use std::path::Path;

fn err(diags: &mut Diagnostics, span: Span, msg: impl Into<String>, help: impl Into<String>) {
    diags.push(
        Diagnostic::error("E0404", span, msg)
            .label("here")
            .help(help),
    );
}

/// The entries of `node`, a mapping; anything else is E0404 at it (`what` names the key,
/// `shape` shows what it holds) and reads as no entries.
fn mapping<'y>(
    diags: &mut Diagnostics,
    node: &'y YNode,
    what: &str,
    shape: &str,
) -> &'y [(YNode, YNode)] {
    node.as_map().unwrap_or_else(|| {
        err(
            diags,
            node.span,
            format!("{what} is a mapping"),
            format!("write {shape}"),
        );
        &[]
    })
}

/// The items of `node`, a list; anything else is E0404 at it, as [`mapping`].
fn sequence<'y>(diags: &mut Diagnostics, node: &'y YNode, what: &str, shape: &str) -> &'y [YNode] {
    node.as_seq().unwrap_or_else(|| {
        err(
            diags,
            node.span,
            format!("{what} is a list"),
            format!("write {shape}"),
        );
        &[]
    })
}

/// The decisions a program can ask for, with what they choose from (`None`: the tie
/// decision of the fight declaration, whose options are the tied fighters).
pub fn decisions(p: &Program) -> Vec<(String, Option<DecideOptions>)> {
    let mut out: Vec<(String, Option<DecideOptions>)> = Vec::new();
    fn go(e: &ir::Expr, out: &mut Vec<(String, Option<DecideOptions>)>) {
        if let K::Decide { name, options, .. } = &e.kind {
            if !out.iter().any(|(n, _)| n == name) {
                out.push((name.clone(), Some(options.clone())));
            }
        }
        crate::ir::walk::for_each_child(e, &mut |x| go(x, out));
    }
    for f in &p.functions {
        crate::ir::walk::for_each_body_expr(f, &mut |e| go(e, &mut out));
    }
    if let Some(FightTies::Decide(name)) = p.fight.as_ref().map(|d| &d.ties) {
        if !out.iter().any(|(n, _)| n == name) {
            out.push((name.clone(), None));
        }
    }
    out
}

/// Reads a fight file against a program. Diagnostics point into the file.
pub fn read(p: &Program, path: &Path) -> Result<(FightFile, Sources), (Diagnostics, Sources)> {
    read_in(p, path, &load::Overlay::new(), |_, _| {})
}

/// [`read`], with the file's text from `overlay` when it is there (the language
/// server's unsaved buffers).
pub fn read_with(
    p: &Program,
    path: &Path,
    overlay: &load::Overlay,
) -> Result<(FightFile, Sources), (Diagnostics, Sources)> {
    read_in(p, path, overlay, |_, _| {})
}

/// [`read`], with `edit` applied to the file's YAML before it is read (a sweep's value
/// set); what `edit` reports stops the reading.
pub fn read_edited(
    p: &Program,
    path: &Path,
    edit: impl FnOnce(&mut YNode, &mut Diagnostics),
) -> Result<(FightFile, Sources), (Diagnostics, Sources)> {
    read_in(p, path, &load::Overlay::new(), edit)
}

fn read_in(
    p: &Program,
    path: &Path,
    overlay: &load::Overlay,
    edit: impl FnOnce(&mut YNode, &mut Diagnostics),
) -> Result<(FightFile, Sources), (Diagnostics, Sources)> {
    let mut diags = Diagnostics::default();
    let mut sources = p.sources.clone();
    let name = path.display().to_string().replace('\\', "/");
    let Some((_, mut root)) = load::read_yaml_in(&mut sources, name, path, overlay, &mut diags)
    else {
        return Err((diags, sources));
    };
    edit(&mut root, &mut diags);
    if diags.has_errors() {
        return Err((diags, sources));
    }
    let file = read_node(p, &sources, &root, &mut diags);
    match file {
        Some(f) if !diags.has_errors() => Ok((f, sources)),
        _ => Err((diags, sources)),
    }
}

fn read_node(
    p: &Program,
    sources: &Sources,
    root: &YNode,
    diags: &mut Diagnostics,
) -> Option<FightFile> {
    let Some(def) = &p.fight else {
        err(
            diags,
            root.span,
            format!("ruleset `{}` declares no fight", p.name),
            "add `fight of <Combatant> { ... }` to a `.rules` file (see the reference, Fights)",
        );
        return None;
    };
    let Some(map) = root.as_map() else {
        err(
            diags,
            root.span,
            "a fight file is a mapping",
            "write `sides:`, and optionally `title:`, `rounds:`, `decisions:`, `report:`, `dice:`, `expect:`",
        );
        return None;
    };
    const KEYS: &[&str] = &[
        "title",
        "description",
        "rounds",
        "sides",
        "decisions",
        "report",
        "ruleset",
        "dice",
        "expect",
    ];
    crate::yaml::unknown_keys(map, KEYS, "a fight file", diags);
    let title = match root.get("title") {
        None => "fight".into(),
        Some(t) => t.scalar_text().unwrap_or_else(|| {
            err(
                diags,
                t.span,
                "`title` is text",
                "write `title: a veteran against two recruits`",
            );
            "fight".into()
        }),
    };
    let rounds = match root.get("rounds") {
        None => 100,
        Some(n) => match n.value {
            YValue::Int(r) if (1..=i64::from(MAX_ROUNDS)).contains(&r) => r as u32,
            _ => {
                err(
                    diags,
                    n.span,
                    "`rounds` is the round limit",
                    format!("give a number from 1 to {MAX_ROUNDS}"),
                );
                100
            }
        },
    };
    let (sides, names) = read_sides(p, sources, root, def.combatant, diags)?;
    let known = decisions(p);
    let mut policy = Policy::new(Answer::Random, 0);
    let mut script = Script::default();
    if let Some(d) = root.get("decisions") {
        let answers = mapping(
            diags,
            d,
            "`decisions`",
            "`decisions: { default: random, raise_guard: no }`: a decision's name, then its answer",
        );
        for (k, v) in answers {
            let key = k.scalar_text().unwrap_or_default();
            if let Some(items) = v.as_seq() {
                scripted_answers(p, (&known, &names), (&key, k), items, &mut script, diags);
                continue;
            }
            let Some(text) = v.scalar_text() else {
                err(
                    diags,
                    v.span,
                    format!("the answer to `{key}` is one word"),
                    format!("write `{key}: first` (or `last`, `random`, a level or variant, `yes`/`no`)"),
                );
                continue;
            };
            let plain = match text.as_str() {
                "first" => Some(Answer::First),
                "last" => Some(Answer::Last),
                "random" => Some(Answer::Random),
                _ => None,
            };
            if key == "default" {
                script.default_given = true;
                match plain {
                    Some(a) => policy = policy.with_default(a),
                    None => err(
                        diags,
                        v.span,
                        "the default answer is `first`, `last` or `random`",
                        "pick one of them",
                    ),
                }
                continue;
            }
            let Some(options) = known_decision(&known, &key, k, diags) else {
                continue;
            };
            let answer = match (plain, options) {
                (Some(a), _) => Some(a),
                (None, Some(DecideOptions::List(l))) => {
                    if list_label(l, &text, &names, v, diags).is_some() {
                        script.answered.push(key.clone());
                        policy = policy.with_label(&key, &text);
                    }
                    continue;
                }
                (None, options) => answer_by_name(p, options.as_ref(), &text).map(Answer::Index),
            };
            match answer {
                Some(a) => {
                    script.answered.push(key.clone());
                    policy = policy.with(&key, a)
                }
                None => {
                    let help = answer_help(p, options.as_ref(), &text, true);
                    err(
                        diags,
                        v.span,
                        format!("`{text}` does not answer `{key}`"),
                        help,
                    );
                }
            }
        }
    }
    let mut groups = Vec::new();
    let fighter_index = |n: &str| names.iter().position(|x| x == n).map(|i| i as u32);
    if let Some(r) = root.get("report") {
        let report = mapping(
            diags,
            r,
            "`report`",
            "`report: { Vera stands: { standing: [Vera] } }`: a group's name, then its conditions",
        );
        for (k, v) in report {
            let mut g = Group {
                name: k.scalar_text().unwrap_or_default(),
                ..Group::default()
            };
            let conditions = mapping(
                diags,
                v,
                &format!("group `{}`", g.name),
                "its conditions: `{ winner: Guild, standing: [Vera], rounds: \"..3\" }`",
            );
            for (ck, cv) in conditions {
                let key = ck.scalar_text().unwrap_or_default();
                match key.as_str() {
                    "winner" => {
                        let Some(t) = cv.scalar_text() else {
                            err(
                                diags,
                                cv.span,
                                "`winner` is one side's name",
                                "write `winner: Guild` (or `draw`, `undecided`)",
                            );
                            continue;
                        };
                        g.winner = match t.as_str() {
                            "draw" => Some(GroupEnd::Draw),
                            "undecided" => Some(GroupEnd::Undecided),
                            _ => match sides.iter().position(|(s, _)| *s == t) {
                                Some(i) => Some(GroupEnd::Side(i as u16)),
                                None => {
                                    let cands: Vec<&str> =
                                        sides.iter().map(|(s, _)| s.as_str()).collect();
                                    err(
                                        diags,
                                        cv.span,
                                        format!("no side is named `{t}`"),
                                        suggest(&t, &cands, "sides (or draw, undecided)"),
                                    );
                                    None
                                }
                            },
                        };
                    }
                    "standing" | "out" => {
                        let mut list = Vec::new();
                        let shape = format!("`{key}: [Vera, Ike]`: combatants' names");
                        for item in sequence(diags, cv, &format!("`{key}`"), &shape) {
                            let t = item.scalar_text().unwrap_or_default();
                            match fighter_index(&t) {
                                Some(i) => list.push(i),
                                None => {
                                    let cands: Vec<&str> =
                                        names.iter().map(String::as_str).collect();
                                    err(
                                        diags,
                                        item.span,
                                        format!("no combatant is named `{t}`"),
                                        suggest(&t, &cands, "combatants"),
                                    );
                                }
                            }
                        }
                        if key == "out" {
                            g.out = list;
                        } else {
                            g.standing = list;
                        }
                    }
                    "rounds" => match rounds_range(cv) {
                        Some(r) => g.rounds = Some(r),
                        None => err(
                            diags,
                            cv.span,
                            "`rounds` is a number or a range",
                            "write `3`, `\"2..4\"`, `\"..3\"` or `\"5..\"`",
                        ),
                    },
                    _ => diags.push(
                        Diagnostic::error("E0103", ck.span, format!("unknown condition `{key}`"))
                            .label("unknown key")
                            .help(suggest(
                                &key,
                                &["winner", "standing", "out", "rounds"],
                                "conditions",
                            )),
                    ),
                }
            }
            groups.push(g);
        }
    }
    if let Some(d) = root.get("dice") {
        script.dice_at = Some(d.span);
        for i in sequence(diags, d, "`dice`", "`dice: [8, 6, 8]`: the faces, in order") {
            match i.value {
                YValue::Int(f) if (1..=1_000_000).contains(&f) => {
                    script.faces.push(f as u32);
                    script.face_spans.push(i.span);
                }
                _ => err(
                    diags,
                    i.span,
                    "a die face is a positive number",
                    "write faces as numbers: `dice: [8, 6, 8]`",
                ),
            }
        }
    }
    if script.dice_at.is_none() {
        if let Some((name, spans)) = script.answer_spans.first() {
            err(
                diags,
                spans[0],
                format!("scripted answers to `{name}` in a fight with no `dice:`"),
                "a list of answers replays a scripted fight: give its `dice:` too, or answer with one word (`first`, `last`, `random`, an option)",
            );
        }
    }
    Some(FightFile {
        title,
        rounds,
        sides,
        policy,
        groups,
        file: root.span.file,
        expect: root.get("expect").cloned(),
        script: script.dice_at.is_some().then_some(script),
    })
}

/// What decision `key` (written at `k` under `decisions:`) chooses among; one the rules
/// never ask is `E0306`, with the nearest name. The one check of a decision's name, for
/// fight files and scenarios alike.
pub fn known_decision<'a>(
    known: &'a [(String, Option<DecideOptions>)],
    key: &str,
    k: &YNode,
    diags: &mut Diagnostics,
) -> Option<&'a Option<DecideOptions>> {
    let found = known.iter().find(|(n, _)| n == key).map(|(_, o)| o);
    if found.is_none() {
        let cands: Vec<&str> = known.iter().map(|(n, _)| n.as_str()).collect();
        diags.push(
            Diagnostic::error(
                "E0306",
                k.span,
                format!("the rules ask no decision named `{key}`"),
            )
            .label("unknown decision")
            .help(suggest(key, &cands, "decisions")),
        );
    }
    found
}

/// The option that `text` names of a decision choosing among `options`: `yes`/`true`
/// (option 1) or `no`/`false` (option 0) for a yes-or-no decision, a variant's name for
/// an enum's or scale's. A decision among a list's items (or the tie decision) is
/// answered by name only when it is asked, as its options are known only then: `None`
/// here. The one reading of an answer by name, for fight files and scenarios alike.
pub fn answer_by_name(p: &Program, options: Option<&DecideOptions>, text: &str) -> Option<u32> {
    match options? {
        DecideOptions::Bool => match text {
            "yes" | "true" => Some(1),
            "no" | "false" => Some(0),
            _ => None,
        },
        DecideOptions::Choice(c) => p.choices[*c]
            .variants
            .iter()
            .position(|x| x.name == text)
            .map(|i| i as u32),
        DecideOptions::List(_) => None,
    }
}

/// The help for `text`, which answers no option of a decision among `options`
/// (`policies`: the one-word answers `first`, `last`, `random` are allowed too).
pub fn answer_help(
    p: &Program,
    options: Option<&DecideOptions>,
    text: &str,
    policies: bool,
) -> String {
    match options {
        Some(DecideOptions::Choice(c)) => {
            let cands: Vec<&str> = p.choices[*c]
                .variants
                .iter()
                .map(|x| x.name.as_str())
                .collect();
            if policies {
                crate::diag::suggest_ordered(text, &cands, "answers (or first, last, random)")
            } else {
                suggest(text, &cands, "options")
            }
        }
        Some(DecideOptions::Bool) if policies => {
            "answer `yes`, `no`, `first`, `last` or `random`".into()
        }
        Some(DecideOptions::Bool) => "answer `yes` or `no`".into(),
        _ if policies => {
            "answer `first`, `last` or `random` (the options are known only when it is asked)"
                .into()
        }
        _ => "a decision among a list is answered by the option's name or its index, from 0".into(),
    }
}

/// `name: [answer, ...]` under `decisions:`: answers a scripted fight takes in order. An
/// answer is an option's name (a level, variant, `yes`/`no`) or, for a decision among a
/// list, the option's index.
fn scripted_answers(
    p: &Program,
    (known, names): (&[(String, Option<DecideOptions>)], &[String]),
    (key, k): (&str, &YNode),
    items: &[YNode],
    script: &mut Script,
    diags: &mut Diagnostics,
) {
    let Some(options) = known_decision(known, key, k, diags) else {
        return;
    };
    for a in items {
        let text = a.scalar_text().unwrap_or_default();
        let index = match (&a.value, options) {
            (YValue::Int(i), Some(DecideOptions::List(_)) | None) => {
                u32::try_from(*i).ok().map(Scripted::Index)
            }
            (_, Some(DecideOptions::List(l))) => {
                if list_label(l, &text, names, a, diags).is_none() {
                    continue; // reported
                }
                Some(Scripted::Named(text.clone()))
            }
            (_, options) => answer_by_name(p, options.as_ref(), &text).map(Scripted::Index),
        };

        let Some(i) = index else {
            let help = answer_help(p, options.as_ref(), &text, false);
            err(
                diags,
                a.span,
                format!("`{text}` does not answer `{key}`"),
                help,
            );
            continue;
        };
        match script.decisions.iter_mut().find(|(n, _)| n == key) {
            Some((_, q)) => q.push(i),
            None => script.decisions.push((key.to_string(), vec![i])),
        }
        match script.answer_spans.iter_mut().find(|(n, _)| n == key) {
            Some((_, spans)) => spans.push(a.span),
            None => script.answer_spans.push((key.to_string(), vec![a.span])),
        }
    }
}

/// An answer by name to a decision among the list `l`: for a list of fighters, the name
/// must be a combatant's (`E0404` otherwise, with the names); for other lists any name is
/// taken, matched against the options' names when the decision is asked.
fn list_label(
    l: &ir::Expr,
    text: &str,
    names: &[String],
    at: &YNode,
    diags: &mut Diagnostics,
) -> Option<()> {
    let of_fighters = matches!(&l.ty, Ty::List(e) if matches!(**e, Ty::Fighter));
    if of_fighters && !names.iter().any(|n| n == text) {
        let cands: Vec<&str> = names.iter().map(String::as_str).collect();
        err(
            diags,
            at.span,
            format!("no combatant is named `{text}`"),
            suggest(text, &cands, "combatants (or first, last, random)"),
        );
        return None;
    }
    Some(())
}

/// A fight's sides under `root`'s `sides:` (a fight file, or a scenario's `fight:`): each
/// side's name and combatants (name, record), and every combatant's name in joining
/// order. `None` when there is no `sides:` mapping at all.
pub fn read_sides(
    p: &Program,
    sources: &Sources,
    root: &YNode,
    combatant: usize,
    diags: &mut Diagnostics,
) -> Option<(super::Sides, Vec<String>)> {
    let combatant = Ty::Record(combatant);
    let mut sides: Vec<(String, Vec<(String, Const)>)> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    match root.get("sides").and_then(|s| s.as_map().map(|m| (s, m))) {
        Some((node, m)) if m.len() >= 2 => {
            let _ = node;
            for (k, v) in m {
                let side = k.scalar_text().unwrap_or_default();
                let mut members = Vec::new();
                match v.as_map() {
                    Some(ms) if !ms.is_empty() => {
                        for (mk, mv) in ms {
                            if names.len() == super::MAX_COMBATANTS {
                                err(
                                    diags,
                                    mk.span,
                                    format!(
                                        "more than {} combatants in one fight",
                                        super::MAX_COMBATANTS
                                    ),
                                    format!(
                                        "a fight holds at most {} combatants, all sides together",
                                        super::MAX_COMBATANTS
                                    ),
                                );
                                return None;
                            }
                            let who = mk.scalar_text().unwrap_or_default();
                            if !seen.insert(who.clone()) {
                                err(
                                    diags,
                                    mk.span,
                                    format!("two combatants are named `{who}`"),
                                    "give each combatant its own name",
                                );
                            }
                            names.push(who.clone());
                            let value = match &mv.value {
                                YValue::Null => Some(p.zero(&combatant)),
                                _ => check::read_value(p, sources, mv, &combatant, diags),
                            };
                            members.push((who, value.unwrap_or_else(|| p.zero(&combatant))));
                        }
                    }
                    _ => err(
                        diags,
                        v.span,
                        format!("side `{side}` has no combatants"),
                        "list them: `Name: record` or `Name: { field: value }`",
                    ),
                }
                sides.push((side, members));
            }
        }
        Some((node, _)) => err(
            diags,
            node.span,
            "a fight needs at least two sides",
            "add another side under `sides:`",
        ),
        None => {
            match root.get("sides") {
                Some(node) => err(
                    diags,
                    node.span,
                    "`sides` is a mapping of sides",
                    "write `sides: { Guild: { Vera: veteran }, Recruits: { Ike: {} } }`",
                ),
                None => err(
                    diags,
                    root.span,
                    "the fight file has no `sides:`",
                    "add `sides:` with two sides, each a mapping of combatants",
                ),
            }
            return None;
        }
    }
    Some((sides, names))
}

fn rounds_range(node: &YNode) -> Option<(u32, u32)> {
    if let YValue::Int(r) = node.value {
        let r = u32::try_from(r).ok()?;
        return Some((r, r));
    }
    let t = node.scalar_text()?;
    let (lo, hi) = t.split_once("..")?;
    let lo = if lo.trim().is_empty() {
        0
    } else {
        lo.trim().parse().ok()?
    };
    let hi = if hi.trim().is_empty() {
        u32::MAX
    } else {
        hi.trim().parse().ok()?
    };
    (lo <= hi).then_some((lo, hi))
}
