//! The narration line: says in words what just happened (each lane's note
//! for the events at the playhead), in a polite live region.

use yew::prelude::*;

#[derive(PartialEq, Properties)]
pub struct NarrationProps {
    /// Sentences to read, each already prefixed by its lane label.
    pub lines: Vec<String>,
}

#[component]
pub fn Narration(props: &NarrationProps) -> Html {
    html! {
        <div class="narration" data-testid="narration" aria-live="polite" aria-atomic="true">
            { for props.lines.iter().map(|line| html! { <p>{ line }</p> }) }
        </div>
    }
}
