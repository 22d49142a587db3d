//! The build-script front end, prost-build style:
//!
//! ```no_run
//! // build.rs, in `fn main()`:
//! if let Err(e) = rulesc_codegen::Builder::new().compile(&["../rules/kingsmark"]) {
//!     eprintln!("{e}"); // every diagnostic, rendered as `rulesc check` shows it
//!     std::process::exit(1);
//! }
//! ```
//!
//! and in the crate: `pub mod kingsmark { include!(concat!(env!("OUT_DIR"), "/kingsmark.rs")); }`.
//!
//! Each ruleset folder is loaded, checked and compiled to `<out_dir>/<ruleset name>.rs`
//! (written only when it changed, so an unchanged ruleset does not rebuild its crate).
//! Cargo is told to rerun the build script when any input file or folder changes.
//!
//! Content packs ([`crate::pack`]) given with [`Builder::pack`] are checked against each
//! ruleset and their records compiled in as the ruleset's own:
//!
//! ```no_run
//! rulesc_codegen::Builder::new()
//!     .pack("../examples/homebrew/black_forest_armory.yaml")
//!     .compile(&["../rules/kingsmark"])
//!     .unwrap();
//! ```
//!
//! The generated types fit the crate that links them: serde, derives and attributes
//! ([`codegen::Options`]), named as the ruleset names them (`Combatant`,
//! `Combatant.skills`, `AttackResult.Hit.level`, `.` for all):
//!
//! ```no_run
//! rulesc_codegen::Builder::new()
//!     .serde(true) // with rulesc-runtime's `serde` feature
//!     .derive("Hash")
//!     .type_attribute("Weapon", "#[derive(Eq)]")
//!     .field_attribute("Combatant.initiative_roll", "#[serde(rename = \"rolled\")]")
//!     .compile(&["../rules/kingsmark"])
//!     .unwrap();
//! ```

