#![allow(clippy::result_large_err)] // a Refusal is built once per refused request
//! Multi round-trip requests (M-MRTR) of the reference fixtures: rounds of
//! input requests, and the answers of earlier rounds carried to the next one
//! in a `requestState` the server signs with HMAC-SHA256 and verifies on
//! every retry (M-MRTR-STATE). The server keeps nothing between requests:
//! whatever a retry needs travels in the retry.
//!
//! The key is configuration ([`Server::set_state_key`]): the simulation uses
//! a fixed one, so its transcripts repeat exactly; `mcp-lanes serve` draws a
//! random one at start.

use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use super::config::{InputAsk, MrtrSpec};
use super::{Fault, Refusal, Server};
use crate::protocol::{methods, ClientCapabilities};
use crate::rules;

/// The simulation's requestState key: fixed, so runs repeat byte for byte.
/// It protects nothing real; `serve` replaces it with a random one.
pub const SIMULATION_KEY: &[u8] = b"mcp-lanes simulation requestState key, not a secret";

/// The key that signs the requestState and cursors of one simulated
/// set-up: HMAC-SHA256 under [`SIMULATION_KEY`] of the set-up's label and
/// its server's name and version. Derived, never drawn, so a run repeats
/// byte for byte; different set-ups sign differently, as two deployments
/// would, so a state from one lane never opens in another.
pub fn simulation_key(setup_label: &str, server: &super::ServerConfig) -> Vec<u8> {
    use hmac::{Hmac, Mac};
    let mut mac = match Hmac::<Sha256>::new_from_slice(SIMULATION_KEY) {
        Ok(mac) => mac,
        Err(_) => return SIMULATION_KEY.to_vec(),
    };
    for part in [setup_label, &server.info.name, &server.info.version] {
        mac.update(part.as_bytes());
        mac.update(b"\n");
    }
    mac.finalize().into_bytes().to_vec()
}

/// How long a requestState stays valid (ms on the server's clock).
pub const STATE_TTL_MS: u64 = 10 * 60 * 1000;

/// What the request is: the method and the name or URI it targets, and its
/// arguments (bound into the state so it cannot be replayed elsewhere).
pub(crate) struct Target<'a> {
    pub method: &'a str,
    pub name: &'a str,
    pub arguments: &'a Value,
}

/// What a step of an MRTR flow decided.
pub(crate) enum Outcome {
    /// Ask: `inputRequests` (key -> request) and, if the flow signs its
    /// state, the new `requestState`.
    Ask {
        inputs: Map<String, Value>,
        state: Option<String>,
        round: usize,
    },
    /// Every round is answered: the answers by key.
    Done(Map<String, Value>),
    /// The user declined or cancelled an elicitation (`key`, `action`).
    Declined(String, String),
}

/// The client capability an input request needs.
fn capability_of(method: &str) -> ClientCapabilities {
    let mut caps = ClientCapabilities::default();
    match method {
        methods::SAMPLING_CREATE_MESSAGE => caps.sampling = Some(Map::new()),
        methods::ROOTS_LIST => caps.roots = Some(Map::new()),
        _ => caps = ClientCapabilities::elicitation_form(),
    }
    caps
}

/// Whether `answer` has the shape of the result of `method` (an ElicitResult,
/// a CreateMessageResult, a ListRootsResult).
fn answer_is_valid(method: &str, answer: &Value) -> bool {
    let Some(obj) = answer.as_object() else {
        return false;
    };
    match method {
        methods::SAMPLING_CREATE_MESSAGE => {
            obj.get("content").is_some_and(Value::is_object)
                && obj.get("role").is_some_and(Value::is_string)
        }
        methods::ROOTS_LIST => obj.get("roots").is_some_and(Value::is_array),
        _ => obj.get("action").is_some_and(Value::is_string),
    }
}

impl Server {
    /// Sets the key that signs and verifies MRTR `requestState`
    /// (M-MRTR-STATE). `serve` gives a random one; the simulation keeps
    /// [`SIMULATION_KEY`].
    pub fn set_state_key(&mut self, key: &[u8]) {
        self.state_key = key.to_vec();
    }

