//! `rulesc book <ruleset> -o <dir>`: the ruleset as a static, offline HTML rulebook.
//!
//! One page per kind of definition (scales and enums, record types, tables and
//! constants, tracks, records, rules), each definition in the order the writer wrote it
//! (as [`crate::explain::definitions`] lists them) with the writer's comments and `doc:`
//! text as Markdown, where it is defined and, after `extends`/`override`, where each part
//! came from (as `rulesc explain` gives it). Formulas and procedures are shown as written,
//! highlighted, every name linked to its definition (through the checker's
//! [`index`](crate::check::index): nothing is resolved twice), every line anchored.
//!
//! The odds page holds, for every scenario in the examples folder, the exact odds
//! `rulesc analyze` gives ([`crate::analyze::reports`]) with its chart, and for every
//! fight file `rulesc simulate`'s win rates (seed [`FIGHT_SEED`], [`FIGHT_RUNS`] runs),
//! so the same input gives the same bytes. A variant (`--variant`) gets its own pages
//! under `variants/<name>/` and a page of what it changes (`rulesc diff`); a content pack
//! (`--pack`), checked against the ruleset, a page listing its records.
//!
//! Every piece of writer text goes through [`html::esc`] or [`html::markdown`]; no page
//! has an inline script, and a Content-Security-Policy says so to the browser too. The
//! book is written by [`write`] into its folder only: see there.

mod code;
pub mod html;
pub(crate) mod odds;
mod pages;
mod search;
mod write;

pub use write::{write, MARKER};

use crate::check::index::{Index, Symbol, SymbolKind};
use crate::diag::Diagnostics;
use crate::explain::Definition;
use crate::ir::Program;
use crate::source::Sources;
use std::path::{Path, PathBuf};

/// The runs of each fight file's simulation, and their seed: fixed, so the book is the
/// same every time it is built.
pub const FIGHT_RUNS: u64 = 1000;
pub const FIGHT_SEED: u64 = 0;

/// What `rulesc book` is asked to put in the book besides the ruleset.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Content packs, checked against the ruleset: a page each; the odds may name their
    /// records.
    pub packs: Vec<PathBuf>,
    /// Variant rulesets: their own pages, and what they change against the ruleset.
    pub variants: Vec<PathBuf>,
    /// The folder of scenarios and fight files; by default `examples/<ruleset folder>`
    /// in the nearest folder above the ruleset that has one.
    pub examples: Option<PathBuf>,
}

/// A rendered book: each file's path inside the book's folder (`/`-separated) and its
/// text, in path order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Book {
    pub files: Vec<(String, String)>,
    /// Every file the rendering read (never to be overwritten by the book).
    pub inputs: Vec<PathBuf>,
}

/// Warnings met on the way (an analysis that reached a limit), each with its sources.
pub type Warnings = Vec<(Diagnostics, Sources)>;

/// What a failure to render is: diagnostics, with the sources they point into.
pub type Failure = (Diagnostics, Sources);

/// One checked ruleset, as the pages read it.
pub(crate) struct Ruleset {
    pub p: Program,
    pub index: Index,
    pub defs: Vec<Definition>,
    /// The folder it was read from.
    pub dir: PathBuf,
    /// Where its pages are, from the book's root (`""` or `variants/<name>/`).
    pub prefix: String,
}

impl Ruleset {
    /// Loads and checks the ruleset at `dir`; its definitions as `explain` lists them.
    /// The check's warnings (an unused definition) go to `warnings`.
    fn read(dir: &Path, prefix: String, warnings: &mut Warnings) -> Result<Ruleset, Failure> {
        let checked = crate::check_dir(dir, &crate::load::Overlay::new());
        let Some(p) = checked.program else {
            return Err((checked.diags, checked.sources));
        };
        if checked.diags.warning_count() > 0 {
            warnings.push((checked.diags, checked.sources));
        }
        let (_, defs) = crate::explain::definitions(dir)?;
        Ok(Ruleset {
            p,
            index: checked.index,
            defs,
            dir: dir.to_path_buf(),
            prefix,
        })
    }

    /// The page and anchor of a symbol's definition, from a page of this ruleset.
    pub fn target(&self, sym: &Symbol) -> Option<String> {
        let nested = |kind: &str| {
            let parent = sym.parent.as_deref().unwrap_or("");
            html::anchor(kind, &format!("{parent}/{}", sym.name))
        };
        let (page, id) = match sym.kind {
            SymbolKind::Scale | SymbolKind::Enum => {
                (pages::SCALES, html::anchor("choice", &sym.name))
            }
            SymbolKind::Level => (pages::SCALES, nested("level")),
            SymbolKind::RecordType => (pages::TYPES, html::anchor("type", &sym.name)),
            SymbolKind::Field => (pages::TYPES, nested("field")),
            SymbolKind::Track => (pages::TRACKS, html::anchor("track", &sym.name)),
            SymbolKind::Table => (pages::TABLES, html::anchor("table", &sym.name)),
            SymbolKind::Constant => (pages::TABLES, html::anchor("constant", &sym.name)),
            SymbolKind::Record => (pages::RECORDS, html::anchor("record", &sym.name)),
            SymbolKind::Outcome => (pages::RULES, html::anchor("outcome", &sym.name)),
            SymbolKind::Tag => (pages::RULES, nested("tag")),
            SymbolKind::Formula | SymbolKind::Procedure => {
                (pages::RULES, html::anchor("fn", &sym.name))
            }
            SymbolKind::Local | SymbolKind::Fight => return None,
        };
        Some(format!("{page}#{id}"))
    }

