//! Class 6: scenarios and packs as strict as ruleset files.

use super::*;

#[test]
fn class_6_scenarios_and_packs_are_strict() {
    fn scenario(p: &Path, text: &str) {
        write(&p.join("s.yaml"), text);
    }
    fn pack(p: &Path, text: &str) {
        write(&p.join("pack.yaml"), text);
    }
    let trace = &["trace", "r", "s.yaml"][..];
    let check_pack = &["check", "--ruleset", "r", "pack.yaml"][..];
    let fails = |name, setup, args, code, file| case(name, setup, args, 1, code, file);
    check_all(&[
        fails(
            "args is a list",
            |p| {
                scenario(
                    p,
                    &SCENARIO
                        .replace("args: {", "args: [")
                        .replace("[10, 20] }", "[10, 20] ]"),
                )
            },
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "args is a number",
            |p| scenario(p, "run: attack\nargs: 7\n"),
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "decisions is a list",
            |p| {
                scenario(
                    p,
                    &SCENARIO
                        .replace("decisions: {", "decisions: [")
                        .replace("[1] }", "[1] ]"),
                )
            },
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "decisions is text",
            |p| {
                scenario(
                    p,
                    &SCENARIO.replace("decisions: { guard: [Low], pick: [1] }", "decisions: all"),
                )
            },
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "run is a list",
            |p| scenario(p, &SCENARIO.replace("run: attack", "run: [attack]")),
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "run is a number",
            |p| scenario(p, &SCENARIO.replace("run: attack", "run: 7")),
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "description is a mapping",
            |p| scenario(p, &format!("{SCENARIO}description: {{ a: 1 }}\n")),
            trace,
            "E0102",
            "s.yaml",
        ),
        fails(
            "an enum answer past its options",
            |p| scenario(p, &SCENARIO.replace("guard: [Low]", "guard: [2]")),
            trace,
            "E0403",
            "s.yaml",
        ),
        fails(
            "a negative answer",
            |p| scenario(p, &SCENARIO.replace("guard: [Low]", "guard: [-1]")),
            trace,
            "E0403",
            "s.yaml",
        ),
        fails(
            "an answer past 32 bits",
            |p| scenario(p, &SCENARIO.replace("guard: [Low]", "guard: [4294967296]")),
            trace,
            "E0403",
            "s.yaml",
        ),
        fails(
            "an answer past 64 bits",
            |p| {
                scenario(
                    p,
                    &SCENARIO.replace("pick: [1]", "pick: [99999999999999999999999]"),
                )
            },
            trace,
            "E0403",
            "s.yaml",
        ),
        fails(
            "a list answer past the list, found when it runs",
            |p| scenario(p, &SCENARIO.replace("pick: [1]", "pick: [2]")),
            trace,
            "E0403",
            "s.yaml",
        ),
        fails(
            "a face the die does not have",
            |p| scenario(p, &SCENARIO.replace("dice: [4]", "dice: [7]")),
            trace,
            "E0403",
            "s.yaml",
        ),
        fails(
            "records is a list",
            |p| pack(p, "pack: { name: extra }\nrecords: [a, b]\n"),
            check_pack,
            "E0102",
            "pack.yaml",
        ),
        fails(
            "records of a type is a list",
            |p| pack(p, "pack: { name: extra }\nrecords:\n  Weapon: [axe]\n"),
            check_pack,
            "E0102",
            "pack.yaml",
        ),
        fails(
            "pack: is a number",
            |p| pack(p, "pack: 3\n"),
            check_pack,
            "E0102",
            "pack.yaml",
        ),
        fails(
            "pack without a name",
            |p| pack(p, "pack: { ruleset: sandbox }\n"),
            check_pack,
            "E0106",
            "pack.yaml",
        ),
        fails(
            "pack name is a list",
            |p| pack(p, "pack: { name: [a] }\n"),
            check_pack,
            "E0102",
            "pack.yaml",
        ),
        fails(
            "pack name is not a name",
            |p| pack(p, "pack: { name: \"a b\" }\n"),
            check_pack,
            "E0302",
            "pack.yaml",
        ),
        fails(
            "pack ruleset is a number",
            |p| pack(p, "pack: { name: a, ruleset: 7 }\n"),
            check_pack,
            "E0102",
            "pack.yaml",
        ),
        fails(
            "pack with no header, for trace",
            |p| pack(p, "records: {}\n"),
            &["trace", "r", "s.yaml", "--pack", "pack.yaml"],
            "E0106",
            "pack.yaml",
        ),
    ]);
}
