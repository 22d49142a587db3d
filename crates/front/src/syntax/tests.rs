//! The parser against the writer's mistakes and the grammar's corners.

use super::*;
use rulesc_runtime::dice::Keep;
use rulesc_runtime::DiceSpec;

fn origin() -> Origin {
    Origin {
        file: 0,
        base: 0,
        fixed: None,
    }
}

#[test]
fn parses_a_procedure() {
    let mut d = Diagnostics::default();
    let items = parse_file(
        "procedure p(a: Combatant) -> Result {\n let x = roll d12! + a.b\n if natural(x) == 1 { return Fail }\n letter = 3\n return Hit(level: Minor)\n}",
        origin(),
        &mut d,
    );
    assert!(d.items.is_empty(), "{:?}", d.items);
    assert_eq!(items.len(), 1);
    let Item::Function {
        body: Body::Block(b),
        ..
    } = &items[0]
    else {
        panic!()
    };
    assert_eq!(b.stmts.len(), 4);
    assert!(
        matches!(b.stmts[2].kind, StmtKind::Assign(..)),
        "`letter = 3` is an assignment"
    );
}

#[test]
fn syntax_errors_speak_the_writers_words() {
    let mut d = Diagnostics::default();
    parse_file("procedure p( { }", origin(), &mut d);
    assert_eq!(d.items.len(), 1);
    assert!(
        d.items[0].message.contains("this `(` is never closed"),
        "{}",
        d.items[0].message
    );
    let mut d = Diagnostics::default();
    parse_file("procedure p() -> { }", origin(), &mut d);
    assert_eq!(d.items.len(), 1);
    assert!(
        d.items[0].message.contains("expected"),
        "{}",
        d.items[0].message
    );
    assert!(
        !d.items[0].message.contains("Rule"),
        "{}",
        d.items[0].message
    );
}

