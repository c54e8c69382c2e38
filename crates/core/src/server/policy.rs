//! A server's policy on who may see and call its tools (issue 27,
//! identities), declared by a scenario file's server (`policy`) and
//! enforced with rule IDs: a tool hidden from a caller is left out of its
//! `tools/list` and its call answered as an unknown tool's
//! (M-TOOL-POLICY-LIST); a visible tool the caller may not call is a tool
//! error (M-TOOL-POLICY-CALL); a tool may answer each principal its own
//! result. Over HTTP the caller is read from its bearer token, with the
//! auth module's checks (401 without a valid token, A-CHALLENGE; 403
//! `insufficient_scope` when it lacks the tool's scope, A-SCOPE-STEP-UP);
//! over stdio it is who the server was launched as (A-HTTP-ONLY).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::config::ToolSpec;
use super::tools::Answered;
use super::{ConnId, Fault, HttpReply, OutputKind, Refusal, Server};
use crate::identity::Caller;
use crate::note::Note;
use crate::protocol::{methods, ProtocolVersion};
use crate::rules::{self, RuleId};
use crate::transport::http::{HttpRequest, HttpResponse};

/// Who may see and call which tools.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Policy {
    /// One entry per tool it restricts; a tool without one is open to all.
    #[serde(default)]
    pub tools: Vec<ToolPolicy>,
    /// Over stdio: the principal the host launched the server as (set from
    /// the set-up's client when the run starts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launched_as: Option<String>,
}

/// What the policy says of one tool.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolPolicy {
    /// The tool's name.
    pub tool: String,
    /// The principals that see it in `tools/list`; `None`: everyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visible_to: Option<Vec<String>>,
    /// The principals that may call it; `None`: everyone who sees it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub callable_by: Option<Vec<String>>,
    /// Scopes a token must grant to call it (HTTP only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// A result of its own for some principals.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<CallerResult>,
}

/// A result a tool gives one principal instead of its own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallerResult {
    /// The principal.
    pub principal: String,
    /// The result's text (`{argument}` filled from the call).
    pub result: String,
}

fn admits(list: &Option<Vec<String>>, caller: &Caller) -> bool {
    match list {
        None => true,
        Some(names) => caller
            .principal
            .as_ref()
            .is_some_and(|p| names.iter().any(|n| n == p)),
    }
}

impl Policy {
    fn entry(&self, tool: &str) -> Option<&ToolPolicy> {
        self.tools.iter().find(|t| t.tool == tool)
    }
}

impl Server {
    /// The caller of the request being handled.
    pub(crate) fn caller(&self) -> Caller {
        match (&self.http_caller, &self.config.policy) {
            (Some(caller), _) => caller.clone(),
            (None, Some(policy)) => Caller {
                principal: policy.launched_as.clone(),
                scopes: Vec::new(),
            },
            (None, None) => Caller::default(),
        }
    }

    /// Whether the caller sees `tool` (always, without a policy).
    pub(crate) fn sees(&self, tool: &str) -> bool {
        let Some(policy) = &self.config.policy else {
            return true;
        };
        policy
            .entry(tool)
            .is_none_or(|e| admits(&e.visible_to, &self.caller()))
    }

    /// The tools hidden from the caller, with the rule and note that say
    /// so for a `tools/list`; `None` when it sees every tool.
    pub(crate) fn hidden_from_list(&self) -> Option<(RuleId, Note)> {
        let hidden: Vec<&str> = self
            .config
            .tools
            .iter()
            .map(|t| t.name.as_str())
            .filter(|t| !self.sees(t))
            .collect();
        if hidden.is_empty() {
            return None;
        }
        let caller = self.caller();
        Some((rules::M_TOOL_POLICY_LIST, crate::note!("server.policy.list_hides", "The server's policy hides {tools} from {principal}: they are left out of this list, as if the server did not have them.", tools = hidden.join(", "), principal = caller.name())))
    }

    /// The refusal of a call to a tool hidden from the caller: the same
    /// -32602 as for a tool the server does not have.
    pub(crate) fn hidden_call(&self, tool: &str, rules: &[RuleId]) -> Option<Refusal> {
        if self.config.tool(tool).is_none() || self.sees(tool) {
            return None;
        }
        let mut rules = rules.to_vec();
        rules.push(rules::M_TOOL_POLICY_LIST);
        let caller = self.caller();
        Some(Refusal::new(Fault::UnknownTool, format!("Unknown tool: {tool}"), &rules,
            crate::note!("server.policy.hidden_call", "{tool} is hidden from {principal}: the call is answered exactly as for a tool the server does not have (-32602), so the refusal does not reveal that it exists.", tool = tool, principal = caller.name())))
    }

