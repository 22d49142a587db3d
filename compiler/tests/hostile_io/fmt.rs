//! `rulesc fmt` on a hostile project: it rewrites only the `.rules` files that change,
//! never follows a link (out of the project, or over a file), holds the parser's limits,
//! and refuses what is not a regular file.

use super::*;

const UNTIDY: &str = "procedure attack(bonus: int) -> int {\nreturn bonus+1\n}\n";

#[test]
fn fmt_writes_only_the_rules_files_that_change_and_follows_no_link() {
    check_all(&[
        case(
            "fmt an untidy file",
            |p| write(&p.join("r/attack.rules"), UNTIDY),
            &["fmt", "r"],
            0,
            "",
            "",
        )
        .writes("r/attack.rules"),
        case(
            "fmt --check an untidy file",
            |p| write(&p.join("r/attack.rules"), UNTIDY),
            &["fmt", "--check", "r"],
            1,
            "",
            "",
        ),
        case(
            "fmt a folder linking out of the project",
            |p| {
                write(&p.join("../outside/evil.rules"), UNTIDY);
                link("../../outside", &p.join("r/out"));
                link("../../outside/evil.rules", &p.join("r/evil.rules"));
            },
            &["fmt", "r"],
            0,
            "",
            "",
        ),
        case(
            "fmt a link to a secret",
            |p| link("../outside/secret.yaml", &p.join("s.rules")),
            &["fmt", "s.rules"],
            1,
            "E0009",
            "s.rules",
        ),
        case(
            "fmt a FIFO",
            |p| mkfifo(&p.join("f.rules")),
            &["fmt", "f.rules"],
            1,
            "E0009",
            "f.rules",
        ),
        case(
            "fmt a file too large",
            |p| write(&p.join("big.rules"), &"// padding\n".repeat(200_000)),
            &["fmt", "big.rules"],
            1,
            "E0203",
            "big.rules",
        ),
        case(
            "fmt a file nested too deep",
            |p| {
                let deep = format!(
                    "formula f() -> int = {}1{}\n",
                    "(".repeat(500),
                    ")".repeat(500)
                );
                write(&p.join("deep.rules"), &deep)
            },
            &["fmt", "deep.rules"],
            1,
            "E0202",
            "deep.rules",
        ),
        case(
            "fmt a file that does not parse",
            |p| write(&p.join("r/attack.rules"), "procedure attack( {\n"),
            &["fmt", "r"],
            1,
            "E0201",
            "r/attack.rules",
        ),
        case(
            "fmt a hidden folder's files are not searched",
            |p| write(&p.join("r/.hidden/x.rules"), UNTIDY),
            &["fmt", "--check", "r"],
            0,
            "",
            "",
        ),
        case(
            "fmt YAML",
            nothing,
            &["fmt", "r/ruleset.yaml"],
            2,
            "E0012",
            "",
        ),
    ]);
}
