//! What earlier lists returned, and what the client does with it: tools
//! (those whose `x-mcp-header` annotations are invalid left out on HTTP,
//! C-PARAM-INVALID), resources and prompts; the `Mcp-Param-*` headers of a
//! tool call (C-PARAM-HEADERS); schemas kept as written (C-SCHEMA-NO-DEREF);
//! and the steps that use the lists ([`Step::CallListed`],
//! [`Step::EchoSchema`]) expanded into plain requests.

use serde_json::{json, Map, Value};

use super::{Client, Step};
use crate::note::Note;
use crate::protocol::{methods, Era};
use crate::rules::{self, RuleId};
use crate::sim::SimTime;
use crate::transport::param_headers;
use crate::transport::TransportKind;

/// The items of the last list of each kind.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Listed {
    /// Tools of the last `tools/list`, minus the rejected ones.
    pub(super) tools: Option<Vec<Value>>,
    /// Resources of the last `resources/list`.
    pub(super) resources: Option<Vec<Value>>,
    /// Prompts of the last `prompts/list`.
    pub(super) prompts: Option<Vec<Value>>,
    /// Skill entries of the last `skills/list` (the skills extension).
    pub(super) skills: Option<Vec<Value>>,
    /// Tools left out of `tools` (name, reason).
    pub(super) rejected: Vec<(String, String)>,
}

/// Headers for a request, the rules behind them and a note, or why the
/// request must not be sent.
type HeaderPlan = Result<(Vec<(String, String)>, Vec<RuleId>, Option<String>), (RuleId, String)>;

impl Client {
    /// A complete result of the step in progress: remember what a list
    /// returned (pages after the first are not fetched).
    /// Keeps what a list returned; `next_page`: the result is a later
    /// page, whose items follow those kept (M-PAGINATION).
    pub(super) fn remember_list(&mut self, method: &str, result: &Value, next_page: bool) {
        let key = match method {
            methods::TOOLS_LIST => "tools",
            methods::RESOURCES_LIST => "resources",
            methods::PROMPTS_LIST => "prompts",
            super::skill_load::SKILLS_LIST => "skills",
            _ => return,
        };
        let mut items: Vec<Value> = result
            .get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if next_page {
            let kept = match method {
                methods::TOOLS_LIST => self.known.listed.tools.clone(),
                methods::RESOURCES_LIST => self.known.listed.resources.clone(),
                super::skill_load::SKILLS_LIST => self.known.listed.skills.clone(),
                _ => self.known.listed.prompts.clone(),
            };
            let mut all = kept.unwrap_or_default();
            all.append(&mut items);
            items = all;
        }
        match method {
            methods::TOOLS_LIST => self.remember_tools(items),
            methods::RESOURCES_LIST => self.known.listed.resources = Some(items),
            super::skill_load::SKILLS_LIST => self.known.listed.skills = Some(items),
            _ => self.known.listed.prompts = Some(items),
        }
    }

    fn remember_tools(&mut self, items: Vec<Value>) {
        let mut kept = Vec::new();
        let mut rejected = Vec::new();
        let check_headers =
            self.transport == TransportKind::Http && self.known.era != Some(Era::Legacy);
        for tool in items {
            let name = tool
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let schema = tool.get("inputSchema").cloned().unwrap_or(Value::Null);
            if check_headers {
                if let Err(invalid) = param_headers::designated(&schema) {
                    rejected.push((name, invalid.to_string()));
                    continue;
                }
            }
            kept.push(tool);
        }
        for (name, why) in &rejected {
            self.decide(
                &[rules::C_PARAM_INVALID],
                crate::note!("client.listed.warning_client_leaves_out", "Warning: the client leaves out the tool {name_fmt}: {why}. A tool with invalid header annotations is never called; the others stay usable.", name_fmt = format!("{:?}", name), why = why),
            );
        }
        let remote: Vec<String> = kept
            .iter()
            .filter_map(|tool| {
                let schema = tool.get("inputSchema")?;
                let mut refs = Vec::new();
                network_refs(schema, &mut refs, 0);
                let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
                (!refs.is_empty()).then(|| format!("{name} ({})", refs.join(", ")))
            })
            .collect();
        if !remote.is_empty() {
            self.decide(
                &[rules::C_SCHEMA_NO_DEREF],
                crate::note!("client.listed.these_inputschemas_point_ref", "These inputSchemas point $ref at network URIs: {join}. The client keeps every schema exactly as listed and fetches none of them.", join = remote.join("; ")),
            );
        }
        self.known.listed.tools = Some(kept);
        self.known.listed.rejected = rejected;
    }