#[test]
fn deep_nesting_is_refused_before_parsing() {
    let mut d = Diagnostics::default();
    let text = format!(
        "formula f() = {}1{}",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    parse_file(&text, origin(), &mut d);
    assert_eq!(d.items[0].code, "E0202");
}

/// Nesting the grammar parses recursively with no bracket counts too (the syntax tree's
/// builder overflowed its stack at 3,000 of them): `if` expressions in conditions, in
/// `then`s, in `else if` chains and in sums after an `else`, `roll roll ..`,
/// `fill .. at fill ..`, prefix `-`. 64 levels parse, 65 are E0202.
#[test]
fn nesting_with_no_brackets_counts() {
    let texts = |n: usize| {
        [
            format!(
                "formula f(x: int) -> int = {}x{}",
                "if x > 0 then ".repeat(n),
                " else 0".repeat(n)
            ),
            format!(
                "formula f(x: int) -> int = {}0",
                "if x == 1 then 1 else ".repeat(n)
            ),
            format!(
                "formula f(x: int) -> int = {}x",
                "if x > 0 then 0 else x + ".repeat(n)
            ),
            format!(
                "formula f(x: int) -> bool = {}x > 0{}",
                "if ".repeat(n),
                " then true else false".repeat(n)
            ),
            format!(
                "procedure p() -> int {{ return {}d6 }}",
                "roll ".repeat(n - 1)
            ),
            format!(
                "procedure p(t: T) {{ {}1 }}",
                "fill t at 1 + ".repeat(n - 1)
            ),
            format!("formula f(x: int) -> int = {}x", "- ".repeat(n)),
        ]
    };
    for (n, want) in [(64, Vec::<&str>::new()), (65, vec!["E0202"])] {
        for text in texts(n) {
            // 64 levels are parsed by recursion, on the CLI's stack as `rulesc` does (a
            // debug build needs more than a test's 2 MiB for them).
            let codes = std::thread::Builder::new()
                .stack_size(crate::WORKER_STACK)
                .spawn(move || {
                    let mut d = Diagnostics::default();
                    parse_file(&text, origin(), &mut d);
                    let codes: Vec<&str> = d.items.iter().map(|d| d.code).collect();
                    (codes, text)
                })
                .unwrap()
                .join()
                .unwrap();
            assert_eq!(codes.0, want, "{n}: {}", &codes.1[..80]);
        }
    }
}

/// What is not nested is not counted: statements in a row that each leave an expression
/// open where they end (`fill t at Severe`, an `if` expression assigned), and chains of
/// operators whose operands are rolls, negations, `not`s and `if` expressions.
#[test]
fn statements_and_chains_are_not_nesting() {
    let fills = "  fill t at Severe\n".repeat(200);
    let ifs = "  x = if x > 0 then 1 else 2\n".repeat(200);
    let rolls = vec!["roll d6"; 1_000].join(" + ");
    let negations = vec!["-x"; 1_000].join(" * ");
    let nots = vec!["not b"; 1_000].join(" and ");
    let choices = vec!["(if b then 1 else 2)"; 1_000].join(" - ");
    let text = format!(
        "procedure p(t: T, x: int, b: bool) {{\n{fills}{ifs}  x = {rolls}\n  x = {negations}\n  b = {nots}\n  x = {choices}\n}}\n"
    );
    let mut d = Diagnostics::default();
    let items = parse_file(&text, origin(), &mut d);
    assert!(d.items.is_empty(), "{:?}", d.items);
    assert_eq!(items.len(), 1);
}

#[test]
fn dice_literals() {
    let mut d = Diagnostics::default();
    let e = parse_expr("2d20kh1 + d12!", origin(), &mut d).unwrap();
    assert!(d.items.is_empty());
    let ExprKind::Binary(_, a, b) = e.kind else {
        panic!()
    };
    assert_eq!(
        a.kind,
        ExprKind::Dice(DiceSpec {
            keep: Keep::Highest(1),
            ..DiceSpec::new(2, 20)
        })
    );
    assert_eq!(
        b.kind,
        ExprKind::Dice(DiceSpec {
            explode: true,
            ..DiceSpec::new(1, 12)
        })
    );
    parse_expr("99999d99999", origin(), &mut d);
    assert_eq!(d.items.len(), 1);
}

/// A deleted `}` is blamed on the block that lacks it, found by indentation, not on the
/// procedure's `{` that the brackets leave open; at the end of the text nothing but the
/// `{` is shown (no empty second snippet).
#[test]
fn a_deleted_brace_blames_the_block_that_lacks_it() {
    let inner = "procedure p(x: int) -> int {\n  if x > 1 {\n    return 1\n\n  return 2\n}\n";
    let outer = "procedure p(x: int) -> int {\n  if x > 1 {\n    return 1\n  }\n  return 2\n";
    let at = |text: &str, d: &Diagnostics| {
        let s = d.items[0].span.start as usize;
        let line = text[..s].matches('\n').count() + 1;
        let notes: Vec<usize> = d.items[0]
            .notes
            .iter()
            .map(|n| text[..n.span.start as usize].matches('\n').count() + 1)
            .collect();
        (line, notes)
    };
    for (text, line, notes) in [(inner, 2, vec![6]), (outer, 1, vec![])] {
        let mut d = Diagnostics::default();
        parse_file(text, origin(), &mut d);
        assert_eq!(d.items.len(), 1, "{:?}", d.items);
        assert!(d.items[0].message.contains("this `{` is never closed"));
        assert_eq!(at(text, &d), (line, notes), "{text}");
    }
    // Brackets that pair up as they are indented blame nothing by indentation.
    let mut d = Diagnostics::default();
    parse_file(
        "procedure p(x: int) -> int {\n  if x > 1 { return 1 }\n  return (2\n}\n",
        origin(),
        &mut d,
    );
    assert!(d.items[0].message.contains("this `(` is never closed"));
}

/// The hand-made messages read the text around the error without slicing inside a
/// character (a multi-byte character just before the parser's stop once could).
#[test]
fn hand_made_help_is_safe_around_multibyte_text() {
    for text in [
        "procedure p() {\n  let x = 1 é\n  Hit(a) => 1\n}\n",
        "procedure p() {\n  let y = 1 // éxxxxx\n  => 1\n}\n",
        "formula f() = 1 < 2 é < 3\n",
        "procedure p() {\n  match x {\n    Miss => return\n    Hit(a) => { return }\n  }\n}\n",
    ] {
        let mut d = Diagnostics::default();
        parse_file(text, origin(), &mut d);
        assert!(d.has_errors(), "{text}");
    }
}

/// A pair's span ends at its last token: pest leaves the whitespace and comments after
/// it inside the pair, which a label would underline.
#[test]
fn a_span_ends_at_its_last_token() {
    let cases = [
        ("roll d6 ", "roll d6"),
        ("roll d6\t\r\n  ", "roll d6"),
        ("c.hp <= 0 # out when down\n  ", "c.hp <= 0"),
        ("c.hp <= 0 // out\n  # and more\n  // still\n", "c.hp <= 0"),
        ("{\n  x # a\n} # after\n", "{\n  x # a\n}"),
        ("Miss: \"no # blow\" # a comment", "Miss: \"no # blow\""),
        ("Miss: \"a // b\"", "Miss: \"a // b\""),
        ("a / b ", "a / b"),
        ("x", "x"),
        ("", ""),
    ];
    for (text, code) in cases {
        assert_eq!(&text[..code_len(text)], code, "{text:?}");
    }
}
