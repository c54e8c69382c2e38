#![allow(clippy::result_large_err)] // a Refusal is built once per refused request
//! `tools/call` in the modern era: the checks a call passes, multi-round
//! input (MRTR) and its result, decided from the request alone.

use serde_json::{json, Map, Value};

use super::modern::{invalid_params, INPUT_KEY};
use super::{ConnId, Fault, Refusal, Server};
use crate::note::Note;
use crate::protocol::{meta, methods, shape, ClientCapabilities, ProtocolVersion, ResultType};
use crate::rules::{self, RuleId};

/// Params of tools/call; unknown fields ignored (RPC-UNKNOWN-FIELD).
#[derive(Debug)]
struct CallToolParams {
    name: String,
    arguments: Option<Map<String, Value>>,
    input_responses: Option<Map<String, Value>>,
    request_state: Option<String>,
}

impl CallToolParams {
    /// Checks the shape (with the path of the first problem), then reads it.
    fn read(params: &Value) -> Result<Self, String> {
        shape::check(params, "params", shape::NAMED_PARAMS).map_err(|e| e.to_string())?;
        let text = |key: &str| params.get(key).and_then(Value::as_str).map(str::to_string);
        let object = |key: &str| params.get(key).and_then(Value::as_object).cloned();
        Ok(Self {
            name: text("name").unwrap_or_default(),
            arguments: object("arguments"),
            input_responses: object("inputResponses"),
            request_state: text("requestState"),
        })
    }
}

