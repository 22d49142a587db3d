//! The runtime's public API, listed from its source and held to a reviewed snapshot
//! (`snapshots/runtime_api__public_api.snap`): a change to what a game can name (an item
//! added, removed or re-typed, a derive dropped, a `#[non_exhaustive]` lifted) fails this
//! test until the listing is re-read and accepted (`cargo insta review`), so it is seen in
//! review.
//!
//! Why a listing built here and not `cargo public-api`: that tool reads rustdoc's JSON,
//! which only a nightly toolchain writes, and installs over the network; this one parses
//! the runtime's own source with `syn` (already a dependency of the compiler) and runs on
//! stable, offline, under `cargo test`. What it lists is what a game can reach: every
//! `pub` item of a `pub` module from the crate root, `pub use` re-exports as written,
//! public methods and trait implementations of public types, with their signatures,
//! derives, `cfg`s and `#[non_exhaustive]`. `#[doc(hidden)]` items (the `__private`
//! module that generated code and the interpreter call) and `#[cfg(test)]` code are not
//! the public API and are left out, as `cargo public-api` leaves them out by default.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use syn::{Attribute, Fields, ImplItem, Item, Visibility};

fn is_pub(vis: &Visibility) -> bool {
    matches!(vis, Visibility::Public(_))
}

fn has_attr(attrs: &[Attribute], name: &str, arg: &str) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident(name)
            && (arg.is_empty()
                || a.meta
                    .require_list()
                    .is_ok_and(|l| l.tokens.to_string().split(',').any(|t| t.trim() == arg)))
    })
}

/// Left out of the API: test-only and `#[doc(hidden)]` items.
fn skipped(attrs: &[Attribute]) -> bool {
    has_attr(attrs, "cfg", "test") || has_attr(attrs, "doc", "hidden")
}

/// Keeps the attributes that are part of a type's contract (derives, `cfg`s,
/// `#[non_exhaustive]`, `repr`), drops docs and the rest.
fn contract_attrs(attrs: &mut Vec<Attribute>) {
    attrs.retain(|a| {
        ["derive", "cfg", "cfg_attr", "non_exhaustive", "repr"]
            .iter()
            .any(|n| a.path().is_ident(n))
    });
}

