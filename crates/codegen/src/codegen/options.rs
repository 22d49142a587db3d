//! What a build script may add to the generated types, in prost-build's spirit:
//! `Serialize`/`Deserialize`, extra derives, and attributes on chosen types and fields.
//!
//! Paths name things as the ruleset does, never by their Rust identifiers: a type by its
//! name (`Combatant`, `DamageLevel`, `AttackResult`), a record field as `Type.field`, an
//! outcome's field as `Outcome.Tag.field`; `.` names every type (or every field). Every
//! attribute is checked to parse before any code is generated, and a path that names
//! nothing is an error, so a typo never passes silently.

use super::ident::lit;
use super::{Gen, RT};
use crate::ir::{Const, Program, Ty};

/// Options for [`super::generate_with`]. The default adds nothing.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `Serialize` and `Deserialize` (through `rulesc_runtime::serde`, the runtime's
    /// `serde` feature) on every generated type.
    pub serde: bool,
    /// Derives added to every generated type (a type that already derives one keeps one).
    pub derives: Vec<String>,
    /// `(path, attribute)`: attributes (`#[...]`) on the types `path` names.
    pub type_attributes: Vec<(String, String)>,
    /// `(path, attribute)`: attributes on the fields `path` names.
    pub field_attributes: Vec<(String, String)>,
}

impl Options {
    /// Checks that every attribute parses as an outer attribute and every derive as a
    /// path. Returns one line per problem.
    pub fn validate(&self) -> Vec<String> {
        let mut problems = Vec::new();
        for d in &self.derives {
            if syn::parse_str::<syn::Path>(d).is_err() {
                problems.push(format!("derive({d:?}): not a path to a derive macro"));
            }
        }
        for (what, list) in [
            ("type_attribute", &self.type_attributes),
            ("field_attribute", &self.field_attributes),
        ] {
            for (path, attr) in list {
                let parsed = syn::parse::Parser::parse_str(syn::Attribute::parse_outer, attr);
                if !matches!(parsed, Ok(a) if !a.is_empty()) {
                    problems.push(format!(
                        "{what}({path:?}, {attr:?}): not an attribute (write it as `#[...]`)"
                    ));
                }
            }
        }
        problems
    }

    /// The type and field paths of `p` each option names, as `(path, matched)` pairs in
    /// the order given (a path given twice appears twice).
    pub fn matches(&self, p: &Program) -> Vec<(String, bool)> {
        let types = type_names(p);
        let fields = field_paths(p);
        let mut out = Vec::new();
        for (path, _) in &self.type_attributes {
            out.push((path.clone(), path == "." || types.contains(path)));
        }
        for (path, _) in &self.field_attributes {
            out.push((path.clone(), path == "." || fields.contains(path)));
        }
        out
    }

    /// The attributes for the type named `name`.
    pub(super) fn type_attrs(&self, name: &str) -> Vec<&str> {
        self.type_attributes
            .iter()
            .filter(|(path, _)| path == "." || path == name)
            .map(|(_, a)| a.as_str())
            .collect()
    }

    /// The attributes for the field at `path` (`Type.field`, `Outcome.Tag.field`).
    pub(super) fn field_attrs(&self, path: &str) -> Vec<&str> {
        self.field_attributes
            .iter()
            .filter(|(p, _)| p == "." || p == path)
            .map(|(_, a)| a.as_str())
            .collect()
    }
}

/// The serde attribute that points the derives at the runtime's re-export.
const SERDE_CRATE: &str = "#[serde(crate = \"::rulesc_runtime::serde\")]";

