//! Issue 28, class 8: shapes that were accepted and then ignored (a pack record copying
//! itself, dropped without a word) are diagnostics where they are written.

use super::*;

#[test]
fn class_8_a_copy_names_a_record_read_before_it() {
    fn pack(p: &Path, records: &str) {
        write(
            &p.join("pack.yaml"),
            &format!("pack: {{ name: extra, ruleset: sandbox }}\nrecords:\n  Weapon:\n{records}"),
        );
    }
    let check_pack = &["check", "--ruleset", "r", "pack.yaml"][..];
    let build_pack = &["build", "r", "--pack", "pack.yaml", "-o", "out.rs"][..];
    let fails = |name, setup, args, code, file| case(name, setup, args, 1, code, file);
    check_all(&[
        // Was accepted, and the record silently left out of the pack.
        fails(
            "a record copying itself",
            |p| pack(p, "    zweihander: { _copy: zweihander, damage: 4 }\n"),
            check_pack,
            "E0411",
            "pack.yaml",
        ),
        fails(
            "a record copying itself, built",
            |p| pack(p, "    zweihander: { _copy: zweihander, damage: 4 }\n"),
            build_pack,
            "E0411",
            "pack.yaml",
        ),
        fails(
            "two records copying each other",
            |p| pack(p, "    a: { _copy: b, damage: 4 }\n    b: { _copy: a }\n"),
            check_pack,
            "E0411",
            "pack.yaml",
        ),
        fails(
            "a copy of a record further down",
            |p| pack(p, "    a: { _copy: b }\n    b: { damage: 5 }\n"),
            check_pack,
            "E0411",
            "pack.yaml",
        ),
        fails(
            "a copy of no record",
            |p| pack(p, "    a: { _copy: nothing }\n"),
            check_pack,
            "E0411",
            "pack.yaml",
        ),
        // A copy of the ruleset's record, and of one above in the pack, are fine.
        case(
            "copies of records read before",
            |p| {
                pack(
                    p,
                    "    a: { _copy: sword, damage: 4 }\n    b: { _copy: a }\n",
                )
            },
            check_pack,
            0,
            "",
            "",
        ),
    ]);
}

#[test]
fn class_8_and_9_shapes_in_a_ruleset_are_one_diagnostic_where_written() {
    // Another file of the ruleset: a section may be split across files.
    fn ruleset(p: &Path, extra: &str) {
        write(&p.join("r/extra.yaml"), extra);
    }
    fn rules(p: &Path, extra: &str) {
        write(&p.join("r/attack.rules"), &format!("{RULES}{extra}"));
    }
    let check = &["check", "r"][..];
    let build = &["build", "r", "-o", "out.rs"][..];
    let fails = |name, setup, args, code, file| case(name, setup, args, 1, code, file);
    check_all(&[
        // Accepted, then shadowed by the built-in type ("cannot compare bool with bool").
        fails(
            "an enum named bool",
            |p| ruleset(p, "scales:\n  bool: [Low, High]\n"),
            check,
            "E0302",
            "r/extra.yaml",
        ),
        fails(
            "a record type named int, built",
            |p| ruleset(p, "types:\n  int:\n    n: int\n"),
            build,
            "E0302",
            "r/extra.yaml",
        ),
        fails(
            "an outcome named dice",
            |p| rules(p, "outcome dice { Hit, Miss }\n"),
            check,
            "E0302",
            "r/attack.rules",
        ),
        // More dice than a roll throws, known before running.
        fails(
            "constant dice times a constant past 1,000",
            |p| {
                rules(
                    p,
                    "procedure volley() -> int {\n  return roll (d6 * 1001)\n}\n",
                )
            },
            build,
            "E0332",
            "r/attack.rules",
        ),
        fails(
            "constant dice times a negative constant",
            |p| {
                rules(
                    p,
                    "procedure volley() -> int {\n  return roll (2d6 * -1)\n}\n",
                )
            },
            check,
            "E0332",
            "r/attack.rules",
        ),
        fails(
            "a scale past 255 levels",
            |p| {
                let levels: Vec<String> = (0..256).map(|i| format!("L{i}")).collect();
                ruleset(p, &format!("scales:\n  Rank: [{}]\n", levels.join(", ")));
                rules(p, "formula top() = L255\n");
            },
            check,
            "E0360",
            "r/extra.yaml",
        ),
    ]);
}
