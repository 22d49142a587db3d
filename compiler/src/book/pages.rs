//! The pages of one ruleset: the contents, scales and enums, record types, tables and
//! constants, tracks, records, rules (outcomes, formulas, procedures), and a pack's
//! records. Each definition is a section in the writer's order, with its comments and
//! `doc:` text, where it is defined, and its lines with their origins as `explain`
//! gives them.

use super::code::{self, Links};
use super::html::{anchor, esc, markdown};
use super::search;
use super::Ruleset;
use crate::check::index::SymbolKind;
use crate::codegen::docs::comment;
use crate::ir::{Const, Program, RecordOrigin, TableKey, Ty};
use crate::source::Span;
use std::fmt::Write as _;

pub const INDEX: &str = "index.html";
pub const SCALES: &str = "scales.html";
pub const TYPES: &str = "types.html";
pub const TABLES: &str = "tables.html";
pub const TRACKS: &str = "tracks.html";
pub const RECORDS: &str = "records.html";
pub const RULES: &str = "rules.html";
pub const ODDS: &str = "odds.html";
pub const CHANGES: &str = "changes.html";

/// The pages every ruleset has, with their titles, in the navigation's order.
const PAGES: [(&str, &str); 8] = [
    (INDEX, "Contents"),
    (SCALES, "Scales and enums"),
    (TYPES, "Record types"),
    (TABLES, "Tables"),
    (TRACKS, "Tracks"),
    (RECORDS, "Records"),
    (RULES, "Rules"),
    (ODDS, "Odds"),
];

/// A link on the contents page to another part of the book.
pub struct Link {
    pub href: String,
    pub text: String,
}

/// From a page of `rs` back to the book's root.
fn root(rs: &Ruleset) -> String {
    "../".repeat(rs.prefix.matches('/').count())
}

/// A whole page: the header (title, the ruleset's pages, search) and `body`. `here` is
/// the page's file name (to mark it in the navigation).
pub fn layout(rs: &Ruleset, here: &str, title: &str, body: &str) -> String {
    let root = root(rs);
    let mut nav = String::new();
    for (file, name) in PAGES {
        let class = if file == here { " class=\"here\"" } else { "" };
        let _ = write!(nav, "<a href=\"{file}\"{class}>{name}</a>");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'self' file:; script-src 'self' file:; img-src 'self' data: file:\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>{} — {}</title>\n<link rel=\"stylesheet\" href=\"{root}book.css\">\n</head>\n\
<body data-root=\"{root}\">\n<header><span class=\"title\"><a href=\"{INDEX}\">{}</a></span>\
<nav class=\"pages\">{nav}</nav><span class=\"search\"><input id=\"search\" type=\"search\" placeholder=\"Search\" aria-label=\"Search\"><ul id=\"results\"></ul></span></header>\n\
<main>\n<h1>{}</h1>\n{body}</main>\n<script src=\"{root}search.js\"></script>\n</body>\n</html>\n",
        esc(title),
        esc(rs.p.title_or_name()),
        esc(rs.p.title_or_name()),
        esc(title),
    )
}

