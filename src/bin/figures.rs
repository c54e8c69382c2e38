//! `mcp-lanes-figures DIST`: the build's prerender (trunk's post_build
//! hook, `scripts/post-build.sh`). Natively, with the same views as the
//! page (`view::figure`), it writes the complete figure of every catalog
//! scenario in every language to `DIST/figures/<scenario>.<tag>.html`
//! (the page's `main` and chrome, as `?scenario=<id>` shows it; what
//! `figure.js` fetches when a reader picks a scenario or a language) and
//! `DIST/figures/<scenario>.<tag>.embed.html` (the same as a figure, for
//! `embed.js` and `?embed=1`), lists them in `DIST/figures/index.json`
//! (scenario ids and language tags), writes every field's explanation in
//! each language to `DIST/figures/fields/<tag>.html` (`view::fields::catalog`,
//! fetched by `figure.js` when a reader first asks what a key means), and draws the first visit's figure (no
//! scenario asked for, English) into `DIST/index.html` in place of the
//! comment `<!-- mcp-lanes:figure -->`.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    let Some(dist) = std::env::args().nth(1) else {
        eprintln!("usage: mcp-lanes-figures DIST");
        return std::process::ExitCode::from(2);
    };
    match prerender::all(std::path::Path::new(&dist)) {
        Ok(count) => {
            println!("mcp-lanes-figures: {count} figures in {dist}/figures");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mcp-lanes-figures: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod prerender {
    use std::path::Path;

    use mcp_lanes_core::scenarios::CATALOG;
    use mcp_lanes_web::config::Config;
    use mcp_lanes_web::i18n;
    use mcp_lanes_web::view::figure;

    /// Where the first visit's figure goes in `index.html`.
    const MARK: &str = "<!-- mcp-lanes:figure -->";

    /// A page's options from query parameters.
    fn config(query: &[(&str, &str)]) -> Config {
        Config::from_url(
            |name| {
                query
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            },
            "",
        )
    }

    /// Writes every figure; the number written.
    pub fn all(dist: &Path) -> Result<usize, String> {
        let dir = dist.join("figures");
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut count = 0;
        let fields = dir.join("fields");
        std::fs::create_dir_all(&fields).map_err(|e| format!("{}: {e}", fields.display()))?;
        for tag in i18n::builtin_tags() {
            i18n::install_builtin(tag);
            // What each key of a message means, fetched by figure.js the
            // first time a reader asks (not part of the first visit).
            let path = fields.join(format!("{tag}.html"));
            std::fs::write(&path, mcp_lanes_web::view::fields::catalog().into_string())
                .map_err(|e| format!("{}: {e}", path.display()))?;
            for s in CATALOG {
                for (suffix, query) in [
                    ("", vec![("scenario", s.id)]),
                    (".embed", vec![("scenario", s.id), ("embed", "1")]),
                ] {
                    let path = dir.join(format!("{}.{tag}{suffix}.html", s.id));
                    std::fs::write(&path, figure::of_config(&config(&query)))
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    count += 1;
                }
            }
        }
        // What embed.js asks before it fetches a figure: the scenarios and
        // the languages there are.
        let index = serde_json::json!({
            "scenarios": CATALOG.iter().map(|s| s.id).collect::<Vec<_>>(),
            "langs": i18n::builtin_tags(),
        });
        let path = dir.join("index.json");
        std::fs::write(&path, index.to_string()).map_err(|e| format!("{}: {e}", path.display()))?;
        i18n::install_builtin("en");
        let index = dist.join("index.html");
        let page =
            std::fs::read_to_string(&index).map_err(|e| format!("{}: {e}", index.display()))?;
        if !page.contains(MARK) {
            return Err(format!("{} has no {MARK}", index.display()));
        }
        let page = page.replace(MARK, &figure::of_config(&config(&[])));
        std::fs::write(&index, page).map_err(|e| format!("{}: {e}", index.display()))?;
        Ok(count + 1)
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