use crate::{codegen, compile_dir, diag, output, pack};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct Builder {
    out_dir: Option<PathBuf>,
    rerun_if_changed: bool,
    packs: Vec<PathBuf>,
    options: codegen::Options,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// A builder writing to `$OUT_DIR` and printing `cargo:rerun-if-changed` lines.
    pub fn new() -> Self {
        Builder {
            out_dir: None,
            rerun_if_changed: true,
            packs: Vec::new(),
            options: codegen::Options::default(),
        }
    }

    /// `Serialize` and `Deserialize` on every generated type (default: off). The crate
    /// that includes the code turns on `rulesc-runtime`'s `serde` feature; it needs no
    /// `serde` dependency of its own. Names are the ruleset's (`"BelowMinor"`,
    /// `"hitPoints"`), dice read and write as `"2d6!"`, tracks as their filled boxes, maps
    /// as objects keyed by name; unknown fields are errors and fields with a default may
    /// be left out.
    pub fn serde(&mut self, on: bool) -> &mut Self {
        self.options.serde = on;
        self
    }

    /// Derives `path` (`"Hash"`, `"schemars::JsonSchema"`) on every generated type, as
    /// typify's `with_derive` does. A type that derives it already is left alone.
    pub fn derive(&mut self, path: impl Into<String>) -> &mut Self {
        self.options.derives.push(path.into());
        self
    }

    /// Adds `attribute` (written `#[...]`) to the types `path` names: a scale, enum,
    /// record type or outcome by its name in the ruleset, or `.` for every one. A path
    /// that names no type of any ruleset compiled is an error.
    pub fn type_attribute(
        &mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.options
            .type_attributes
            .push((path.into(), attribute.into()));
        self
    }

    /// Adds `attribute` to the fields `path` names: `Type.field` for a record type's
    /// field, `Outcome.Tag.field` for an outcome's, `.` for every field.
    pub fn field_attribute(
        &mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> &mut Self {
        self.options
            .field_attributes
            .push((path.into(), attribute.into()));
        self
    }

    /// Where the generated `.rs` files go (default: the `OUT_DIR` Cargo gives build
    /// scripts).
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Whether to print `cargo:rerun-if-changed=` for every input (default: yes; turn
    /// it off outside a build script).
    pub fn emit_rerun_if_changed(&mut self, on: bool) -> &mut Self {
        self.rerun_if_changed = on;
        self
    }

    /// Adds a content pack: its records are checked against each ruleset this builder
    /// compiles and generated with the ruleset's own (`Weapon::flamberge()`,
    /// `Weapon::named("flamberge")`). What a pack adds to the ruleset's data (enum
    /// variants, scale levels, rows, tables, `_mod` changes) is in the generated types
    /// and functions too: a game gets a pack's variants only by being built with it.
    /// Packs apply in the order given; a pack with an error fails the build with its
    /// diagnostics, as `rulesc check` shows them.
    pub fn pack(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.packs.push(path.into());
        self
    }

    /// Compiles each ruleset folder. Every folder is tried; the error lists every
    /// problem found (rendered diagnostics, or a failure to write).
    pub fn compile(&self, rulesets: &[impl AsRef<Path>]) -> Result<(), String> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or("OUT_DIR is not set: call `out_dir(..)` outside a build script")?,
        };
        let problems = self.options.validate();
        if !problems.is_empty() {
            return Err(problems.join("\n") + "\n");
        }
        let mut errors = String::new();
        // Whether each type/field path named something in some ruleset.
        let mut matched: Vec<(String, bool)> = Vec::new();
        for dir in rulesets {
            let dir = dir.as_ref();
            if self.rerun_if_changed {
                // The folder itself: a file added or removed changes the ruleset.
                cargo(format_args!("cargo:rerun-if-changed={}", dir.display()))?;
            }
            // On a thread with the CLI's stack (`crate::WORKER_STACK`): a build script's
            // main thread has 8 MiB, which a long chain of operators overflows.
            let compiled = std::thread::scope(|s| {
                let thread = std::thread::Builder::new()
                    .stack_size(crate::WORKER_STACK)
                    .spawn_scoped(s, || self.compile_one(dir, &out_dir));
                match thread {
                    Ok(t) => t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                    Err(e) => Err(format!(
                        "{}: no thread to compile it on: {e}\n",
                        dir.display()
                    )),
                }
            });
            match compiled {
                Ok(m) if matched.is_empty() => matched = m,
                Ok(m) => matched.iter_mut().zip(m).for_each(|(a, b)| a.1 |= b.1),
                Err(e) => errors.push_str(&e),
            }
        }
        if errors.is_empty() {
            for (path, _) in matched.iter().filter(|(_, m)| !m) {
                errors.push_str(&format!(
                    "attribute path `{path}` names no type or field of the rulesets compiled (types by their names in the ruleset, fields as `Type.field`)\n"
                ));
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Compiles one ruleset; returns which attribute paths matched in it.
    fn compile_one(&self, dir: &Path, out_dir: &Path) -> Result<Vec<(String, bool)>, String> {
        let (program, diags, sources) = compile_dir(dir);
        if self.rerun_if_changed {
            // Every file and folder the load read, the bases a ruleset `extends` included.
            let mut inputs: Vec<&Path> = sources
                .files
                .iter()
                .map(|f| f.path.as_path())
                .filter(|p| !p.as_os_str().is_empty())
                .collect();
            inputs.sort();
            inputs.dedup();
            for path in inputs {
                cargo(format_args!("cargo:rerun-if-changed={}", path.display()))?;
            }
        }
        let text = self.render(&diags, &sources)?;
        let Some(p) = program else {
            return Err(format!(
                "{}: {} error(s)\n{text}",
                dir.display(),
                diags.error_count()
            ));
        };
        let p = if self.packs.is_empty() {
            p
        } else {
            let ruleset_files = p.sources.files.len();
            let (extended, diags, sources) = pack::apply(&p, &self.packs);
            if self.rerun_if_changed {
                // The packs given and the packs they `requires` (read after the ruleset's
                // files, in the order read).
                for f in sources.files.iter().skip(ruleset_files) {
                    if !f.path.as_os_str().is_empty() {
                        cargo(format_args!("cargo:rerun-if-changed={}", f.path.display()))?;
                    }
                }
            }
            let text = self.render(&diags, &sources)?;
            match extended {
                Some(p) => p,
                None => {
                    return Err(format!(
                        "{} with its content packs: {} error(s)\n{text}",
                        dir.display(),
                        diags.error_count()
                    ))
                }
            }
        };
        let code = codegen::generate_with(&p, &self.options)
            .map_err(|e| format!("{}: {e}\n", dir.display()))?;
        let file = out_dir.join(format!("{}.rs", p.name));
        output::write(&file, &code, &output::inputs(&p.sources))
            .map_err(|e| format!("{}: cannot write {}: {e}\n", dir.display(), file.display()))?;
        Ok(self.options.matches(&p))
    }

    /// The errors, rendered as `rulesc check` shows them; warnings go to Cargo (they do
    /// not fail the build, but a warning that cannot be printed does).
    fn render(
        &self,
        diags: &diag::Diagnostics,
        sources: &crate::source::Sources,
    ) -> Result<String, String> {
        let mut text = String::new();
        for d in diags.sorted() {
            if d.severity == diag::Severity::Error {
                text.push_str(&diag::render(d, sources, false, 100));
            } else if self.rerun_if_changed {
                for line in diag::render(d, sources, false, 100).lines() {
                    cargo(format_args!("cargo:warning={line}"))?;
                }
            }
        }
        Ok(text)
    }
}

/// Prints one line for Cargo on standard output. A line that cannot be printed is an
/// error of the build (Cargo would miss an input to watch, or a warning), not a panic
/// and not a line quietly lost.
fn cargo(line: std::fmt::Arguments<'_>) -> Result<(), String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot print `{line}` to standard output for Cargo: {e}\n"))
}
