//! Class 2: writing only the output, never through a link, and concurrent builds.

use super::*;

#[test]
fn class_2_writing_only_the_output_never_through_a_link() {
    check_all(&[
        case(
            "build into a new file in a missing folder",
            nothing,
            &["build", "r", "-o", "gen/deep/out.rs"],
            0,
            "",
            "",
        )
        .writes("gen"),
        case(
            "build over one of its inputs",
            nothing,
            &["build", "r", "-o", "r/attack.rules"],
            1,
            "E0010",
            "r/attack.rules",
        ),
        case(
            "build over a pack it reads",
            nothing,
            &["build", "r", "-o", "pack.yaml", "--pack", "pack.yaml"],
            1,
            "E0010",
            "pack.yaml",
        ),
        case(
            "build over a hard link to an input",
            |p| std::fs::hard_link(p.join("r/ruleset.yaml"), p.join("out.rs")).unwrap(),
            &["build", "r", "-o", "out.rs"],
            1,
            "E0010",
            "out.rs",
        ),
        case(
            "build over a link to an input",
            |p| link("r/ruleset.yaml", &p.join("out.rs")),
            &["build", "r", "-o", "out.rs"],
            1,
            "E0010",
            "out.rs",
        ),
        case(
            "build into a folder",
            |p| std::fs::create_dir(p.join("out.rs")).unwrap(),
            &["build", "r", "-o", "out.rs"],
            1,
            "E0010",
            "out.rs",
        ),
        case(
            "build into a FIFO",
            |p| mkfifo(&p.join("out.rs")),
            &["build", "r", "-o", "out.rs"],
            1,
            "E0010",
            "out.rs",
        ),
        case(
            "build into a link to a FIFO",
            |p| {
                mkfifo(&p.join("fifo"));
                link("fifo", &p.join("out.rs"));
            },
            &["build", "r", "-o", "out.rs"],
            1,
            "E0010",
            "out.rs",
        ),
        case(
            "build into /dev/null",
            nothing,
            &["build", "r", "-o", "/dev/null"],
            1,
            "E0010",
            "/dev/null",
        ),
        // The link is replaced by the output; the file it led to is untouched.
        case(
            "build into a planted link to a file outside",
            |p| link("../outside/victim.rs", &p.join("out.rs")),
            &["build", "r", "-o", "out.rs"],
            0,
            "",
            "",
        )
        .writes("out.rs"),
        case(
            "build into a planted link to a folder outside",
            |p| link("../outside", &p.join("out.rs")),
            &["build", "r", "-o", "out.rs"],
            1,
            "E0010",
            "out.rs",
        ),
        case(
            "all with --out a regular file",
            |p| write(&p.join("gen"), "not a folder\n"),
            &["all", ".", "--out", "gen"],
            1,
            "E0011",
            "gen/sandbox.rs",
        ),
        case(
            "all writing over a scenario it traces",
            |p| write(&p.join("gen/sandbox.rs"), SCENARIO),
            &["all", ".", "--out", "gen", "--trace", "gen/sandbox.rs"],
            1,
            "E0010",
            "gen/sandbox.rs",
        ),
        case(
            "schema into a folder with a link to /dev/null",
            |p| {
                std::fs::create_dir(p.join("sch")).unwrap();
                link("/dev/null", &p.join("sch/pack.schema.json"));
            },
            &["schema", "--out", "sch"],
            1,
            "E0010",
            "sch/pack.schema.json",
        )
        .writes("sch"),
    ]);
}

/// `all` needs a folder of rulesets: the sandbox's project is one (holding `r/`).
#[test]
fn class_2_concurrent_builds_each_leave_one_complete_file() {
    let root = sandbox("concurrent");
    let proj = root.join("proj");
    // A second ruleset with different generated code, so a mix would show.
    write(
        &proj.join("q/ruleset.yaml"),
        &RULESET.replace("sword", "mace"),
    );
    write(&proj.join("q/attack.rules"), RULES);
    let expected: Vec<Vec<u8>> = ["r", "q"]
        .iter()
        .map(|r| {
            let out = format!("{r}.rs");
            let o = bounded::rulesc(&["build", r, "-o", &out], Some(&proj));
            assert!(o.status.success());
            std::fs::read(proj.join(out)).unwrap()
        })
        .collect();
    assert_ne!(expected[0], expected[1]);
    for round in 0..4 {
        let handles: Vec<_> = (0..6)
            .map(|i| {
                let proj = proj.clone();
                std::thread::spawn(move || {
                    let r = if i % 2 == 0 { "r" } else { "q" };
                    bounded::rulesc(&["build", r, "-o", "gen/out.rs"], Some(&proj))
                })
            })
            .collect();
        for h in handles {
            let o = h.join().unwrap();
            assert!(
                o.status.success(),
                "round {round}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        let got = std::fs::read(proj.join("gen/out.rs")).unwrap();
        assert!(expected.contains(&got), "round {round}: a mixed file");
        let left: Vec<_> = std::fs::read_dir(proj.join("gen"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["out.rs"], "round {round}: temporary files left");
    }
}
