//! The whole page (or one figure) as markup text, with `data-act` where a
//! reader acts: header (help, theme, "Copy link"), scenario picker, the
//! check panel, the intro (with an open check's summary), the view tabs,
//! the controls (player and narration), the lanes and the inspector, the
//! editor's panel and the keyboard help.
//!
//! Where the full bundle mounts an island (`Ui::islands`), the drawn page
//! and the lite bundle show a `<details>` that hands the page over to the
//! full bundle when opened (`data-act="handover"`).

use super::narration::narration;
use super::picker::picker;
use super::player::player;
use super::{Copied, Ui};
use crate::config::{Config, Mode};
use crate::i18n::{self, t, tf};
use crate::state::State;
use maud::{html, Markup};

/// The heading of what is open: a figure's is the author's title, else the
/// scenario's; the page's has the catalogue's number (`None`: no catalog
/// scenario is open).
pub fn heading(state: &State, config: &Config) -> Option<String> {
    let page = config.mode == Mode::Page;
    state.scenario.map(|s| match (&config.title, page) {
        (Some(title), false) => title.clone(),
        (None, false) => i18n::scenario_title(s.id),
        (_, true) => super::picker::numbered_title(s),
    })
}

/// The accessible name of a figure's region: the author's title, else the
/// heading, else the open file's title.
pub fn region_name(state: &State, config: &Config) -> String {
    match (&config.title, heading(state, config), &state.file) {
        (Some(title), _, _) => title.clone(),
        (None, Some(title), _) => title,
        (None, None, Some(file)) => file.title.clone(),
        (None, None, None) => String::new(),
    }
}

/// The light/dark switch; `dark`: the theme
/// in effect.
pub fn theme_toggle(dark: bool) -> Markup {
    html! {
        button type="button" class="theme-toggle" data-testid="theme-toggle"
            aria-pressed=(if dark { "true" } else { "false" }) data-act="theme" {
            svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false" {
                circle cx="8" cy="8" r="6" class="icon-ring" {}
                path d="M8 2a6 6 0 0 1 0 12z" {}
            }
            (t("theme.dark"))
        }
    }
}

/// "Copy link" and what the last copy said; when the clipboard refused,
/// the link in a field to copy by hand.
pub fn share_link(copied: &Copied) -> Markup {
    let said = copied.text.map(t).unwrap_or_default();
    html! {
        div class="share" {
            button type="button" data-testid="copy-link" data-act="copy-link" { (t("share.copy_link")) }
            span class="share-status" role="status" data-testid="link-status" {
                @if copied.manual.is_none() { (said) }
            }
            @if let Some(link) = &copied.manual {
                div class="share-pop" {
                    p { (said) }
                    textarea class="manual-copy" readonly rows="2" data-testid="link-field"
                        aria-label=(t("share.text_to_copy")) { (link) }
                }
            }
        }
    }
}

/// "Lanes | Editor": which view fills the main
/// area; without `islands` (the drawn page, the lite bundle) the editor's
/// tab hands over.
pub fn view_tabs(editor: bool, islands: bool) -> Markup {
    html! {
        div class="view-tabs" role="group" aria-label=(t("tabs.label")) {
            button type="button" data-testid="tab-lanes" aria-controls="panel-lanes"
                aria-pressed=(!editor) data-act="tab" data-arg="lanes" { (t("tabs.lanes")) }
            button type="button" data-testid="tab-editor" aria-controls="panel-editor"
                aria-pressed=(editor) data-handover=[(!islands).then_some("")] data-act="tab" data-arg="editor" { (t("tabs.editor")) }
        }
    }
}

/// "Check a server": with `islands` its body is the host of the full
/// bundle's check island; else a stand-in that hands over when opened.
pub fn check_panel(islands: bool) -> Markup {
    html! {
        @if islands {
            details class="check-panel" data-testid="check" {
                summary data-testid="check-toggle" { (t("check.title")) }
                div class="check-body" data-island="check" {}
            }
        } @else {
            details class="check-panel" data-testid="check" data-act="handover" {
                summary data-testid="check-toggle" data-handover="" { (t("check.title")) }
                div class="check-body" { p class="note" { (t("check.loading")) } }
            }
        }
    }
}

