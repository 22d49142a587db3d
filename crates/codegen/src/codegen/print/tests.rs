//! The printer's tests: what it prints for each kind of code in its slice, and which
//! functions of the shipped rulesets it prints.

thread_local! {
    /// The functions [`super::body`] printed on this thread.
    pub(super) static PRINTED: std::cell::RefCell<Vec<String>> = const {
        std::cell::RefCell::new(Vec::new())
    };
}

/// The functions of the shipped rulesets (and the coverage fixture's written for the
/// printer) printed from the core IR: the slice's reach,
/// so that a change of lowering or of the printer that drops one (which `body/` then
/// prints, silently) is seen. Grow the list as the slice grows.
#[test]
fn the_shipped_rulesets_functions_in_the_slice_are_printed_from_the_core_ir() {
    let want = [
        (
            "rules/kingsmark",
            "net_disadvantage makes_defence_roll shield_counts initiative roll_initiative \
             action_points turn_order_key ambush_tn may_act_against end_surprise lay_in_wait \
             stop_waiting",
        ),
        (
            "rules/d20-armor-slots",
            "start_round ability_modifier can_block attack take_up_shield lose_hp \
             shield_absorbs down same_place",
        ),
        (
            "rules/dungeon-cards",
            "attack_stamina melee_attack ranged_attack land_blow is_open disables on_face \
             take_harm special_injury_fits start_turn knock_down take_stance",
        ),
        ("rules/hit-strength", "save_eye vulnerable heal"),
        (
            "rules/victory-stars",
            "can_respond exchange_winner tactical_advantages exchange out_of_action mishap \
             wound_morale shake_off_shock side_losses numbers_change condition_penalty margin",
        ),
        (
            "tests/fixtures/codegen/coverage",
            "f_merged f_else_if p_merged p_changes p_passes",
        ),
    ];
    let mut total = 0;
    for (ruleset, names) in want {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(ruleset);
        let p = crate::compile_dir(&dir)
            .0
            .expect("a shipped ruleset checks");
        PRINTED.with(|p| p.borrow_mut().clear());
        crate::codegen::generate(&p).expect("it generates");
        let printed = PRINTED.with(|p| p.borrow().clone());
        for name in names.split_whitespace() {
            assert!(
                printed.iter().any(|p| p == name),
                "{ruleset}: `{name}` is not printed from the core IR (printed: {printed:?})"
            );
        }
        total += printed.len();
    }
    assert!(
        total >= 48 + 5,
        "{total} functions printed from the core IR"
    );
}

/// The Rust of a ruleset of one `.rules` file holding `rules`.
fn generated(rules: &str) -> String {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(
        dir.path().join("ruleset.yaml"),
        "ruleset: { name: printed }\ntypes:\n  Fighter: { physical_performance: int, skill: int }\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("a.rules"), rules).unwrap();
    let p = crate::compile_dir(dir.path())
        .0
        .expect("the ruleset checks");
    crate::codegen::generate(&p).expect("it generates")
}

/// The function `name` of `code`, from its signature to the next item, on one line
/// per statement as prettyplease lays them out, blank-stripped.
fn function<'c>(code: &'c str, name: &str) -> &'c str {
    let start = code.find(&format!("pub fn {name}")).expect("the function");
    let rest = &code[start..];
    &rest[..rest.find("\n}\n").map_or(rest.len(), |e| e + 2)]
}

const EXCHANGE: &str = "outcome Exchange { EpicFailure, Miss, Hit(margin: int) }
procedure exchange(attacker: Fighter, defender: Fighter) -> Exchange {
  let attack = roll d12! + attacker.physical_performance + attacker.skill
  if natural(attack) == 1 {
return EpicFailure
  }
  let defence = roll d12! + defender.physical_performance + defender.skill
  if attack < defence {
return Miss
  }
  return Hit(margin: attack - defence)
}
";

