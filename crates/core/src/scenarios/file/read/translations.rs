//! A file's translations: title, summary, set-up labels and narration
//! in the course's other languages.

use super::*;

/// Most languages a file translates its text into.
pub(super) const MAX_LANGUAGES: usize = 16;

/// Whether `tag` is a language tag: `zh`, `pt-BR`, `zh-Hans-CN`.
pub(super) fn language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let first = parts.next().unwrap_or_default();
    (2..=8).contains(&first.len())
        && first.chars().all(|c| c.is_ascii_alphabetic())
        && parts.all(|p| (1..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// `translations`: per language tag, the file's title, summary, set-up
/// labels and narration in that language (the keys of `labels` and `say`
/// are the file's own text; `build` checks that they are).
pub(super) fn translations(e: &mut Errors, f: &Fields) -> Vec<super::super::Translation> {
    let Some(value) = f.get("translations") else {
        return Vec::new();
    };
    let path = f.path("translations");
    let Some(map) = value.as_object() else {
        let what = note!(
            "file.what.translations",
            "translations (an object of language tags such as \"zh\")"
        );
        e.at(&path, expected(&what, value));
        return Vec::new();
    };
    if map.len() > MAX_LANGUAGES {
        let what = note!("file.what.languages", "languages");
        e.at(&path, too_many(map.len(), &what, MAX_LANGUAGES));
        return Vec::new();
    }
    let mut out = Vec::new();
    for (tag, value) in map {
        let at = child(&path, tag);
        if !language_tag(tag) {
            e.at(
                &at,
                note!(
                    "file.language_tag",
                    "expected a language tag as the key, such as \"zh\" or \"pt-BR\""
                ),
            );
            continue;
        }
        const KEYS: &[&str] = &["title", "summary", "labels", "say"];
        let what = note!("file.what.translation", "a translation");
        let Some(t) = fields(e, &at, value, &what, KEYS) else {
            continue;
        };
        out.push(super::super::Translation {
            tag: tag.clone(),
            title: name(e, &t, "title", false),
            summary: text(e, &t, "summary", false),
            labels: pairs(e, &t, "labels", MAX_SETUPS, MAX_NAME, true),
            say: pairs(e, &t, "say", MAX_STEPS, MAX_TEXT, false),
        });
    }
    out
}

/// An object of the file's own text to its translation (`labels`, `say`).
pub(super) fn pairs(
    e: &mut Errors,
    f: &Fields,
    key: &str,
    most: usize,
    longest: usize,
    single_line: bool,
) -> Vec<(String, String)> {
    let Some(value) = f.get(key) else {
        return Vec::new();
    };
    let path = f.path(key);
    let Some(map) = value.as_object() else {
        let what = note!(
            "file.what.pairs",
            "an object of the file's text to its translation"
        );
        e.at(&path, expected(&what, value));
        return Vec::new();
    };
    if map.len() > most {
        let what = note!("file.what.entries", "entries");
        e.at(&path, too_many(map.len(), &what, most));
        return Vec::new();
    }
    let what = note!("file.what.translation_string", "a translation (a string)");
    map.iter()
        .filter_map(|(k, v)| {
            let said = check_text(e, &child(&path, k), v, &what, longest, single_line)?;
            Some((k.clone(), said))
        })
        .collect()
}
