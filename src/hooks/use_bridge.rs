//! What the app tells the world around it. On the playground page: the
//! permalink in the URL. In a figure (iframe or script mount): step, reply
//! and completion events, control messages from allowed origins, the
//! iframe's height, and the theme the embedding page asked for. README,
//! "Embedding in a course page", documents every shape.

use std::cell::RefCell;
use std::rc::Rc;

use web_sys::Element;
use yew::prelude::*;

use crate::bridge;
use crate::config::Config;
use crate::model::Shared;
use crate::state::{Action, State};

/// How `McpLanes.mount`'s handle reaches a figure's state: the app leaves
/// its dispatcher here once it runs.
#[derive(Clone, Default)]
pub struct Remote(Rc<RefCell<Option<UseReducerDispatcher<State>>>>);

impl PartialEq for Remote {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Remote {
    /// Forgets the figure (it was destroyed): `dispatch` is false from now on.
    pub fn clear(&self) {
        self.0.borrow_mut().take();
    }

    /// Hands `action` to the figure; false before the figure runs, and
    /// after it was destroyed.
    pub fn dispatch(&self, action: Action) -> bool {
        match self.0.borrow().as_ref() {
            Some(dispatcher) => {
                dispatcher.dispatch(action);
                true
            }
            None => false,
        }
    }
}

/// A mounted figure's place in the page around it (`McpLanes.mount`).
#[derive(Clone, Default, PartialEq)]
pub struct Host {
    /// The element the figure is mounted on: its events are dispatched
    /// there and its theme set there.
    pub element: Option<Element>,
    /// Reaches the figure's state from the page.
    pub remote: Remote,
}

/// Wires the app to the page's URL, or a figure to the page around it.
#[hook]
pub fn use_bridge(
    state: &UseReducerHandle<State>,
    config: &Shared<Config>,
    host: &Host,
    root: &NodeRef,
) {
    // The last (position, length) reported.
    let last = use_mut_ref(|| (0usize, usize::MAX));
    {
        let (config, host) = (config.clone(), host.clone());
        let state = state.clone();
        use_effect_with(
            (
                state.pos,
                state.layout.clone(),
                state.playing,
                state.editor_link.clone(),
            ),
            move |_| {
                bridge::report(
                    &config,
                    host.element.as_ref(),
                    &state,
                    &mut last.borrow_mut(),
                )
            },
        );
    }

    // Control messages, the theme, the height; and the dispatcher for
    // `Handle::control`.
    let dispatcher = state.dispatcher();
    let (config, host) = (config.clone(), host.clone());
    let root = root.clone();
    use_effect_with((), move |_| {
        *host.remote.0.borrow_mut() = Some(dispatcher.clone());
        let listener =
            bridge::listen_for_control(&config, move |action| dispatcher.dispatch(action));
        bridge::apply_figure_theme(&config, host.element.as_ref());
        let height = root
            .cast::<Element>()
            .and_then(|el| bridge::HeightReport::start(&config, &el));
        let remote = host.remote.clone();
        move || {
            remote.clear();
            drop(listener);
            drop(height);
        }
    });
}
