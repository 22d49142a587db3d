//! Writer text into HTML: the one escaping helper every page goes through ([`esc`], from
//! [`crate::markup`], shared with the charts),
//! anchors made from names ([`anchor`]), and the writer's comments and `doc:` text as
//! Markdown ([`markdown`]) with raw HTML shown as text, links only to pages and the web
//! (no `javascript:`), and images shown as their text (nothing is fetched at view time).

pub use crate::markup::esc;
use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

/// An element id (and `#` fragment) for a definition: `kind-name`, with every byte of
/// the name that is not an ASCII letter, digit or `_` written as `.XX` (hex). Distinct
/// names give distinct anchors, and an anchor needs no escaping in an attribute or URL.
pub fn anchor(kind: &str, name: &str) -> String {
    let mut out = String::with_capacity(kind.len() + name.len() + 1);
    out.push_str(kind);
    out.push('-');
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b == b'_' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!(".{b:02X}"));
        }
    }
    out
}

/// Whether a Markdown link may keep its target: a fragment, a relative path, or an
/// `http`, `https` or `mailto` address. Anything else (`javascript:`, `data:`) is
/// dropped, its text kept.
fn safe_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    match lower.find(':') {
        None => true,
        Some(colon) => {
            // A colon after a `/`, `?` or `#` is part of a relative path, not a scheme.
            let before = &lower[..colon];
            before.contains(['/', '?', '#']) || ["http", "https", "mailto"].contains(&before)
        }
    }
}

/// The writer's text (comments, `doc:`) as HTML: CommonMark with tables and
/// strikethrough. Raw HTML is shown as text, a link to anything but a page or a web
/// address keeps only its text, and an image shows its description.
pub fn markdown(text: &str) -> String {
    let mut options = Options::empty();
    options.insert(Options::ENABLE_TABLES);
    options.insert(Options::ENABLE_STRIKETHROUGH);
    // Links and images whose target is dropped: their closing tags are dropped too.
    let mut dropped: Vec<bool> = Vec::new();
    let mut in_image = 0usize;
    let events = Parser::new_ext(text, options).filter_map(|e| match e {
        Event::Html(s) | Event::InlineHtml(s) => Some(Event::Text(s)),
        Event::Start(Tag::Image { .. }) => {
            in_image += 1;
            None
        }
        Event::End(TagEnd::Image) => {
            in_image = in_image.saturating_sub(1);
            None
        }
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let keep = in_image == 0 && safe_url(&dest_url);
            dropped.push(!keep);
            keep.then_some(Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }))
        }
        Event::End(TagEnd::Link) => match dropped.pop() {
            Some(false) => Some(Event::End(TagEnd::Link)),
            _ => None,
        },
        Event::Code(s) if in_image > 0 => Some(Event::Text(s)),
        e => Some(e),
    });
    let mut out = String::new();
    html::push_html(&mut out, events.map(escaped));
    out
}

/// Text and code escaped by [`esc`], the book's one escaping rule, before the Markdown
/// writer sees them (it then writes them as they are).
fn escaped(e: Event<'_>) -> Event<'_> {
    match e {
        Event::Text(s) => Event::Html(CowStr::from(esc(&s))),
        Event::Code(s) => Event::Html(CowStr::from(format!("<code>{}</code>", esc(&s)))),
        e => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup() {
        assert_eq!(
            esc("<script>alert(\"x\")</script> & 'q'"),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"
        );
    }

    #[test]
    fn anchors_are_distinct_and_plain() {
        assert_eq!(anchor("table", "hit_locations"), "table-hit_locations");
        assert_eq!(anchor("record", "a b"), "record-a.20b");
        assert_ne!(anchor("record", "a.20b"), anchor("record", "a b"));
        assert_eq!(anchor("record", "\"<"), "record-.22.3C");
    }

    #[test]
    fn markdown_escapes_raw_html_and_bad_links() {
        let cases = [
            ("a <script>x</script> b", "&lt;script&gt;"),
            ("<textarea>", "&lt;textarea&gt;"),
            ("[go](javascript:alert(1))", "<p>go</p>"),
            ("![cat](http://example.com/cat.png)", "<p>cat</p>"),
            ("*K9*: the attack", "<em>K9</em>"),
            ("[ref](#table-x)", "<a href=\"#table-x\">ref</a>"),
        ];
        for (text, want) in cases {
            let got = markdown(text);
            assert!(got.contains(want), "{text:?} gave {got:?}");
            assert!(
                !got.contains("<script") && !got.contains("<textarea") && !got.contains("<img")
            );
            assert!(!got.contains("javascript:"), "{got}");
        }
    }
}
