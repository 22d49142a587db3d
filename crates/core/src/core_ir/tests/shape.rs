//! The code lowering writes is printable in what `shape.rs` reads: every function of
//! every ruleset shipped or loaded by the tests (fights' too) names each register by a
//! variable lowering took, gives each variable one class (an int, a truth, a level..),
//! reads no variable on a path where nothing wrote it, and nests in blocks and loops that
//! every jump leaves or goes round.

use super::super::shape::{classes, structure, unwritten_reads, variables, Node};
use std::path::Path;

#[test]
fn every_function_nests_holds_one_class_per_variable_and_reads_what_every_path_wrote() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (mut functions, mut bad) = (0, Vec::new());
    // Blocks and loops met.
    let mut regions = (0, 0);
    for dir in super::coverage::rulesets() {
        let (p, diags, _) = crate::compile_dir(&dir);
        let p = p.unwrap_or_else(|| panic!("{} does not check: {:?}", dir.display(), diags.items));
        let module = super::super::module(&p);
        let name = dir
            .strip_prefix(&root)
            .unwrap_or(&dir)
            .display()
            .to_string();
        for (id, f) in module.functions.iter().enumerate() {
            let Some(f) = f else { continue };
            functions += 1;
            let fname = &p.functions[id].name;
            match structure(&f.code) {
                Ok(tree) => count(&tree, &mut regions),
                Err(e) => bad.push(format!("{name}: {fname}: {e}")),
            }
            match variables(f) {
                Err(e) => bad.push(format!("{name}: {fname}: {e}")),
                Ok(vars) => {
                    if let Err(e) = classes(f, &vars) {
                        bad.push(format!("{name}: {fname}: {e}"));
                    }
                    for (pc, v) in unwritten_reads(f, &vars) {
                        bad.push(format!(
                            "{name}: {fname}: {pc} {:?} reads variable {v} ({:?}) unwritten",
                            f.code[pc], f.allocs[v as usize]
                        ));
                    }
                }
            }
        }
    }
    assert!(functions > 400, "only {functions} functions read");
    assert!(
        regions.0 > 500 && regions.1 > 100,
        "only {regions:?} blocks and loops"
    );
    assert!(bad.is_empty(), "{} reads:\n{}", bad.len(), bad.join("\n"));
}

fn count(nodes: &[Node], regions: &mut (usize, usize)) {
    for n in nodes {
        match n {
            Node::Inst(_) => {}
            Node::Block { body, .. } => {
                regions.0 += 1;
                count(body, regions);
            }
            Node::Loop { body, .. } => {
                regions.1 += 1;
                count(body, regions);
            }
        }
    }
}