/// Every page of `rs`: the definitions, `odds` (the odds page's body) and, for a
/// variant, `changes` (what it changes); `extra` links on the contents page.
pub fn ruleset(
    rs: &Ruleset,
    index: &mut search::Index,
    odds: &str,
    changes: Option<&str>,
    extra: &[Link],
) -> Vec<(String, String)> {
    let links = Links::new(rs);
    let mut out = Vec::new();
    let mut page = |file: &str, title: &str, body: String| {
        out.push((
            format!("{}{file}", rs.prefix),
            layout(rs, file, title, &body),
        ));
    };
    let mut s = Sections {
        rs,
        index,
        links: &links,
        applied: None,
        file: SCALES,
        toc: Vec::new(),
    };
    let scales = s.scales();
    s.file = TYPES;
    let types = s.types();
    s.file = TABLES;
    let tables = s.tables();
    s.file = TRACKS;
    let tracks = s.tracks();
    s.file = RECORDS;
    let records = s.records();
    s.file = RULES;
    let rules = s.rules();
    let toc = std::mem::take(&mut s.toc);
    page(SCALES, "Scales and enums", scales);
    page(TYPES, "Record types", types);
    page(TABLES, "Tables and constants", tables);
    page(TRACKS, "Tracks", tracks);
    page(RECORDS, "Records", records);
    page(RULES, "Rules", rules);
    page(ODDS, "Odds", odds.to_string());
    let mut contents = String::new();
    let _ = writeln!(
        contents,
        "<p>The ruleset <code>{}</code>, as checked by rulesc.</p>",
        esc(&rs.p.name)
    );
    if !rs.p.bases.is_empty() {
        let _ = writeln!(
            contents,
            "<p>It extends {}.</p>",
            rs.p.bases
                .iter()
                .map(|b| format!("<code>{}</code>", esc(b)))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if let Some(changes) = changes {
        page(CHANGES, "What this variant changes", changes.to_string());
        let _ = writeln!(
            contents,
            "<p><a href=\"{CHANGES}\">What this variant changes</a> against its base.</p>"
        );
    }
    if !extra.is_empty() {
        contents.push_str("<h2>Also in this book</h2>\n<ul>\n");
        for l in extra {
            let _ = writeln!(
                contents,
                "<li><a href=\"{}\">{}</a></li>",
                esc(&l.href),
                esc(&l.text)
            );
        }
        contents.push_str("</ul>\n");
    }
    for (file, title) in PAGES.iter().skip(1) {
        let entries: Vec<&(String, String, String)> =
            toc.iter().filter(|(f, _, _)| f == file).collect();
        let _ = writeln!(contents, "<h2><a href=\"{file}\">{title}</a></h2>");
        if entries.is_empty() {
            continue;
        }
        contents.push_str("<ul class=\"contents\">\n");
        for (f, id, text) in entries {
            let _ = writeln!(contents, "<li><a href=\"{f}#{id}\">{}</a></li>", esc(text));
        }
        contents.push_str("</ul>\n");
    }
    page(INDEX, "Contents", contents);
    out
}

/// The sections of one ruleset's pages, as they are made.
struct Sections<'a> {
    rs: &'a Ruleset,
    index: &'a mut search::Index,
    links: &'a Links,
    /// The program with the content packs applied (a pack's page): a level or variant a
    /// pack adds is named from it, unlinked (the ruleset's pages do not show it).
    applied: Option<&'a Program>,
    /// The page being made.
    file: &'static str,
    /// The contents: (page, anchor, text) of every section.
    toc: Vec<(String, String, String)>,
}

/// The items of a kind in the writer's order (as `explain` lists definitions), then any
/// the definitions do not name (records a pack added), in the program's order.
fn ordered<'t, T>(
    rs: &Ruleset,
    kinds: &[&str],
    items: &'t [T],
    name: impl Fn(&T) -> &str,
) -> Vec<&'t T> {
    let mut out: Vec<&T> = Vec::new();
    let mut used = vec![false; items.len()];
    for d in rs.defs.iter().filter(|d| kinds.contains(&d.kind.as_str())) {
        if let Some(i) = (0..items.len()).find(|&i| !used[i] && name(&items[i]) == d.name) {
            used[i] = true;
            out.push(&items[i]);
        }
    }
    out.extend(
        items
            .iter()
            .zip(&used)
            .filter(|(_, u)| !**u)
            .map(|(t, _)| t),
    );
    out
}

