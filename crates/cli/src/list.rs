//! `mcp-lanes list`: every id the other commands accept.

use mcp_lanes_core::{client, scenarios, server};

use crate::i18n::Catalog;

/// One line per id, `ID<TAB>KIND<TAB>DESCRIPTION`: the scenarios in catalog
/// order, then the server presets, then the client presets. The id comes
/// first so `cut -f1` gives the bare ids; the kind tells apart an id used by
/// both a server and a client preset (`dual-era`).
/// With `lang` (`--lang`), the scenarios' descriptions are in its language.
pub fn render(lang: Option<&Catalog>) -> String {
    let mut out = String::new();
    for s in scenarios::CATALOG {
        let summary = match lang {
            Some(c) => c.text(&format!("scenario.{}.summary", s.id), s.summary),
            None => s.summary.to_string(),
        };
        push(&mut out, s.id, "scenario", &summary);
    }
    for (id, description) in server::presets::PRESETS {
        push(&mut out, id, "server", description);
    }
    for (id, description) in client::presets::PRESETS {
        push(&mut out, id, "client", description);
    }
    out
}

fn push(out: &mut String, id: &str, kind: &str, description: &str) {
    // Descriptions are single lines; keep the three-column shape even if one
    // ever grows a tab or newline.
    let description = description.replace(['\t', '\n', '\r'], " ");
    out.push_str(&format!("{id}\t{kind}\t{description}\n"));
}

/// The scenario ids, comma separated, for error messages.
pub fn scenario_ids() -> String {
    scenarios::CATALOG
        .iter()
        .map(|s| s.id)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The server preset ids, comma separated, for error messages.
pub fn server_ids() -> String {
    server::presets::PRESETS
        .iter()
        .map(|(id, _)| *id)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_has_three_columns() {
        let text = render(None);
        assert_eq!(
            render(Catalog::load("zh").as_ref()).lines().count(),
            text.lines().count()
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines.len(),
            scenarios::CATALOG.len()
                + server::presets::PRESETS.len()
                + client::presets::PRESETS.len()
        );
        for line in lines {
            assert_eq!(line.split('\t').count(), 3, "{line}");
        }
    }
}