/// A procedure of rolls, sums, comparisons and outcomes is printed from its core IR:
/// each roll bound, each `let` a variable of its name, each branch's truth `taken`
/// (traced, then tested), each early `return` an `if` of its own, the last result
/// made before the last test, and returned as the body's value.
#[test]
fn a_procedure_of_rolls_and_outcomes_is_printed_from_its_core_ir() {
    let code = generated(EXCHANGE);
    let f = function(&code, "exchange");
    let lines: Vec<&str> = f.lines().map(str::trim).collect();
    let order = [
        "let roll = ::rulesc_runtime::__private::rolls::exploding(",
        "let attack: i64 = ::rulesc_runtime::__private::arith::add(",
        "roll.total,",
        "attacker.physical_performance,",
        "attacker.skill,",
        "value: attack.to_string(),",
        "let taken = roll.natural == 1;",
        "if taken {",
        "return Exchange::EpicFailure;",
        "let roll_2 = ::rulesc_runtime::__private::rolls::exploding(",
        "let taken_2 = attack < defence;",
        // The last result made before the last test, so that the two results are
        // picked between without a branch (`hoist_last_return`).
        "let result = Exchange::Hit {",
        "margin: ::rulesc_runtime::__private::arith::sub(attack, defence),",
        "if taken_2 {",
        "return Exchange::Miss;",
        "result",
    ];
    let mut at = 0;
    for want in order {
        match lines[at..].iter().position(|l| *l == want) {
            Some(i) => at += i + 1,
            None => panic!("no `{want}` after line {at} in:\n{f}"),
        }
    }
    assert_eq!(
        lines[lines.len() - 2],
        "result",
        "the last value is the body's:\n{f}"
    );
}

/// A function outside the slice (here a loop over a list) is printed by `body/`.
#[test]
fn a_function_outside_the_slice_is_printed_as_before() {
    let code = generated("formula total(xs: list<int>) -> int = sum(x for x in xs)\n");
    assert!(!PRINTED.with(|p| p.borrow().contains(&"total".to_string())));
    assert!(function(&code, "total").contains(".fold("), "{code}");
}

/// The statements of function `name` in `code`, one per line as prettyplease lays
/// them out, trimmed, trace events left out.
fn statements(code: &str, name: &str) -> Vec<String> {
    let f = function(code, name);
    // The signature ends with the first line ending in `{` that closes its parameters.
    let lines = f.lines().map(str::trim).skip_while(|l| {
        !(l.ends_with('{')
            && (l.starts_with("pub fn") || l.starts_with(')') || l.starts_with(">(")))
    });
    let mut out = Vec::new();
    let mut skip = 0;
    for l in lines.skip(1).filter(|l| !l.is_empty()) {
        if l.starts_with("if T::ENABLED") {
            skip = 1;
            continue;
        }
        if skip > 0 {
            skip += l.matches('{').count();
            skip -= l.matches('}').count().min(skip);
            continue;
        }
        out.push(numbered(l));
    }
    out.pop();
    out
}

/// `l` with each variable the printer numbers (`v12`) written `v#`.
fn numbered(l: &str) -> String {
    let mut out = String::new();
    let mut chars = l.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        let starts = c == 'v' && !(prev.is_alphanumeric() || prev == '_');
        if starts && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            out.push_str("v#");
            prev = '#';
            continue;
        }
        out.push(c);
        prev = c;
    }
    out
}

