//! A message's JSON drawn as tokens, each key a target that says what it
//! means: hovering, focusing or tapping a key (it takes focus) shows its
//! explanation, the rules that govern it and the spec section, from the
//! core's `explain` (the words come with the rules' catalog, `field.<key>`).
//! Pure CSS shows it (`:hover`, `:focus-within`), so it works in a drawn
//! figure without scripts; a key a link points at (`open`) is shown open.
//!
//! The text is what `serde_json`'s pretty printer writes, so the JSON reads
//! (and copies) as before; long strings wrap (`.wire` in the stylesheet).

use maud::{html, Markup};
use mcp_lanes_core::editor::Exchange;
use mcp_lanes_core::explain::{self, Ctx, Field};
use serde_json::Value;

use crate::i18n::{self, t, tf};
use crate::model::visible_controls;

/// What a drawn key carries.
#[derive(Clone, Copy)]
pub struct Draw<'a> {
    /// Draw each explanation beside its key (the inspector); without, a
    /// key is only `<i data-f="{catalog key}">` (`<i>` when the catalog key
    /// is the key's name) and its value plain text.
    pub explain: bool,
    /// The path of the key shown open (a link to one field).
    pub open: Option<&'a str>,
    /// The permalink fragment and the message (lane, event) a link to one
    /// of its fields starts from; `None`: no links.
    pub link: Option<(&'a str, usize, usize)>,
}

/// The explanation of one field: its words, its rules and its spec link.
pub fn explanation(field: &Field) -> Markup {
    let url = field.spec_url();
    html! {
        span class="fx-text" { (i18n::field(field.key)) }
        @if !field.rules.is_empty() {
            span class="fx-rules" {
                @for id in field.rules { code { (id) } " " }
            }
        }
        @if !url.is_empty() {
            a class="fx-spec" href=(url) target="_blank" rel="noopener" {
                (tf("inspector.spec", &[("source", field.section)]))
            }
        }
    }
}

/// Every explanation there is, each as the box a key shows
/// (`span class="fx"`, marked `data-fx="{catalog key}"`), in the
/// installed language: what a drawn figure's `figure.js` fetches the first
/// time a reader points at, focuses or taps a key (`<i data-f>`), and puts
/// into it, so the first visit carries none of them
/// (`figures/fields/<tag>.html`, written by `mcp-lanes-figures`).
pub fn catalog() -> Markup {
    html! {
        div class="fx-catalog" {
            @for field in explain::all() {
                (fx_box(field, Some(field.key), html! {}))
            }
        }
    }
}

/// The box a target shows: its explanation, then `more` (a field link);
/// `catalog`: the key it is filed under in [`catalog`].
fn fx_box(field: &Field, catalog: Option<&str>, more: Markup) -> Markup {
    html! {
        span class="fx" data-testid="field-explanation" data-fx=[catalog] { (explanation(field)) (more) }
    }
}

/// `value` pretty-printed, every key a target.
pub fn json(value: &Value, draw: Draw) -> Markup {
    let mut out = Vec::new();
    value_tokens(
        value,
        Ctx::Message,
        None,
        &mut String::new(),
        0,
        draw,
        &mut out,
    );
    html! { @for m in out { (m) } }
}

fn indent(n: usize) -> String {
    "  ".repeat(n)
}

fn scalar(value: &Value, draw: Draw) -> Markup {
    let text = visible_controls(&value.to_string());
    let class = match value {
        Value::String(_) => "js",
        Value::Number(_) => "jn",
        _ => "jl",
    };
    html! {
        @if draw.explain { span class=(class) { (text) } } @else { (text) }
    }
}

#[allow(clippy::too_many_arguments)]
fn value_tokens(
    value: &Value,
    ctx: Ctx,
    parent: Option<&str>,
    path: &mut String,
    depth: usize,
    draw: Draw,
    out: &mut Vec<Markup>,
) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push(html! { "{\n" });
            let last = map.len() - 1;
            for (i, (key, v)) in map.iter().enumerate() {
                let (field, inside) = explain::step(ctx, parent, key, v);
                let len = path.len();
                explain::push_key(path, key);
                out.push(html! { (indent(depth + 1)) (key_token(key, field, path, draw)) ": " });
                value_tokens(v, inside, Some(key), path, depth + 1, draw, out);
                path.truncate(len);
                out.push(html! { @if i < last { "," } "\n" });
            }
            out.push(html! { (indent(depth)) "}" });
        }
        Value::Array(items) if !items.is_empty() => {
            out.push(html! { "[\n" });
            let last = items.len() - 1;
            for (i, v) in items.iter().enumerate() {
                let len = path.len();
                explain::push_index(path, i);
                out.push(html! { (indent(depth + 1)) });
                value_tokens(v, ctx, parent, path, depth + 1, draw, out);
                path.truncate(len);
                out.push(html! { @if i < last { "," } "\n" });
            }
            out.push(html! { (indent(depth)) "]" });
        }
        Value::Object(_) => out.push(html! { "{}" }),
        Value::Array(_) => out.push(html! { "[]" }),
        other => out.push(scalar(other, draw)),
    }
}