    /// The listed tool named `name`, if any.
    fn listed_tool(&self, name: &str) -> Option<&Value> {
        self.known
            .listed
            .tools
            .as_ref()?
            .iter()
            .find(|t| t.get("name").and_then(Value::as_str) == Some(name))
    }

    /// The extra HTTP headers of a modern request (C-PARAM-HEADERS), or why
    /// it must not be sent (C-PARAM-INVALID). Only tool calls over HTTP
    /// have any; a tool never listed has no known annotations.
    pub(super) fn param_headers(&self, method: &str, params: &Value) -> HeaderPlan {
        let mut rules = Vec::new();
        let mut notes = Vec::new();
        if self.transport != TransportKind::Http {
            return Ok((Vec::new(), rules, None));
        }
        if let Some(key) = methods::name_param(method) {
            if let Some(name) = params.get(key).and_then(Value::as_str) {
                if crate::transport::http::encode_header_value(name) != name {
                    rules.push(rules::H_HEADERS);
                    notes.push(format!(
                        "Mcp-Name carries {key} base64-encoded: it is not plain visible ASCII."
                    ));
                }
            }
        }
        if method != methods::TOOLS_CALL {
            return Ok((Vec::new(), rules, join(notes)));
        }
        let name = params.get("name").and_then(Value::as_str).unwrap_or("");
        if let Some((_, why)) = self.known.listed.rejected.iter().find(|(n, _)| n == name) {
            return Err((
                rules::C_PARAM_INVALID,
                format!("The client refuses to call {name:?}: it left the tool out of its list because {why}."),
            ));
        }
        let Some(tool) = self.listed_tool(name) else {
            return Ok((Vec::new(), rules, join(notes)));
        };
        let schema = tool.get("inputSchema").cloned().unwrap_or(Value::Null);
        let Ok(designated) = param_headers::designated(&schema) else {
            return Ok((Vec::new(), rules, join(notes)));
        };
        if designated.is_empty() {
            return Ok((Vec::new(), rules, join(notes)));
        }
        let arguments = params.get("arguments").cloned().unwrap_or(json!({}));
        let headers = param_headers::headers_for(&designated, &arguments).map_err(|e| {
            (
                rules::C_PARAM_HEADERS,
                format!("The client does not call {name:?}: {}.", e.0),
            )
        })?;
        rules.push(rules::C_PARAM_HEADERS);
        let names: Vec<&str> = headers.iter().map(|(n, _)| n.as_str()).collect();
        let skipped: Vec<String> = designated
            .iter()
            .filter(|d| !headers.iter().any(|(n, _)| *n == d.header_name()))
            .map(|d| d.header_name())
            .collect();
        let mut note = if names.is_empty() {
            "No designated argument has a value, so no Mcp-Param header goes with it.".to_string()
        } else {
            format!(
                "The tool's inputSchema designates {} as headers: the values go in {}.",
                designated
                    .iter()
                    .map(|d| d.path.join("."))
                    .collect::<Vec<_>>()
                    .join(", "),
                names.join(", ")
            )
        };
        if !skipped.is_empty() {
            note.push_str(&format!(" No {} (null or absent).", skipped.join(", no ")));
        }
        if headers
            .iter()
            .any(|(_, v)| v.starts_with("=?base64?") && v.ends_with("?="))
        {
            note.push_str(" Values that are not plain visible ASCII go base64-encoded.");
        }
        notes.push(note);
        Ok((headers, rules, join(notes)))
    }

    /// Turns a [`Step::CallListed`] or [`Step::EchoSchema`] into plain
    /// requests at the front of the script, from the lists known now.
    pub(super) fn expand_listed(&mut self, _now: SimTime, step: &Step) {
        let steps = match step {
            Step::CallListed {
                list,
                limit,
                arguments,
            } => self.listed_requests(list, *limit, arguments),
            Step::EchoSchema {
                tool,
                argument,
                schema_of,
            } => match self.listed_tool(schema_of) {
                Some(source) => {
                    let schema = source.get("inputSchema").cloned().unwrap_or(Value::Null);
                    self.decide(
                        &[rules::C_SCHEMA_NO_DEREF],
                        crate::note!("client.listed.client_passes_s_inputschema", "The client passes {schema_of}'s inputSchema to {tool} exactly as it was listed: every keyword kept, nothing dereferenced.", schema_of = schema_of, tool = tool),
                    );
                    let mut args = Map::new();
                    args.insert(argument.clone(), schema);
                    Ok(vec![Step::call_tool(tool, Value::Object(args))])
                }
                None => Err(crate::note!(
                    "client.listed.no_listed_tool_called",
                    "No listed tool is called {schema_of_fmt}, so there is no schema to pass on.",
                    schema_of_fmt = format!("{:?}", schema_of)
                )),
            },
            _ => Ok(Vec::new()),
        };
        match steps {
            Ok(steps) => {
                for step in steps.into_iter().rev() {
                    self.work.script.push_front(step);
                }
            }
            Err(why) => self.decide(&[rules::M_CACHE_FRESH], why),
        }
    }