/// Values merged from branches are expressions: `and` and `or` chains (nested ones
/// parenthesized only where `||` stands under `&&`), `if` with `else if`, and a
/// truth kept for one test tested in place.
#[test]
fn values_merged_from_branches_are_expressions() {
    let code = generated(
        "formula both(a: int, b: int) -> bool = a > 1 and b > 2
formula any3(a: int, b: int, c: int) -> bool = a > 1 or b > 2 or c > 3
formula mixed(a: int, b: int) -> bool = (a > 1 or b > 1) and (a > 2 and b > 2 or a < 0)
formula pick(a: int, b: int) -> int = if a > b and b > 0 then a else if a < 0 or b < 0 then b else 0
",
    );
    for (name, body) in [
        ("both", "a > 1 && b > 2"),
        ("any3", "a > 1 || b > 2 || c > 3"),
        ("mixed", "(a > 1 || b > 1) && (a > 2 && b > 2 || a < 0)"),
        (
            "pick",
            "if a > b && b > 0 { a } else if a < 0 || b < 0 { b } else { 0 }",
        ),
    ] {
        assert_eq!(statements(&code, name).join(" "), body, "{name}");
    }
}

/// A local changed in a branch is one variable, `mut` because one path writes it
/// twice; a local given a value in each arm is declared before them without `mut`,
/// named after the local (its first value, shown by the trace only, needs no
/// variable).
#[test]
fn locals_changed_in_branches_are_one_variable_each() {
    let code = generated(
        "procedure changed(a: Fighter) -> int {
  let x = 1
  if a.skill > 2 {
x = x + a.skill
  }
  return x
}
procedure both_ways(a: Fighter) -> int {
  let x = 0
  if a.skill > 2 {
x = 1
  } else {
x = a.skill * 3
  }
  return x + 1
}
",
    );
    let add = "::rulesc_runtime::__private::arith::add";
    assert_eq!(
        statements(&code, "changed"),
        [
            "let mut x: i64 = 1;",
            "let taken = a.skill > 2;",
            "if taken {",
            &format!("x = {add}(x, a.skill);"),
            "}",
            "x",
        ]
    );
    assert_eq!(
        statements(&code, "both_ways"),
        [
            "let taken = a.skill > 2;",
            "let x_2: i64;",
            "if taken {",
            "x_2 = 1;",
            "} else {",
            "x_2 = ::rulesc_runtime::__private::arith::mul(a.skill, 3);",
            "}",
            &format!("{add}(x_2, 1)"),
        ]
    );
}

/// A call passes numbers by value and records by reference, a procedure `env` first;
/// a formula's result read once is computed in place (formulas have no effects), a
/// procedure's is bound where the call is, as its effects are there.
#[test]
fn calls_pass_numbers_by_value_and_records_by_reference() {
    let code = generated(
        "formula bonus(a: int, f: Fighter) = a + f.skill * 2
procedure boost(a: Fighter) -> int {
  return roll d6 + a.skill
}
procedure hits(a: Fighter, d: Fighter) -> bool {
  let x = boost(a) + bonus(1, a)
  return x > bonus(3, d) + boost(d)
}
",
    );
    let add = "::rulesc_runtime::__private::arith::add";
    assert_eq!(
        statements(&code, "hits"),
        [
            "let result: i64 = boost(env, a);",
            &format!("let x: i64 = {add}(result, bonus(1, a));"),
            "let result_2: i64 = boost(env, d);",
            &format!("x > {add}(bonus(3, d), result_2)"),
        ]
    );
}

/// A field of a record the procedure changes is assigned in place (`+=` and `-=`
/// by the runtime's saturating operations), and the trace shows the field read again.
#[test]
fn assignments_change_fields_of_the_records_passed() {
    let code = generated(
        "procedure hurt(c: Fighter, n: int) {
  c.skill += n
  c.skill -= 2
  c.skill = c.skill * 2
}
",
    );
    let f = function(&code, "hurt");
    assert!(f.contains("c: &mut Fighter"), "{f}");
    let arith = "::rulesc_runtime::__private::arith";
    assert_eq!(
        statements(&code, "hurt").join(" "),
        format!(
            "c.skill = {arith}::add(c.skill, n); \
             c.skill = {arith}::sub(c.skill, 2); \
             c.skill = {arith}::mul(c.skill, 2);"
        )
    );
    assert!(f.contains("value: c.skill.to_string(),"), "{f}");
}

