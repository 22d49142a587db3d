//! The formatter's rules, one table each: input → expected output.

use super::*;

fn origin() -> Origin {
    Origin {
        file: 0,
        base: 0,
        fixed: None,
    }
}

fn fmt(text: &str) -> String {
    let mut d = Diagnostics::default();
    match format_rules(text, origin(), &mut d) {
        Some(out) => out,
        None => panic!("refused: {:?}\n{text}", d.items),
    }
}

fn table(cases: &[(&str, &str)]) {
    for (input, expected) in cases {
        let got = fmt(input);
        assert_eq!(&got, expected, "\ninput:\n{input}\ngot:\n{got}");
        assert_eq!(fmt(&got), got, "not idempotent on:\n{input}");
    }
}

#[test]
fn statements_are_indented_by_their_block() {
    table(&[
        (
            "procedure p() -> int {\nlet x = 1\n      if x == 1 {\n return 2\n   }\n    return x\n}\n",
            "procedure p() -> int {\n  let x = 1\n  if x == 1 {\n    return 2\n  }\n  return x\n}\n",
        ),
        (
            "procedure p() -> int {\n  if true {\n  return 1\n    } else if false {\nreturn 2\n} else {\n return 3\n  }\n}\n",
            "procedure p() -> int {\n  if true {\n    return 1\n  } else if false {\n    return 2\n  } else {\n    return 3\n  }\n}\n",
        ),
        (
            "  formula f(a: int) -> int = a\n    procedure q() {\n    for i in 0..3 {\n  q()\n   }\n  }\n",
            "formula f(a: int) -> int = a\nprocedure q() {\n  for i in 0..3 {\n    q()\n  }\n}\n",
        ),
    ]);
}

#[test]
fn arms_tags_and_clauses_are_indented() {
    table(&[
        (
            "outcome R {\nHit(level: int): \"a hit\",\n      Miss\n   }\n",
            "outcome R {\n  Hit(level: int): \"a hit\",\n  Miss\n}\n",
        ),
        (
            "procedure p(r: R) {\nmatch r {\nHit(l) => {\nreturn\n}\n     Miss => return\n}\n}\n",
            "procedure p(r: R) {\n  match r {\n    Hit(l) => {\n      return\n    }\n    Miss => return\n  }\n}\n",
        ),
        // A `match` expression continuing a formula: its arms two past its line.
        (
            "formula f(r: R) -> int =\n    match r {\n  Hit(l) => l,\n        Miss => 0\n        }\n",
            "formula f(r: R) -> int =\n    match r {\n      Hit(l) => l,\n      Miss => 0\n    }\n",
        ),
        (
            "fight of C {\norder(c) = c.speed\n      ties together\n}\n",
            "fight of C {\n  order(c) = c.speed\n  ties together\n}\n",
        ),
    ]);
}

#[test]
fn continuation_lines_keep_their_alignment() {
    table(&[
        // Already tidy: unchanged.
        (
            "formula f(a: int,\n          b: int) -> int =\n  max(a,\n      b)\n",
            "formula f(a: int,\n          b: int) -> int =\n  max(a,\n      b)\n",
        ),
        // The statement moves by two; its continuation moves with it.
        (
            "procedure p() -> int {\nreturn max(1,\n           2)\n}\n",
            "procedure p() -> int {\n  return max(1,\n             2)\n}\n",
        ),
    ]);
}