/// One item as one line: printed by prettyplease with bodies emptied, whitespace collapsed.
fn line(item: Item) -> String {
    let text = prettyplease::unparse(&syn::File {
        shebang: None,
        attrs: Vec::new(),
        items: vec![item],
    });
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn empty_block() -> syn::Block {
    syn::parse_quote!({})
}

struct Lister {
    /// Names of every `pub` type or trait declared anywhere in the crate: the impls listed
    /// are those of these types.
    public_types: BTreeSet<String>,
    out: Vec<String>,
}

impl Lister {
    /// The file of `mod name;` declared in `file`.
    fn module_file(file: &Path, name: &str) -> PathBuf {
        let dir = file.parent().unwrap();
        let stem = file.file_stem().unwrap().to_str().unwrap();
        let base = if stem == "lib" || stem == "mod" {
            dir.to_path_buf()
        } else {
            dir.join(stem)
        };
        let flat = base.join(format!("{name}.rs"));
        if flat.exists() {
            flat
        } else {
            base.join(name).join("mod.rs")
        }
    }

    /// Gathers the names of the types and traits a game can name: declared `pub` in a
    /// public module, or re-exported by a `pub use` of one (so a type reachable only
    /// through the hidden `__private` is not among them).
    fn collect_types(&mut self, file: &Path, public: bool, items: &[Item]) {
        for item in items {
            if item_attrs(item).is_some_and(|a| skipped(a)) {
                continue;
            }
            let name = match item {
                Item::Struct(s) if is_pub(&s.vis) => Some(&s.ident),
                Item::Enum(e) if is_pub(&e.vis) => Some(&e.ident),
                Item::Trait(t) if is_pub(&t.vis) => Some(&t.ident),
                Item::Use(u) if public && is_pub(&u.vis) => {
                    use_names(&u.tree, &mut self.public_types);
                    None
                }
                Item::Mod(m) => {
                    let sub = Self::module_file(file, &m.ident.to_string());
                    let sub_public = public && is_pub(&m.vis);
                    match &m.content {
                        Some((_, items)) => self.collect_types(&sub, sub_public, items),
                        None => self.collect_types(&sub, sub_public, &parse(&sub).items),
                    }
                    None
                }
                _ => None,
            };
            if let (Some(name), true) = (name, public) {
                self.public_types.insert(name.to_string());
            }
        }
    }

    /// Lists `items` of the module at `path` (declared in `file`); `public` when the
    /// module can be named from outside the crate.
    fn list(&mut self, file: &Path, path: &str, public: bool, items: Vec<Item>) {
        for item in items {
            if item_attrs(&item).is_some_and(|a| skipped(a)) {
                continue;
            }
            match item {
                Item::Mod(mut m) => {
                    let name = m.ident.to_string();
                    let sub = Self::module_file(file, &name);
                    let inner = match m.content.take() {
                        Some((_, items)) => items,
                        None => parse(&sub).items,
                    };
                    let sub_public = public && is_pub(&m.vis);
                    if sub_public {
                        let mut decl: syn::ItemMod = syn::parse_quote!(
                            pub mod m;
                        );
                        decl.ident = m.ident.clone();
                        decl.attrs = std::mem::take(&mut m.attrs);
                        contract_attrs(&mut decl.attrs);
                        self.out.push(format!("{path}: {}", line(Item::Mod(decl))));
                    }
                    self.list(&sub, &format!("{path}::{name}"), sub_public, inner);
                }
                Item::Impl(mut i) => {
                    let self_name = match &*i.self_ty {
                        syn::Type::Path(p) => p.path.segments.last().unwrap().ident.to_string(),
                        _ => continue,
                    };
                    if !self.public_types.contains(&self_name) {
                        continue;
                    }
                    contract_attrs(&mut i.attrs);
                    let members = std::mem::take(&mut i.items);
                    let is_trait_impl = i.trait_.is_some();
                    let header = line(Item::Impl(i));
                    if is_trait_impl {
                        self.out.push(format!("{path}: {header}"));
                        continue;
                    }
                    let header = header.trim_end_matches(" {}");
                    for member in members {
                        let member = match member {
                            ImplItem::Fn(mut f) if is_pub(&f.vis) && !skipped(&f.attrs) => {
                                f.block = empty_block();
                                contract_attrs(&mut f.attrs);
                                ImplItem::Fn(f)
                            }
                            ImplItem::Const(mut c) if is_pub(&c.vis) && !skipped(&c.attrs) => {
                                contract_attrs(&mut c.attrs);
                                ImplItem::Const(c)
                            }
                            _ => continue,
                        };
                        let mut holder: syn::ItemImpl = syn::parse_quote!(impl X {});
                        holder.items.push(member);
                        let text = line(Item::Impl(holder));
                        let inner = text
                            .strip_prefix("impl X { ")
                            .and_then(|t| t.strip_suffix(" }"))
                            .unwrap_or(&text);
                        self.out.push(format!("{path}: {header} {{ {inner} }}"));
                    }
                }
                item if public => {
                    if let Some(l) = public_item(item) {
                        self.out.push(format!("{path}: {l}"));
                    }
                }
                _ => {}
            }
        }
    }
}

/// A `pub` item of a public module as one line, or `None` for a private one.
fn public_item(item: Item) -> Option<String> {
    Some(match item {
        Item::Fn(mut f) if is_pub(&f.vis) => {
            contract_attrs(&mut f.attrs);
            f.block = Box::new(empty_block());
            line(Item::Fn(f))
        }
        Item::Struct(mut s) if is_pub(&s.vis) => {
            contract_attrs(&mut s.attrs);
            let fields = match &mut s.fields {
                Fields::Named(n) => Some(&mut n.named),
                Fields::Unnamed(u) => Some(&mut u.unnamed),
                Fields::Unit => None,
            };
            if let Some(fields) = fields {
                let private = fields.iter().any(|f| !is_pub(&f.vis));
                for mut f in std::mem::take(fields) {
                    if is_pub(&f.vis) {
                        contract_attrs(&mut f.attrs);
                        fields.push(f);
                    }
                }
                let text = line(Item::Struct(s));
                // Private fields are not the API, but that there are some is: the type
                // cannot be built with a literal.
                return Some(if private {
                    format!("{text} /* and private fields */")
                } else {
                    text
                });
            }
            line(Item::Struct(s))
        }
        Item::Enum(mut e) if is_pub(&e.vis) => {
            contract_attrs(&mut e.attrs);
            for v in &mut e.variants {
                contract_attrs(&mut v.attrs);
                for f in v.fields.iter_mut() {
                    contract_attrs(&mut f.attrs);
                }
            }
            line(Item::Enum(e))
        }
        Item::Trait(mut t) if is_pub(&t.vis) => {
            contract_attrs(&mut t.attrs);
            for it in &mut t.items {
                match it {
                    syn::TraitItem::Fn(f) => {
                        contract_attrs(&mut f.attrs);
                        if f.default.is_some() {
                            f.default = Some(empty_block());
                        }
                    }
                    syn::TraitItem::Const(c) => contract_attrs(&mut c.attrs),
                    syn::TraitItem::Type(ty) => contract_attrs(&mut ty.attrs),
                    _ => {}
                }
            }
            line(Item::Trait(t))
        }
        Item::Const(mut c) if is_pub(&c.vis) => {
            contract_attrs(&mut c.attrs);
            line(Item::Const(c))
        }
        Item::Static(mut s) if is_pub(&s.vis) => {
            contract_attrs(&mut s.attrs);
            line(Item::Static(s))
        }
        Item::Type(mut t) if is_pub(&t.vis) => {
            contract_attrs(&mut t.attrs);
            line(Item::Type(t))
        }
        Item::Use(mut u) if is_pub(&u.vis) => {
            contract_attrs(&mut u.attrs);
            line(Item::Use(u))
        }
        Item::Macro(mut m) if has_attr(&m.attrs, "macro_export", "") => {
            contract_attrs(&mut m.attrs);
            format!(
                "macro_rules! {}",
                m.ident.take().map(|i| i.to_string()).unwrap_or_default()
            )
        }
        _ => return None,
    })
}

/// The last names of a `use` tree (what it brings into scope).
fn use_names(tree: &syn::UseTree, out: &mut BTreeSet<String>) {
    match tree {
        syn::UseTree::Path(p) => use_names(&p.tree, out),
        syn::UseTree::Name(n) => {
            out.insert(n.ident.to_string());
        }
        syn::UseTree::Rename(r) => {
            out.insert(r.rename.to_string());
        }
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_names(t, out)),
        syn::UseTree::Glob(_) => {}
    }
}

