//! Writer text into markup (HTML pages, SVG charts): the one escaping helper every
//! backend that writes markup goes through (`--svg` charts, the book, the studio).

/// Text for HTML or SVG, in an element or a quoted attribute: `&`, `<`, `>`, `"` and `'`
/// escaped. Tab and newline are kept; any other control character and each
/// bidirectional override is written as `\u{1b}` (the same rule as the terminal's,
/// [`crate::diag::escape_controls`]), so nothing the writer wrote is silently dropped
/// and the output is still well-formed XML.
pub fn esc(s: &str) -> String {
    let shown = crate::diag::escape_controls(s);
    let mut out = String::with_capacity(shown.len());
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn escapes_markup_and_keeps_all_text() {
        let cases = [
            ("plain", "plain"),
            ("a & b", "a &amp; b"),
            ("<b>", "&lt;b&gt;"),
            ("say \"hi\"", "say &quot;hi&quot;"),
            ("it's", "it&#39;s"),
            ("a\tb", "a\tb"),
            ("a\nb", "a\nb"),
            ("Épée — 龍", "Épée — 龍"),
            ("bell\u{7}", "bell\\u{7}"),
            ("esc\u{1b}[31m", "esc\\u{1b}[31m"),
            ("cr\r", "cr\\u{d}"),
            ("rtl\u{202e}x", "rtl\\u{202e}x"),
            ("&amp;", "&amp;amp;"),
            ("", ""),
        ];
        for (input, want) in cases {
            assert_eq!(esc(input), want, "{input:?}");
        }
    }
}
