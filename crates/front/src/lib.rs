//! `rulesc-front`: the front end of `rulesc`, a compiler for tabletop combat rules.
//!
//! `load` (YAML and DSL → syntax) → `check` (names, types, tables; → [`ir::Program`]),
//! with packs, the diagnostics and their rendering. Every other crate of the compiler
//! reads its [`ir::Program`]: `rulesc-codegen` prints it as Rust, `rulesc-core` lowers
//! it to the core IR its VM runs (see ARCHITECTURE.md).

pub mod check;
pub mod diag;
pub mod explain;
pub mod export;
pub mod ir;
pub mod load;
pub mod markup;
pub mod output;
pub mod pack;
pub mod source;
pub mod syntax;
pub mod yaml;

use std::path::Path;

/// The stack of a thread that loads, checks and compiles rulesets from anyone: the CLI's
/// worker and the studio's threads. The parser bounds nesting and the checker an
/// expression's depth ([`check::MAX_DEPTH`]), but before the checker sees it the syntax
/// tree of a chain of operators is as deep as the chain (up to some 125,000 operators
/// under the parser's call limit), and it is cloned and dropped by recursion.
pub const WORKER_STACK: usize = 256 << 20;

/// Loads and checks a ruleset folder: the program if it has no errors, and every
/// diagnostic (errors and warnings) either way, with the sources they point into.
pub fn compile_dir(dir: &Path) -> (Option<ir::Program>, diag::Diagnostics, source::Sources) {
    // Nothing here reads the index: none is built.
    let c = check_dir_with(dir, &load::Overlay::new(), false);
    (c.program, c.diags, c.sources)
}

/// Everything one check of a ruleset folder found.
pub struct Checked {
    /// The program, if there is no error.
    pub program: Option<ir::Program>,
    pub diags: diag::Diagnostics,
    pub sources: source::Sources,
    /// Definitions and resolved names (empty when loading failed).
    pub index: check::index::Index,
}

/// [`compile_dir`] with unsaved editor text replacing files on disk (see
/// [`load::Overlay`]), and the index the language server reads.
pub fn check_dir(dir: &Path, overlay: &load::Overlay) -> Checked {
    check_dir_with(dir, overlay, true)
}

/// [`check_dir`], its index built only when `indexed`.
fn check_dir_with(dir: &Path, overlay: &load::Overlay, indexed: bool) -> Checked {
    let mut diags = diag::Diagnostics::default();
    let mut loaded = load::load_dir_with(dir, overlay, &mut diags);
    let sources = loaded.sources.clone();
    // A file that could not be read would make every later check report names it
    // defines as missing: stop at the load stage's own errors, unless they are all syntax
    // errors recovered from, whose lost names are known.
    if diags.error_count() > loaded.recovered {
        return Checked {
            program: None,
            diags,
            sources,
            index: Default::default(),
        };
    }
    let lost = std::mem::take(&mut loaded.lost);
    let found = diags.items.len();
    let (mut program, index, _) = check::check_all(loaded, &[], &mut diags, indexed);
    if let Some(p) = &mut program {
        p.folder = Some(dir.to_path_buf());
    }
    drop_cascades(&mut diags, found, &lost, &sources);
    Checked {
        program,
        diags,
        sources,
        index,
    }
}
/// Drops the checker's problems (those from `from` on) that are cascades of a syntax
/// error: each one reported exactly at a use of a name that a broken definition would
/// have defined. The syntax error is their one root cause, and is reported.
fn drop_cascades(
    diags: &mut diag::Diagnostics,
    from: usize,
    lost: &[syntax::ast::Ident],
    sources: &source::Sources,
) {
    if lost.is_empty() {
        return;
    }
    let names: std::collections::HashSet<&str> = lost.iter().map(|n| n.name.as_str()).collect();
    let mut k = 0;
    diags.items.retain(|d| {
        k += 1;
        if k <= from {
            return true;
        }
        let text = sources
            .file(d.span.file)
            .text
            .get(d.span.start as usize..d.span.end as usize);
        !text.is_some_and(|t| names.contains(t))
    });
}