fn item_attrs(item: &Item) -> Option<&Vec<Attribute>> {
    Some(match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => return None,
    })
}

fn parse(file: &Path) -> syn::File {
    let text =
        std::fs::read_to_string(file).unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
    syn::parse_file(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", file.display()))
}

/// The runtime's public API, one item a line.
fn runtime_api() -> String {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/src/lib.rs");
    let root = parse(&lib);
    let mut lister = Lister {
        public_types: BTreeSet::new(),
        out: Vec::new(),
    };
    lister.collect_types(&lib, true, &root.items);
    lister.list(&lib, "rulesc_runtime", true, root.items);
    lister.out.join("\n") + "\n"
}

#[test]
fn public_api() {
    insta::assert_snapshot!("public_api", runtime_api());
}

/// The lister itself: a `pub` item is listed, a private one, one under `#[doc(hidden)]`
/// and one in a private module are not, and a struct's private fields are noted.
#[test]
fn the_lister_lists_only_what_a_game_can_name() {
    let file: syn::File = syn::parse_quote! {
        pub fn shown(x: i64) -> i64 { x }
        fn private() {}
        #[doc(hidden)] pub fn hidden() {}
        #[doc(hidden)] pub mod __private { pub fn helper() {} }
        mod inner { pub fn unreachable_by_path() {} }
        /// A doc comment, dropped.
        #[derive(Debug, Clone)]
        #[non_exhaustive]
        pub enum Kind { A, B { x: i64 } }
        pub struct Half { pub a: i64, b: i64 }
    };
    let mut lister = Lister {
        public_types: BTreeSet::new(),
        out: Vec::new(),
    };
    let lib = Path::new("lib.rs");
    lister.list(lib, "c", true, file.items);
    assert_eq!(
        lister.out,
        [
            "c: pub fn shown(x: i64) -> i64 {}",
            "c: #[derive(Debug, Clone)] #[non_exhaustive] pub enum Kind { A, B { x: i64 }, }",
            "c: pub struct Half { pub a: i64, } /* and private fields */",
        ]
    );
}