    /// One step of flow `spec` for a request carrying `responses` and
    /// `state`, declaring `caps`.
    pub(crate) fn mrtr_step(
        &self,
        spec: &MrtrSpec,
        target: &Target<'_>,
        responses: Option<&Map<String, Value>>,
        state: Option<&str>,
        caps: &ClientCapabilities,
    ) -> Result<Outcome, Refusal> {
        let (round, mut answers) = match (spec.signed_state, state) {
            (true, Some(state)) => self.open_state(state, target)?,
            _ => (0, Map::new()),
        };
        let Some(current) = spec.rounds.get(round) else {
            return Ok(Outcome::Done(answers));
        };
        let asks = self.declared_asks(&current.asks, current.only_declared, caps)?;
        let empty = Map::new();
        let responses = responses.unwrap_or(&empty);
        let mut missing = Vec::new();
        for ask in &asks {
            match responses.get(&ask.key) {
                Some(answer) if !answer_is_valid(&ask.method, answer) => {
                    return Err(Refusal::new(
                        Fault::InvalidParams,
                        format!(
                            "Invalid params: inputResponses.{} is not a valid answer to {}",
                            ask.key, ask.method
                        ),
                        &[rules::M_MRTR, rules::H_STATUS],
                        crate::note!("server.mrtr.answer_under_does_not", "The answer under \"{key}\" does not have the shape of a {method} result: a protocol error, and nothing is done.", key = ask.key, method = ask.method),
                    ));
                }
                Some(answer) => {
                    if ask.method == methods::ELICITATION_CREATE {
                        let action = answer.get("action").and_then(Value::as_str).unwrap_or("");
                        if action != "accept" {
                            return Ok(Outcome::Declined(ask.key.clone(), action.to_string()));
                        }
                    }
                    answers.insert(ask.key.clone(), answer.clone());
                }
                None => missing.push(ask.clone()),
            }
        }
        if !missing.is_empty() {
            // Ask (again) for what is missing, in the same round.
            let state = spec
                .signed_state
                .then(|| self.seal_state(round, &answers, target));
            return Ok(Outcome::Ask {
                inputs: input_requests(&missing),
                state,
                round,
            });
        }
        let next = round + 1;
        match spec.rounds.get(next) {
            None => Ok(Outcome::Done(answers)),
            Some(round_spec) => {
                let asks = self.declared_asks(&round_spec.asks, round_spec.only_declared, caps)?;
                let state = spec
                    .signed_state
                    .then(|| self.seal_state(next, &answers, target));
                Ok(Outcome::Ask {
                    inputs: input_requests(&asks),
                    state,
                    round: next,
                })
            }
        }
    }

    /// The asks of a round that the request may receive (M-MRTR-CAP): all of
    /// them, each needing its capability, or (`only_declared`) those whose
    /// capability is declared, at least one.
    fn declared_asks(
        &self,
        asks: &[InputAsk],
        only_declared: bool,
        caps: &ClientCapabilities,
    ) -> Result<Vec<InputAsk>, Refusal> {
        let mut required = ClientCapabilities::default();
        let mut usable = Vec::new();
        for ask in asks {
            let need = capability_of(&ask.method);
            if caps.covers(&need) {
                usable.push(ask.clone());
            } else {
                merge(&mut required, &need);
            }
        }
        let refused = if only_declared {
            usable.is_empty()
        } else {
            !required.is_empty()
        };
        if refused {
            let names = required.names().join(", ");
            return Err(Refusal::new(
                Fault::MissingCapability,
                "Missing required client capability",
                &[rules::M_MRTR_CAP, rules::M_CAP_REQUIRED, rules::H_STATUS],
                crate::note!("server.mrtr.answering_needs_input_through", "Answering needs input through {names}, which this request did not declare: the server never sends an input request the client cannot handle, and refuses with -32021 before any work.", names = names),
            )
            .data(json!({"requiredCapabilities": required.to_json()})));
        }
        Ok(usable)
    }