fn key_token(key: &str, field: &Field, path: &str, draw: Draw) -> Markup {
    let name = visible_controls(&Value::from(key).to_string());
    let open = draw.open == Some(path);
    html! {
        @if draw.explain {
            span class="fk" tabindex="0" data-path=(path) data-field=(field.key) data-open[open] {
                span class="jk" { (name) }
                (fx_box(field, None, html! {
                    @if let Some((base, lane, event)) = draw.link {
                        a class="fx-link" data-testid="field-link"
                            href=(format!("#{}", crate::state::field_fragment(base, lane, event, path))) {
                            (t("inspector.field_link"))
                        }
                    }
                }))
            }
        } @else {
            // Its catalog key, unless it is the name itself (most are:
            // fewer bytes for a first visit).
            i data-f=[(field.key != key).then_some(field.key)] { (name) }
        }
    }
}

/// An HTTP header's name, a target like a key (nothing to explain: the
/// name alone).
pub fn header_name(name: &str) -> Markup {
    match explain::header(name) {
        Some(field) => html! {
            span class="fk" tabindex="0" data-field=(field.key) {
                (name)
                (fx_box(field, None, html! {}))
            }
        },
        None => html! { (name) },
    }
}

/// What a header the editor sends means, as a target beside its row's
/// fields: "What is this?" that shows the explanation on hover, focus or
/// tap (nothing for a header MCP does not define).
pub fn header_help(name: &str) -> Markup {
    match explain::header(name.trim()) {
        Some(field) => html! {
            span class="fk header-help" tabindex="0" data-field=(field.key) data-testid="header-help"
                aria-label=(tf("editor.header_about", &[("name", name.trim())])) {
                (t("editor.header_what"))
                (fx_box(field, None, html! {}))
            }
        },
        None => html! {},
    }
}

/// What an editor reply's error code means (nothing for a result, or a
/// code MCP and JSON-RPC do not define).
pub fn reply_code(ex: &Exchange) -> Markup {
    let code = ex
        .reply_json
        .as_ref()
        .and_then(|r| r.pointer("/error/code"))
        .and_then(Value::as_i64)
        .and_then(explain::code);
    html! {
        @if let Some(field) = code {
            p class="reply-code" data-testid="reply-code" { (explanation(field)) }
        }
    }
}

/// What an editor reply says against the spec (its version, data and
/// status), each with its rules (nothing when it fits).
pub fn reply_lint(ex: &Exchange) -> Markup {
    html! {
        @if !ex.lint.is_empty() {
            h3 { (t("editor.reply_lint")) }
            ul class="reply-lint" data-testid="reply-lint" {
                @for (note, rules) in &ex.lint {
                    li {
                        span { (i18n::note(note)) }
                        @for id in rules { " " code class="rule-id" { (id) } }
                    }
                }
            }
        }
    }
}

