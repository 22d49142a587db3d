//! Items: scales and enums, tracks, record types and records, outcomes, constants,
//! tables and the site table, built with the `codegen` crate's `Scope`.

use super::docs::fn_doc;
use super::ident::{doc_attr, doc_text, lit};
use super::{by_face, int_lit, Gen, RT};
use crate::ir::{Const, TableKey, Ty};
use codegen::{Enum, Function, Impl, Scope, Struct};

impl Gen<'_> {
    /// Rejects what the Rust backend cannot express exactly (the interpreter still runs it).
    pub(super) fn check_supported(&self) -> Result<(), String> {
        for c in &self.p.choices {
            if c.variants.is_empty() {
                return Err(format!(
                    "`{}` has no variants; the Rust backend needs at least one",
                    c.name
                ));
            }
        }
        for t in &self.p.tracks {
            if self.p.choices[t.scale].variants.len() > 255 {
                return Err(format!(
                    "track `{}`: a scale of more than 255 levels",
                    t.name
                ));
            }
        }
        Ok(())
    }

    pub(super) fn choices(&self, scope: &mut Scope) {
        for (ci, c) in self.p.choices.iter().enumerate() {
            let name = &self.id.choice[ci];
            let mut e = Enum::new(name);
            e.vis("pub");
            let kind = if c.ordered { "Scale" } else { "Enum" };
            let title = format!(
                "{kind} `{}`{}.",
                c.name,
                if c.ordered {
                    ", lowest level first"
                } else {
                    ""
                }
            );
            e.r#macro(self.item_doc(&title, c.span));
            let have = [
                "Debug",
                "Clone",
                "Copy",
                "PartialEq",
                "Eq",
                "PartialOrd",
                "Ord",
                "Hash",
                "Default",
            ];
            let (derives, attrs) = self.type_extras(&c.name, &have, false);
            for d in have
                .iter()
                .copied()
                .chain(derives.iter().map(String::as_str))
            {
                e.derive(d);
            }
            for a in attrs {
                e.r#macro(a);
            }
            for (vi, v) in c.variants.iter().enumerate() {
                let var = e.new_variant(&self.id.variant[ci][vi]);
                if let Some(rename) = self.serde_rename(&self.id.variant[ci][vi], &v.name) {
                    var.annotation(rename);
                }
                // The label itself goes out only as a literal (`label()`); in docs, escaped.
                let label = (v.label != v.name).then(|| doc_text(&v.label));
                let fallback = if c.ordered {
                    format!("Level `{}`.", v.name)
                } else {
                    format!("Value `{}`.", v.name)
                };
                var.annotation(self.part_doc(Some(v.span), label.as_deref(), &fallback));
                if vi == 0 {
                    var.annotation("#[default]");
                }
            }
            scope.push_enum(e);

            let mut imp = Impl::new(name);
            let all: Vec<String> = self.id.variant[ci]
                .iter()
                .map(|v| format!("Self::{v}"))
                .collect();
            imp.associate_const(
                "ALL",
                format!("[Self; {}]", all.len()),
                format!("[{}]", all.join(", ")),
                // `codegen` has no docs on associated constants: the attribute rides in
                // front of the visibility.
                format!(
                    "{}\npub",
                    doc_attr(if c.ordered {
                        "Every level, lowest first."
                    } else {
                        "Every value, in the order the ruleset lists them."
                    })
                ),
            );
            let label = imp.new_fn("label");
            label.vis("pub const").arg_self().ret("&'static str");
            label.attr("doc = \" What traces print.\"");
            label.line("match self {");
            for (vi, v) in c.variants.iter().enumerate() {
                label.line(format!(
                    "Self::{} => {},",
                    self.id.variant[ci][vi],
                    lit(&v.label)
                ));
            }
            label.line("}");
            scope.push_impl(imp);

            let mut disp = Impl::new(name);
            disp.impl_trait("::core::fmt::Display");
            disp.new_fn("fmt")
                .arg_ref_self()
                .arg("f", "&mut ::core::fmt::Formatter<'_>")
                .ret("::core::fmt::Result")
                .line("f.pad(self.label())");
            scope.push_impl(disp);
        }
    }

    pub(super) fn tracks(&self, scope: &mut Scope) {
        for (ti, t) in self.p.tracks.iter().enumerate() {
            scope.raw(format!(
                "{}\npub type {} = {RT}::Track;",
                self.item_doc(
                    &format!("Track `{}`: which boxes are filled.", t.name),
                    t.span
                ),
                self.id.track[ti]
            ));
            let levels: Vec<String> = t
                .boxes
                .iter()
                .map(|b| b.level.min(255).to_string())
                .collect();
            scope.raw(format!(
                "{}\npub const {}: [u8; {}] = [{}];",
                doc_attr(&format!(
                    "The level of each box of `{}` (box 1 first), as an index of its scale.",
                    t.name
                )),
                self.id.track_levels[ti],
                levels.len(),
                levels.join(", ")
            ));
            for (ai, a) in t.attrs.iter().enumerate() {
                let vals: Vec<String> = t
                    .boxes
                    .iter()
                    .map(|b| b.attrs.get(ai).copied().unwrap_or(0).to_string())
                    .collect();
                scope.raw(format!(
                    "{}\npub const {}: [i64; {}] = [{}];",
                    doc_attr(&format!(
                        "The `{a}` of each box of `{}` (box 1 first).",
                        t.name
                    )),
                    self.id.track_attr[ti][ai],
                    vals.len(),
                    vals.join(", ")
                ));
            }
        }
    }

    pub(super) fn records(
        &self,
        scope: &mut Scope,
        defaults: &mut Vec<String>,
    ) -> Result<(), String> {
        let keys = super::types::key_records(self.p);
        for (ri, r) in self.p.records.iter().enumerate() {
            let name = &self.id.record[ri];
            let mut s = Struct::new(name);
            s.vis("pub");
            s.r#macro(self.item_doc(&format!("Record type `{}`.", r.name), r.span));
            s.derive("Debug").derive("Clone").derive("PartialEq");
            // A map's key: ordered field by field, as declared (the interpreter's order).
            let key: &[&str] = if keys[ri] {
                &["Eq", "PartialOrd", "Ord"]
            } else {
                &[]
            };
            for d in key {
                s.derive(d);
            }
            // `#[derive(Default)]` gives each field its type's zero: enough unless a field
            // defaults to something else (or is an array too long for `Default`).
            let by_hand = r.fields.iter().any(|f| {
                f.default.as_ref().is_some_and(|d| *d != self.p.zero(&f.ty))
                    || matches!(&f.ty, Ty::Map(k, _) if self.p.choices[*k].variants.len() > 32)
            });
            if !by_hand {
                s.derive("Default");
            }
            let mut have: Vec<&str> = if by_hand {
                vec!["Debug", "Clone", "PartialEq"]
            } else {
                vec!["Debug", "Clone", "PartialEq", "Default"]
            };
            have.extend(key);
            let (derives, attrs) = self.type_extras(&r.name, &have, true);
            for d in &derives {
                s.derive(d);
            }
            for a in attrs {
                s.r#macro(a);
            }
            for (fi, f) in r.fields.iter().enumerate() {
                let ident = &self.id.field[ri][fi];
                let path = format!("{}.{}", r.name, f.name);
                let extras =
                    self.field_extras(&path, ident, &f.name, &f.ty, f.default.as_ref(), defaults)?;
                let field = s.new_field(ident, self.rust_ty(&f.ty)?);
                field.vis("pub");
                for a in extras {
                    field.annotation(a);
                }
                let mut doc = f.doc.clone().unwrap_or_default();
                if let Some((lo, hi)) = f.range {
                    let range = format!("From {lo} to {hi}.");
                    doc = match doc.trim_end() {
                        "" => range,
                        d if d.ends_with('.') => format!("{d} {range}"),
                        d => format!("{d}. {range}"),
                    };
                }
                let fallback = format!("`{}`: `{}`.", f.name, self.p.ty_name(&f.ty));
                field.annotation(self.part_doc(Some(f.span), Some(&doc), &fallback));
            }
            scope.push_struct(s);
            // Display reads like `eval::show`: `Type(field: value, ...)`.
            let mut disp = Impl::new(name);
            disp.impl_trait("::core::fmt::Display");
            let f: &mut Function = disp.new_fn("fmt");
            f.arg_ref_self()
                .arg("out", "&mut ::core::fmt::Formatter<'_>")
                .ret("::core::fmt::Result");
            if r.fields.is_empty() {
                f.line(format!("out.write_str({})", lit(&format!("{}()", r.name))));
            }
            for (fi, fd) in r.fields.iter().enumerate() {
                let sep = if fi == 0 {
                    format!("{}(", r.name)
                } else {
                    ", ".to_string()
                };
                f.line(format!(
                    "out.write_str({})?;",
                    lit(&format!("{sep}{}: ", fd.name))
                ));
                let value = format!("self.{}", self.id.field[ri][fi]);
                f.line(self.write_value(&fd.ty, &value, false));
            }
            if !r.fields.is_empty() {
                f.line("out.write_str(\")\")");
            }
            scope.push_impl(disp);
            if by_hand {
                let mut imp = Impl::new(name);
                imp.impl_trait("Default");
                let Const::Record(zero) = self.p.zero(&Ty::Record(ri)) else {
                    return Err("rulesc bug: the zero of a record is not a record".into());
                };
                let value = self.record_literal(&zero.fields, ri)?;
                imp.new_fn("default").ret("Self").line(value);
                scope.push_impl(imp);
            }
            let instances: Vec<usize> = (0..self.p.instances.len())
                .filter(|&i| self.p.instances[i].record == ri)
                .collect();
            // One constructor per record, its identifier from `ident` (distinct even when
            // names collide after escaping); the names themselves only as literals.
            let mut imp = Impl::new(name);
            let names: Vec<String> = instances
                .iter()
                .map(|&i| lit(&self.p.instances[i].name))
                .collect();
            imp.associate_const(
                "NAMES",
                "&[&str]",
                format!("&[{}]", names.join(", ")),
                format!(
                    "{}\npub",
                    doc_attr("The names of this type's records, as the ruleset writes them.")
                ),
            );
            for &i in &instances {
                let inst = &self.p.instances[i];
                let Const::Record(fields) = &inst.value else {
                    return Err("rulesc bug: a record whose value is not a record".into());
                };
                let value = self.record_literal(&fields.fields, ri)?;
                let f = imp.new_fn(&self.id.instance[i]);
                f.vis("pub").ret("Self");
                let title = format!("Record `{}`.", doc_text(&inst.name));
                fn_doc(f, &self.item_lines(&title, inst.span));
                f.line(value);
            }
            let named = imp.new_fn("named");
            named
                .vis("pub")
                .arg("name", "&str")
                .ret("Option<Self>")
                .attr("doc = \" The record of this type named `name` (one of `NAMES`), as scenarios and packs name it.\"");
            if instances.is_empty() {
                named.line("let _ = name;");
                named.line("None");
            } else {
                named.line("match name {");
                for (&i, lit_name) in instances.iter().zip(&names) {
                    named.line(format!(
                        "{lit_name} => Some(Self::{}()),",
                        self.id.instance[i]
                    ));
                }
                named.line("_ => None,");
                named.line("}");
            }
            scope.push_impl(imp);
        }
        Ok(())
    }

    pub(super) fn outcomes(
        &self,
        scope: &mut Scope,
        defaults: &mut Vec<String>,
    ) -> Result<(), String> {
        for (oi, o) in self.p.outcomes.iter().enumerate() {
            let name = &self.id.outcome[oi];
            let mut e = Enum::new(name);
            e.vis("pub");
            e.r#macro(self.item_doc(&format!("Outcome `{}`.", o.name), o.span));
            let copy = self.outcome_is_copy(oi);
            e.derive("Debug").derive("Clone");
            if copy {
                e.derive("Copy");
            }
            e.derive("PartialEq");
            if copy {
                e.derive("Eq").derive("Hash");
            }
            let have: &[&str] = if copy {
                &["Debug", "Clone", "Copy", "PartialEq", "Eq", "Hash"]
            } else {
                &["Debug", "Clone", "PartialEq"]
            };
            let (derives, attrs) = self.type_extras(&o.name, have, true);
            for d in &derives {
                e.derive(d);
            }
            for a in attrs {
                e.r#macro(a);
            }
            for (ti, t) in o.tags.iter().enumerate() {
                let v = e.new_variant(&self.id.tag[oi][ti]);
                if let Some(rename) = self.serde_rename(&self.id.tag[oi][ti], &t.name) {
                    v.annotation(rename);
                }
                v.annotation(self.part_doc(Some(t.span), None, &format!("Tag `{}`.", t.name)));
                for (fi, (fname, fty)) in t.fields.iter().enumerate() {
                    let ident = &self.id.tag_field[oi][ti][fi];
                    let path = format!("{}.{}.{fname}", o.name, t.name);
                    let extras = self.field_extras(&path, ident, fname, fty, None, defaults)?;
                    let field = v.new_named(ident, self.rust_ty(fty)?);
                    for a in extras {
                        field.annotation(a);
                    }
                    let doc = format!("`{fname}` of `{}`: `{}`.", t.name, self.p.ty_name(fty));
                    field.annotation(self.part_doc(None, None, &doc));
                }
            }
            scope.push_enum(e);

            // Display reads like `eval::show`: `Tag`, or `Tag(field: value, ...)`.
            let mut disp = Impl::new(name);
            disp.impl_trait("::core::fmt::Display");
            let f: &mut Function = disp.new_fn("fmt");
            f.arg_ref_self()
                .arg("out", "&mut ::core::fmt::Formatter<'_>")
                .ret("::core::fmt::Result");
            f.line("match self {");
            for (ti, t) in o.tags.iter().enumerate() {
                let tag = &self.id.tag[oi][ti];
                if t.fields.is_empty() {
                    f.line(format!("Self::{tag} => out.write_str({}),", lit(&t.label)));
                    continue;
                }
                let binds: Vec<String> = t
                    .fields
                    .iter()
                    .enumerate()
                    .map(|(fi, (_, fty))| {
                        // A field of no value is not read.
                        let bind = if matches!(fty, Ty::Unit) {
                            "_".to_string()
                        } else {
                            format!("f{fi}")
                        };
                        format!("{}: {bind}", self.id.tag_field[oi][ti][fi])
                    })
                    .collect();
                f.line(format!("Self::{tag} {{ {} }} => {{", binds.join(", ")));
                for (fi, (fname, fty)) in t.fields.iter().enumerate() {
                    let sep = if fi == 0 {
                        format!("{}(", t.label)
                    } else {
                        ", ".to_string()
                    };
                    f.line(format!(
                        "out.write_str({})?;",
                        lit(&format!("{sep}{fname}: "))
                    ));
                    f.line(self.write_value(fty, &format!("f{fi}"), true));
                }
                f.line("out.write_str(\")\")");
                f.line("}");
            }
            f.line("}");
            scope.push_impl(disp);
        }
        Ok(())
    }

    /// A statement of a `Display::fmt` that writes `value` (a field, or a binding when
    /// `bound`) of type `ty` to `out`, as `eval::show` prints it.
    fn write_value(&self, ty: &Ty, value: &str, bound: bool) -> String {
        match ty {
            Ty::Int | Ty::Bool | Ty::Dice | Ty::Choice(_) | Ty::Outcome(_) | Ty::Record(_) => {
                if bound {
                    format!("write!(out, \"{{{value}}}\")?;")
                } else {
                    format!("write!(out, \"{{}}\", {value})?;")
                }
            }
            _ => format!("out.write_str(&{})?;", self.show(ty, value)),
        }
    }

    pub(super) fn constants(&self, scope: &mut Scope) -> Result<(), String> {
        for (ki, k) in self.p.constants.iter().enumerate() {
            let value = self.const_expr(&k.value, &k.ty)?;
            let ty = self.rust_ty(&k.ty)?;
            let doc = self.item_doc(&format!("Constant `{}`.", k.name), k.span);
            let kw = if self.is_const_ty(&k.ty) {
                "const"
            } else {
                return Err(format!(
                    "constant `{}`: its type has no Rust constant",
                    k.name
                ));
            };
            scope.raw(format!(
                "{doc}\npub {kw} {}: {ty} = {value};",
                self.id.constant[ki]
            ));
        }
        Ok(())
    }

    pub(super) fn tables(&self, scope: &mut Scope) -> Result<(), String> {
        for (ti, t) in self.p.tables.iter().enumerate() {
            let (key_ty, mut what) = self.table_key(&t.key);
            let mut f = Function::new(&self.id.table[ti]);
            let partial = t.partial();
            let value_ty = self.table_value_ty(&t.value)?;
            f.vis("pub").arg("key", key_ty);
            if let Some(cols) = &t.columns {
                let (column_ty, by) = self.table_key(&cols.key);
                f.arg("column", column_ty);
                what = format!("rows {what}, columns {by}");
            }
            f.ret(if partial {
                format!("Option<{value_ty}>")
            } else {
                value_ty
            });
            let mut doc = self.item_lines(&format!("Table `{}`, {what}.", t.name), t.span);
            if partial {
                doc.push(String::new());
                doc.push("`None` for a key that is not a face of the die.".into());
            }
            fn_doc(&mut f, &doc);
            // A `match` of constants: inlinable from another crate (see formulas).
            f.attr("inline");
            // What a key no row (or column) holds gives: the default, or the zero.
            let other = match &t.default {
                Some(d) => self.table_value(d, &t.value)?,
                None => self.table_value(&self.p.zero(&t.value), &t.value)?,
            };
            let mut arms = Vec::new();
            for row in &t.rows {
                let v = match (&t.columns, &row.value) {
                    (None, v) => self.table_value(v, &t.value)?,
                    (Some(cols), Const::List(cells)) => {
                        let mut inner = Vec::new();
                        for (&(lo, hi), cell) in cols.heads.iter().zip(cells) {
                            inner.push((lo, hi, self.table_value(cell, &t.value)?));
                        }
                        let bools = t.value == Ty::Bool;
                        let inner = self.arms(&cols.key, inner, bools);
                        let fallback =
                            (!self.covers(&cols.key, &cols.heads)).then(|| other.clone());
                        format!("{{ {} }}", match_text("column", &inner, fallback, bools))
                    }
                    (Some(_), _) => return Err("rulesc bug: a grid row that is not a list".into()),
                };
                let v = if partial { format!("Some({v})") } else { v };
                arms.push((row.lo, row.hi, v));
            }
            let bools = t.value == Ty::Bool && !partial && t.columns.is_none();
            let arms = self.arms(&t.key, arms, bools);
            let ranges: Vec<(i64, i64)> = t.rows.iter().map(|r| (r.lo, r.hi)).collect();
            let fallback = if self.covers(&t.key, &ranges) {
                None
            } else if partial {
                Some("None".to_string())
            } else {
                Some(other)
            };
            let body = match_text("key", &arms, fallback, bools);
            // A grid whose every row has one value whatever the column.
            if t.columns.is_some() && !body.contains("column") {
                f.line("let _ = column;");
            }
            f.line(body);
            scope.push_fn(f);
            self.field_tables(scope, ti)?;
            if let (Some(name), Some((lo, hi))) = (&self.id.table_by_face[ti], by_face(t)) {
                let mut values = Vec::new();
                for face in lo..=hi {
                    let row = t.rows.iter().find(|r| r.lo <= face && face <= r.hi);
                    let row = row.ok_or("rulesc bug: a die table misses a face")?;
                    values.push(self.table_value(&row.value, &t.value)?);
                }
                scope.raw(format!(
                    "{}\npub const {name}: [{}; {}] = [{}];",
                    doc_attr(&format!(
                        "Table `{}` by face: what rolling face `{lo} + i` gives is entry `i`.",
                        doc_text(&t.name)
                    )),
                    self.table_value_ty(&t.value)?,
                    values.len(),
                    values.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// One function per field of table `ti`'s records that has a name in
    /// `Idents::table_field`: the field of the record the key finds, without building
    /// the record (a field read from a looked-up record calls it).
    fn field_tables(&self, scope: &mut Scope, ti: usize) -> Result<(), String> {
        let t = &self.p.tables[ti];
        let field = |c: &Const, fi: usize| -> Result<Const, String> {
            match c {
                Const::Record(r) => r
                    .fields
                    .get(fi)
                    .cloned()
                    .ok_or_else(|| "rulesc bug: a record constant without a field".to_string()),
                _ => Err("rulesc bug: a record table's value that is not a record".into()),
            }
        };
        for (fi, name) in self.id.table_field[ti].iter().enumerate() {
            let Some(name) = name else { continue };
            let Ty::Record(rid) = t.value else {
                return Err("rulesc bug: a field table of a table without records".into());
            };
            let fty = &self.p.records[rid].fields[fi].ty;
            let (key_ty, what) = self.table_key(&t.key);
            let mut f = Function::new(name);
            f.vis("pub")
                .arg("key", key_ty)
                .ret(self.table_value_ty(fty)?);
            fn_doc(
                &mut f,
                &[format!(
                    "Field `{}` of table `{}`'s records, {what}: the record's field, without building the record.",
                    doc_text(&self.p.records[rid].fields[fi].name),
                    doc_text(&t.name)
                )],
            );
            f.attr("inline");
            let other = match &t.default {
                Some(d) => field(d, fi)?,
                None => field(&self.p.zero(&t.value), fi)?,
            };
            let other = self.table_value(&other, fty)?;
            let mut arms = Vec::new();
            for row in &t.rows {
                arms.push((
                    row.lo,
                    row.hi,
                    self.table_value(&field(&row.value, fi)?, fty)?,
                ));
            }
            let bools = *fty == Ty::Bool;
            let arms = self.arms(&t.key, arms, bools);
            let ranges: Vec<(i64, i64)> = t.rows.iter().map(|r| (r.lo, r.hi)).collect();
            let fallback = (!self.covers(&t.key, &ranges)).then_some(other);
            f.line(match_text("key", &arms, fallback, bools));
            scope.push_fn(f);
        }
        Ok(())
    }

    /// The Rust type of a table's values: a list of numbers, flags or names is a
    /// `&'static [T]` (read in place, never built per lookup), any other as stored.
    fn table_value_ty(&self, ty: &Ty) -> Result<String, String> {
        match ty {
            Ty::List(elem) if self.small_elem(elem) => {
                Ok(format!("&'static [{}]", self.rust_ty(elem)?))
            }
            _ => self.rust_ty(ty),
        }
    }

    /// A table's value `c` of type `ty`, as [`Self::table_value_ty`] holds it.
    fn table_value(&self, c: &Const, ty: &Ty) -> Result<String, String> {
        match (c, ty) {
            (Const::List(items), Ty::List(elem)) if self.small_elem(elem) => {
                let xs = items
                    .iter()
                    .map(|x| self.const_expr(x, elem))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(format!("&[{}]", xs.join(", ")))
            }
            _ => self.const_expr(c, ty),
        }
    }

    /// A table key's Rust type, and how the table's doc says it is looked up.
    fn table_key(&self, key: &TableKey) -> (String, String) {
        match key {
            TableKey::Die(d) => ("i64".to_string(), format!("rolled on {d}")),
            TableKey::Choice(c) => (
                self.id.choice[*c].clone(),
                format!("by `{}`", self.p.choices[*c].name),
            ),
            TableKey::Int => ("i64".to_string(), "by number".to_string()),
        }
    }

    /// The pattern of a row's (or column's) keys `lo..=hi`.
    fn key_pattern(&self, key: &TableKey, lo: i64, hi: i64) -> String {
        match key {
            TableKey::Choice(c) => format!(
                "{}::{}",
                self.id.choice[*c],
                self.id.variant[*c][lo.clamp(0, u16::MAX as i64) as usize]
            ),
            _ if lo == hi => int_lit(lo),
            _ if lo == i64::MIN => format!("..={}", int_lit(hi)),
            _ if hi == i64::MAX => format!("{}..", int_lit(lo)),
            _ => format!("{}..={}", int_lit(lo), int_lit(hi)),
        }
    }

    /// The arms of a match over a table's keys; with `merge` (for `matches!`), numbers
    /// that follow one another with the same value in one pattern (clippy reads `1 | 2`
    /// as a range).
    fn arms(
        &self,
        key: &TableKey,
        mut keyed: Vec<(i64, i64, String)>,
        merge: bool,
    ) -> Vec<(String, String)> {
        if merge && !matches!(key, TableKey::Choice(_)) {
            keyed.sort_by_key(|&(lo, hi, _)| (lo, hi));
            let mut merged: Vec<(i64, i64, String)> = Vec::new();
            for (lo, hi, v) in keyed {
                match merged.last_mut() {
                    Some(last) if last.1.checked_add(1) == Some(lo) && last.2 == v => last.1 = hi,
                    _ => merged.push((lo, hi, v)),
                }
            }
            keyed = merged;
        }
        keyed
            .into_iter()
            .map(|(lo, hi, v)| (self.key_pattern(key, lo, hi), v))
            .collect()
    }

    /// Whether these rows (or columns) hold every key, so a match needs no `_` arm.
    fn covers(&self, key: &TableKey, ranges: &[(i64, i64)]) -> bool {
        match key {
            TableKey::Choice(c) => ranges.len() == self.p.choices[*c].variants.len(),
            _ => int_rows_cover_all(ranges),
        }
    }

    pub(super) fn sites(&self, scope: &mut Scope) {
        let mut text = format!(
            "{}\npub static SITES: &[{RT}::Site] = &[\n",
            doc_attr(
                "Where each trace event's rule is written: `TraceEvent::site` indexes this table."
            )
        );
        for s in &self.p.sites {
            text.push_str(&format!(
                "{RT}::Site::new({}, {}, {}, {}),\n",
                lit(&s.file),
                s.line,
                s.col,
                lit(&s.text)
            ));
        }
        text.push_str("];");
        scope.raw(text);
    }
}

/// Whether integer rows (sorted, disjoint) cover every `i64`.
fn int_rows_cover_all(ranges: &[(i64, i64)]) -> bool {
    let mut sorted = ranges.to_vec();
    sorted.sort_unstable();
    let mut next = i64::MIN;
    for (lo, hi) in sorted {
        if lo != next {
            return false;
        }
        if hi == i64::MAX {
            return true;
        }
        next = hi + 1;
    }
    false
}

/// `match scrutinee { pat => value, .. }`, with `_ => fallback` when given. Booleans with
/// a fallback are `matches!` over the arms that differ from it (clippy reads
/// `match .. { 0 => true, _ => false }` as one).
fn match_text(
    scrutinee: &str,
    arms: &[(String, String)],
    fallback: Option<String>,
    bools: bool,
) -> String {
    match fallback {
        Some(other) if bools => {
            let pats: Vec<String> = arms
                .iter()
                .filter(|(_, v)| *v != other)
                // `matches!` reads a pattern starting with `..=` only in parentheses.
                .map(|(p, _)| match p.starts_with("..") {
                    true => format!("({p})"),
                    false => p.clone(),
                })
                .collect();
            if pats.is_empty() {
                format!("let _ = {scrutinee};\n{other}")
            } else {
                let not = if other == "true" { "!" } else { "" };
                format!("{not}matches!({scrutinee}, {})", pats.join(" | "))
            }
        }
        fallback => {
            let mut text = format!("match {scrutinee} {{\n");
            for (pat, v) in arms {
                text.push_str(&format!("{pat} => {v},\n"));
            }
            if let Some(other) = fallback {
                text.push_str(&format!("_ => {other},\n"));
            }
            text.push('}');
            text
        }
    }
}