    fn listed_requests(
        &mut self,
        list: &str,
        limit: Option<usize>,
        arguments: &Value,
    ) -> Result<Vec<Step>, Note> {
        let (items, method) = match list {
            methods::TOOLS_LIST => (&self.known.listed.tools, methods::TOOLS_CALL),
            methods::RESOURCES_LIST => (&self.known.listed.resources, methods::RESOURCES_READ),
            methods::PROMPTS_LIST => (&self.known.listed.prompts, methods::PROMPTS_GET),
            other => {
                return Err(crate::note!(
                    "client.listed.not_list_whose_items",
                    "{other} is not a list whose items can be used.",
                    other = other
                ))
            }
        };
        let Some(items) = items else {
            return Err(crate::note!(
                "client.listed.client_has_no_result",
                "The client has no {list} result cached, so there is nothing to pick from.",
                list = list
            ));
        };
        let take = limit.unwrap_or(usize::MAX);
        let steps = items
            .iter()
            .filter_map(|item| {
                let params = match method {
                    methods::RESOURCES_READ => json!({"uri": item.get("uri")?.as_str()?}),
                    methods::PROMPTS_GET => {
                        let name = item.get("name")?.as_str()?;
                        let args = arguments
                            .get(name)
                            .cloned()
                            .unwrap_or_else(|| prompt_arguments(item));
                        if args.as_object().is_some_and(|a| a.is_empty()) {
                            json!({"name": name})
                        } else {
                            json!({"name": name, "arguments": args})
                        }
                    }
                    _ => {
                        let name = item.get("name")?.as_str()?;
                        let args = arguments.get(name).cloned().unwrap_or_else(|| {
                            example_arguments(item.get("inputSchema").unwrap_or(&Value::Null))
                        });
                        json!({"name": name, "arguments": args})
                    }
                };
                Some(Step::Request {
                    method: method.into(),
                    params,
                    declare: None,
                    version: None,
                    retry_on_missing_capability: true,
                    follow_cursor: false,
                    background: false,
                })
            })
            .take(take)
            .collect();
        Ok(steps)
    }
}

fn join(notes: Vec<String>) -> Option<String> {
    (!notes.is_empty()).then(|| notes.join(" "))
}

/// Every `$ref` of `schema` that is not a same-document reference.
fn network_refs(schema: &Value, out: &mut Vec<String>, depth: usize) {
    if depth > 64 || out.len() > 8 {
        return;
    }
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                if key == "$ref" {
                    if let Some(target) = value.as_str() {
                        if !target.starts_with('#') && !out.iter().any(|r| r == target) {
                            out.push(target.to_string());
                        }
                    }
                } else if !matches!(key.as_str(), "const" | "enum" | "default" | "examples") {
                    network_refs(value, out, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                network_refs(item, out, depth + 1);
            }
        }
        _ => {}
    }
}

/// Arguments for a tool the client knows only from its listing: every
/// required property filled with a plain value of its type (its `const`,
/// `default` or first `enum` value when it has one). `$ref`s are not
/// followed (C-SCHEMA-NO-DEREF): such a property gets a string.
pub fn example_arguments(schema: &Value) -> Value {
    let mut out = Map::new();
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let props = schema.get("properties").and_then(Value::as_object);
    for name in required {
        let prop = props.and_then(|p| p.get(name)).unwrap_or(&Value::Null);
        out.insert(name.to_string(), example_value(prop));
    }
    Value::Object(out)
}

fn example_value(prop: &Value) -> Value {
    if let Some(v) = prop.get("const") {
        return v.clone();
    }
    if let Some(v) = prop.get("default") {
        return v.clone();
    }
    if let Some(v) = prop
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return v.clone();
    }
    let kind = match prop.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("string"),
        _ => "string",
    };
    match kind {
        "integer" | "number" => json!(1),
        "boolean" => json!(true),
        "object" => example_arguments(prop),
        "array" => json!([]),
        "null" => Value::Null,
        _ => json!("example"),
    }
}

/// Arguments for a listed prompt: every required argument gets a string.
fn prompt_arguments(prompt: &Value) -> Value {
    let mut out = Map::new();
    if let Some(args) = prompt.get("arguments").and_then(Value::as_array) {
        for arg in args {
            if arg.get("required") == Some(&Value::Bool(true)) {
                if let Some(name) = arg.get("name").and_then(Value::as_str) {
                    out.insert(name.to_string(), json!("example"));
                }
            }
        }
    }
    Value::Object(out)
}