impl Sections<'_> {
    /// A definition's section, opened: heading, where it is defined, the writer's
    /// comments and `doc:` text. `content` follows, then its lines with their origins.
    #[allow(clippy::too_many_arguments)]
    fn section(
        &mut self,
        kind: &str,
        id: &str,
        name: &str,
        span: Span,
        def_kinds: &[&str],
        doc: Option<&str>,
        content: &str,
    ) -> String {
        let rs = self.rs;
        self.index
            .add(name, kind, format!("{}{}#{id}", rs.prefix, self.file));
        self.toc
            .push((self.file.to_string(), id.to_string(), name.to_string()));
        let mut out = format!(
            "<section class=\"def\" id=\"{id}\">\n<h2><span class=\"kind\">{}</span>{}</h2>\n",
            esc(kind),
            esc(name)
        );
        let def = rs.def(def_kinds, name);
        let at = match def {
            Some(d) => d.at.clone(),
            None => {
                let (file, line, _) = rs.p.sources.position(span);
                format!("{file}:{line}")
            }
        };
        let _ = writeln!(out, "<p class=\"at\">defined at {}</p>", esc(&at));
        let mut prose = comment(&rs.p.sources, span).join("\n");
        if let Some(doc) = doc {
            if !prose.is_empty() {
                prose.push_str("\n\n");
            }
            prose.push_str(doc);
        }
        if !prose.trim().is_empty() {
            let _ = writeln!(out, "<div class=\"prose\">{}</div>", markdown(&prose));
        }
        out.push_str(content);
        if let Some(d) = def.filter(|d| d.lines.iter().any(|(_, o)| !o.is_empty())) {
            out.push_str(
                "<details><summary>Its lines and where each comes from (as <code>rulesc explain</code> gives them)</summary>\n<pre>",
            );
            out.push_str(&esc(&d.text()));
            out.push_str("</pre></details>\n");
        }
        out.push_str("</section>\n");
        out
    }

    fn scales(&mut self) -> String {
        let rs = self.rs;
        let mut out = String::new();
        for c in ordered(rs, &["scale", "enum"], &rs.p.choices, |c| &c.name) {
            let kind = if c.ordered { "scale" } else { "enum" };
            let mut body = String::from(
                "<table><tr><th class=\"num\">#</th><th>name</th><th>label</th><th>notes</th></tr>\n",
            );
            for (i, v) in c.variants.iter().enumerate() {
                let id = anchor("level", &format!("{}/{}", c.name, v.name));
                let notes = comment(&rs.p.sources, v.span).join("\n");
                let _ = writeln!(
                    body,
                    "<tr id=\"{id}\"><td class=\"num\">{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
                    i + 1,
                    esc(&v.name),
                    esc(&v.label),
                    if notes.is_empty() { String::new() } else { markdown(&notes) }
                );
            }
            body.push_str("</table>\n");
            let doc = rs.doc(
                if c.ordered {
                    SymbolKind::Scale
                } else {
                    SymbolKind::Enum
                },
                None,
                &c.name,
            );
            out.push_str(&self.section(
                kind,
                &anchor("choice", &c.name),
                &c.name,
                c.span,
                &["scale", "enum"],
                doc,
                &body,
            ));
        }
        none_if_empty(out, "scales or enums")
    }

    fn types(&mut self) -> String {
        let rs = self.rs;
        let mut out = String::new();
        for r in ordered(rs, &["type"], &rs.p.records, |r| &r.name) {
            let mut body = String::from(
                "<table><tr><th>field</th><th>type</th><th>default</th><th>notes</th></tr>\n",
            );
            for f in &r.fields {
                let id = anchor("field", &format!("{}/{}", r.name, f.name));
                let mut ty = self.ty(&f.ty);
                if let Some((lo, hi)) = f.range {
                    let _ = write!(ty, " ({lo} to {hi})");
                }
                let default = f
                    .default
                    .as_ref()
                    .map(|d| self.value(d, &f.ty))
                    .unwrap_or_default();
                let mut notes = comment(&rs.p.sources, f.span).join("\n");
                if let Some(doc) = &f.doc {
                    if !notes.is_empty() {
                        notes.push_str("\n\n");
                    }
                    notes.push_str(doc);
                }
                let _ = writeln!(
                    body,
                    "<tr id=\"{id}\"><td><code>{}</code></td><td>{ty}</td><td>{default}</td><td>{}</td></tr>",
                    esc(&f.name),
                    if notes.is_empty() { String::new() } else { markdown(&notes) }
                );
            }
            body.push_str("</table>\n");
            let doc = rs.doc(SymbolKind::RecordType, None, &r.name);
            out.push_str(&self.section(
                "record type",
                &anchor("type", &r.name),
                &r.name,
                r.span,
                &["type"],
                doc,
                &body,
            ));
        }
        none_if_empty(out, "record types")
    }

    /// A key of a table row or column, as the book prints it.
    fn key(&self, key: &TableKey, lo: i64, hi: i64) -> String {
        match key {
            TableKey::Choice(c) => self.choice(*c, lo as usize),
            _ => match (lo == i64::MIN, hi == i64::MAX) {
                (true, true) => "any".into(),
                (true, false) => format!("{hi} or less"),
                (false, true) => format!("{lo} or more"),
                (false, false) if lo == hi => lo.to_string(),
                (false, false) => format!("{lo}–{hi}"),
            },
        }
    }

    fn tables(&mut self) -> String {
        let rs = self.rs;
        let mut out = String::new();
        for t in ordered(rs, &["table"], &rs.p.tables, |t| &t.name) {
            let key_head = match &t.key {
                TableKey::Die(d) => esc(&d.to_string()),
                TableKey::Choice(c) => self.ty(&Ty::Choice(*c)),
                TableKey::Int => "key".into(),
            };
            let mut body = String::from("<table>\n<tr>");
            let _ = write!(body, "<th>{key_head}</th>");
            match &t.columns {
                Some(cols) => {
                    for &(lo, hi) in &cols.heads {
                        let _ = write!(body, "<th>{}</th>", self.key(&cols.key, lo, hi));
                    }
                }
                None => {
                    let _ = write!(body, "<th>{}</th>", self.ty(&t.value));
                }
            }
            body.push_str("</tr>\n");
            for r in &t.rows {
                let _ = write!(body, "<tr><th>{}</th>", self.key(&t.key, r.lo, r.hi));
                match (&t.columns, &r.value) {
                    (Some(_), Const::List(cells)) => {
                        for c in cells {
                            let _ = write!(body, "<td>{}</td>", self.value(c, &t.value));
                        }
                    }
                    (_, v) => {
                        let _ = write!(body, "<td>{}</td>", self.value(v, &t.value));
                    }
                }
                body.push_str("</tr>\n");
            }
            body.push_str("</table>\n");
            if let Some(d) = &t.default {
                let _ = writeln!(body, "<p>Any other key: {}</p>", self.value(d, &t.value));
            }
            let doc = rs.doc(SymbolKind::Table, None, &t.name);
            out.push_str(&self.section(
                "table",
                &anchor("table", &t.name),
                &t.name,
                t.span,
                &["table"],
                doc,
                &body,
            ));
        }
        let mut constants = String::new();
        for k in ordered(rs, &["constant"], &rs.p.constants, |k| &k.name) {
            let body = format!(
                "<p><code>{}</code> = {} ({})</p>\n",
                esc(&k.name),
                self.value(&k.value, &k.ty),
                self.ty(&k.ty)
            );
            let doc = rs.doc(SymbolKind::Constant, None, &k.name);
            constants.push_str(&self.section(
                "constant",
                &anchor("constant", &k.name),
                &k.name,
                k.span,
                &["constant"],
                doc,
                &body,
            ));
        }
        if !constants.is_empty() {
            out.push_str("<h2>Constants</h2>\n");
            out.push_str(&constants);
        }
        none_if_empty(out, "tables or constants")
    }

    fn tracks(&mut self) -> String {
        let rs = self.rs;
        let mut out = String::new();
        for t in ordered(rs, &["track"], &rs.p.tracks, |t| &t.name) {
            let mut body = format!(
                "<p>Boxes of the scale {}; when every box is full: {}.</p>\n<table><tr><th class=\"num\">box</th><th>level</th>",
                self.ty(&Ty::Choice(t.scale)),
                if t.escalate { "the wound escalates" } else { "it stops" }
            );
            for a in &t.attrs {
                let _ = write!(body, "<th>{}</th>", esc(a));
            }
            body.push_str("</tr>\n");
            for (i, b) in t.boxes.iter().enumerate() {
                let _ = write!(
                    body,
                    "<tr><td class=\"num\">{}</td><td>{}</td>",
                    i + 1,
                    self.choice(t.scale, usize::from(b.level))
                );
                for v in &b.attrs {
                    let _ = write!(body, "<td class=\"num\">{v}</td>");
                }
                body.push_str("</tr>\n");
            }
            body.push_str("</table>\n");
            let doc = rs.doc(SymbolKind::Track, None, &t.name);
            out.push_str(&self.section(
                "track",
                &anchor("track", &t.name),
                &t.name,
                t.span,
                &["track"],
                doc,
                &body,
            ));
        }
        none_if_empty(out, "tracks")
    }

    fn records(&mut self) -> String {
        let rs = self.rs;
        let mut out = String::new();
        for r in ordered(rs, &["record"], &rs.p.instances, |r| &r.name) {
            let body = self.fields(&r.value, r.record);
            let doc = rs.doc(SymbolKind::Record, None, &r.name);
            let kind = format!("{} record", rs.p.records[r.record].name);
            out.push_str(&self.section(
                &kind,
                &anchor("record", &r.name),
                &r.name,
                r.span,
                &["record"],
                doc,
                &body,
            ));
        }
        none_if_empty(out, "records")
    }

    /// A record's fields as a table of names and values.
    fn fields(&self, value: &Const, ty: usize) -> String {
        let rs = self.rs;
        let mut body = String::from("<table><tr><th>field</th><th>value</th></tr>\n");
        if let Const::Record(v) = value {
            for (f, x) in rs.p.records[ty].fields.iter().zip(&v.fields) {
                let id = anchor("field", &format!("{}/{}", rs.p.records[ty].name, f.name));
                let _ = writeln!(
                    body,
                    "<tr><td><a href=\"{TYPES}#{id}\">{}</a></td><td>{}</td></tr>",
                    esc(&f.name),
                    self.value(x, &f.ty)
                );
            }
        }
        body.push_str("</table>\n");
        body
    }

    fn rules(&mut self) -> String {
        let rs = self.rs;
        let mut out = String::new();
        for o in ordered(rs, &["outcome"], &rs.p.outcomes, |o| &o.name) {
            let mut body =
                String::from("<table><tr><th>tag</th><th>label</th><th>fields</th></tr>\n");
            for t in &o.tags {
                let id = anchor("tag", &format!("{}/{}", o.name, t.name));
                let fields: Vec<String> = t
                    .fields
                    .iter()
                    .map(|(n, ty)| format!("<code>{}</code>: {}", esc(n), self.ty(ty)))
                    .collect();
                let _ = writeln!(
                    body,
                    "<tr id=\"{id}\"><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
                    esc(&t.name),
                    esc(&t.label),
                    fields.join(", ")
                );
            }
            body.push_str("</table>\n");
            body.push_str(&code::block(rs, self.links, o.span));
            out.push_str(&self.section(
                "outcome",
                &anchor("outcome", &o.name),
                &o.name,
                o.span,
                &["outcome"],
                None,
                &body,
            ));
        }
        for f in ordered(rs, &["formula", "procedure"], &rs.p.functions, |f| &f.name) {
            let kind = if f.is_procedure() {
                "procedure"
            } else {
                "formula"
            };
            let (file, line, _) = rs.p.sources.position(f.span);
            let mut body = format!(
                "<p class=\"at\">source: <a href=\"#{}\">{}:{line}</a></p>\n",
                code::line_anchor(rs, f.span.file, line as usize),
                esc(&file)
            );
            body.push_str(&code::block(rs, self.links, f.span));
            out.push_str(&self.section(
                kind,
                &anchor("fn", &f.name),
                &f.name,
                f.span,
                &["formula", "procedure"],
                None,
                &body,
            ));
        }
        none_if_empty(out, "outcomes, formulas or procedures")
    }

    /// A type's name, linked to its definition when it has one.
    fn ty(&self, ty: &Ty) -> String {
        let rs = self.rs;
        let (page, id) = match ty {
            Ty::Choice(c) => (SCALES, anchor("choice", &rs.p.choices[*c].name)),
            Ty::Record(r) => (TYPES, anchor("type", &rs.p.records[*r].name)),
            Ty::Track(t) => (TRACKS, anchor("track", &rs.p.tracks[*t].name)),
            Ty::Outcome(o) => (RULES, anchor("outcome", &rs.p.outcomes[*o].name)),
            _ => return format!("<code>{}</code>", esc(&rs.p.ty_name(ty))),
        };
        format!(
            "<a href=\"{page}#{id}\"><code>{}</code></a>",
            esc(&rs.p.ty_name(ty))
        )
    }

    /// The level or variant `i` of choice `c`, by its label, linked to it.
    fn choice(&self, c: usize, i: usize) -> String {
        let ch = &self.rs.p.choices[c];
        match ch.variants.get(i) {
            Some(v) => format!(
                "<a href=\"{SCALES}#{}\">{}</a>",
                anchor("level", &format!("{}/{}", ch.name, v.name)),
                esc(&v.label)
            ),
            None => match self.applied.and_then(|p| p.choices.get(c)?.variants.get(i)) {
                Some(v) => esc(&v.label),
                None => "?".into(),
            },
        }
    }

    /// A value as the book prints it: levels by their label and records by their name,
    /// linked; anything else as `rulesc export` writes it.
    fn value(&self, c: &Const, ty: &Ty) -> String {
        let rs = self.rs;
        match (c, ty) {
            (Const::Choice(i), Ty::Choice(ch)) => self.choice(*ch, usize::from(*i)),
            (Const::Record(r), Ty::Record(_)) => match r.origin {
                RecordOrigin::Instance(i) if i < rs.p.instances.len() => {
                    let name = &rs.p.instances[i].name;
                    format!(
                        "<a href=\"{RECORDS}#{}\">{}</a>",
                        anchor("record", name),
                        esc(name)
                    )
                }
                _ => esc(&text(&crate::export::value(&rs.p, c, ty))),
            },
            (Const::List(items), Ty::List(elem)) => format!(
                "[{}]",
                items
                    .iter()
                    .map(|x| self.value(x, elem))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => esc(&text(&crate::export::value(&rs.p, c, ty))),
        }
    }
}