/// "Export a run": with `islands` its body is the host of the full
/// bundle's exports island; else a stand-in that hands over when opened.
pub fn exports(islands: bool) -> Markup {
    html! {
        @if islands {
            details class="exports" data-testid="exports" {
                summary data-testid="exports-toggle" { (t("export.title")) }
                div class="export-body" data-island="exports" {}
            }
        } @else {
            details class="exports" data-testid="exports" data-act="handover" {
                summary data-testid="exports-toggle" data-handover="" { (t("export.title")) }
                div class="export-body" { p class="export-note" { (t("export.loading")) } }
            }
        }
    }
}

/// The intro: the scenario's (or file's) title and summary, an open
/// check's summary (`check::summary`), a file's problems, the notice.
pub fn intro(state: &State, config: &Config) -> Markup {
    let page = config.mode == Mode::Page;
    html! {
        section class="intro" aria-labelledby="scenario-title" {
            @if let (Some(s), Some(heading)) = (state.scenario, heading(state, config)) {
                h2 id="scenario-title" data-testid="scenario-title" data-scenario=(s.id) { (heading) }
                p class="summary" { (i18n::scenario_summary(s.id)) }
            }
            @if let Some(file) = &state.file {
                h2 id="scenario-title" data-testid="scenario-title" data-scenario=(file.id) data-file="1" {
                    (config.title.as_ref().filter(|_| !page).unwrap_or(&file.title))
                }
                p class="summary" { (file.summary) }
            }
            // (Only the full bundle opens checks: the lite one links none.)
            @if let Some(checked) = state.checked.as_ref().filter(|_| crate::bundle::CHECKS) {
                (super::check::summary(checked))
            }
            @if let Some(problems) = &state.problems {
                h2 id="scenario-title" data-testid="scenario-title" { (t("file.cannot_show")) }
                div class="notice file-problems" role="alert" data-testid="file-problems" {
                    p {
                        @if problems.len() == 1 { (t("file.problem_one")) }
                        @else { (tf("file.problems", &[("count", &problems.len().to_string())])) }
                    }
                    ul {
                        @for p in problems.iter() { li { (p) } }
                    }
                }
            }
            @if let Some(notice) = &state.notice {
                p class="notice" role="alert" data-testid="notice" { (notice) }
            }
        }
    }
}

/// The lanes side by side (each `super::lane::lane`), the hint that they
/// scroll, and on the page "Export a run".
fn lanes_area(state: &State, page: bool, complete: bool, islands: bool) -> Markup {
    let count = state.lanes.len();
    let name = if count == 1 {
        t("lanes.one")
    } else {
        tf("lanes.many", &[("count", &count.to_string())])
    };
    // The grid tracks they take: a lane of more than two actors takes two
    // where there is room (style.css hides the hint when all fit).
    let tracks = count
        + state
            .lanes
            .iter()
            .filter(|l| crate::model::columns::Columns::wide(&l.timeline))
            .count();
    html! {
        section class="lanes-area" aria-label=(t("lanes.region")) {
            @if count > 1 {
                p class="scroll-hint" data-testid="scroll-hint" data-count=(tracks) {
                    (tf("lanes.scroll_hint", &[("count", &count.to_string())]))
                }
            }
            div class="lanes-scroller" data-testid="lanes" tabindex="0" role="region" aria-label=(name) {
                div class="lanes" {
                    @for i in 0..count { (super::lane::lane(state, i, complete, islands)) }
                }
            }
            @if page { (exports(islands)) }
        }
    }
}

/// What the page's `main` (or a figure's region) holds: intro, tabs,
/// controls, the lanes and the inspector, the editor's panel; in the
/// complete figure, the whole run after them (`transcript`).
fn body(state: &State, config: &Config, ui: &Ui) -> Markup {
    let transcript = ui.transcript;
    let page = config.mode == Mode::Page;
    // A figure offers the editor only when asked to (`editor: true`).
    let with_editor = page || config.editor;
    let editor = state.editor && with_editor;
    let away = editor || state.problems.is_some();
    html! {
        (intro(state, config))
        @if with_editor { (view_tabs(editor, ui.islands)) }
        div class="controls" hidden[away] {
            (player(state))
            (narration(state))
        }
        div class="workspace" id="panel-lanes" hidden[away] {
            (lanes_area(state, page, transcript.is_some() || ui.marked, ui.islands))
            (super::inspector::inspector(state))
        }
        @if let Some(transcript) = transcript { (transcript) }
        @if let Some(print) = ui.print { (print) }
        // The full bundle's editor is an island; the drawn and the lite page
        // hand over before the editor shows: their panel is empty.
        @if with_editor {
            div id="panel-editor" hidden[!editor] data-island=[ui.islands.then_some("editor")] {}
        }
    }
}

