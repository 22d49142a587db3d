//! The JSON Schemas for editors: the committed copies in `schemas/` are what
//! `rulesc schema` writes today, and every shipped YAML file names its schema on its
//! first line and validates against it.

use rulesc::diag::Diagnostics;
use rulesc::source::SourceFile;
use rulesc::yaml::{YNode, YValue};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn to_json(n: &YNode) -> Value {
    match &n.value {
        YValue::Null => Value::Null,
        YValue::Bool(b) => Value::Bool(*b),
        YValue::Int(i) => Value::from(*i),
        YValue::BigInt(s) => Value::String(s.clone()),
        YValue::Float(f) => serde_json::Number::from_f64(*f)
            .map(Value::Number)
            .unwrap_or(Value::Null),
        YValue::Str(s) => Value::String(s.clone()),
        YValue::Seq(items) => Value::Array(items.iter().map(to_json).collect()),
        YValue::Map(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.scalar_text().unwrap_or_default(), to_json(v)))
                .collect(),
        ),
    }
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            yaml_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "yaml") {
            out.push(p);
        }
    }
}

/// Which schema a shipped file follows, by where it lives.
fn schema_of(path: &Path) -> &'static str {
    let rel = path
        .strip_prefix(root())
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/");
    if rel.ends_with("fight.yaml") {
        "fight.schema.json"
    } else if path.with_file_name("ruleset.yaml").is_file() {
        // A ruleset's folder (`examples/homebrew/salt_coast/`, a pack's ruleset).
        "ruleset.schema.json"
    } else if rel.starts_with("examples/homebrew/") {
        "pack.schema.json"
    } else if rel.starts_with("rules/") || rel.starts_with("examples/variants/") {
        "ruleset.schema.json"
    } else {
        "scenario.schema.json"
    }
}

#[test]
fn committed_schemas_are_current() {
    for (name, text) in rulesc::schema::all() {
        let committed =
            std::fs::read_to_string(root().join("schemas").join(name)).unwrap_or_default();
        assert!(
            committed == text,
            "schemas/{name} is out of date: run `cargo run -p rulesc -- schema --out schemas`"
        );
    }
}

#[test]
fn every_shipped_yaml_file_names_and_follows_its_schema() {
    let mut files = Vec::new();
    yaml_files(&root().join("rules"), &mut files);
    yaml_files(&root().join("examples"), &mut files);
    assert!(files.len() > 10, "{files:?}");
    let mut problems = Vec::new();
    for path in &files {
        let schema_name = schema_of(path);
        let schema: Value = serde_json::from_str(
            &std::fs::read_to_string(root().join("schemas").join(schema_name)).unwrap(),
        )
        .unwrap();
        let validator = jsonschema::draft7::new(&schema).expect("a valid draft-07 schema");
        let text = std::fs::read_to_string(path).unwrap();
        // The modeline yaml-language-server reads, with a path relative to the file.
        let depth = path.strip_prefix(root()).unwrap().components().count() - 1;
        let want = format!(
            "# yaml-language-server: $schema={}schemas/{schema_name}",
            "../".repeat(depth)
        );
        if text.lines().next() != Some(want.as_str()) {
            problems.push(format!("{}: first line should be `{want}`", path.display()));
        }
        let src = SourceFile::new(path.display().to_string(), path.clone(), text);
        let mut diags = Diagnostics::default();
        let Some(node) = rulesc::yaml::parse(0, &src, &mut diags) else {
            problems.push(format!("{}: not YAML: {:?}", path.display(), diags.items));
            continue;
        };
        let json = to_json(&node);
        for e in validator.iter_errors(&json) {
            problems.push(format!(
                "{}: {} at {}",
                path.display(),
                e,
                e.instance_path()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `rulesc simulate --format json` follows `schemas/simulate.schema.json`: the report of
/// Kingsmark's fight (its report groups, its rounds), one run traced, and a sweep.
#[test]
fn simulate_json_follows_its_schema() {
    let text = std::fs::read_to_string(root().join("schemas/simulate.schema.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::draft7::new(&schema).expect("a valid draft-07 schema");
    let (p, d, _) = rulesc::compile_dir(&root().join("rules/kingsmark"));
    let p = p.unwrap_or_else(|| panic!("{:?}", d.items));
    let (file, _) =
        rulesc::simulate::read(&p, &root().join("examples/kingsmark/fight.yaml")).unwrap();
    let report = rulesc::simulate::simulate(&p, &file, 40, 1).json(&p, &file, 1);
    let run = rulesc::simulate::trace_json(&p, &file, 1, 4, Default::default());
    let sweeps = [rulesc::analyze::cases::parse_sweep("Aldren.reflexes=0,2").unwrap()];
    let path = root().join("examples/kingsmark/fight.yaml");
    let (swept, _) = rulesc::simulate::sweep::sweep(&p, &path, &sweeps, 10, 1, None)
        .unwrap_or_else(|(d, _)| panic!("{:?}", d.items));
    let sweep = swept.json(&p);
    assert_eq!(sweep["points"].as_array().unwrap().len(), 2);
    for (what, value) in [("report", &report), ("run", &run), ("sweep", &sweep)] {
        let errors: Vec<String> = validator
            .iter_errors(value)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{what}: {errors:#?}\n{value}");
    }
    assert!(!report["report"].as_array().unwrap().is_empty());
    assert!(!run["trace"].as_array().unwrap().is_empty());
}