#[test]
fn operators_get_one_space_either_side() {
    table(&[
        (
            "formula f(a: int, b: int) -> bool = a+b*2>=3-a  and   not b<1 or a%2!=0\n",
            "formula f(a: int, b: int) -> bool = a + b * 2 >= 3 - a and not b < 1 or a % 2 != 0\n",
        ),
        // Unary minus, types and ranges are not binary operators.
        (
            "procedure p(l: list<int>, x: int(-3..4)) {\nlet y=-x\ny+=  -1\ny -=2\nfor i in 0..len(l) {\n}\n}\n",
            "procedure p(l: list<int>, x: int(-3..4)) {\n  let y = -x\n  y += -1\n  y -= 2\n  for i in 0..len(l) {\n  }\n}\n",
        ),
        (
            "formula f(a: int)->int=a\nprocedure p(r: R)  ->  int {\nmatch r {\nHit(l)=>return l==1\nMiss  =>  p(r)\n}\nlet z: int=match r { Hit(l)=>1, Miss=>2 }\n}\n",
            "formula f(a: int) -> int = a\nprocedure p(r: R) -> int {\n  match r {\n    Hit(l) => return l == 1\n    Miss => p(r)\n  }\n  let z: int = match r { Hit(l) => 1, Miss => 2 }\n}\n",
        ),
        (
            "fight of C {\n  order(c)=c.speed\n  out(c)  =  c.down\n  when (c) c.hp<1=fall\n}\n",
            "fight of C {\n  order(c) = c.speed\n  out(c) = c.down\n  when (c) c.hp < 1 = fall\n}\n",
        ),
        // An operator starting a continuation line keeps the line's indent.
        (
            "formula f(a: int) -> int =\n  a\n    +   1\n",
            "formula f(a: int) -> int =\n  a\n    + 1\n",
        ),
    ]);
}

#[test]
fn comments_are_kept_where_they_are() {
    table(&[
        // At the end of a line: kept exactly, code before it respaced only around ops.
        (
            "formula f(a: int) -> int = a+1   //  one   more  \n",
            "formula f(a: int) -> int = a + 1   //  one   more\n",
        ),
        // On their own line: as the code that follows.
        (
            "// top\n  // of file\nprocedure p() {\n      // before\n  let x = 1 # hash a+b\n // inside, last\n}\n// end\n",
            "// top\n// of file\nprocedure p() {\n  // before\n  let x = 1 # hash a+b\n  // inside, last\n}\n// end\n",
        ),
        // Before `} else {`: inside the block it ends.
        (
            "procedure p() {\n  if true {\n    p()\n// why\n  } else {\n    p()\n  }\n}\n",
            "procedure p() {\n  if true {\n    p()\n    // why\n  } else {\n    p()\n  }\n}\n",
        ),
        // Comment text that looks like code or braces is not code.
        (
            "procedure p() { // {\n  p() // }\n}\n",
            "procedure p() { // {\n  p() // }\n}\n",
        ),
    ]);
}

#[test]
fn blank_lines_and_whitespace_are_normalised() {
    table(&[
        (
            "\n\nformula a() -> int = 1   \n\n\n\nformula b() -> int = 2\t\n\n\n",
            "formula a() -> int = 1\n\nformula b() -> int = 2\n",
        ),
        ("formula a() -> int = 1", "formula a() -> int = 1\n"),
        (
            "formula a() -> int = 1\r\n\r\n\r\nformula b() -> int = 2\r\n",
            "formula a() -> int = 1\n\nformula b() -> int = 2\n",
        ),
        ("procedure p() {\n\tp()\n}\n", "procedure p() {\n  p()\n}\n"),
        (
            "procedure p() {\n\r p()\r\r\n}\r",
            "procedure p() {\n  p()\n}\n",
        ),
        ("", ""),
        // Only ASCII whitespace is layout: a no-break space ending a comment stays.
        (
            "// note\u{a0}\nformula a() -> int = 1 // x\u{a0}\u{a0}  \n",
            "// note\u{a0}\nformula a() -> int = 1 // x\u{a0}\u{a0}\n",
        ),
        ("// only a comment", "// only a comment\n"),
    ]);
}

#[test]
fn labels_are_never_touched() {
    table(&[(
        "outcome R {\n  Miss: \"a+b  //  not a comment\"\n}\n",
        "outcome R {\n  Miss: \"a+b  //  not a comment\"\n}\n",
    )]);
}

#[test]
fn a_file_that_does_not_parse_is_refused() {
    for bad in [
        "procedure p( {\n",
        "formula f() -> int = 1 +\n",
        "outcome R { Hit\n",
        "procedure p() { let let = 1 }\n",
    ] {
        let mut d = Diagnostics::default();
        assert_eq!(format_rules(bad, origin(), &mut d), None, "{bad}");
        assert!(
            d.items.iter().any(|x| x.code == "E0201"),
            "{bad}: {:?}",
            d.items
        );
    }
}
