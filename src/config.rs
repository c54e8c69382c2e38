//! How the app was started and what it was asked to show: the full page
//! (`/?scenario=ID`, a permalink in the fragment), a figure in an iframe
//! (`?embed=1&scenario=ID&…`) or a figure mounted by `embed.js`
//! (`McpLanes.mount(host, options)`). Options are read by hand from a
//! `serde_json::Value` (the query string and the JS options object both
//! become one): the derive-based readers cost 6 to 13 KB gzip of
//! WebAssembly for this one small struct.
//!
//! Also the hand-over message between the bundles ([`Handoff`]): the lite
//! page writes it, the full bundle's start reads it into its `Config`.
//!
//! Data layer: plain Rust over the core, no browser (boot reads the URL and
//! passes its parts in).

use crate::i18n::{t, tf};
use std::rc::Rc;

use mcp_lanes_core::scenarios;
use mcp_lanes_core::scenarios::file::ScenarioFile;
use mcp_lanes_core::share::{self, ShareError, ShareState};
use serde_json::Value;

/// Where the app runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mode {
    /// The playground page.
    Page,
    /// `?embed=1`: one figure in an iframe; talks to its parent window.
    Frame,
    /// `McpLanes.mount(host, …)`: one figure in a shadow root on `host`.
    Mount,
}

/// The speeds an embedding page may ask for, as `speed` values.
pub const SPEED_VALUES: [f64; 5] = [0.25, 0.5, 1.0, 2.0, 4.0];

/// What to show and how (see README, "Embedding in a course page").
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Page, iframe figure or mounted figure.
    pub mode: Mode,
    /// Scenario id (`None`: the first, or the permalink's).
    pub scenario: Option<String>,
    /// Which of the scenario's set-ups to show (`None`: all).
    pub setups: Option<Vec<usize>>,
    /// Start playing at once.
    pub autoplay: bool,
    /// Index into [`SPEED_VALUES`] (the speeds of `state::SPEEDS`).
    pub speed: Option<usize>,
    /// Start at this playback step.
    pub step: usize,
    /// Offer the request editor.
    pub editor: bool,
    /// `Some("light" | "dark")`; `None` follows the system.
    pub theme: Option<&'static str>,
    /// Origins whose control messages are accepted (besides our own).
    pub origins: Vec<String>,
    /// The figure's title, set by the course author (`None`: the
    /// scenario's title, without the catalogue's number).
    pub title: Option<String>,
    /// A caption under the figure, set by the course author.
    pub caption: Option<String>,
    /// The language asked for (`lang` option, `?lang=`); `None`: the host
    /// page's, then the browser's (see `i18n::choose`).
    pub lang: Option<String>,
    /// Colours for an iframe figure (light, then dark scheme): custom
    /// property names of `www/style.css` and `#rrggbb` values.
    pub colors: [Vec<(&'static str, String)>; 2],
    /// The person asked for reduced motion: no autoplay.
    pub reduced_motion: bool,
    /// What was wrong with the options (shown as the figure's notice).
    pub problem: Option<String>,
    /// The permalink in the URL fragment (page only).
    pub link: Option<Result<ShareState, ShareError>>,
    /// What a hand-over from the lite bundle restores (full bundle).
    pub arrival: Option<Arrival>,
    /// The message and field a link points at (`#…/m{lane}.{event}/{path}`,
    /// page only): selected, and shown open.
    pub field: Option<FieldLink>,
    /// A scenario file to show instead of a catalog scenario
    /// (`?scenario-url=`, or the `scenarioUrl` / `scenario: {...}` options).
    pub file: Option<FileRequest>,
    /// The file once the full bundle fetched and checked it: its scenario,
    /// or every problem (shown instead of the lanes).
    pub loaded: Option<Result<Rc<ScenarioFile>, Vec<String>>>,
    /// With a file, the URL fragment (checked against the file once loaded).
    pub fragment: Option<String>,
    /// A recorded conversation to draw, in any format the core's importer
    /// reads (`checked::read`): on the page `?timeline=URL` or its alias
    /// `?transcript=URL`; in a figure the `transcriptUrl` option
    /// (`?embed=1&transcript=URL`) or `transcript` (the file's JSON, an
    /// array or an object).
    pub timeline: Option<FileRequest>,
    /// That recording once the full bundle fetched and read it, or why it
    /// cannot be shown.
    pub checked: Option<Result<Rc<crate::checked::Checked>, String>>,
    /// Tapped conversations to draw as they happen (`?tap=URL[,URL]…`,
    /// page only): each a `mcp-lanes tap --live` stream, its runs side by
    /// side.
    pub tap: Vec<String>,
}

/// The most conversations one page taps at once.
pub const MAX_TAPS: usize = 8;

/// Where a scenario file or a recorded conversation comes from.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum FileRequest {
    /// Fetched from this URL (relative to the page).
    Url(String),
    /// Handed over as a JavaScript object (`McpLanes.mount`).
    Inline(Value),
}

