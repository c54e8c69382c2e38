//! Message catalogs: every reader-facing text of the page by key, from
//! `www/i18n/<tag>.json` (a flat JSON object of key to text, `{name}` for
//! a parameter), fetched with the page: only the chosen language's, plus
//! English when that catalog is marked `partial` in
//! `www/i18n/languages.json` (a missing key then falls back to English).
//! The rules' summaries, most of the text, are in `<tag>.rules.json`,
//! fetched the first time a rule is shown (the inspector, the editor).
//! The language list is data compiled in; adding a language is adding its
//! catalog and one line there (README, "Languages").
//!
//! The notes of timeline events (the core's `note!`: a key, its English
//! template, named arguments) are rendered from `<tag>.notes.json`
//! (`note.<key>`), fetched with the page's catalog for any language but
//! English: English shows the note the core wrote. A missing template
//! shows the English note, never a blank.
//!
//! Keys: `rule.<RULE-ID>` (a rule's summary), `scenario.<id>.title` and
//! `scenario.<id>.summary` (the catalog's prose; the core keeps its English
//! only for the CLI and tests, see its `text` feature), and the page's own
//! text (`player.play`, ...). A key with no text shows as the key itself.
//!
//! A page may hold several figures, each in its own language: the catalogs
//! are kept by tag, and one of them is *selected* at a time ([`select`]).
//! Everything that draws text for a figure (its runtime's renders and
//! handlers, its islands, its loaders after each `await`) selects the
//! figure's language first; [`install`] selects what it installs.
//!
//! Data layer: plain Rust (the browser side fetches, `browser::catalog`).

use std::cell::RefCell;

use mcp_lanes_core::note::{self, Note};
use mcp_lanes_core::sim::Event;

use serde_json::{Map, Value};

use crate::setting_words;

/// The language list (`www/i18n/languages.json`): tags, names, and which
/// catalogs are partial.
pub const LANGUAGES: &str = include_str!("../www/i18n/languages.json");

/// The language every catalog falls back to.
pub const FALLBACK: &str = "en";

/// One offered language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Language {
    /// Its tag, e.g. `zh` (the catalog is `i18n/<tag>.json`).
    pub tag: String,
    /// Its catalog lacks keys: English is fetched too.
    pub partial: bool,
}

/// The offered languages, in list order.
pub fn languages() -> Vec<Language> {
    let list: Value = serde_json::from_str(LANGUAGES).unwrap_or(Value::Null);
    list.get("languages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|l| {
            Some(Language {
                tag: l.get("tag")?.as_str()?.to_string(),
                partial: l.get("partial").and_then(Value::as_bool).unwrap_or(false),
            })
        })
        .collect()
}

/// The offered language for a wanted tag (`zh-CN` finds `zh`): the exact
/// tag, else its primary subtag, compared without case.
pub fn offered(wanted: &str) -> Option<Language> {
    let wanted = wanted.trim().to_ascii_lowercase().replace('_', "-");
    let primary = wanted.split('-').next().unwrap_or_default().to_string();
    let list = languages();
    let find = |tag: &str| {
        list.iter()
            .find(|l| l.tag.eq_ignore_ascii_case(tag))
            .cloned()
    };
    find(&wanted).or_else(|| find(&primary))
}

/// The first offered language of `wanted` (in order of preference: the
/// `lang` option or `?lang=`, the host page's `lang`, the browser's
/// languages), else English.
pub fn choose<'a>(wanted: impl IntoIterator<Item = &'a str>) -> Language {
    wanted.into_iter().find_map(offered).unwrap_or(Language {
        tag: FALLBACK.into(),
        partial: false,
    })
}

/// An installed catalog.
#[derive(Debug, Default)]
struct Catalog {
    tag: String,
    entries: Map<String, Value>,
    fallback: Map<String, Value>,
    rules: bool,
}

/// The installed catalogs (one per language) and which one is selected.
struct Catalogs {
    all: Vec<Catalog>,
    selected: usize,
}

thread_local! {
    static CATALOGS: RefCell<Catalogs> = RefCell::new(Catalogs {
        all: vec![Catalog {
            entries: default_entries(),
            ..Catalog::default()
        }],
        selected: 0,
    });
}

/// The selected catalog, read.
fn with_selected<R>(f: impl FnOnce(&Catalog) -> R) -> R {
    CATALOGS.with(|c| {
        let c = c.borrow();
        f(&c.all[c.selected])
    })
}

