#![allow(clippy::result_large_err)] // a Refusal is built once per refused request
//! Resources: the list, the templates, and reading one (a listed resource
//! or one a template matches). Both eras share this; the modern era adds
//! `resultType`, cache hints and serverInfo around it (M-RESOURCES).

use serde_json::{json, Value};

use super::config::{ResourceSpec, TemplateSpec};
use super::{Fault, Refusal, ServerConfig};
use crate::rules;

/// The `resources` array of `resources/list`.
pub(crate) fn list(config: &ServerConfig) -> Value {
    let items: Vec<Value> = config.resources.iter().map(resource_json).collect();
    json!(items)
}

fn resource_json(r: &ResourceSpec) -> Value {
    let mut out = json!({"uri": r.uri, "name": r.name});
    if let Some(d) = &r.description {
        out["description"] = json!(d);
    }
    if let Some(m) = &r.mime_type {
        out["mimeType"] = json!(m);
    }
    out
}

/// The `resourceTemplates` array of `resources/templates/list`.
pub(crate) fn templates(config: &ServerConfig) -> Value {
    let items: Vec<Value> = config
        .resource_templates
        .iter()
        .map(|t| {
            json!({"uriTemplate": t.uri_template, "name": t.name, "description": t.description, "mimeType": t.mime_type})
        })
        .collect();
    json!(items)
}

/// Matches `uri` against a level-1 URI template (`{name}` placeholders,
/// each matching at least one character other than `/`): the values.
pub(crate) fn match_template(template: &str, uri: &str) -> Option<Vec<(String, String)>> {
    let mut values = Vec::new();
    let mut rest_t = template;
    let mut rest_u = uri;
    while let Some(open) = rest_t.find('{') {
        let literal = &rest_t[..open];
        rest_u = rest_u.strip_prefix(literal)?;
        let close = rest_t[open..].find('}')? + open;
        let name = &rest_t[open + 1..close];
        rest_t = &rest_t[close + 1..];
        let next_literal = rest_t.split('{').next().unwrap_or("");
        let end = if next_literal.is_empty() {
            rest_u.len()
        } else {
            rest_u.find(next_literal)?
        };
        let value = &rest_u[..end];
        if value.is_empty() || value.contains('/') {
            return None;
        }
        values.push((name.to_string(), value.to_string()));
        rest_u = &rest_u[end..];
    }
    (rest_u == rest_t).then_some(values)
}

fn template_contents(t: &TemplateSpec, uri: &str, values: &[(String, String)]) -> Value {
    let mut text = t.text.clone();
    for (name, value) in values {
        text = text.replace(&format!("{{{name}}}"), value);
    }
    json!({"uri": uri, "mimeType": t.mime_type, "text": text})
}

/// The `contents` of `resources/read` for `uri`, or the refusal of an
/// unknown one: -32602 with the URI in `data` (M-RESOURCES, RPC-CODES).
pub(crate) fn read(
    config: &ServerConfig,
    uri: &str,
) -> Result<(Value, crate::note::Note), Refusal> {
    if let Some(r) = config.resources.iter().find(|r| r.uri == uri) {
        let mime = r.mime_type.clone().unwrap_or_else(|| "text/plain".into());
        let contents = match &r.blob {
            Some(blob) => json!([{"uri": r.uri, "mimeType": mime, "blob": blob}]),
            None => json!([{"uri": r.uri, "mimeType": mime, "text": r.text}]),
        };
        return Ok((
            contents,
            crate::note!(
                "server.resources.resources_read_returns",
                "resources/read returns {uri}.",
                uri = uri
            ),
        ));
    }
    for t in &config.resource_templates {
        if let Some(values) = match_template(&t.uri_template, uri) {
            let contents = json!([template_contents(t, uri, &values)]);
            return Ok((contents, crate::note!("server.resources.no_listed_resource_but", "{uri} is no listed resource, but template {uri_template} matches it: the server reads it from the template.", uri = uri, uri_template = t.uri_template)));
        }
    }
    Err(Refusal::new(
        Fault::UnknownResource,
        format!("Resource not found: {uri}"),
        &[rules::M_RESOURCES, rules::RPC_CODES, rules::H_STATUS],
        crate::note!("server.resources.unknown_resource_32602_2026", "An unknown resource is -32602 in 2026-07-28 (never the old -32002), with the URI in data so the client can tell which."),
    )
    .data(json!({"uri": uri})))
}

/// The refusal of an unknown resource in a legacy session: the code of
/// the session's revision, -32002 (L-RESOURCE-NOT-FOUND), said as such.
pub(crate) fn in_session(
    mut refusal: Refusal,
    revision: &crate::protocol::ProtocolVersion,
) -> Refusal {
    if refusal.fault == Fault::UnknownResource {
        refusal.rules = vec![rules::L_RESOURCE_NOT_FOUND, rules::L_CAP_SESSION];
        refusal.note = crate::note!(
            "server.resources.unknown_resource_32002_legacy",
            "An unknown resource in a {revision} session is -32002 Resource not found, with the URI in data (2026-07-28 changed the code to -32602).",
            revision = revision.to_string()
        );
    }
    refusal
}

#[cfg(test)]
mod tests {
    use super::match_template;

    #[test]
    fn templates_match_level_one_placeholders() {
        let t = "test://template/{id}/data";
        assert_eq!(
            match_template(t, "test://template/123/data"),
            Some(vec![("id".into(), "123".into())])
        );
        assert_eq!(match_template(t, "test://template//data"), None);
        assert_eq!(match_template(t, "test://template/1/2/data"), None);
        assert_eq!(match_template(t, "test://template/1/datax"), None);
        assert_eq!(
            match_template("a://{x}", "a://y"),
            Some(vec![("x".into(), "y".into())])
        );
    }
}
