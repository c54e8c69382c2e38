//! mcp-lanes web app: a Yew view over the simulation core's timelines.
//! The page is only built for wasm32; natively this binary is a stub so that
//! `cargo build --workspace` stays green.

#[cfg(target_arch = "wasm32")]
fn main() {
    yew::Renderer::<App>::new().render();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("mcp-lanes-web is the browser app: build it with `trunk build` (see README).");
}

#[cfg(target_arch = "wasm32")]
#[yew::component]
fn App() -> yew::Html {
    yew::html! { <main><h1>{ "mcp-lanes" }</h1><p>{ "The playground is being built." }</p></main> }
}