/// The selected catalog, changed.
fn with_selected_mut<R>(f: impl FnOnce(&mut Catalog) -> R) -> R {
    CATALOGS.with(|c| {
        let mut c = c.borrow_mut();
        let at = c.selected;
        f(&mut c.all[at])
    })
}

/// Selects the installed catalog of `tag` (a figure about to draw text);
/// false, and nothing changes, when none is installed for it.
pub fn select(tag: &str) -> bool {
    CATALOGS.with(|c| {
        let mut c = c.borrow_mut();
        match c.all.iter().position(|cat| cat.tag == tag) {
            Some(at) => {
                c.selected = at;
                true
            }
            None => false,
        }
    })
}

/// Runs `f` with the catalog of `tag` selected, then selects again what
/// was selected before (a loader adding to a figure's catalog after an
/// `await`, while another figure may be selected).
pub fn with_language<R>(tag: &str, f: impl FnOnce() -> R) -> R {
    let before = CATALOGS.with(|c| c.borrow().selected);
    select(tag);
    let out = f();
    CATALOGS.with(|c| c.borrow_mut().selected = before);
    out
}

/// Native builds (the data and state tests) start with English; the
/// browser installs the fetched catalog before it renders.
#[cfg(not(target_arch = "wasm32"))]
fn default_entries() -> Map<String, Value> {
    let mut all = entries(include_str!("../www/i18n/en.json"));
    all.extend(entries(include_str!("../www/i18n/en.rules.json")));
    all
}

#[cfg(target_arch = "wasm32")]
fn default_entries() -> Map<String, Value> {
    Map::new()
}

/// The page's languages and their catalogs, compiled in natively for the
/// complete figures (`view::figure`): tag, keys, notes' templates, rules.
#[cfg(not(target_arch = "wasm32"))]
const BUILTIN: [(&str, &str, &str, &str); 2] = [
    (
        "en",
        include_str!("../www/i18n/en.json"),
        include_str!("../www/i18n/en.notes.json"),
        include_str!("../www/i18n/en.rules.json"),
    ),
    (
        "zh",
        include_str!("../www/i18n/zh.json"),
        include_str!("../www/i18n/zh.notes.json"),
        include_str!("../www/i18n/zh.rules.json"),
    ),
];

/// The tags of the languages [`install_builtin`] knows.
#[cfg(not(target_arch = "wasm32"))]
pub fn builtin_tags() -> Vec<&'static str> {
    BUILTIN.iter().map(|(tag, ..)| *tag).collect()
}

/// Natively: installs the whole catalog of `tag` as the page would have
/// it once everything is fetched (keys, notes' templates, rules, English's
/// for what it lacks); false for a language the page does not have.
#[cfg(not(target_arch = "wasm32"))]
pub fn install_builtin(tag: &str) -> bool {
    let Some((tag, keys, notes, rules)) = BUILTIN.iter().find(|(t, ..)| *t == tag) else {
        return false;
    };
    let (_, en_keys, _, en_rules) = BUILTIN[0];
    let fallback = (*tag != "en").then_some(en_keys);
    install(tag, keys, fallback);
    add_rules(rules, (*tag != "en").then_some(en_rules));
    add_notes(notes);
    true
}

