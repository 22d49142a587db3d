//! Every scenario under `examples/<ruleset>/` replays through the interpreter, and its
//! trace is kept as a snapshot a reader can follow against the seed's paragraph.

#[test]
fn scenario_traces() {
    insta::glob!("../../examples", "*/*.yaml", |scenario| {
        let ruleset = scenario.parent().unwrap().file_name().unwrap();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rules")
            .join(ruleset);
        let name = scenario.file_name().unwrap().to_string_lossy();
        if !dir.is_dir() || name.ends_with("fight.yaml") {
            return; // not a scenario (homebrew packs, variants, fight files: `*fight.yaml`)
        }
        let (program, diags, _) = rulesc::compile_dir(&dir);
        let program = program.unwrap_or_else(|| panic!("{}: {:?}", dir.display(), diags.items));
        let trace = match rulesc::scenario::run_file(&program, scenario, 0) {
            Ok(t) => t,
            Err((diags, _)) => panic!("{}: {:?}", scenario.display(), diags.items),
        };
        assert!(
            !trace.contains("note:"),
            "{}: the scenario does not fit its rules exactly:\n{trace}",
            scenario.display()
        );
        insta::assert_snapshot!(trace);
    });
}