/// The page, or one figure: the whole `<div class="app">`.
pub fn page(state: &State, ui: &Ui) -> Markup {
    let config = ui.config;
    let page = config.mode == Mode::Page;
    html! {
        div class=(if page { "app" } else { "app embed" }) {
            header class="app-header" {
                div class="brand" {
                    h1 { "mcp-lanes" }
                    p class="tagline" { (t("app.tagline")) }
                }
                div class="header-actions" {
                    button type="button" data-testid="help-button" aria-haspopup="dialog"
                        aria-label=(t("help.button")) data-act="help" {
                        span aria-hidden="true" { "?" }
                        span class="button-text" aria-hidden="true" { " " (t("help.keys")) }
                    }
                    (theme_toggle(ui.dark))
                    button type="button" data-testid="print-button" data-act="print" title=(t("print.title")) {
                        (t("print.button"))
                    }
                    (share_link(ui.copied))
                }
            }
            // A figure shows one scenario: no chooser (its markup would
            // weigh on every figure of a course page).
            @if page {
                (picker(state))
                (check_panel(ui.islands))
            }
            // The page's content is its `main`; a figure's is a region of
            // the course page named by its title (the page has its own
            // `main`). The header is hidden in a figure (style.css).
            @if page {
                main class="main" id="main" { (body(state, config, ui)) }
            } @else {
                section class="main" role="region" aria-label=(region_name(state, config)) data-testid="figure" {
                    (body(state, config, ui))
                    @if let Some(caption) = &config.caption {
                        p class="figure-caption" data-testid="figure-caption" { (caption) }
                    }
                }
            }
            (super::help::help())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Action;
    use crate::view::testing::{discover, english, escaped, HOSTILE};
    use serde_json::json;

    fn page_config(scenario: Option<&str>) -> Config {
        Config::from_url(
            |name| {
                (name == "scenario")
                    .then(|| scenario.map(str::to_string))
                    .flatten()
            },
            "",
        )
    }

    fn draw(state: &State, config: &Config, dark: bool, copied: &Copied) -> String {
        page(
            state,
            &Ui {
                config,
                dark,
                copied,
                transcript: None,
                print: None,
                islands: false,
                marked: false,
            },
        )
        .into_string()
    }

    /// Where `needle` is in `html` (it must be there).
    fn at(html: &str, needle: &str) -> usize {
        html.find(needle)
            .unwrap_or_else(|| panic!("{needle} not in {html}"))
    }

    #[test]
    fn the_page_has_its_parts_in_app_order() {
        let state = discover();
        let config = page_config(Some("discover"));
        let html = draw(&state, &config, false, &Copied::default());
        assert!(html.starts_with(
            "<div class=\"app\"><header class=\"app-header\"><div class=\"brand\"><h1>mcp-lanes</h1>"
        ));
        let order = [
            "data-testid=\"help-button\"",
            "data-testid=\"theme-toggle\"",
            "data-testid=\"copy-link\"",
            "data-testid=\"scenario-picker\"",
            "data-testid=\"check\"",
            "<main class=\"main\" id=\"main\">",
            "<section class=\"intro\" aria-labelledby=\"scenario-title\">",
            "<div class=\"view-tabs\" role=\"group\"",
            "<div class=\"controls\">",
            "data-testid=\"player\"",
            "data-testid=\"narration\"",
            "<div class=\"workspace\" id=\"panel-lanes\">",
            "<section class=\"lanes-area\"",
            "data-testid=\"lanes\"",
            "data-testid=\"lane-0\"",
            "data-testid=\"exports\"",
            "<div id=\"panel-editor\" hidden></div>",
            "</main>",
            "data-testid=\"help-dialog\"",
        ];
        let places: Vec<usize> = order.iter().map(|n| at(&html, n)).collect();
        assert!(places.windows(2).all(|w| w[0] < w[1]), "{places:?}");
        assert!(html.ends_with("</dialog></div>"), "{html}");
        // The stand-ins hand over when opened; the controls that load the
        // full bundle say so.
        assert!(html.contains(
            "<details class=\"check-panel\" data-testid=\"check\" data-act=\"handover\"><summary data-testid=\"check-toggle\" data-handover=\"\">"
        ));
        assert!(html.contains(
            "<details class=\"exports\" data-testid=\"exports\" data-act=\"handover\"><summary data-testid=\"exports-toggle\" data-handover=\"\">"
        ));
        assert!(html.contains("data-testid=\"tab-editor\" aria-controls=\"panel-editor\" aria-pressed=\"false\" data-handover=\"\" data-act=\"tab\" data-arg=\"editor\""));
        assert!(html.contains("data-testid=\"tab-lanes\" aria-controls=\"panel-lanes\" aria-pressed=\"true\" data-act=\"tab\" data-arg=\"lanes\""));
        assert!(html.contains("data-testid=\"help-button\" aria-haspopup=\"dialog\""));
        assert!(html.contains("data-act=\"help\""));
        assert!(html.contains(&format!(
            "<span class=\"button-text\" aria-hidden=\"true\"> {}</span>",
            i18n::t("help.keys")
        )));
        let info = state.scenario.expect("discover");
        assert!(html.contains(&format!(
            "<h2 id=\"scenario-title\" data-testid=\"scenario-title\" data-scenario=\"discover\">{}</h2>",
            crate::view::picker::numbered_title(info)
        )));
        // One lane: no scroll hint; a scenario was asked for: the picker is folded.
        assert!(!html.contains("scroll-hint"));
        assert!(html.contains(&format!("aria-label=\"{}\"", i18n::t("lanes.one"))));
        assert!(
            html.contains("<details class=\"picker\" data-testid=\"scenario-picker\"><summary>")
        );
        assert!(!html.contains("data-testid=\"notice\""));
    }

    #[test]
    fn the_full_page_draws_island_hosts_where_the_lite_one_hands_over() {
        let state = discover();
        let config = page_config(Some("discover"));
        let copied = Copied::default();
        let html = page(
            &state,
            &Ui {
                config: &config,
                dark: false,
                copied: &copied,
                transcript: None,
                print: None,
                islands: true,
                marked: false,
            },
        )
        .into_string();
        assert!(!html.contains("data-act=\"handover\""), "{html}");
        assert!(!html.contains("data-handover"), "{html}");
        for host in [
            "<div class=\"check-body\" data-island=\"check\"></div>",
            "<div class=\"export-body\" data-island=\"exports\"></div>",
            "<div id=\"panel-editor\" hidden data-island=\"editor\"></div>",
            "<div class=\"settings-body\" data-island=\"settings-0\" data-key=\"settings-0\"></div>",
        ] {
            assert!(html.contains(host), "{host} in {html}");
        }
        assert!(html.contains("<details class=\"settings\" data-testid=\"settings-0\"><summary>"));
    }

    #[test]
    fn the_picker_is_folded_without_a_scenario_too() {
        // The figure first: a cold visit shows the title, Play and lanes.
        let state = discover();
        let html = draw(&state, &page_config(None), false, &Copied::default());
        assert!(
            html.contains("<details class=\"picker\" data-testid=\"scenario-picker\"><summary>")
        );
    }

    #[test]
    fn many_lanes_have_a_scroll_hint_and_each_its_lane() {
        let state = english(
            "era-probe-stdio",
            include_str!("../../www/timelines/era-probe-stdio.json"),
        );
        let html = draw(
            &state,
            &page_config(Some("era-probe-stdio")),
            false,
            &Copied::default(),
        );
        let n = state.lanes.len();
        assert!(n > 1);
        assert!(html.contains(&format!(
            "<p class=\"scroll-hint\" data-testid=\"scroll-hint\" data-count=\"{n}\">"
        )));
        for i in 0..n {
            assert!(html.contains(&format!("data-testid=\"lane-{i}\"")));
        }
        assert!(html.contains(&format!(
            "aria-label=\"{}\"",
            i18n::tf("lanes.many", &[("count", &n.to_string())])
        )));
    }

    #[test]
    fn the_theme_toggle_says_which_theme() {
        let state = discover();
        let config = page_config(Some("discover"));
        let light = draw(&state, &config, false, &Copied::default());
        let dark = draw(&state, &config, true, &Copied::default());
        let toggle = "<button type=\"button\" class=\"theme-toggle\" data-testid=\"theme-toggle\" aria-pressed=";
        assert!(light.contains(&format!("{toggle}\"false\" data-act=\"theme\">")));
        assert!(dark.contains(&format!("{toggle}\"true\" data-act=\"theme\">")));
    }

    #[test]
    fn the_share_link_says_what_the_copy_did() {
        let none = share_link(&Copied::default()).into_string();
        assert!(none.contains(
            "<span class=\"share-status\" role=\"status\" data-testid=\"link-status\"></span>"
        ));
        assert!(!none.contains("share-pop"));
        let copied = share_link(&Copied {
            text: Some("share.copied"),
            manual: None,
        })
        .into_string();
        assert!(copied.contains(&format!(
            "data-testid=\"link-status\">{}</span>",
            i18n::t("share.copied")
        )));
        let refused = share_link(&Copied {
            text: Some("share.no_clipboard"),
            manual: Some(format!("https://example.test/#{HOSTILE}")),
        })
        .into_string();
        assert!(refused.contains("data-testid=\"link-status\"></span><div class=\"share-pop\">"));
        assert!(refused.contains(&format!("<p>{}</p>", i18n::t("share.no_clipboard"))));
        assert!(refused.contains(
            "<textarea class=\"manual-copy\" readonly rows=\"2\" data-testid=\"link-field\""
        ));
        escaped(&refused);
    }

    #[test]
    fn a_figure_is_a_region_named_by_its_title_with_its_caption() {
        let state = discover();
        let config = Config::from_options(
            Mode::Mount,
            &json!({"scenario": "discover", "title": HOSTILE, "caption": HOSTILE}),
        );
        assert_eq!(config.title.as_deref(), Some(HOSTILE));
        let html = draw(&state, &config, false, &Copied::default());
        assert!(html.starts_with("<div class=\"app embed\">"));
        assert!(html.contains("<section class=\"main\" role=\"region\" aria-label=\"&lt;img"));
        assert!(html.contains("data-testid=\"figure\">"));
        assert!(html.contains("<p class=\"figure-caption\" data-testid=\"figure-caption\">&lt;img"));
        assert!(!html.contains("<main"));
        // The page's own panels and the editor's tab are not a figure's.
        for absent in [
            "data-testid=\"check\"",
            "data-testid=\"exports\"",
            "view-tabs",
            "panel-editor",
        ] {
            assert!(!html.contains(absent), "{absent}");
        }
        escaped(&html);
        // A figure that offers the editor has the tabs and the panel.
        let config = Config::from_options(
            Mode::Mount,
            &json!({"scenario": "discover", "editor": true}),
        );
        let html = draw(&state, &config, false, &Copied::default());
        assert!(
            html.contains("view-tabs") && html.contains("<div id=\"panel-editor\" hidden></div>")
        );
        let info = state.scenario.expect("discover");
        assert!(html.contains(&format!("aria-label=\"{}\"", i18n::scenario_title(info.id))));
    }

    #[test]
    fn a_notice_and_file_problems_are_text() {
        crate::i18n::install("en", include_str!("../../www/i18n/en.json"), None);
        let state = State::load(Some(HOSTILE), None);
        let config = page_config(Some(HOSTILE));
        let html = draw(&state, &config, false, &Copied::default());
        assert!(html.contains("<p class=\"notice\" role=\"alert\" data-testid=\"notice\">"));
        escaped(&html);

        let mut state = discover();
        state.file_problems(vec![HOSTILE.to_string()]);
        let html = draw(
            &state,
            &page_config(Some("discover")),
            false,
            &Copied::default(),
        );
        assert!(html.contains(
            "<div class=\"notice file-problems\" role=\"alert\" data-testid=\"file-problems\">"
        ));
        assert!(html.contains(&format!("<p>{}</p>", i18n::t("file.problem_one"))));
        assert!(html.contains("<div class=\"controls\" hidden>"));
        assert!(html.contains("<div class=\"workspace\" id=\"panel-lanes\" hidden>"));
        escaped(&html);
    }

    #[test]
    fn playing_changes_the_player_and_the_narration() {
        let mut state = discover();
        state.update(Action::StepForward);
        let html = draw(
            &state,
            &page_config(Some("discover")),
            false,
            &Copied::default(),
        );
        assert!(html.contains("data-state=\"paused\""));
        assert!(!html.contains(&i18n::t("narration.ready")));
    }
}