/// A table read is the table's function called: in place in a formula, and bound,
/// then traced with its key, in a procedure.
#[test]
fn table_reads_call_the_tables_function() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(
        dir.path().join("ruleset.yaml"),
        "ruleset: { name: printed }
types:
  Fighter: { skill: int }
tables:
  bonus: { key: int, value: int, rows: { \"1\": 2, \"2\": 3 }, default: 0 }
",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("a.rules"),
        "formula f(c: Fighter) = bonus[c.skill] + 1
procedure p(c: Fighter) -> int {
  let b = bonus[c.skill]
  return b * 2
}
",
    )
    .unwrap();
    let p = crate::compile_dir(dir.path())
        .0
        .expect("the ruleset checks");
    let code = crate::codegen::generate(&p).expect("it generates");
    let arith = "::rulesc_runtime::__private::arith";
    assert_eq!(
        statements(&code, "f").join(" "),
        format!("{arith}::add(bonus(c.skill), 1)")
    );
    assert_eq!(
        statements(&code, "p"),
        [
            "let b: i64 = bonus(c.skill);".to_string(),
            format!("{arith}::mul(b, 2)"),
        ]
    );
    let f = function(&code, "p");
    assert!(f.contains("key: c.skill.to_string(),"), "{f}");
    assert!(f.contains("value: b.to_string(),"), "{f}");
}

/// A function that may raise a rule error returns `Ok` of its value; a call of one is
/// followed by `?` (a formula's, in a traced procedure, recording the error in the trace
/// on its way up, as the interpreter does); an outcome a call gives back is bound.
#[test]
fn rule_errors_of_calls_pass_up_with_a_question_mark() {
    let code = generated(
        "outcome Res { Low, High(n: int) }
formula share(a: int, b: int) = a / b
formula grade(n: int) -> Res = if n > 3 then High(n: n) else Low
procedure p(c: Fighter, n: int) -> Res {
  let s = share(c.skill, n)
  if s > 1 {
    return grade(s)
  }
  return Low
}
",
    );
    assert!(PRINTED.with(|p| p.borrow().contains(&"p".to_string())));
    let f = function(&code, "p");
    assert!(
        f.contains("-> Result<Res, ::rulesc_runtime::RuleError>"),
        "{f}"
    );
    let body = statements(&code, "p").join(" ");
    for want in [
        "let s: i64 = share(c.skill, n) .map_err(|e| ::rulesc_runtime::__private::error::fail(&mut env.trace, e))?;",
        "let result = grade(s);",
        "return Ok(result);",
    ] {
        assert!(body.contains(want), "no `{want}` in {body}");
    }
    assert!(body.ends_with("Ok(Res::Low)"), "{body}");
}

/// A sum or an `and` chain of a hundred terms prints as links of at most `MAX_NEST`
/// (a value printed in place nests no deeper; a chain goes on from the value so far),
/// so its text grows with its length, not with its square.
#[test]
fn long_chains_print_in_links() {
    let sum = vec!["x"; 100].join(" + ");
    let all: Vec<String> = (0..100).map(|i| format!("x > {i}")).collect();
    let code = generated(&format!(
        "formula wide(x: int) -> int = {sum}\nformula tall(x: int) -> bool = {}\n",
        all.join(" and ")
    ));
    let printed = PRINTED.with(|p| p.borrow().clone());
    assert!(printed.contains(&"wide".to_string()) && printed.contains(&"tall".to_string()));
    let wide = statements(&code, "wide");
    // 99 additions, bound every 32 (the last one is the result).
    assert_eq!(
        wide.iter().filter(|l| l.starts_with("let ")).count(),
        3,
        "{wide:?}"
    );
    let tall = statements(&code, "tall").join(" ");
    assert_eq!(tall.matches(" && ").count(), 99, "{tall}");
    assert_eq!(tall.matches("= v# && ").count(), 3, "{tall}");
    assert!(
        tall.starts_with("let mut v# = x > 0 && x > 1 && "),
        "{tall}"
    );
}