impl Server {
    pub(super) fn modern_call(
        &mut self,
        conn: &ConnId,
        params: &Value,
        caps: &ClientCapabilities,
    ) -> Result<(Value, Vec<RuleId>, Note), Refusal> {
        let p = CallToolParams::read(params).map_err(invalid_params)?;
        let arguments = p.arguments.clone().unwrap_or_default();
        if let Some(hidden) = self.hidden_call(&p.name, &[rules::M_UNKNOWN_TOOL, rules::H_STATUS]) {
            return Err(hidden);
        }
        let Some(spec) = self.config.tool(&p.name).cloned() else {
            return Err(Refusal::new(Fault::UnknownTool, format!("Unknown tool: {}", p.name),
                &[rules::M_UNKNOWN_TOOL, rules::H_STATUS],
                crate::note!("modern.not_one_server_s", "\"{tool}\" is not one of this server's tools: a protocol error -32602, not a capability problem and not -32601.", tool = p.name)));
        };
        let args_value = Value::Object(arguments.clone());
        let modern = ProtocolVersion::modern();
        let mut tool = spec.instantiate(&args_value);
        if let Some(refused) = self.policy_gate(conn, &mut tool, &args_value, &modern) {
            return Ok(refused);
        }
        let lock_first = !self.config.checks_capability_before_work;
        if lock_first {
            if let Some(lock) = &tool.side_effect {
                self.take(
                    conn,
                    lock,
                    &[rules::M_CAP_BEFORE_WORK],
                    crate::note!("modern.takes_before_checking_capabilities", "{tool} takes {lock} before checking capabilities (the check is switched off).", tool = tool.name, lock = lock),
                );
            }
        }
        let missing = caps.missing(&tool.requires);
        if !missing.is_empty() {
            if lock_first {
                self.release_after_refusal(conn, tool.side_effect.as_deref());
            }
            let names = missing.names().join(", ");
            let mut rules = vec![
                rules::M_CAP_REQUIRED,
                rules::M_STATELESS,
                rules::M_CAP_BEFORE_WORK,
                rules::H_STATUS,
            ];
            if tool.asks.is_some() {
                rules.push(rules::M_MRTR_CAP);
            }
            let message = tool.refusal_message.clone().unwrap_or_else(|| {
                format!(
                    "{} requires a capability this request did not declare",
                    tool.name
                )
            });
            return Err(Refusal::new(Fault::MissingCapability, message, &rules,
                crate::note!("modern.needs_request_s_clientcapabilities", "{tool} needs {names}, and this request's clientCapabilities does not declare it; the server checks before any work and never remembers earlier declarations.", tool = tool.name, names = names))
                .data(json!({"requiredCapabilities": missing.to_json()})));
        }
        // The arguments are checked once the request may be served at all
        // (M-TOOL-INPUT), and before any work; a lock taken before the
        // capability check (the check switched off) is let go.
        let input = self.check_arguments(&spec, &args_value, &modern);
        let failed = match input {
            Ok(None) => self
                .declared_failure(&spec, &args_value, &modern)
                .or_else(|| self.tool_state(conn, &mut tool, &args_value, &modern))
                .map(Ok),
            other => other.transpose(),
        };
        if let Some(answer) = failed {
            if lock_first {
                self.release_after_refusal(conn, tool.side_effect.as_deref());
            }
            return answer;
        }
        if let Some(behaviour) = tool.behaviour.clone() {
            let mut params = params.clone();
            if let Some(obj) = params.as_object_mut() {
                obj.insert("arguments".into(), Value::Object(arguments.clone()));
            }
            return self.modern_behaviour(conn, &tool, &behaviour, &params, caps);
        }
        // The user's answer, once given: it fills the result's placeholders
        // the arguments left (the question's own argument).
        let mut answered: Option<Map<String, Value>> = None;
        // MRTR: ask first, act after, so nothing is held across the round trip.
        if let Some(question) = &tool.asks {
            let provided = question
                .argument
                .as_ref()
                .is_some_and(|a| arguments.contains_key(a));
            if !provided {
                // The state is signed and bound to this call, like every
                // requestState this server issues (M-MRTR-STATE): one the
                // client built or changed is refused before anything else.
                let target = super::mrtr::Target {
                    method: methods::TOOLS_CALL,
                    name: &tool.name,
                    arguments: &args_value,
                };
                if let Some(echoed) = p.request_state.as_deref() {
                    self.open_state(echoed, &target)?;
                }
                let state = self.seal_state(0, &Map::new(), &target);
                let answer = p.input_responses.as_ref().and_then(|r| r.get(INPUT_KEY));
                match (answer, p.request_state.as_deref()) {
                    (Some(answer), Some(_)) => {
                        answered = answer.get("content").and_then(Value::as_object).cloned();
                        let action = answer.get("action").and_then(Value::as_str).unwrap_or("");
                        if action != "accept" {
                            let result = self.tool_result(
                                &format!(
                                    "{} cancelled: the user answered \"{action}\".",
                                    tool.name
                                ),
                                true,
                            );
                            return Ok((
                                result,
                                vec![rules::M_MRTR],
                                crate::note!(
                                    "modern.user_declined_tool_ends",
                                    "The user declined, so the tool ends without acting."
                                ),
                            ));
                        }
                    }
                    // The question needs elicitation, and this request
                    // did not declare it: no input request is sent
                    // (M-MRTR-CAP), -32021 names what is missing.
                    _ if !caps.covers(&question.needs()) => {
                        let required = question.needs();
                        let message = tool.refusal_message.clone().unwrap_or_else(|| {
                            format!("{} needs to ask the user, and this request did not declare elicitation", tool.name)
                        });
                        let (rules, note) = match &question.url {
                            Some(_) => (&[rules::M_MRTR_CAP, rules::M_CAP_ELICIT_MODES, rules::M_CAP_REQUIRED, rules::M_CAP_BEFORE_WORK, rules::H_STATUS][..],
                                crate::note!("modern.ask_needs_url_mode", "{tool} sends the user to a URL, but this request's clientCapabilities does not declare elicitation.url (elicitation: {{}} means form mode only): the server sends no URL-mode request and refuses with -32021 before any work.", tool = tool.name)),
                            None => (&[rules::M_MRTR_CAP, rules::M_CAP_REQUIRED, rules::M_CAP_BEFORE_WORK, rules::H_STATUS][..],
                                crate::note!("modern.ask_needs_elicitation", "{tool} needs the user's answer, but this request's clientCapabilities does not declare elicitation: the server sends no input request the client cannot handle and refuses with -32021 before any work.", tool = tool.name)),
                        };
                        return Err(Refusal::new(Fault::MissingCapability, message, rules, note)
                            .data(json!({"requiredCapabilities": required.to_json()})));
                    }
                    _ => {
                        let mut elicit_params = Map::new();
                        let mode = if question.url.is_some() {
                            "url"
                        } else {
                            "form"
                        };
                        elicit_params.insert("mode".into(), json!(mode));
                        elicit_params.insert("message".into(), json!(question.message));
                        match &question.url {
                            // URL mode (M-CAP-ELICIT-MODES): a page to open.
                            Some(url) => {
                                elicit_params.insert("url".into(), json!(url));
                            }
                            None => {
                                elicit_params.insert(
                                    "requestedSchema".into(),
                                    question.requested_schema.clone(),
                                );
                            }
                        }
                        let mut result = ResultType::INPUT_REQUIRED.start_result();
                        result.insert("inputRequests".into(), json!({INPUT_KEY: {"method": methods::ELICITATION_CREATE, "params": Value::Object(elicit_params)}}));
                        result.insert("requestState".into(), json!(state));
                        let note = match &question.url {
                            Some(url) => crate::note!("modern.needs_user_at_url", "{tool} needs the user to finish something at {url}: input_required with a URL-mode elicitation (elicitation.url declared on this request) and an opaque requestState; nothing is done yet, and nothing the user enters there passes through the client.", tool = tool.name, url = url),
                            None => crate::note!("modern.needs_user_s_answer", "{tool} needs the user's answer: input_required with a form-mode elicitation (declared on this request) and an opaque requestState; nothing is done yet.", tool = tool.name),
                        };
                        return Ok((
                            Value::Object(result),
                            vec![
                                rules::M_MRTR,
                                rules::M_MRTR_CAP,
                                rules::M_CAP_ELICIT_MODES,
                                rules::M_RESULT_TYPE,
                            ],
                            note,
                        ));
                    }
                }
            }
        }
        // The call completes on this round: a handle it returns is minted
        // now, never on a round that only asked.
        let minted = self.mint_handle(conn, &tool);
        if !lock_first {
            if let Some(lock) = &tool.side_effect {
                self.take(
                    conn,
                    lock,
                    &[rules::M_CAP_BEFORE_WORK],
                    crate::note!(
                        "modern.checks_passed_takes_do",
                        "Checks passed; {tool} takes {lock} to do its work.",
                        tool = tool.name,
                        lock = lock
                    ),
                );
            }
        }
        let token = params
            .get("_meta")
            .and_then(|m| m.get(meta::PROGRESS_TOKEN))
            .cloned();
        self.declared_progress(conn, &tool, token.as_ref(), &modern);
        if let Some(lock) = &tool.side_effect {
            self.release(
                conn,
                lock,
                &[rules::M_CAP_BEFORE_WORK],
                crate::note!(
                    "modern.finished_released",
                    "{tool} finished and released {lock}.",
                    tool = tool.name,
                    lock = lock
                ),
            );
        }
        let result_text = match answered {
            Some(mut filled) => {
                filled.extend(arguments.clone());
                let filled = Value::Object(filled);
                match self.own_result(&tool.name) {
                    Some(own) => super::tool_state::fill(&own, &filled),
                    None => spec.instantiate(&filled).result_text,
                }
            }
            None => tool.result_text.clone(),
        };
        let result_text = match &minted {
            Some(handle) => result_text.replace("{handle}", handle),
            None => result_text,
        };
        let result = self.tool_result(&result_text, false);
        let note = if tool.state.is_empty() {
            crate::note!(
                "modern.completes_resulttype_complete_decided",
                "{tool} completes: resultType complete, decided from this request alone.",
                tool = tool.name
            )
        } else {
            // The protocol keeps no session; the tool's own state is the
            // server's application state, shared by every caller.
            crate::note!(
                "modern.completes_with_tool_state",
                "{tool} completes: resultType complete. The request needs no session; what the tool remembers of earlier calls is the server's own state.",
                tool = tool.name
            )
        };
        Ok((
            result,
            vec![rules::M_RESULT_TYPE, rules::M_SINFO, rules::M_STATELESS],
            note,
        ))
    }

    fn tool_result(&self, text: &str, is_error: bool) -> Value {
        let mut result = ResultType::COMPLETE.start_result();
        result.insert("content".into(), Server::text_content(text));
        if is_error {
            result.insert("isError".into(), json!(true));
        }
        Value::Object(result)
    }
}
