//! What lowers of the rulesets the project ships and the tests load: every function that
//! is not a fight's lowers (a fight's waits for step 3 of `docs/design/core-ir.md`).

use crate::eval::{self, Value};
use crate::ir::{self, walk, Expr, ExprKind as K, Program};
use std::path::{Path, PathBuf};

/// Every ruleset folder shipped (`rules/`, `examples/`) or loaded by the tests
/// (`tests/fixtures/`, the odds bench's), but the broken fixtures, which do not check.
pub(super) fn rulesets() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut found = Vec::new();
    let mut stack = vec![
        root.join("rules"),
        root.join("examples"),
        root.join("tests/fixtures"),
        root.join("compiler/benches"),
    ];
    while let Some(dir) = stack.pop() {
        if dir.ends_with("broken") || dir.ends_with("broken_variant") {
            continue;
        }
        if dir.join("ruleset.yaml").is_file() {
            found.push(dir.clone());
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            }
        }
    }
    found.sort();
    found
}

/// A fight's functions: those `ir::fight_functions` finds (a `fighter` or `side` held, a
/// fight built-in, a timer set, time advanced, or a call of one) and those the fight
/// declaration names (its order, out rule, hooks, triggers, timer actions and their stop
/// conditions).
fn fight_owned(p: &Program) -> Vec<bool> {
    let mut owned = ir::fight_functions(p);
    if let Some(f) = &p.fight {
        let mut named = vec![f.order];
        named.extend(f.out);
        named.extend(f.hooks.iter().flatten().map(|(id, _)| *id));
        named.extend(f.every.iter().map(|(_, id, _)| *id));
        named.extend(f.triggers.iter().flat_map(|t| [t.cond, t.procedure]));
        named.extend(f.actions.iter().filter_map(|a| match a {
            ir::Action::Call { function, .. } => Some(*function),
            ir::Action::Reset { .. } => None,
        }));
        named.extend(f.repeats.iter().filter_map(|r| r.stop));
        for id in named {
            owned[id] = true;
        }
    }
    owned
}

/// The constructs in `e` that have no lowering yet (a hint at why a function does not
/// lower; the lowering itself is the judge).
fn suspects(e: &Expr, out: &mut Vec<&'static str>) {
    let name = match &e.kind {
        K::Find { .. } => Some("find"),
        K::Sort { .. } => Some("sort"),
        K::Best { .. } => Some("best"),
        K::Keys(_) => Some("keys"),
        K::Range(..) => Some("range"),
        K::Lookup {
            column: Some(_), ..
        } => Some("lookup by column"),
        K::MapGet(m, _) if !matches!(m.ty, ir::Ty::Map(..)) => Some("sorted map read"),
        _ => None,
    };
    out.extend(name);
    walk::for_each_child(e, &mut |x| suspects(x, out));
}

/// `ruleset: function [suspects]` for every function of every ruleset that is not a
/// fight's and does not lower.
fn not_lowered() -> Vec<String> {
    let mut left = Vec::new();
    for dir in rulesets() {
        let (p, diags, _) = crate::compile_dir(&dir);
        let Some(p) = p else {
            panic!("{} does not check: {:?}", dir.display(), diags.items);
        };
        let module = super::super::lower(&p);
        let fights = fight_owned(&p);
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let name = dir
            .strip_prefix(&root)
            .unwrap_or(&dir)
            .display()
            .to_string();
        for (id, f) in p.functions.iter().enumerate() {
            if fights[id] || module.functions[id].is_some() {
                continue;
            }
            let mut why = Vec::new();
            walk::for_each_body_expr(f, &mut |e| suspects(e, &mut why));
            why.sort_unstable();
            why.dedup();
            left.push(format!("{}: {} {:?}", name, f.name, why));
        }
    }
    left
}

/// Lists what does not lower (`cargo test -p rulesc --lib core_ir::tests::coverage --
/// --ignored --nocapture`).
#[test]
#[ignore = "a dump, read by hand"]
fn dump_what_does_not_lower() {
    let rulesets = rulesets();
    println!("{} rulesets", rulesets.len());
    for dir in &rulesets {
        let Some(p) = crate::compile_dir(dir).0 else {
            continue;
        };
        let module = super::super::lower(&p);
        let fights = fight_owned(&p);
        let lowered = module.functions.iter().filter(|f| f.is_some()).count();
        let fight = fights.iter().filter(|f| **f).count();
        println!(
            "{}: {lowered} of {} lower, {fight} are a fight's",
            dir.display(),
            p.functions.len()
        );
    }
    for line in not_lowered() {
        println!("{line}");
    }
}

/// Every function of every ruleset that is not a fight's lowers: a construct that stops
/// lowering (or a ruleset using one the core IR lacks) fails here, naming the function.
#[test]
fn every_function_that_is_not_a_fights_lowers() {
    let rulesets = rulesets();
    // The shipped rulesets and the fixtures are all found (a moved folder is not
    // silently skipped).
    assert!(rulesets.len() >= 20, "{rulesets:?}");
    assert_eq!(not_lowered(), Vec::<String>::new());
}