    /// A signed requestState for `round` with the answers so far.
    pub(crate) fn seal_state(
        &self,
        round: usize,
        answers: &Map<String, Value>,
        target: &Target<'_>,
    ) -> String {
        let payload = json!({
            "v": 1,
            "m": target.method,
            "n": target.name,
            "d": digest(target.arguments),
            "r": round,
            "a": answers,
            "exp": self.now.as_millis().saturating_add(STATE_TTL_MS),
        });
        self.seal(&payload)
    }

    /// Verifies a requestState and reads it back: (round, answers so far).
    pub(crate) fn open_state(
        &self,
        state: &str,
        target: &Target<'_>,
    ) -> Result<(usize, Map<String, Value>), Refusal> {
        let refuse = |why: &str| {
            Refusal::new(
                Fault::InvalidParams,
                format!("Invalid params: requestState {why}"),
                &[rules::M_MRTR_STATE, rules::H_STATUS],
                crate::note!("server.mrtr.requeststate_attacker_controlled_input", "requestState is attacker-controlled input: this one {why}, so the server rejects it and does nothing.", why = why),
            )
        };
        if !state.contains('.') {
            return Err(refuse("is not one this server issued"));
        }
        let payload = self
            .open(state)
            .ok_or_else(|| refuse("failed verification"))?;
        let same_request = payload.get("m").and_then(Value::as_str) == Some(target.method)
            && payload.get("n").and_then(Value::as_str) == Some(target.name)
            && payload.get("d").and_then(Value::as_str) == Some(digest(target.arguments).as_str());
        if !same_request {
            return Err(refuse("belongs to another request"));
        }
        let expires = payload.get("exp").and_then(Value::as_u64).unwrap_or(0);
        if self.now.as_millis() > expires {
            return Err(refuse("has expired"));
        }
        let round = payload
            .get("r")
            .and_then(Value::as_u64)
            .and_then(|r| usize::try_from(r).ok())
            .unwrap_or(0);
        let answers = payload
            .get("a")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        Ok((round, answers))
    }
}

/// The InputRequests map of `asks`.
fn input_requests(asks: &[InputAsk]) -> Map<String, Value> {
    asks.iter()
        .map(|a| {
            (
                a.key.clone(),
                json!({"method": a.method, "params": a.params}),
            )
        })
        .collect()
}

fn merge(into: &mut ClientCapabilities, from: &ClientCapabilities) {
    if from.elicitation.is_some() {
        into.elicitation = from.elicitation.clone();
    }
    if from.sampling.is_some() {
        into.sampling = from.sampling.clone();
    }
    if from.roots.is_some() {
        into.roots = from.roots.clone();
    }
}

/// SHA-256 of the arguments' JSON text, first 16 bytes in hex.
fn digest(arguments: &Value) -> String {
    let hash = Sha256::digest(arguments.to_string().as_bytes());
    hash.iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// Fills `{KEY.FIELD}` in `text` from the answers: an elicitation's content
/// field, `{KEY.text}` for a sampling answer, `{KEY.roots}` for roots.
pub(crate) fn fill_answers(text: &str, answers: &Map<String, Value>) -> String {
    let mut out = text.to_string();
    for (key, answer) in answers {
        if let Some(content) = answer.get("content").and_then(Value::as_object) {
            for (field, value) in content {
                let value = match value {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                out = out.replace(&format!("{{{key}.{field}}}"), &value);
            }
        }
        if let Some(roots) = answer.get("roots").and_then(Value::as_array) {
            let uris: Vec<&str> = roots
                .iter()
                .filter_map(|r| r.get("uri").and_then(Value::as_str))
                .collect();
            out = out.replace(&format!("{{{key}.roots}}"), &uris.join(", "));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_answers_reads_elicitation_sampling_and_roots() {
        let answers = json!({
            "user_name": {"action": "accept", "content": {"name": "Alice"}},
            "q": {"role": "assistant", "content": {"type": "text", "text": "Paris"}},
            "r": {"roots": [{"uri": "file:///a"}, {"uri": "file:///b"}]},
        });
        let answers = answers.as_object().cloned().unwrap_or_default();
        assert_eq!(
            fill_answers("{user_name.name} {q.text} {r.roots}", &answers),
            "Alice Paris file:///a, file:///b"
        );
    }
}
