//! User names → Rust identifiers. The one place where a ruleset's names become code:
//! case conversion (snake_case for fields, functions and locals; CamelCase for types
//! and variants; SCREAMING_CASE for constants), keyword escaping, leading digits,
//! non-ASCII characters, and collisions (two names that convert to the same identifier
//! in one Rust namespace get distinct ones, in the order they are allocated).
//!
//! User *text* (labels, trace texts, file names, docs) never becomes an identifier: it
//! goes out as an escaped string literal through [`lit`].

use std::collections::BTreeSet;

/// Keywords of every edition (strict and reserved), which `r#` makes usable.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "union", "unsafe", "unsized",
    "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers: these get a `_` suffix instead.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// The words of a name: split at `_`, at a lower-to-upper change (`RightArm`), before
/// the last capital of a run of capitals followed by lower case (`HTTPServer`), and at
/// letter/digit changes only when a digit follows a lower-case word part. Non-ASCII
/// characters become `uXXXX` so that every identifier is plain ASCII.
fn words(name: &str) -> Vec<String> {
    let mut ascii = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            ascii.push(c);
        } else {
            ascii.push_str(&format!("_u{:04x}_", c as u32));
        }
    }
    let chars: Vec<char> = ascii.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let prev = if i > 0 { Some(chars[i - 1]) } else { None };
        let next = chars.get(i + 1).copied();
        let boundary = match prev {
            Some(p) if c.is_ascii_uppercase() => {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
            }
            _ => false,
        };
        if boundary && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Leading underscores are kept: `_x` says "not read" in both languages.
fn escape(name: &str, ident: String, fallback: &str, digit_prefix: &str) -> String {
    let under = &name[..name.len() - name.trim_start_matches('_').len()];
    let mut s = if ident.is_empty() {
        fallback.to_string()
    } else {
        ident
    };
    if !under.is_empty() {
        return format!("{under}{s}");
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s = format!("{digit_prefix}{s}");
    }
    if NOT_RAW.contains(&s.as_str()) {
        s.push('_');
    } else if KEYWORDS.contains(&s.as_str()) {
        s = format!("r#{s}");
    }
    s
}

/// `snake_case`: fields, functions, locals.
pub fn snake(name: &str) -> String {
    let w: Vec<String> = words(name).iter().map(|w| w.to_ascii_lowercase()).collect();
    escape(name, w.join("_"), "unnamed", "n")
}

/// `CamelCase`: types and variants.
pub fn camel(name: &str) -> String {
    let mut s = String::new();
    let ws = words(name);
    for (i, w) in ws.iter().enumerate() {
        // Two words that meet digit to digit keep an `_` so "a_1_2" does not read "A12".
        if i > 0
            && s.ends_with(|c: char| c.is_ascii_digit())
            && w.starts_with(|c: char| c.is_ascii_digit())
        {
            s.push('_');
        }
        let mut cs = w.chars();
        if let Some(f) = cs.next() {
            s.push(f.to_ascii_uppercase());
            s.extend(cs.map(|c| c.to_ascii_lowercase()));
        }
    }
    escape(name, s, "Unnamed", "V")
}

/// `SCREAMING_CASE`: constants and statics.
pub fn screaming(name: &str) -> String {
    let w: Vec<String> = words(name).iter().map(|w| w.to_ascii_uppercase()).collect();
    escape(name, w.join("_"), "UNNAMED", "N")
}

/// The case an identifier takes, which decides how a collision suffix is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    Snake,
    Camel,
    Screaming,
}

impl Case {
    pub fn convert(self, name: &str) -> String {
        match self {
            Case::Snake => snake(name),
            Case::Camel => camel(name),
            Case::Screaming => screaming(name),
        }
    }
}

/// One Rust namespace (module items of one kind, one struct's fields, one function's
/// locals): hands out distinct identifiers. Deterministic: the first name to ask for an
/// identifier gets it, later ones get `_2`, `_3` (or `2`, `3` in CamelCase).
#[derive(Debug, Clone, Default)]
pub struct Names {
    taken: BTreeSet<String>,
    /// Identifiers of an enclosing namespace, shared rather than copied (every
    /// function's locals avoid the module's functions and constants).
    outer: Option<std::rc::Rc<BTreeSet<String>>>,
    /// The next suffix to try for each stem, so the thousandth collision of one name
    /// costs what the second did (not a walk past `_2` .. `_999`).
    next: std::collections::HashMap<String, u32>,
}