/// The object of a catalog's text (empty when it is not one).
fn entries(text: &str) -> Map<String, Value> {
    match serde_json::from_str(text) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

/// Installs the catalog of `tag` from its text, with English's for the
/// keys it lacks, and selects it (a catalog of `tag` installed before
/// keeps what was added to it); false when `text` is not a catalog.
pub fn install(tag: &str, text: &str, fallback: Option<&str>) -> bool {
    let entries = entries(text);
    let ok = !entries.is_empty();
    let fallback = fallback.map(self::entries).unwrap_or_default();
    CATALOGS.with(|c| {
        let mut c = c.borrow_mut();
        // Another figure in this language installed it already: what it
        // added (rules, notes, the full part) stays.
        let at = match c
            .all
            .iter()
            .position(|cat| cat.tag == tag && !tag.is_empty())
        {
            Some(at) => {
                let cat = &mut c.all[at];
                cat.entries.extend(entries);
                cat.fallback.extend(fallback);
                at
            }
            None => {
                c.all.push(Catalog {
                    tag: tag.to_string(),
                    entries,
                    fallback,
                    rules: false,
                });
                c.all.len() - 1
            }
        };
        c.selected = at;
    });
    ok
}

/// Adds the rules' catalog (`<tag>.rules.json`, with English's when the
/// language is partial) to the installed one.
pub fn add_rules(text: &str, fallback: Option<&str>) {
    with_selected_mut(|c| {
        c.entries.extend(entries(text));
        if let Some(fallback) = fallback {
            c.fallback.extend(entries(fallback));
        }
        c.rules = true;
    });
}

/// Adds entries to the installed catalog (the full bundle's part of it,
/// `<tag>.full.json`, with English's when the language is partial).
pub fn add(text: &str, fallback: Option<&str>) {
    with_selected_mut(|c| {
        c.entries.extend(entries(text));
        if let Some(fallback) = fallback {
            c.fallback.extend(entries(fallback));
        }
    });
}

/// Adds the notes' templates (`<tag>.notes.json`) to the installed
/// catalog.
pub fn add_notes(text: &str) {
    with_selected_mut(|c| c.entries.extend(entries(text)));
}

/// A note in the installed language: `english` (what the core wrote)
/// when the language is English, when there is no message, or when a
/// template of the message is missing.
pub fn note_text(english: &str, msg: Option<&Value>) -> String {
    if lang() == FALLBACK {
        return english.to_string();
    }
    let template = |key: &str| {
        with_selected(|c| {
            c.entries
                .get(&format!("note.{key}"))
                .and_then(Value::as_str)
                .map(str::to_string)
        })
    };
    let join = get("notes.join").unwrap_or_else(|| " ".into());
    msg.and_then(|m| note::render(m, &template, &join))
        .unwrap_or_else(|| english.to_string())
}

/// A lane's set-up label in the installed language (`label.<English>` of
/// `<tag>.notes.json`): a compared lane's "label · change" translates
/// its set-up part. As it is in English, or when the label is unknown (a
/// scenario file's).
pub fn setup_label(text: &str) -> String {
    let (base, change) = match text.split_once(" \u{b7} ") {
        Some((base, change)) => (base, Some(change)),
        None => (text, None),
    };
    let base = label(base).unwrap_or_else(|| flow_label(base));
    match change {
        Some(change) => format!("{base} \u{b7} {}", change_label(change)),
        None => base,
    }
}

/// A real run's lane, named by its flow ("scenario-id: set-up label"),
/// with the set-up's label in the installed language. Only the full bundle
/// shows real runs (the lite one links none of this).
fn flow_label(text: &str) -> String {
    if !cfg!(feature = "engine") {
        return text.to_string();
    }
    match text.split_once(": ") {
        Some((flow, setup)) => match label(setup) {
            Some(setup) => format!("{flow}: {setup}"),
            None => text.to_string(),
        },
        None => text.to_string(),
    }
}

/// The change of a compared lane's label ("sampling on", as
/// `setting_words::describe` wrote it) in the installed language, when it
/// is the words of one of the settings; else as it is. Only the full
/// bundle makes compared lanes: the lite one shows the text as it is (and
/// links none of this).
fn change_label(change: &str) -> String {
    if !cfg!(feature = "engine") || lang() == FALLBACK {
        return change.to_string();
    }
    setting_words::all()
        .into_iter()
        .find(|s| setting_words::describe(s) == change)
        .or_else(|| setting_words::gateway_setting(change))
        .and_then(|s| describe_in_language(&s))
        .unwrap_or_else(|| change.to_string())
}

/// A setting's words in the installed language (`settings.change.*`; era
/// and policy names are labels), `None` when the catalog lacks the key.
fn describe_in_language(setting: &mcp_lanes_core::settings::Setting) -> Option<String> {
    use mcp_lanes_core::settings::Setting;
    let said = |key: &str, name: &str, value: &str| Some(fill(&get(key)?, &[(name, value)]));
    match setting {
        Setting::ClientEra(era) => said("settings.change.client", "what", &label_text(era.label())),
        Setting::Undeclared(policy) => said(
            "settings.change.client",
            "what",
            &label_text(policy.label()),
        ),
        Setting::ServerEra(era) => said("settings.change.server", "what", &label_text(era.label())),
        Setting::ClientCapability(cap, on) => said(
            if *on {
                "settings.change.on"
            } else {
                "settings.change.off"
            },
            "capability",
            cap.label(),
        ),
        Setting::PreferredVersion(v) => said("settings.change.prefers", "version", v),
        Setting::ServerVersion(v, on) => said(
            if *on {
                "settings.change.supports"
            } else {
                "settings.change.drops"
            },
            "version",
            v,
        ),
        Setting::Transport(kind) => said("settings.change.over", "transport", kind.name()),
        Setting::ChecksBeforeWork(true) => get("settings.change.checks"),
        Setting::ChecksBeforeWork(false) => get("settings.change.no_checks"),
        Setting::AuthBreak(b) => get(&setting_words::auth_break_key(*b)),
        Setting::GatewayHides(tool, true) => said("settings.change.gateway_hides", "tool", tool),
        Setting::GatewayHides(tool, false) => said("settings.change.gateway_shows", "tool", tool),
        // A newer setting: its English words (`setting_words::describe`).
        _ => None,
    }
}

/// A label (an era's or a policy's name, a set-up's label, as the core
/// writes it) in the installed language, else as it is.
pub fn label_text(english: &str) -> String {
    label(english).unwrap_or_else(|| english.to_string())
}

/// A lane header's peer label ("name version (era)", as the core writes
/// it) with the era's name in the installed language.
pub fn peer_label(text: &str) -> String {
    // A client's principal follows its name and era: `name 1.0 (era) · alice`.
    if let Some((peer, principal)) = text.rsplit_once(" · ") {
        return format!("{} · {principal}", peer_label(peer));
    }
    let era = text
        .rsplit_once(" (")
        .and_then(|(head, era)| Some((head, era.strip_suffix(')')?)));
    match era.and_then(|(head, era)| Some((head, label(era)?))) {
        Some((head, era)) => format!("{head} ({era})"),
        None => text.to_string(),
    }
}

/// The translation of a label (`label.<English>`), if not English.
fn label(english: &str) -> Option<String> {
    if lang() == FALLBACK {
        return None;
    }
    with_selected(|c| {
        c.entries
            .get(&format!("label.{english}"))
            .and_then(Value::as_str)
            .map(str::to_string)
    })
}

/// An event's note in the installed language ([`note_text`]).
pub fn event_note(event: &Event) -> String {
    note_text(&event.note, event.note_msg.as_ref())
}

/// A core note in the installed language ([`note_text`]).
pub fn note(note: &Note) -> String {
    let msg = note.msg().map(note::Msg::to_value);
    note_text(note.text(), msg.as_ref())
}

/// Whether the rules' summaries are here ([`add_rules`]).
pub fn has_rules() -> bool {
    with_selected(|c| c.rules)
}

/// The installed language's tag (`en` before any is installed).
pub fn lang() -> String {
    with_selected(|c| {
        if c.tag.is_empty() {
            FALLBACK.to_string()
        } else {
            c.tag.clone()
        }
    })
}

/// The text of `key`, if the catalog (or English) has it.
pub fn get(key: &str) -> Option<String> {
    with_selected(|c| {
        c.entries
            .get(key)
            .or_else(|| c.fallback.get(key))
            .and_then(Value::as_str)
            .map(str::to_string)
    })
}

/// The text of `key` (the key itself when no catalog has it).
pub fn t(key: &str) -> String {
    get(key).unwrap_or_else(|| key.to_string())
}

/// The text of `key` with each `{name}` replaced by its value.
pub fn tf(key: &str, args: &[(&str, &str)]) -> String {
    fill(&t(key), args)
}

/// `template` with each `{name}` of `args` replaced by its value (in one
/// pass: a value's own braces stay as they are).
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let arg = after.find('}').and_then(|close| {
            args.iter()
                .find(|(n, _)| *n == &after[..close])
                .map(|a| (close, a.1))
        });
        match arg {
            Some((close, value)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A rule's summary (`rule.<id>`; empty for an unknown rule, and until
/// the rules' catalog is here).
pub fn rule(id: &str) -> String {
    get(&format!("rule.{id}")).unwrap_or_default()
}

/// What a field means (`field.<key>`, in the rules' catalog; empty until
/// that catalog is here).
pub fn field(key: &str) -> String {
    get(&format!("field.{key}")).unwrap_or_default()
}

/// A catalog scenario's title.
pub fn scenario_title(id: &str) -> String {
    t(&format!("scenario.{id}.title"))
}

/// A catalog scenario's one-line summary.
pub fn scenario_summary(id: &str) -> String {
    t(&format!("scenario.{id}.summary"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choosing_prefers_the_first_offered_language() {
        assert_eq!(choose(["fr", "zh-CN", "en"]).tag, "zh");
        assert_eq!(choose(["ZH-hans"]).tag, "zh");
        assert_eq!(choose(["de"]).tag, "en");
        assert_eq!(choose([]).tag, "en");
    }

    #[test]
    fn a_missing_key_falls_back_to_english_then_to_the_key() {
        install("zh", r#"{"a": "甲"}"#, Some(r#"{"a": "A", "b": "B"}"#));
        assert_eq!(t("a"), "甲");
        assert_eq!(t("b"), "B");
        assert_eq!(t("c"), "c");
        assert_eq!(lang(), "zh");
    }

    #[test]
    fn notes_and_labels_render_in_the_language_or_fall_back_to_english() {
        let note = mcp_lanes_core::note!("t.a", "Session {id} ends.", id = "s-1");
        install("zh", r#"{"notes.join": ""}"#, None);
        assert_eq!(
            self::note(&note),
            "Session s-1 ends.",
            "no template: English"
        );
        add_notes(
            r#"{"note.t.a": "会话 {id} 结束。", "label.plain client": "普通客户端", "label.modern-only": "仅现代"}"#,
        );
        assert_eq!(self::note(&note), "会话 s-1 结束。");
        assert_eq!(note_text("plain text", None), "plain text");
        assert_eq!(setup_label("plain client"), "普通客户端");
        assert_eq!(
            setup_label("plain client \u{b7} over http"),
            "普通客户端 \u{b7} over http",
            "no template: English"
        );
        add(
            r#"{"settings.change.over": "经由 {transport}", "settings.change.client": "客户端{what}"}"#,
            None,
        );
        assert_eq!(
            setup_label("plain client \u{b7} over http"),
            "普通客户端 \u{b7} 经由 http"
        );
        assert_eq!(
            setup_label("plain client \u{b7} client modern-only"),
            "普通客户端 \u{b7} 客户端仅现代"
        );
        assert_eq!(
            setup_label("plain client \u{b7} something else"),
            "普通客户端 \u{b7} something else"
        );
        assert_eq!(setup_label("a file's own label"), "a file's own label");
        assert_eq!(
            setup_label("plain-vs-rich: plain client"),
            "plain-vs-rich: 普通客户端"
        );
        assert_eq!(
            peer_label("plain-script 1.0.0 (modern-only)"),
            "plain-script 1.0.0 (仅现代)"
        );
        // A client's principal stays as written, after the translated era.
        assert_eq!(
            peer_label("plain-script 1.0.0 (modern-only) \u{b7} alice"),
            "plain-script 1.0.0 (仅现代) \u{b7} alice"
        );
        install("en", "{}", None);
        assert_eq!(self::note(&note), "Session s-1 ends.");
        assert_eq!(setup_label("plain client"), "plain client");
    }

    #[test]
    fn every_settings_words_are_in_the_english_catalog_as_describe_says_them() {
        // The English templates say what `describe` says (a catalog that
        // lacks a key falls back to English: the same words), checked
        // under a tag that is not English, so the templates are used.
        install("xx", include_str!("../www/i18n/en.json"), None);
        for s in setting_words::all() {
            assert_eq!(
                describe_in_language(&s).as_deref(),
                Some(setting_words::describe(&s).as_str()),
                "{s:?}"
            );
        }
    }

    #[test]
    fn each_figure_keeps_its_language() {
        // Two figures of one page: the catalogs stay apart, by tag.
        install("en", r#"{"a": "A"}"#, None);
        install("zh", r#"{"a": "甲"}"#, Some(r#"{"a": "A", "b": "B"}"#));
        add_rules(r#"{"rule.X": "规则"}"#, None);
        assert_eq!(
            (t("a"), t("b"), lang()),
            ("甲".into(), "B".into(), "zh".into())
        );
        assert!(select("en"));
        assert_eq!(
            (t("a"), t("b"), lang()),
            ("A".into(), "b".into(), "en".into())
        );
        assert!(!has_rules(), "the rules came for the Chinese figure");
        assert_eq!(with_language("zh", || rule("X")), "规则");
        assert_eq!(lang(), "en", "selected again");
        // Another Chinese figure installs its catalog: what was added stays.
        install("zh", r#"{"a": "甲"}"#, None);
        assert!(has_rules());
        assert!(!select("fr"), "not installed: nothing changes");
        assert_eq!(lang(), "zh");
    }

    #[test]
    fn parameters_are_filled_once() {
        assert_eq!(
            fill("{a} and {b} {c}", &[("a", "{b}"), ("b", "x")]),
            "{b} and x {c}"
        );
    }
}