/// A hint under the wire: its keys explain themselves.
pub fn hint() -> Markup {
    html! { p class="hint fields-hint" { (t("inspector.fields_hint")) } }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The text of markup without its tags.
    fn text_of(markup: &str) -> String {
        let mut out = String::new();
        let mut in_tag = false;
        for c in markup.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => out.push(c),
                _ => {}
            }
        }
        out
    }

    #[test]
    fn m_cache_hints_the_json_reads_as_serde_prints_it_and_every_key_explains_itself() {
        let value = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "ttlMs": 0, "cacheScope": "public",
            "tools": [], "a": {}, "list": [1, "x", null, true]}});
        let drawn = json(
            &value,
            Draw {
                explain: true,
                open: Some("result.ttlMs"),
                link: Some(("v3.x", 0, 4)),
            },
        )
        .into_string();
        assert!(drawn.contains("<span class=\"fk\" tabindex=\"0\" data-path=\"result.ttlMs\" data-field=\"ttlMs\" data-open>"));
        assert!(drawn.contains("data-path=\"result.cacheScope\" data-field=\"cacheScope\">"));
        assert!(drawn.contains("<span class=\"fx-rules\"><code>M-CACHE-HINTS</code>"));
        assert!(drawn.contains("href=\"https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching\""));
        assert_eq!(drawn.matches("class=\"fk\"").count(), 9);
        assert!(drawn.contains(
            "<a class=\"fx-link\" data-testid=\"field-link\" href=\"#v3.x/m0.4/result.ttlMs\">"
        ));
        let small = json(
            &value,
            Draw {
                explain: false,
                open: None,
                link: None,
            },
        )
        .into_string();
        assert!(!small.contains("fx") && !small.contains("span"));
        assert!(small.contains("<i>&quot;ttlMs&quot;</i>: 0"));
        let meta = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}});
        let small_meta = json(
            &meta,
            Draw {
                explain: false,
                open: None,
                link: None,
            },
        )
        .into_string();
        assert!(small_meta.contains("<i data-f=\""), "{small_meta}");
        assert_eq!(
            text_of(&small),
            maud::html! { (serde_json::to_string_pretty(&value).unwrap()) }.into_string()
        );
    }

    #[test]
    fn m_cache_hints_the_catalog_holds_every_explanation_as_the_inspector_draws_it() {
        let catalog = catalog().into_string();
        assert_eq!(
            catalog.matches(" data-fx=\"").count(),
            explain::all().count()
        );
        let ttl = explain::find("ttlMs").expect("ttlMs");
        // The same box as a key's in the bundles' inspector, but for its mark.
        let boxed = fx_box(ttl, None, html! {}).into_string();
        let marked = boxed.replacen(
            "data-testid=\"field-explanation\"",
            "data-testid=\"field-explanation\" data-fx=\"ttlMs\"",
            1,
        );
        assert!(catalog.contains(&marked), "{marked}");
    }

    #[test]
    fn h_headers_a_header_name_explains_itself() {
        let drawn = header_name("Mcp-Method").into_string();
        assert!(drawn.starts_with("<span class=\"fk\" tabindex=\"0\" data-field=\"header.mcp-method\">Mcp-Method<span class=\"fx\""));
        assert_eq!(header_name("X-Other").into_string(), "X-Other");
    }

    #[test]
    fn a_bearer_a_header_the_editor_sends_explains_itself() {
        let drawn = header_help(" authorization ").into_string();
        assert!(drawn.starts_with("<span class=\"fk header-help\" tabindex=\"0\" data-field=\"header.authorization\" data-testid=\"header-help\""));
        assert!(drawn.contains("<code>A-BEARER</code>"));
        assert_eq!(header_help("X-Other").into_string(), "");
    }

    #[test]
    fn m_version_a_real_servers_refusal_says_its_code_and_its_lint() {
        use mcp_lanes_core::editor::EditorSession;
        use mcp_lanes_core::server::presets;
        let mut s = EditorSession::remote("http://127.0.0.1:9/mcp", presets::deploy_console());
        let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
        let post = s.remote_request(text, None);
        let body = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"no","data":{"supported":["2026-07-28"],"requested":"2025-11-25"}}}"#;
        let ex = s.record_remote(&post, Ok((200, Vec::new(), body.into())));
        let code = reply_code(&ex).into_string();
        assert!(code.starts_with(
            "<p class=\"reply-code\" data-testid=\"reply-code\"><span class=\"fx-text\">"
        ));
        assert!(code.contains("<code>M-VERSION</code>"));
        let lint = reply_lint(&ex).into_string();
        assert!(lint.contains("<ul class=\"reply-lint\" data-testid=\"reply-lint\"><li><span>"));
        assert!(lint.contains("<code class=\"rule-id\">M-VERSION</code>"));
        let fine = s.record_remote(
            &post,
            Ok((
                200,
                Vec::new(),
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into(),
            )),
        );
        assert_eq!(reply_code(&fine).into_string(), "");
        assert_eq!(reply_lint(&fine).into_string(), "");
    }

    #[test]
    fn hostile_keys_and_values_are_text() {
        let value = json!({"<img src=x>": "<script>alert(1)</script>"});
        let drawn = json(
            &value,
            Draw {
                explain: true,
                open: None,
                link: None,
            },
        )
        .into_string();
        assert!(!drawn.contains("<img") && !drawn.contains("<script"));
        assert!(drawn.contains("&lt;img src=x&gt;"));
    }
}