impl FileRequest {
    /// The URL, for a fetched file.
    pub fn url(&self) -> Option<&str> {
        match self {
            FileRequest::Url(url) => Some(url),
            FileRequest::Inline(_) => None,
        }
    }
}

/// What a hand-over restores beyond the permalink.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Arrival {
    /// The inspected event (lane, event).
    pub selected: Option<(usize, usize)>,
    /// Show the request editor.
    pub editor: bool,
    /// `data-testid` of the control that had focus.
    pub focus: Option<String>,
    /// `data-testid`s of the open `<details>` panels.
    pub open: Vec<String>,
}

/// The browser global the hand-over travels in.
pub const HANDOFF_GLOBAL: &str = "mcpLanesHandoff";

/// What the lite page hands to the full bundle when a person asks for
/// something only the simulator can show: the permalink of the state after
/// the change, plus what a link does not record (selection, editor,
/// playback speed, the focused control and the open panels). Travels as
/// JSON in [`HANDOFF_GLOBAL`]; [`Config::receive`] reads it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Handoff {
    /// The state to open (`None`: what the URL says).
    pub link: Option<ShareState>,
    /// The speed index of the lite page.
    pub speed: Option<usize>,
    /// What the full page restores beyond the link.
    pub arrival: Arrival,
}

impl Handoff {
    /// The JSON the full bundle's [`Config::receive`] reads.
    pub fn to_json(&self) -> String {
        let a = &self.arrival;
        serde_json::json!({
            "link": self.link.as_ref().map(share::to_fragment),
            "selected": a.selected.map(|(lane, event)| [lane, event]),
            "editor": a.editor,
            "speed": self.speed,
            "focus": a.focus,
            "open": a.open,
        })
        .to_string()
    }
}

const KEYS: [&str; 16] = [
    "scenario",
    "scenarioUrl",
    "transcript",
    "transcriptUrl",
    "setups",
    "autoplay",
    "speed",
    "step",
    "editor",
    "theme",
    "origins",
    "title",
    "caption",
    "lang",
    "colors",
    "darkColors",
];

/// The query parameter of an option (`?embed=1&…`).
fn query_name(key: &str) -> &str {
    match key {
        "scenarioUrl" => "scenario-url",
        "transcriptUrl" => "transcript",
        _ => key,
    }
}

/// The fragment of the page's skip link (`index.html`): Play's id.
pub const SKIP: &str = "#play";

/// Longest scenario file URL accepted.
const MAX_URL: usize = 2048;

/// The colours a figure takes as options: option name, then the custom
/// property of `www/style.css` it sets.
pub const COLOR_NAMES: [(&str, &str); 6] = [
    ("ink", "--ink"),
    ("muted", "--ink-mute"),
    ("page", "--bg-page"),
    ("surface", "--bg-surface"),
    ("rule", "--rule-soft"),
    ("accent", "--blueprint"),
];

