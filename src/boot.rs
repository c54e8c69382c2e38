//! Boot: renders [`App`] into the page or into a figure's shadow root and
//! takes it down again. The only module that names `App`; the bundle's
//! `entry` (see `bundle`) decides what to render and when.

use web_sys::Element;
use yew::AppHandle;

use crate::components::app::{App, AppProps};
use crate::config::Config;
use crate::hooks::use_bridge::Host;
use crate::model::Shared;

/// A running app and the element it renders into.
pub struct Running {
    app: AppHandle<App>,
    root: Element,
}

impl Running {
    /// The element the app renders into.
    pub fn root(&self) -> &Element {
        &self.root
    }

    /// Stops the app: its timers and listeners end, its elements go.
    pub fn destroy(self) {
        self.app.destroy();
    }
}

/// Renders the page for `config` into a new element at the end of the body
/// (`None`: there is no document to render into).
pub fn render(config: Config) -> Option<Running> {
    let document = web_sys::window()?.document()?;
    let root = document.create_element("div").ok()?;
    root.set_class_name("app-root");
    document.body()?.append_child(&root).ok()?;
    let running = mount(root, config, Host::default());
    crate::browser::take_down_static();
    Some(running)
}

/// Renders a figure (or the page) for `config` into `root`.
pub fn mount(root: Element, config: Config, host: Host) -> Running {
    let props = AppProps {
        config: Shared::new(config),
        host,
    };
    let app = yew::Renderer::<App>::with_root_and_props(root.clone(), props).render();
    Running { app, root }
}
