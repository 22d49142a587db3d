//! Round three, class 1: an output never replaces a file the run reads. Rulesets and
//! packs were refused before; a scenario (and, for `diff`, the base's files, which the
//! variant's program does not hold) were not, so `--svg` over them replaced the
//! writer's file with a chart.

use super::*;

/// A variant of the sandbox's ruleset that does not extend it, so the base's files are
/// read only by the base's run.
fn variant(p: &Path) {
    write(
        &p.join("v/ruleset.yaml"),
        &RULESET.replace("damage: 2", "damage: 3"),
    );
    write(&p.join("v/attack.rules"), RULES);
}

#[test]
fn class_1_an_output_never_replaces_a_file_the_run_reads() {
    check_all(&[
        case(
            "analyze --svg over the scenario it analyzes",
            nothing,
            &["analyze", "r", "s.yaml", "--svg", "s.yaml"],
            1,
            "E0010",
            "s.yaml",
        ),
        case(
            "analyze --svg over a link to the scenario",
            |p| link("s.yaml", &p.join("chart.svg")),
            &["analyze", "r", "s.yaml", "--svg", "chart.svg"],
            1,
            "E0010",
            "chart.svg",
        ),
        case(
            "analyze --svg over a hard link to the scenario",
            |p| std::fs::hard_link(p.join("s.yaml"), p.join("chart.svg")).unwrap(),
            &["analyze", "r", "s.yaml", "--svg", "chart.svg"],
            1,
            "E0010",
            "chart.svg",
        ),
        case(
            "analyze --svg over a scenario read through a link",
            |p| link("s.yaml", &p.join("via.yaml")),
            &["analyze", "r", "via.yaml", "--svg", "s.yaml"],
            1,
            "E0010",
            "s.yaml",
        ),
        case(
            "analyze --svg over its ruleset",
            nothing,
            &["analyze", "r", "s.yaml", "--svg", "r/attack.rules"],
            1,
            "E0010",
            "r/attack.rules",
        ),
        case(
            "analyze --svg over its pack",
            nothing,
            &[
                "analyze",
                "r",
                "s.yaml",
                "--pack",
                "pack.yaml",
                "--svg",
                "pack.yaml",
            ],
            1,
            "E0010",
            "pack.yaml",
        ),
        case(
            "analyze --svg into a new file",
            nothing,
            &["analyze", "r", "s.yaml", "--svg", "chart.svg"],
            0,
            "",
            "",
        )
        .writes("chart.svg"),
        case(
            "diff --svg over the scenario",
            variant,
            &["diff", "r", "v", "s.yaml", "--svg", "s.yaml"],
            1,
            "E0010",
            "s.yaml",
        ),
        case(
            "diff --svg over a file of the base",
            variant,
            &["diff", "r", "v", "s.yaml", "--svg", "r/ruleset.yaml"],
            1,
            "E0010",
            "r/ruleset.yaml",
        ),
        case(
            "diff --svg over a file of the variant",
            variant,
            &["diff", "r", "v", "s.yaml", "--svg", "v/attack.rules"],
            1,
            "E0010",
            "v/attack.rules",
        ),
        case(
            "diff --svg over a pack both runs read",
            variant,
            &[
                "diff",
                "r",
                "v",
                "s.yaml",
                "--pack",
                "pack.yaml",
                "--svg",
                "pack.yaml",
            ],
            1,
            "E0010",
            "pack.yaml",
        ),
        case(
            "diff --svg into a new file",
            variant,
            &["diff", "r", "v", "s.yaml", "--svg", "chart.svg"],
            0,
            "",
            "",
        )
        .writes("chart.svg"),
        case(
            "export -o over a pack it reads",
            nothing,
            &["export", "r", "--pack", "pack.yaml", "-o", "pack.yaml"],
            1,
            "E0010",
            "pack.yaml",
        ),
    ]);
}