impl Gen<'_> {
    /// Extra derives (those of `derives` the type does not already have, then serde's) and
    /// attributes for the type the ruleset names `name`. `record` adds serde's
    /// `deny_unknown_fields` (a misspelt key is an error, as in YAML).
    pub(super) fn type_extras(
        &self,
        name: &str,
        have: &[&str],
        record: bool,
    ) -> (Vec<String>, Vec<String>) {
        let mut derives: Vec<String> = self
            .opts
            .derives
            .iter()
            .filter(|d| !have.contains(&d.rsplit("::").next().unwrap_or(d).trim()))
            .cloned()
            .collect();
        let mut attrs = Vec::new();
        if self.opts.serde {
            derives.push(format!("{RT}::serde::Serialize"));
            derives.push(format!("{RT}::serde::Deserialize"));
            attrs.push(SERDE_CRATE.to_string());
            if record {
                attrs.push("#[serde(deny_unknown_fields)]".to_string());
            }
        }
        attrs.extend(self.opts.type_attrs(name).into_iter().map(String::from));
        (derives, attrs)
    }

    /// With serde, `#[serde(rename = "...")]` when the Rust identifier is not the name the
    /// ruleset gives (so JSON uses the ruleset's names, as YAML and `rulesc export` do).
    pub(super) fn serde_rename(&self, ident: &str, name: &str) -> Option<String> {
        let plain = ident.strip_prefix("r#").unwrap_or(ident);
        (self.opts.serde && plain != name).then(|| format!("#[serde(rename = {})]", lit(name)))
    }

    /// The attributes of a field (`path` is `Type.field` or `Outcome.Tag.field`): its
    /// serde name, how maps and tracks read and write, its default when it has one
    /// (`defaults` collects the functions that make non-zero defaults), then the build
    /// script's own.
    pub(super) fn field_extras(
        &self,
        path: &str,
        ident: &str,
        name: &str,
        ty: &Ty,
        default: Option<&Const>,
        defaults: &mut Vec<String>,
    ) -> Result<Vec<String>, String> {
        let mut attrs = Vec::new();
        if self.opts.serde {
            attrs.extend(self.serde_rename(ident, name));
            match ty {
                Ty::Map(k, _) => {
                    let map = format!("{RT}::__private::serial::Map::<{}>", self.id.choice[*k]);
                    attrs.push(format!(
                        "#[serde(serialize_with = \"{map}::serialize\", deserialize_with = \"{map}::deserialize\")]"
                    ));
                }
                Ty::Track(t) => attrs.push(format!(
                    "#[serde(deserialize_with = \"{RT}::__private::serial::TrackOf::<{}>::deserialize\")]",
                    self.p.tracks[*t].boxes.len()
                )),
                _ => {}
            }
            if let Some(d) = default {
                let big_map = matches!(ty, Ty::Map(k, _) if self.p.choices[*k].variants.len() > 32);
                if *d == self.p.zero(ty) && !big_map {
                    attrs.push("#[serde(default)]".to_string());
                } else {
                    let f = format!("d{}", defaults.len());
                    defaults.push(format!(
                        "pub(super) fn {f}() -> {} {{ {} }}",
                        self.rust_ty(ty)?,
                        self.const_expr(d, ty)?
                    ));
                    attrs.push(format!("#[serde(default = \"serde_defaults::{f}\")]"));
                }
            }
        }
        attrs.extend(self.opts.field_attrs(path).into_iter().map(String::from));
        Ok(attrs)
    }

    /// With serde: `MapKey` for every scale and enum (what map fields are keyed by), and
    /// the module of non-zero field defaults.
    pub(super) fn serde_support(&self, scope: &mut codegen::Scope, defaults: &[String]) {
        if !self.opts.serde {
            return;
        }
        for name in &self.id.choice {
            scope.raw(format!(
                "impl {RT}::__private::serial::MapKey for {name} {{ const ALL: &'static [Self] = &Self::ALL; fn index(self) -> usize {{ self as usize }} }}"
            ));
        }
        if !defaults.is_empty() {
            scope.raw(format!(
                "/// Field defaults other than a type's zero, for serde.\nmod serde_defaults {{\n    use super::*;\n{}\n}}",
                defaults.join("\n")
            ));
        }
    }
}

/// The names of every type generated for `p` (scales, enums, record types, outcomes).
fn type_names(p: &Program) -> Vec<String> {
    let mut out: Vec<String> = p.choices.iter().map(|c| c.name.clone()).collect();
    out.extend(p.records.iter().map(|r| r.name.clone()));
    out.extend(p.outcomes.iter().map(|o| o.name.clone()));
    out
}

/// Every field path of `p`: `Type.field` and `Outcome.Tag.field`.
fn field_paths(p: &Program) -> Vec<String> {
    let mut out = Vec::new();
    for r in &p.records {
        out.extend(r.fields.iter().map(|f| format!("{}.{}", r.name, f.name)));
    }
    for o in &p.outcomes {
        for t in &o.tags {
            out.extend(
                t.fields
                    .iter()
                    .map(|(f, _)| format!("{}.{}.{f}", o.name, t.name)),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_and_derives_must_parse() {
        let o = Options {
            derives: vec![
                "Hash".into(),
                "serde::Serialize".into(),
                "not a path".into(),
            ],
            type_attributes: vec![
                (".".into(), "#[derive(Hash)]".into()),
                ("X".into(), "derive(Hash)".into()),
                ("X".into(), "#[cfg_attr(test, allow(dead_code))]".into()),
            ],
            field_attributes: vec![("X.y".into(), "#[serde(rename = \"z\"".into())],
            ..Options::default()
        };
        let problems = o.validate();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("not a path"));
        assert!(problems[1].contains("\"derive(Hash)\""));
        assert!(problems[2].contains("field_attribute"));
    }
}
