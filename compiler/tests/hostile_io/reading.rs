//! Class 1: reading only regular files inside the project, within the budget.

use super::*;

#[test]
fn class_1_reading_only_regular_files_inside_the_project_within_budget() {
    check_all(&[
        case(
            "the sandbox itself is fine",
            nothing,
            &["trace", "r", "s.yaml", "--pack", "pack.yaml"],
            0,
            "",
            "",
        ),
        case(
            "ruleset.yaml is a FIFO",
            |p| {
                std::fs::remove_file(p.join("r/ruleset.yaml")).unwrap();
                mkfifo(&p.join("r/ruleset.yaml"));
            },
            &["check", "r"],
            1,
            "E0009",
            "r/ruleset.yaml",
        ),
        case(
            "a FIFO found in the folder",
            |p| mkfifo(&p.join("r/extra.rules")),
            &["check", "r"],
            1,
            "E0009",
            "r/extra.rules",
        ),
        case(
            "a socket found in the folder",
            |p| socket(&p.join("r/sock.yaml")),
            &["check", "r"],
            1,
            "E0009",
            "r/sock.yaml",
        ),
        case(
            "a folder named like a YAML file",
            |p| std::fs::create_dir(p.join("r/sub.yaml")).unwrap(),
            &["check", "r"],
            1,
            "E0009",
            "r/sub.yaml",
        ),
        case(
            "a scenario that is a FIFO",
            |p| mkfifo(&p.join("fifo.yaml")),
            &["trace", "r", "fifo.yaml"],
            1,
            "E0009",
            "fifo.yaml",
        ),
        case(
            "a scenario that is /dev/zero",
            nothing,
            &["trace", "r", "/dev/zero"],
            1,
            "E0009",
            "/dev/zero",
        ),
        case(
            "a scenario linked to /dev/zero",
            |p| link("/dev/zero", &p.join("zero.yaml")),
            &["analyze", "r", "zero.yaml"],
            1,
            "E0009",
            "zero.yaml",
        ),
        case(
            "a pack that is a socket",
            |p| socket(&p.join("sock.yaml")),
            &["check", "--ruleset", "r", "sock.yaml"],
            1,
            "E0009",
            "sock.yaml",
        ),
        case(
            "a pack that is a FIFO, for build",
            |p| mkfifo(&p.join("fifo.yaml")),
            &["build", "r", "-o", "out.rs", "--pack", "fifo.yaml"],
            1,
            "E0009",
            "fifo.yaml",
        ),
        case(
            "a link in the folder to a secret outside the project",
            |p| link("../../outside/secret.yaml", &p.join("r/leak.yaml")),
            &["check", "r"],
            1,
            "E0008",
            "r/leak.yaml",
        ),
        case(
            "a link in the folder to /dev/zero",
            |p| link("/dev/zero", &p.join("r/zero.rules")),
            &["check", "r"],
            1,
            "E0008",
            "r/zero.rules",
        ),
        case(
            "a link in the folder that leads nowhere",
            |p| link("nowhere.yaml", &p.join("r/dangling.yaml")),
            &["check", "r"],
            1,
            "E0008",
            "r/dangling.yaml",
        ),
        case(
            "a link in the folder to a file inside the project is read",
            |p| {
                write(&p.join("shared/more.rules"), "formula two() = 2\n");
                link("../shared/more.rules", &p.join("r/more.rules"));
            },
            &["trace", "r", "s.yaml"],
            0,
            "",
            "",
        ),
        case(
            "many large files past the run's byte budget",
            |p| {
                let line = format!("# {}\n", "a".repeat(1000));
                let big = line.repeat(3900);
                for i in 0..9 {
                    write(&p.join(format!("r/big{i}.yaml")), &big);
                }
            },
            &["check", "r"],
            1,
            "E0003",
            "r/big8.yaml",
        ),
        case(
            "many alias-heavy files past the run's YAML node budget",
            |p| {
                let items = vec!["1"; 150].join(", ");
                let refs = vec!["*a"; 900].join(", ");
                let text = format!("a: &a [{items}]\nb: [{refs}]\n");
                for i in 0..8 {
                    write(&p.join(format!("r/nodes{i}.yaml")), &text);
                }
            },
            &["check", "r"],
            1,
            "E0105",
            "r/nodes7.yaml",
        ),
        case(
            "packs past the run's byte budget",
            |p| {
                let big = format!("pack: {{ name: big }}\n{}", "# pad\n".repeat(650_000));
                for i in 0..9 {
                    write(&p.join(format!("big{i}.yaml")), &big);
                }
            },
            &[
                "trace",
                "r",
                "s.yaml",
                "--pack",
                "big0.yaml",
                "big1.yaml",
                "big2.yaml",
                "big3.yaml",
                "big4.yaml",
                "big5.yaml",
                "big6.yaml",
                "big7.yaml",
                "big8.yaml",
            ],
            1,
            "E0003",
            "big8.yaml",
        ),
    ]);
}