impl Names {
    pub fn new() -> Self {
        Names::default()
    }

    /// A namespace inside `outer`: its identifiers are taken here too.
    pub fn inside(outer: std::rc::Rc<BTreeSet<String>>) -> Self {
        Names {
            outer: Some(outer),
            ..Names::default()
        }
    }

    /// Marks identifiers as taken without handing them out (generated names, names the
    /// generated code uses unqualified).
    pub fn reserve<'a>(&mut self, idents: impl IntoIterator<Item = &'a str>) {
        self.taken
            .extend(idents.into_iter().map(|s| unraw(s).to_string()));
    }

    pub fn is_taken(&self, ident: &str) -> bool {
        let ident = unraw(ident);
        self.taken.contains(ident) || self.outer.as_ref().is_some_and(|o| o.contains(ident))
    }

    /// A fresh identifier for user name `name` in case `case`.
    pub fn alloc(&mut self, name: &str, case: Case) -> String {
        self.fresh(case.convert(name), case)
    }

    /// A fresh identifier starting from an already valid identifier `base`.
    pub fn fresh(&mut self, base: String, case: Case) -> String {
        let mut ident = base;
        if self.is_taken(&ident) {
            let stem = unraw(&ident).to_string();
            let mut n = self.next.get(&stem).copied().unwrap_or(2);
            ident = loop {
                let candidate = match case {
                    // `Self_` + `2` is `Self2`: `Self_2` would not be CamelCase.
                    Case::Camel => format!("{}{n}", stem.trim_end_matches('_')),
                    // `self_` + `_2` would be `self__2`, which is not snake case.
                    _ if stem.ends_with('_') => format!("{stem}{n}"),
                    _ => format!("{stem}_{n}"),
                };
                n += 1;
                if !self.is_taken(&candidate) {
                    break candidate;
                }
            };
            self.next.insert(stem, n);
        }
        self.taken.insert(unraw(&ident).to_string());
        ident
    }
}

fn unraw(s: &str) -> &str {
    s.strip_prefix("r#").unwrap_or(s)
}

/// A string literal for user text, escaped by `proc_macro2`: never spliced into code.
pub fn lit(text: &str) -> String {
    proc_macro2::Literal::string(text).to_string()
}

/// `#[doc = "..."]` for user text (doc comments on fields, variants and items).
pub fn doc_attr(text: &str) -> String {
    format!("#[doc = {}]", lit(&format!(" {text}")))
}

