//! The scenario picker as markup text: a compact menu (a `<details>` whose
//! summary names the open scenario) over the scenarios of the catalog with
//! their one-line summaries, as links (`?scenario=ID`) so they can be opened
//! in a new tab too; a plain click or Enter (`data-act="scenario"`) opens the
//! scenario in place. The menu is always drawn folded, so that the figure
//! (title, Play, lanes) is on a first screen; choosing a scenario folds it
//! again and brings the figure into view (figure.js, the runtime).

use crate::i18n::{self, t};
use crate::state::State;
use maud::{html, Markup};
use mcp_lanes_core::scenarios::{ScenarioInfo, CATALOG};

/// A scenario's title as the picker shows it: "3. Title".
pub fn numbered_title(info: &ScenarioInfo) -> String {
    format!("{}. {}", info.number, i18n::scenario_title(info.id))
}

/// The picker, folded, marking the state's scenario (the reader unfolds
/// it; the patcher leaves `open` as the reader left it).
pub fn picker(state: &State) -> Markup {
    let current = state.scenario.map(|s| s.id);
    html! {
        details class="picker" data-testid="scenario-picker" {
            summary {
                span class="picker-label" { (t("picker.label")) }
                @if let Some(s) = state.scenario {
                    span class="picker-current" { (numbered_title(s)) }
                } @else if let Some(file) = &state.file {
                    // A scenario file's own title (as text).
                    span class="picker-current" { (file.title) }
                }
            }
            // Finds scenarios by their words (figure.js, `browser::filter_picker`);
            // Enter opens the first one shown.
            input type="search" class="picker-search" data-testid="picker-search"
                data-act="picker-search" data-keep="" aria-label=(t("picker.search"))
                placeholder=(t("picker.search")) autocomplete="off";
            nav aria-label=(t("picker.label")) {
                ol class="picker-list" {
                    @for s in CATALOG {
                        li {
                            a href=(format!("?scenario={}", s.id))
                                data-testid=(format!("scenario-{}", s.id))
                                aria-current=[(current == Some(s.id)).then_some("page")]
                                data-act="scenario" data-arg=(s.id) {
                                span class="picker-title" { (numbered_title(s)) }
                                span class="picker-summary" { (i18n::scenario_summary(s.id)) }
                            }
                        }
                    }
                }
                p class="picker-none" data-testid="picker-none" hidden { (t("picker.none")) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::testing::discover;

    #[test]
    fn every_scenario_is_a_link_and_the_open_one_is_marked() {
        let state = discover();
        let html = picker(&state).into_string();
        assert!(
            html.starts_with("<details class=\"picker\" data-testid=\"scenario-picker\"><summary>")
        );
        assert_eq!(html.matches("<li>").count(), CATALOG.len());
        assert!(
            html.contains("data-act=\"picker-search\""),
            "it has its search"
        );
        for s in CATALOG {
            assert!(html.contains(&format!(
                "<a href=\"?scenario={0}\" data-testid=\"scenario-{0}\"",
                s.id
            )));
            assert!(html.contains(&format!("data-act=\"scenario\" data-arg=\"{}\"", s.id)));
        }
        assert_eq!(html.matches("aria-current=\"page\"").count(), 1);
        assert!(html.contains(
            "data-testid=\"scenario-discover\" aria-current=\"page\" data-act=\"scenario\""
        ));
        let info = state.scenario.expect("discover is open");
        assert!(html.contains(&format!(
            "<span class=\"picker-current\">{}</span>",
            numbered_title(info)
        )));
    }
}