/// A procedure of `lets` locals, each a copy of its parameter, returning the last plus
/// one: `lets + 2` `i64` registers (the parameter, each local, the sum), checked, with
/// what `check` says.
fn many_locals(lets: usize) -> (Option<Program>, Vec<String>) {
    let mut rules = String::from("procedure wide(x: int) -> int {\n");
    for i in 0..lets {
        rules.push_str(&format!("  let _a{i} = x\n"));
    }
    rules.push_str(&format!("  return _a{} + 1\n}}\n", lets - 1));
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join("ruleset.yaml"), "ruleset: { name: wide }\n").expect("written");
    std::fs::write(dir.path().join("wide.rules"), rules).expect("written");
    let (p, diags, _) = crate::compile_dir(dir.path());
    let said = diags
        .items
        .iter()
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    (p, said)
}

#[test]
fn a_function_fits_a_frame_up_to_its_last_register_and_one_more_is_e0363() {
    // 253 locals: 255 registers, a frame's all but the one a piece of it run alone may
    // take (`lower::ROOM`). It checks, lowers and runs on the VM.
    let (p, said) = many_locals(253);
    let p = p.unwrap_or_else(|| panic!("253 locals do not check: {said:?}"));
    let id = p
        .functions
        .iter()
        .position(|f| f.name == "wide")
        .expect("wide");
    assert!(said.is_empty(), "{said:?}");
    assert!(
        crate::core_ir::module(&p).func(id).is_some(),
        "253 locals do not lower"
    );
    let mut env = rulesc_runtime::Env::new(
        rulesc_runtime::SeededDice::new(1),
        rulesc_runtime::FirstOption,
        rulesc_runtime::NoTrace,
    );
    assert_eq!(
        eval::call(&p, &mut env, id, [Value::Int(41)]),
        Ok(Value::Int(42))
    );
    // One more: E0363, naming what it holds and a frame's most.
    let (p, said) = many_locals(254);
    assert!(p.is_none());
    assert_eq!(
        said,
        ["E0363 `wide` holds 256 numbers at once, more than the 255 a formula or procedure may hold"]
    );
}

#[test]
fn a_local_is_given_back_when_its_block_ends_so_only_what_is_live_counts() {
    // 300 branches, arms and loops, each with locals of its own: 900 locals in all, never
    // more than a few live at once. It checks, lowers and runs on the VM.
    let mut rules = String::from("procedure scoped(x: int, s: Side) -> int {\n  let total = 0\n");
    for i in 0..100 {
        rules.push_str(&format!(
            "  if x > {i} {{\n    let a = x + {i}\n    let r = roll d6\n    total += a + natural(r) - r\n  }}\n\
             \x20 match s {{\n    A => {{\n      let b = {i}\n      total += b\n    }}\n    B => {{\n      total -= 1\n    }}\n  }}\n\
             \x20 for k in 0..2 {{\n    let c = k * {i}\n    total += c\n  }}\n"
        ));
    }
    rules.push_str("  return total\n}\n");
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(
        dir.path().join("ruleset.yaml"),
        "ruleset: { name: scoped }\nenums:\n  Side: [A, B]\n",
    )
    .expect("written");
    std::fs::write(dir.path().join("scoped.rules"), rules).expect("written");
    let (p, diags, _) = crate::compile_dir(dir.path());
    let p = p.unwrap_or_else(|| panic!("does not check: {:?}", diags.items));
    let id = p
        .functions
        .iter()
        .position(|f| f.name == "scoped")
        .expect("scoped");
    assert!(crate::core_ir::module(&p).func(id).is_some());
    let mut env = rulesc_runtime::Env::new(
        rulesc_runtime::SeededDice::new(1),
        rulesc_runtime::FirstOption,
        rulesc_runtime::NoTrace,
    );
    // x = 50: branches 0..49 add x + i (a roll's natural face less its total is 0);
    // A: each arm adds i; each loop adds 0 + i.
    let a = eval::choice(&p, "Side", "A").expect("A");
    let want: i64 = (0..50).map(|i| 50 + i).sum::<i64>() + 2 * (0..100).sum::<i64>();
    assert_eq!(
        eval::call(&p, &mut env, id, [Value::Int(50), a]),
        Ok(Value::Int(want))
    );
    // B: each arm takes one.
    let b = eval::choice(&p, "Side", "B").expect("B");
    let want: i64 = (0..50).map(|i| 50 + i).sum::<i64>() - 100 + (0..100).sum::<i64>();
    assert_eq!(
        eval::call(&p, &mut env, id, [Value::Int(50), b]),
        Ok(Value::Int(want))
    );
}
