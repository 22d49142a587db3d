//! The book's search: an index of every definition (name, what it is, its page and
//! anchor from the book's root), written into `search.js` beside the code that filters
//! it as the reader types. No server and nothing fetched: the page loads the script
//! from its own folder. Results are built with `textContent`, never as markup.

/// Every entry of the search, in the order the pages were made.
#[derive(Debug, Default)]
pub struct Index {
    entries: Vec<(String, String, String)>,
}

impl Index {
    /// Adds a definition: its name, what it is, and its address from the book's root.
    pub fn add(&mut self, name: &str, kind: &str, href: String) {
        self.entries
            .push((name.to_string(), kind.to_string(), href));
    }

    /// `search.js`: the index as a JSON array, and the search code.
    pub fn script(&self) -> String {
        let data: Vec<serde_json::Value> = self
            .entries
            .iter()
            .map(|(n, k, h)| serde_json::json!([n, k, h]))
            .collect();
        let json = serde_json::to_string(&data).unwrap_or_else(|_| "[]".into());
        format!("const BOOK_INDEX = {json};\n{}", include_str!("search.js"))
    }
}