/// A JSON value as short text: strings bare, lists in brackets, objects in braces.
fn text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(items) => {
            format!(
                "[{}]",
                items.iter().map(text).collect::<Vec<_>>().join(", ")
            )
        }
        serde_json::Value::Object(o) => format!(
            "{{{}}}",
            o.iter()
                .map(|(k, v)| format!("{k}: {}", text(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        serde_json::Value::Null => "none".into(),
        v => v.to_string(),
    }
}

fn none_if_empty(out: String, what: &str) -> String {
    if out.is_empty() {
        format!("<p>This ruleset defines no {what}.</p>\n")
    } else {
        out
    }
}

/// A content pack's page: its records, each with its fields, checked against `rs`.
pub fn pack(
    rs: &Ruleset,
    pack: &crate::pack::Pack,
    applied: &Program,
    index: &mut search::Index,
    file: &str,
) -> String {
    let links = Links::new(rs);
    let s = Sections {
        rs,
        index,
        links: &links,
        applied: Some(applied),
        file: "",
        toc: Vec::new(),
    };
    let mut out = format!(
        "<p>The content pack <code>{}</code> ({} records), checked against the record types of <a href=\"{INDEX}\">{}</a>: every record below is valid.</p>\n",
        esc(&pack.name),
        pack.records.len(),
        esc(rs.p.title_or_name())
    );
    if pack.added != Default::default() {
        // What it adds to the data is not on the ruleset's pages: `explain --pack` shows it.
        let _ = writeln!(
            out,
            "<p>It also adds to the ruleset's data ({}); <code>rulesc explain --pack</code> shows where.</p>",
            esc(&pack.summary())
        );
    }
    for (ty, name, value) in &pack.records {
        let id = anchor("pack-record", name);
        s.index.add(
            name,
            &format!("{ty} record, pack {}", pack.name),
            format!("{file}#{id}"),
        );
        let fields = match rs.p.records.iter().position(|r| &r.name == ty) {
            Some(t) => s.fields(value, t),
            None => String::new(),
        };
        let _ = write!(
            out,
            "<section class=\"def\" id=\"{id}\">\n<h2><span class=\"kind\">{} record</span>{}</h2>\n{fields}</section>\n",
            esc(ty),
            esc(name)
        );
    }
    out
}
