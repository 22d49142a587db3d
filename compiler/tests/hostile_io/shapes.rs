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