    /// A call of a visible tool through the policy: `Some` is the refusal
    /// (a tool error) when the caller may not call it; `None` lets the
    /// tool work, with the caller's own result if the policy gives one.
    pub(crate) fn policy_gate(
        &mut self,
        conn: &ConnId,
        tool: &mut ToolSpec,
        arguments: &Value,
        revision: &ProtocolVersion,
    ) -> Option<Answered> {
        let policy = self.config.policy.as_ref()?;
        let entry = policy.entry(&tool.name)?.clone();
        let caller = self.caller();
        if !admits(&entry.callable_by, &caller) {
            let text = format!(
                "{} is not permitted for {}: the server's policy does not let this caller use it.",
                tool.name,
                caller.name()
            );
            let note = crate::note!("server.policy.not_callable", "{principal} can see {tool}, but the server's policy does not let this caller call it: a tool error with isError true (the request itself was valid), and the tool does nothing.", principal = caller.name(), tool = tool.name);
            let result = self.tool_text(&text, true, revision);
            return Some((
                result,
                vec![rules::M_TOOL_POLICY_CALL, rules::M_TOOL_ERROR],
                note,
            ));
        }
        if let Some(own) = self.own_result(&tool.name) {
            tool.result_text = super::tool_state::fill(&own, arguments);
        }
        if let Some((rules, note)) = self.policy_allowed(&tool.name) {
            self.note(conn, OutputKind::Decision, &rules, note);
        }
        None
    }

    /// The result the policy gives this caller for `tool` (its text
    /// before the arguments, and a user's answers, fill it), if any: on a
    /// call's completing round too, when an answer came first.
    pub(crate) fn own_result(&self, tool: &str) -> Option<String> {
        let entry = self.config.policy.as_ref()?.entry(tool)?;
        let principal = self.caller().principal?;
        entry
            .results
            .iter()
            .find(|r| r.principal == principal)
            .map(|r| r.result.clone())
    }

    /// The rule and note of a call the policy let through, if the tool
    /// has a policy entry.
    fn policy_allowed(&self, tool: &str) -> Option<(Vec<RuleId>, Note)> {
        let entry = self.config.policy.as_ref()?.entry(tool)?;
        let caller = self.caller();
        let own = caller
            .principal
            .as_ref()
            .is_some_and(|p| entry.results.iter().any(|r| &r.principal == p));
        let note = if own {
            crate::note!("server.policy.own_result", "The server's policy lets {principal} call {tool}, and answers this caller with its own result.", principal = caller.name(), tool = tool)
        } else {
            crate::note!(
                "server.policy.allowed",
                "The server's policy lets {principal} call {tool}.",
                principal = caller.name(),
                tool = tool
            )
        };
        Some((vec![rules::M_TOOL_POLICY_CALL], note))
    }

    /// Over HTTP, with a policy: the caller is read from tokens that
    /// `resource` accepts (the authorization server that protects this
    /// server, in an authorized run or behind `serve --auth`), not from
    /// the identities' pre-issued ones.
    pub fn trust_tokens_of(&mut self, resource: crate::auth::resource::ProtectedResource) {
        self.token_checks = Some(resource);
    }

    /// Over HTTP, with a policy: reads the caller from the request's
    /// bearer token, or refuses the request before the server reads it
    /// (401 without a valid token, 403 when it lacks the scope of the
    /// tool it calls).
    pub(crate) fn identify_http(
        &mut self,
        request: &HttpRequest,
        revision: &ProtocolVersion,
    ) -> Option<HttpReply> {
        self.http_caller = None;
        self.config.policy.as_ref()?;
        let resource = self
            .token_checks
            .clone()
            .unwrap_or_else(crate::identity::resource);
        let now = self.now.as_millis();
        let claims = match resource.check(&request.headers, &[], now) {
            Ok(claims) => claims,
            Err(challenge) => {
                let note = if request.header("Authorization").is_none() {
                    crate::note!("server.policy.no_token", "No bearer token: this server answers each caller by who it is, so a request without a token gets 401 before the server reads it, and `WWW-Authenticate` says where to get one.")
                } else {
                    challenge.note.clone()
                };
                return Some(challenge_reply(*challenge, note, revision));
            }
        };
        self.http_caller = Some(Caller {
            principal: Some(claims.sub.clone()),
            scopes: claims.scope.clone(),
        });
        let tool = called_tool(&request.body)?;
        if !self.sees(&tool) {
            return None;
        }
        let entry = self.config.policy.as_ref()?.entry(&tool)?;
        let needed: Vec<&str> = entry.scopes.iter().map(String::as_str).collect();
        let Err(challenge) = resource.check(&request.headers, &needed, now) else {
            return None;
        };
        let missing: Vec<&str> = needed.iter().copied().filter(|s| !claims.has(s)).collect();
        let note = crate::note!("server.policy.insufficient_scope", "{principal}'s token lacks {missing}, which {tool} needs: 403 `insufficient_scope`, and `WWW-Authenticate` names the scope needed; the tool does nothing.", principal = claims.sub, missing = missing.join(" "), tool = tool);
        let mut reply = challenge_reply(*challenge, note, revision);
        reply.rules.push(rules::M_TOOL_POLICY_CALL);
        Some(reply)
    }
}

/// The tool a `tools/call` body names.
fn called_tool(body: &str) -> Option<String> {
    let v: Value = serde_json::from_str(body).ok()?;
    if v.get("method")?.as_str()? != methods::TOOLS_CALL {
        return None;
    }
    Some(v.get("params")?.get("name")?.as_str()?.to_string())
}

fn challenge_reply(
    challenge: crate::auth::resource::Challenge,
    note: Note,
    revision: &ProtocolVersion,
) -> HttpReply {
    let mut response = HttpResponse::empty(challenge.status);
    response
        .headers
        .push(("WWW-Authenticate".into(), challenge.www_authenticate));
    HttpReply::new(response, challenge.rules, note, revision.clone())
}
