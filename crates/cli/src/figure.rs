//! `mcp-lanes export --figure FILE`: a scenario file's complete figure as
//! static HTML, for a course's build. The file is read and checked as
//! `run --file` reads it ([`source::load`]); its set-ups run in the core's
//! simulator and the web crate's views draw the run whole
//! (`mcp_lanes_web::view::figure`), as a figure (`?embed=1`) titled with
//! the file's title, in the language of `--lang` (the page's catalogs,
//! and the file's own translation where it has one).
//!
//! The output is the `div.app-root` the course page includes next to
//! mcp-lanes' `style.css` and `figure.js`, or with `--document` a minimal
//! standalone HTML document that links both from `--base`.

use std::path::PathBuf;

use mcp_lanes_web::config::Config;
use mcp_lanes_web::i18n as web_i18n;
use mcp_lanes_web::view::figure;

use crate::i18n::{Catalog, Keyed};
use crate::{source, Failure};

/// The language of a figure without `--lang`.
pub const DEFAULT_LANG: &str = "en";

/// What `export --figure` was asked for (checked by `args`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FigureArgs {
    /// The scenario file.
    pub path: String,
    /// The figure's language: a tag of [`tags`].
    pub lang: String,
    /// `--document`: a standalone document, linking `style.css` and
    /// `figure.js` from this base (`--base`; empty: its own directory).
    /// `None`: the `div.app-root` alone.
    pub document: Option<String>,
    /// `--out`: where to write it (`None`: stdout).
    pub out: Option<PathBuf>,
}

/// The language a figure is drawn in for `--lang tag` (`zh-CN` is `zh`,
/// as for the other commands), when the views have its catalog.
pub fn language(tag: &str) -> Option<String> {
    let tag = Catalog::load(tag)?.tag().to_string();
    web_i18n::builtin_tags()
        .contains(&tag.as_str())
        .then_some(tag)
}

/// The languages a figure can be drawn in, comma separated.
pub fn tags() -> String {
    web_i18n::builtin_tags().join(", ")
}

/// Writes the figure `args` asks for. An unreadable or invalid file is a
/// usage error listing every problem (exit status 2, as `run --file`); a
/// failed write an I/O failure (exit status 1).
pub fn export(args: &FigureArgs) -> Result<(), Failure> {
    let lang = Catalog::load(&args.lang);
    let file = source::load(&args.path, lang.as_ref())?.localized(&args.lang);
    if !web_i18n::install_builtin(&args.lang) {
        return Err(Failure::Usage(
            Keyed::new(
                "cli.usage.unknown_lang",
                "unknown --lang {tag} (expected one of {tags})",
                &[("tag", format!("{:?}", args.lang)), ("tags", tags())],
            )
            .say(lang.as_ref()),
        ));
    }
    let title = file.title.clone();
    let config = Config::from_url(
        |name| match name {
            "embed" => Some("1".to_string()),
            "title" => Some(title.clone()),
            "lang" => Some(args.lang.clone()),
            _ => None,
        },
        "",
    );
    let mut html = figure::of_file(file, &config);
    html.push('\n');
    let text = match &args.document {
        Some(base) => document(&html, &title, &args.lang, base),
        None => html,
    };
    match &args.out {
        None => crate::print(&text),
        Some(path) => std::fs::write(path, text).map_err(|err| {
            Failure::Io(
                Keyed::new(
                    "cli.export.cannot_write",
                    "cannot write {path}: {why}",
                    &[
                        ("path", format!("{:?}", path.display().to_string())),
                        ("why", err.to_string()),
                    ],
                )
                .say(lang.as_ref()),
            )
        }),
    }
}

/// A minimal standalone document around `figure`: the page's stylesheet
/// and player from `base` (a directory's URL; empty: the document's own).
fn document(figure: &str, title: &str, lang: &str, base: &str) -> String {
    let base = if base.is_empty() || base.ends_with('/') {
        base.to_string()
    } else {
        format!("{base}/")
    };
    let (title, lang, base) = (escape(title), escape(lang), escape(&base));
    format!(
        "<!doctype html>\n\
         <html lang=\"{lang}\">\n\
         <head>\n\
         <meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n\
         <link rel=\"stylesheet\" href=\"{base}style.css\">\n\
         <script type=\"module\" src=\"{base}figure.js\"></script>\n\
         </head>\n\
         <body>\n\
         {figure}\
         </body>\n\
         </html>\n"
    )
}

/// `text` as HTML text or a quoted attribute's value.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
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
    use super::*;

    #[test]
    fn languages_are_the_views_catalogs_and_their_regions() {
        assert_eq!(language("en").as_deref(), Some("en"));
        assert_eq!(language("zh-CN").as_deref(), Some("zh"));
        assert_eq!(language("xx"), None);
        assert!(tags().contains("zh"));
    }

    #[test]
    fn the_document_escapes_its_title_and_base_and_joins_the_base() {
        let doc = document(
            "<div class=\"app-root\"></div>\n",
            "<img src=x onerror=alert(1)>",
            "en",
            "https://x.test/a\"b",
        );
        assert!(doc.starts_with("<!doctype html>\n<html lang=\"en\">"));
        assert!(doc.contains("<title>&lt;img src=x onerror=alert(1)&gt;</title>"));
        assert!(doc.contains("href=\"https://x.test/a&quot;b/style.css\""));
        assert!(doc.contains("<body>\n<div class=\"app-root\"></div>\n</body>"));
        let here = document("", "t", "zh", "");
        assert!(here.contains("href=\"style.css\""));
        assert!(here.contains("<script type=\"module\" src=\"figure.js\"></script>"));
        assert!(document("", "t", "en", "/assets/").contains("src=\"/assets/figure.js\""));
    }
}