/// User text as it may appear inside a doc comment: ASCII letters, digits, spaces and
/// `_-.,'()&+!?` as written; every other character (quotes, backslashes, `*`, `/`,
/// `:`, `;`, backticks, control and non-ASCII characters) as `\u{..}`, so no text that
/// reads as code reaches a comment. Record names and
/// display labels are arbitrary text: they reach the generated file verbatim only as
/// escaped string literals ([`lit`]), never as comment text.
pub fn doc_text(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || " _-.,'()&+!?".contains(c) {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    out
}

/// A writer's prose (a comment, a `doc:`) as doc comment text: kept as written, except
/// that `<` becomes `&lt;` (rustdoc reads doc comments as Markdown, which passes HTML
/// tags through), control characters become spaces, and the codepoints that change the
/// direction of text (U+202A..U+202E, U+2066..U+2069) are shown as `\u{202e}`: in a doc
/// comment rustc refuses them (`text_direction_codepoint_in_literal`, an error by
/// default), and a reader could not see them. It goes out inside a string literal
/// ([`doc_attr`]), so no text can end the comment early.
pub fn doc_prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases() {
        assert_eq!(snake("RightArm"), "right_arm");
        assert_eq!(snake("physical_performance"), "physical_performance");
        assert_eq!(snake("HTTPServer"), "http_server");
        assert_eq!(snake("d12"), "d12");
        assert_eq!(camel("right_arm"), "RightArm");
        assert_eq!(camel("BelowMinor"), "BelowMinor");
        assert_eq!(camel("ALL"), "All");
        assert_eq!(screaming("no_defence_base_tn"), "NO_DEFENCE_BASE_TN");
        assert_eq!(screaming("WoundBoxes"), "WOUND_BOXES");
    }

    #[test]
    fn keywords_digits_and_non_ascii() {
        assert_eq!(snake("box"), "r#box");
        assert_eq!(snake("type"), "r#type");
        assert_eq!(snake("self"), "self_");
        assert_eq!(camel("Self"), "Self_");
        assert_eq!(snake("1st"), "n1st");
        assert_eq!(camel("1st"), "V1st");
        assert_eq!(snake("épée"), "u00e9_p_u00e9_e");
        assert_eq!(snake(""), "unnamed");
        assert_eq!(snake("_unused"), "_unused");
        assert_eq!(snake("_"), "_unnamed");
    }

    #[test]
    fn collisions_get_distinct_names_in_order() {
        let mut n = Names::new();
        n.reserve(["env"]);
        assert_eq!(n.alloc("fooBar", Case::Snake), "foo_bar");
        assert_eq!(n.alloc("foo_bar", Case::Snake), "foo_bar_2");
        assert_eq!(n.alloc("env", Case::Snake), "env_2");
        assert_eq!(n.alloc("box", Case::Snake), "r#box");
        assert_eq!(n.alloc("Box", Case::Snake), "box_2");
        assert_eq!(n.alloc("Self", Case::Snake), "self_");
        assert_eq!(n.alloc("self", Case::Snake), "self_2");
        let mut t = Names::new();
        assert_eq!(t.alloc("foo_bar", Case::Camel), "FooBar");
        assert_eq!(t.alloc("FooBar", Case::Camel), "FooBar2");
        // Keywords that cannot be raw: a trailing `_`, and a collision stays CamelCase.
        assert_eq!(t.alloc("self", Case::Camel), "Self_");
        assert_eq!(t.alloc("Self", Case::Camel), "Self2");
        // A suffix a name already holds is skipped, and the count goes on from there.
        let mut u = Names::new();
        assert_eq!(u.alloc("a_2", Case::Snake), "a_2");
        assert_eq!(u.alloc("a", Case::Snake), "a");
        assert_eq!(u.alloc("A", Case::Snake), "a_3");
        assert_eq!(u.alloc("a", Case::Snake), "a_4");
    }

    #[test]
    fn text_is_a_literal() {
        assert_eq!(lit("a \"b\"\n"), r#""a \"b\"\n""#);
    }

    #[test]
    fn doc_prose_keeps_the_writers_words() {
        assert_eq!(
            doc_prose("K15: \"Concussive −2\" <b>&</b>\u{7}"),
            "K15: \"Concussive −2\" &lt;b>&&lt;/b> "
        );
        assert_eq!(doc_attr(&doc_prose("*/ \"x\"")), r#"#[doc = " */ \"x\""]"#);
        // The codepoints that turn text around, at both ends of both ranges, are shown;
        // their neighbours (a zero-width joiner, a left-to-right mark) are kept.
        assert_eq!(
            doc_prose("a\u{202A}b\u{202E}c\u{2066}d\u{2069}e"),
            "a\\u{202a}b\\u{202e}c\\u{2066}d\\u{2069}e"
        );
        assert_eq!(
            doc_prose("\u{2029}\u{202F}\u{2065}\u{206A}\u{200D}"),
            "\u{2029}\u{202F}\u{2065}\u{206A}\u{200D}"
        );
    }

    #[test]
    fn doc_text_keeps_plain_names_and_escapes_the_rest() {
        assert_eq!(doc_text("arming_sword"), "arming_sword");
        assert_eq!(doc_text("Right Arm (+1)"), "Right Arm (+1)");
        assert_eq!(doc_text("*/ \"x\""), "\\u{2a}\\u{2f} \\u{22}x\\u{22}");
        assert_eq!(doc_text("ä"), "\\u{e4}");
    }
}
