//! The fenced code blocks of `docs/*.md` and the example rulesets they spell out, read
//! the same way by `tests/tests/docs/` (which checks, traces and runs them) and by
//! `build.rs` (which compiles every example ruleset that checks to Rust, so the test
//! binary proves the generated code of each builds without warnings). Only `std` here:
//! `build.rs` includes this file with `#[path]`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One fenced code block of a doc.
#[derive(Debug, Clone)]
pub struct Block {
    /// `docs/<file>.md:<line of the opening fence>`, for messages.
    pub at: String,
    pub lang: String,
    /// Bare words of the info string (`output`).
    pub words: Vec<String>,
    pub attrs: BTreeMap<String, String>,
    pub text: String,
}

impl Block {
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.get(key).map(String::as_str)
    }
    pub fn is_output(&self) -> bool {
        self.lang == "text" && self.words.iter().any(|w| w == "output")
    }
}

/// Every fenced block of one Markdown file.
pub fn blocks_of(name: &str, text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let trimmed = line.trim_start();
        let ticks = trimmed.chars().take_while(|&c| c == '`').count();
        if ticks < 3 {
            continue;
        }
        let indent = line.len() - trimmed.len();
        let info = &trimmed[ticks..];
        let mut parts = info.split_whitespace();
        let lang = parts.next().unwrap_or("").to_string();
        let mut words = Vec::new();
        let mut attrs = BTreeMap::new();
        for p in parts {
            match p.split_once('=') {
                Some((k, v)) => {
                    attrs.insert(k.to_string(), v.to_string());
                }
                None => words.push(p.to_string()),
            }
        }
        let mut body = String::new();
        for (_, l) in lines.by_ref() {
            let t = l.trim_start();
            if t.len() >= ticks && t.chars().all(|c| c == '`') {
                break;
            }
            // Blocks inside list items are indented: take the fence's indentation off.
            let cut = l.len() - l.trim_start().len();
            body.push_str(&l[cut.min(indent)..]);
            body.push('\n');
        }
        out.push(Block {
            at: format!("docs/{name}:{}", n + 1),
            lang,
            words,
            attrs,
            text: body,
        });
    }
    out
}

/// Every block of every `*.md` in `dir`, file by file in name order.
pub fn all_blocks(dir: &Path) -> Vec<Block> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("docs/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("a doc");
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        out.extend(blocks_of(&name, &text));
    }
    out
}

/// An example ruleset's own blocks: (path inside the group, text), in order, and the
/// group its files start from (`like=`).
#[derive(Debug, Default, Clone)]
pub struct GroupFiles {
    pub files: Vec<(String, String)>,
    pub like: Option<String>,
}

/// The files of group `name`: those of its `like=` chain, base first, each replaced by
/// a later file of the same path. `Err` names a missing group or a cycle.
pub fn resolve(
    groups: &BTreeMap<String, GroupFiles>,
    name: &str,
) -> Result<Vec<(String, String)>, String> {
    let mut chain = Vec::new();
    let mut cur = groups.get(name).and_then(|g| g.like.clone());
    while let Some(l) = cur {
        if chain.contains(&l) || chain.len() > 8 {
            return Err("a cycle of `like=`".to_string());
        }
        match groups.get(&l) {
            Some(base) => {
                chain.push(l.clone());
                cur = base.like.clone();
            }
            None => return Err(format!("`like={l}`: no such group")),
        }
    }
    let mut files: Vec<(String, String)> = Vec::new();
    for l in chain
        .iter()
        .rev()
        .map(String::as_str)
        .chain(std::iter::once(name))
    {
        for (p, text) in &groups[l].files {
            files.retain(|(q, _)| q != p);
            files.push((p.clone(), text.clone()));
        }
    }
    Ok(files)
}

/// The example groups of `blocks` (`file=<group>/<path>` blocks), with the codes each
/// expects (`expect=` on any of its blocks; empty: it must check cleanly).
pub fn groups(blocks: &[Block]) -> (BTreeMap<String, GroupFiles>, BTreeMap<String, Vec<String>>) {
    let mut groups: BTreeMap<String, GroupFiles> = BTreeMap::new();
    let mut expects: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for b in blocks {
        if b.attr("pack").is_some() || b.attr("scenario").is_some() || b.attr("fight").is_some() {
            continue;
        }
        let Some((group, rest)) = b.attr("file").and_then(|f| f.split_once('/')) else {
            continue;
        };
        let g = groups.entry(group.to_string()).or_default();
        g.files.push((rest.to_string(), b.text.clone()));
        if let Some(like) = b.attr("like") {
            g.like = Some(like.to_string());
        }
        if let Some(e) = b.attr("expect") {
            expects.insert(
                group.to_string(),
                e.split(',').map(|c| c.trim().to_string()).collect(),
            );
        }
    }
    (groups, expects)
}