    /// The writer's `doc:` text of a definition, if its YAML gives one.
    pub fn doc(&self, kind: SymbolKind, parent: Option<&str>, name: &str) -> Option<&str> {
        self.index
            .symbols
            .iter()
            .find(|s| s.kind == kind && s.name == name && s.parent.as_deref() == parent)
            .and_then(|s| s.doc.as_deref())
    }

    /// The definition `explain` gives for a name of a kind (`scale`, `table`, ...).
    pub fn def(&self, kinds: &[&str], name: &str) -> Option<&Definition> {
        self.defs
            .iter()
            .find(|d| d.name == name && kinds.contains(&d.kind.as_str()))
    }
}

/// The examples folder of the ruleset at `dir`: `examples/<folder name>` in the nearest
/// folder above it that has one.
pub(crate) fn examples_near(dir: &Path) -> Option<PathBuf> {
    let dir = std::fs::canonicalize(dir).ok()?;
    let name = dir.file_name()?;
    dir.ancestors()
        .skip(1)
        .map(|a| a.join("examples").join(name))
        .find(|e| e.is_dir())
}

/// A folder or file name for a ruleset or pack: its name, any byte but a letter, digit
/// or `_` written as `.XX`.
pub(crate) fn slug(name: &str) -> String {
    let s = &html::anchor("", name)[1..];
    if s.starts_with('.') || s.is_empty() {
        format!("_{s}")
    } else {
        s.to_string()
    }
}

/// Renders the book of the ruleset at `dir`.
pub fn render(dir: &Path, options: &Options) -> Result<(Book, Warnings), Failure> {
    let mut warnings = Warnings::new();
    let main = Ruleset::read(dir, String::new(), &mut warnings)?;
    let mut inputs = crate::output::inputs(&main.p.sources);
    let mut index = search::Index::default();
    let mut files: Vec<(String, String)> = Vec::new();

    // Packs: checked against the ruleset, then applied for the odds.
    let mut packs = Vec::new();
    if !options.packs.is_empty() {
        let (checked, diags, sources) = crate::pack::check_packs(&main.p, &options.packs);
        if diags.has_errors() {
            return Err((diags, sources));
        }
        inputs.extend(crate::output::inputs(&sources));
        packs = checked;
    }
    let odds_program = if options.packs.is_empty() {
        None
    } else {
        match crate::pack::apply(&main.p, &options.packs) {
            (Some(p), _, _) => Some(p),
            (None, diags, sources) => return Err((diags, sources)),
        }
    };
    let examples = options.examples.clone().or_else(|| examples_near(dir));
    let found = match &examples {
        Some(e) => odds::find(e)?,
        None => odds::Found::default(),
    };
    let odds_p = odds_program.as_ref().unwrap_or(&main.p);
    let (odds_html, w, read) = odds::page(odds_p, &found, examples.as_deref())?;
    warnings.extend(w);
    inputs.extend(read);

    let mut extra: Vec<pages::Link> = Vec::new();
    for pack in &packs {
        let file = format!("pack-{}.html", slug(&pack.name));
        extra.push(pages::Link {
            href: file.clone(),
            text: format!("pack {}", pack.name),
        });
        let applied = odds_program.as_ref().unwrap_or(&main.p);
        let body = pages::pack(&main, pack, applied, &mut index, &file);
        files.push((
            file,
            pages::layout(&main, "", &format!("pack {}", pack.name), &body),
        ));
    }

    // Variants: their own pages, and what they change against this ruleset.
    let mut variants = Vec::new();
    for v in &options.variants {
        let probe = Ruleset::read(v, String::new(), &mut warnings)?;
        let prefix = format!("variants/{}/", slug(&probe.p.name));
        let rs = Ruleset {
            prefix: prefix.clone(),
            ..probe
        };
        inputs.extend(crate::output::inputs(&rs.p.sources));
        let (changes, w, read) = odds::changes(&main, &rs, &found)?;
        warnings.extend(w);
        inputs.extend(read);
        let (vfound, vexamples) = match examples_near(v) {
            Some(e) => (odds::find(&e)?, Some(e)),
            None => (odds::Found::default(), None),
        };
        let (vodds, w, read) = odds::page(&rs.p, &vfound, vexamples.as_deref())?;
        warnings.extend(w);
        inputs.extend(read);
        let back = vec![pages::Link {
            href: format!("../../{}", pages::INDEX),
            text: format!("base: {}", main.p.title_or_name()),
        }];
        files.extend(pages::ruleset(
            &rs,
            &mut index,
            &vodds,
            Some(&changes),
            &back,
        ));
        extra.push(pages::Link {
            href: format!("{prefix}{}", pages::INDEX),
            text: format!("variant {}", rs.p.title_or_name()),
        });
        variants.push(rs);
    }
    files.extend(pages::ruleset(&main, &mut index, &odds_html, None, &extra));
    files.push(("book.css".into(), include_str!("book.css").to_string()));
    files.push(("search.js".into(), index.script()));
    files.sort();
    inputs.sort();
    inputs.dedup();
    Ok((Book { files, inputs }, warnings))
}