/// `"ink:#2b2118"` (or `ink:2b2118`) as (custom property, `#2b2118`): a
/// known name and three or six hex digits, nothing else.
fn color(item: &Value) -> Option<(&'static str, String)> {
    let (name, value) = item.as_str()?.split_once(':')?;
    let property = COLOR_NAMES.iter().find(|(n, _)| *n == name.trim())?.1;
    let hex = value.trim().trim_start_matches('#');
    let ok = matches!(hex.len(), 3 | 6) && hex.bytes().all(|b| b.is_ascii_hexdigit());
    ok.then(|| (property, format!("#{hex}")))
}

/// A BCP 47 language tag's shape: letters, digits and hyphens, at most 35.
pub fn valid_lang(tag: &str) -> bool {
    !tag.is_empty()
        && tag.len() <= 35
        && tag
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Config {
    /// A figure's options from a JSON object: wrong values are listed in
    /// `problem` and replaced by their defaults.
    pub fn from_options(mode: Mode, options: &Value) -> Config {
        let mut problems = Vec::new();
        let map = options.as_object();
        if !options.is_null() && map.is_none() {
            problems.push(t("options.not_object"));
        }
        for key in map.iter().flat_map(|m| m.keys()) {
            if !KEYS.contains(&key.as_str()) {
                problems.push(tf("options.unknown", &[("key", key)]));
            }
        }
        // The value of an option when `ok` accepts it, else a problem.
        let mut take =
            |key: &str, what: &str, ok: fn(&Value) -> bool| match map.and_then(|m| m.get(key)) {
                Some(v) if ok(v) => Some(v),
                None | Some(Value::Null) => None,
                Some(v) => {
                    problems.push(tf(
                        "options.wrong",
                        &[("key", key), ("what", &t(what)), ("value", &v.to_string())],
                    ));
                    None
                }
            };
        let flag = "options.flag";
        let scenario = take("scenario", "options.scenario", |v| {
            v.is_object() || v.as_str().is_some_and(|id| scenarios::find(id).is_some())
        });
        let scenario_url = take("scenarioUrl", "options.scenario_url", |v| {
            v.as_str()
                .is_some_and(|u| !u.trim().is_empty() && u.len() <= MAX_URL)
        });
        let transcript = take("transcript", "options.transcript", |v| {
            v.is_array() || v.is_object()
        });
        let transcript_url = take("transcriptUrl", "options.transcript_url", |v| {
            v.as_str()
                .is_some_and(|u| !u.trim().is_empty() && u.len() <= MAX_URL)
        });
        let timeline = match (transcript_url.and_then(Value::as_str), transcript) {
            (Some(url), _) => Some(FileRequest::Url(url.trim().to_string())),
            (None, Some(v)) => Some(FileRequest::Inline(v.clone())),
            _ => None,
        };
        let file = match (scenario_url.and_then(Value::as_str), scenario) {
            (Some(url), _) => Some(FileRequest::Url(url.trim().to_string())),
            (None, Some(v)) if v.is_object() => Some(FileRequest::Inline(v.clone())),
            _ => None,
        };
        let setups = take("setups", "options.setups", |v| {
            v.as_array()
                .is_some_and(|a| !a.is_empty() && a.iter().all(Value::is_u64))
        });
        let autoplay = take("autoplay", flag, Value::is_boolean);
        let speed = take("speed", "options.speed", |v| {
            v.as_f64().is_some_and(|x| SPEED_VALUES.contains(&x))
        });
        let step = take("step", "options.step", Value::is_u64);
        let editor = take("editor", flag, Value::is_boolean);
        let theme = take("theme", "options.theme", |v| {
            matches!(v.as_str(), Some("light" | "dark" | "auto"))
        });
        let origins = take("origins", "options.origins", |v| {
            v.as_array().is_some_and(|a| {
                a.iter()
                    .all(|o| o.as_str().is_some_and(|o| !o.contains('*')))
            })
        });
        let text = "options.text";
        let title = take("title", text, |v| {
            v.as_str().is_some_and(|t| t.chars().count() <= 200)
        });
        let caption = take("caption", text, |v| {
            v.as_str().is_some_and(|t| t.chars().count() <= 1000)
        });
        let lang = take("lang", "options.lang", |v| {
            v.as_str().is_some_and(valid_lang)
        });
        let colors_what = "options.colors";
        let colors_ok = |v: &Value| {
            v.as_array()
                .is_some_and(|a| a.iter().all(|c| color(c).is_some()))
        };
        let light = take("colors", colors_what, colors_ok);
        let dark = take("darkColors", colors_what, colors_ok);
        fn list(v: Option<&Value>) -> impl Iterator<Item = &Value> {
            v.and_then(Value::as_array).into_iter().flatten()
        }
        let scenario = scenario.and_then(Value::as_str).map(str::to_string);
        let mut setups: Option<Vec<usize>> = setups.map(|v| {
            list(Some(v))
                .filter_map(Value::as_u64)
                .map(|n| n as usize)
                .collect()
        });
        let first = scenarios::CATALOG.first().map_or("", |s| s.id);
        let count = scenarios::find(scenario.as_deref().unwrap_or(first)).map_or(0, |s| s.lanes);
        // A file's (or a recording's) set-ups are counted once it is loaded.
        if file.is_none()
            && timeline.is_none()
            && setups
                .as_ref()
                .is_some_and(|s| s.iter().any(|&i| i >= count))
        {
            problems.push(tf(
                "options.setups_range",
                &[("last", &count.saturating_sub(1).to_string())],
            ));
            setups = None;
        }
        let problem = (!problems.is_empty())
            .then(|| tf("options.invalid", &[("problems", &problems.join("; "))]));
        let flag = |v: Option<&Value>| v.and_then(Value::as_bool).unwrap_or(false);
        Config {
            mode,
            scenario,
            setups,
            autoplay: flag(autoplay),
            speed: speed
                .and_then(Value::as_f64)
                .and_then(|x| SPEED_VALUES.iter().position(|&s| s == x)),
            step: step.and_then(Value::as_u64).unwrap_or(0) as usize,
            editor: flag(editor),
            theme: match theme.and_then(Value::as_str) {
                Some("light") => Some("light"),
                Some("dark") => Some("dark"),
                _ => None,
            },
            origins: list(origins)
                .filter_map(|o| o.as_str().map(str::to_string))
                .collect(),
            title: title.and_then(Value::as_str).map(str::to_string),
            caption: caption.and_then(Value::as_str).map(str::to_string),
            lang: lang.and_then(Value::as_str).map(str::to_string),
            colors: [
                list(light).filter_map(color).collect(),
                list(dark).filter_map(color).collect(),
            ],
            reduced_motion: false,
            problem,
            link: None,
            arrival: None,
            field: None,
            file,
            loaded: None,
            fragment: None,
            timeline,
            checked: None,
            tap: Vec::new(),
        }
    }

    /// The page's configuration from its URL: `param` gives a query
    /// parameter's decoded value, `hash` is the fragment. `?scenario=ID` and
    /// a permalink, or with `?embed=1` a figure's options.
    pub fn from_url(param: impl Fn(&str) -> Option<String>, hash: &str) -> Config {
        if param("embed").as_deref() == Some("1") {
            // The query as a JSON object, each value typed as its option
            // wants it: lists are comma-separated, flags 1 or true; numbers
            // and flags are written as they are, the rest as strings (so a
            // wrong value is reported like a wrong option of `mount`).
            let mut json = String::from("{");
            // (An inline transcript is a `mount` option only.)
            for key in KEYS.iter().filter(|k| **k != "transcript") {
                let key = *key;
                let Some(text) = param(query_name(key)) else {
                    continue;
                };
                let typed = |t: &str| {
                    let bare = match (key, t) {
                        ("autoplay" | "editor", "1") => "true",
                        ("autoplay" | "editor", "0") => "false",
                        (_, "true" | "false") => t,
                        ("speed" | "step" | "setups", _)
                            if t.parse::<u32>().is_ok() || t == "0.25" || t == "0.5" =>
                        {
                            t
                        }
                        _ => return serde_json::to_string(t).unwrap_or_default(),
                    };
                    bare.to_string()
                };
                let value = match key {
                    "setups" | "origins" | "colors" | "darkColors" => {
                        let items: Vec<String> = text.split(',').map(|t| typed(t.trim())).collect();
                        format!("[{}]", items.join(","))
                    }
                    _ => typed(&text),
                };
                if json.len() > 1 {
                    json.push(',');
                }
                json = json + "\"" + key + "\":" + &value;
            }
            json.push('}');
            let options = serde_json::from_str(&json).unwrap_or(Value::Null);
            let mut config = Config::from_options(Mode::Frame, &options);
            // An author may preset lane settings with a permalink fragment
            // (a scenario file's is checked against the file once loaded).
            if config.file.is_some() {
                config.fragment = (hash.len() > 1).then(|| hash.to_string());
            } else {
                config.link = (hash.len() > 1).then(|| share::from_fragment(hash));
            }
            return config;
        }
        let mut config = Config::from_options(Mode::Page, &Value::Null);
        let (hash, field) = split_field(hash);
        config.field = field;
        config.scenario = param("scenario");
        config.lang = param("lang").filter(|l| valid_lang(l));
        match param("scenario-url").filter(|u| !u.trim().is_empty() && u.len() <= MAX_URL) {
            // The fragment is checked against the file once it is loaded.
            Some(url) => {
                config.file = Some(FileRequest::Url(url.trim().to_string()));
                config.fragment = (hash.len() > 1).then(|| hash.to_string());
            }
            // `#play` is the skip link's target, not a permalink.
            None => {
                config.link = (hash.len() > 1 && hash != SKIP).then(|| share::from_fragment(hash))
            }
        }
        // `?transcript=` is `?timeline=`'s alias: both read every format.
        config.timeline = param("timeline")
            .or_else(|| param("transcript"))
            .map(|u| u.trim().to_string())
            .filter(|u| !u.is_empty() && u.len() <= MAX_URL)
            .map(FileRequest::Url);
        config.tap = param("tap")
            .filter(|u| u.len() <= MAX_URL * MAX_TAPS)
            .map(|list| {
                list.split(',')
                    .map(|u| u.trim().to_string())
                    .filter(|u| !u.is_empty())
                    .take(MAX_TAPS)
                    .collect()
            })
            .unwrap_or_default();
        config
    }

    /// Full bundle: makes this configuration open what a hand-over
    /// ([`Handoff::to_json`]) describes; text that is not one changes
    /// nothing.
    pub fn receive(&mut self, handoff: &str) {
        let Ok(v) = serde_json::from_str::<Value>(handoff) else {
            return;
        };
        if let Some(link) = v["link"].as_str() {
            self.link = Some(share::from_fragment(link));
            self.step = 0;
        }
        if let Some(speed) = v["speed"].as_u64().map(|s| s as usize) {
            self.speed = (speed < SPEED_VALUES.len()).then_some(speed);
        }
        // The lite page stopped playback to hand over; a figure's `autoplay`
        // must not start it again.
        self.autoplay = false;
        let pair = |v: &Value| Some((v[0].as_u64()? as usize, v[1].as_u64()? as usize));
        self.arrival = Some(Arrival {
            selected: pair(&v["selected"]),
            editor: v["editor"].as_bool().unwrap_or(false),
            focus: v["focus"].as_str().map(str::to_string),
            open: v["open"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect(),
        });
    }
}

mod field_link;
pub use field_link::{split_field, FieldLink};

#[cfg(test)]
mod tests;
