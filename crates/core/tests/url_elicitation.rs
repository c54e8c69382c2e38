//! URL-mode elicitation from a file tool (`asks.url`, lesson 34 of
//! `tests/lessons/`): sent only to a client that declared
//! `elicitation.url`, in 2026-07-28 through MRTR and in a 2025-11-25
//! session as `elicitation/create`; refused or replaced by the fallback
//! error otherwise (M-CAP-ELICIT-MODES).

mod common;

use mcp_lanes_core::sim::{Side, Timeline};
use serde_json::Value;

fn lesson() -> Vec<Timeline> {
    common::lesson("34-url-elicitation")
}

/// The JSON of every message `side` sent in `t`.
fn sent(t: &Timeline, side: Side) -> Vec<Value> {
    t.messages()
        .filter(|(_, m)| m.sender() == Some(side))
        .filter_map(|(_, m)| m.json.clone())
        .collect()
}

#[test]
fn m_cap_elicit_modes_a_url_question_goes_to_a_client_that_declared_elicitation_url() {
    let runs = lesson();
    let server = sent(&runs[0], Side::Server);
    let asked = &server[0]["result"]["inputRequests"]["confirm"]["params"];
    assert_eq!(asked["mode"], "url", "{server:?}");
    assert_eq!(asked["url"], "https://bank.example.com/link?session=abc");
    assert!(asked.get("requestedSchema").is_none());
    let client = sent(&runs[0], Side::Client);
    let answer = &client[1]["params"]["inputResponses"]["confirm"];
    assert_eq!(answer["action"], "accept");
    assert!(answer.get("content").is_none(), "{answer}");
    assert_eq!(
        server[1]["result"]["content"][0]["text"],
        "Northbank linked."
    );
}

#[test]
fn m_cap_elicit_modes_form_mode_only_is_refused_with_32021_naming_elicitation_url() {
    let runs = lesson();
    let server = sent(&runs[1], Side::Server);
    assert_eq!(server[0]["error"]["code"], -32021);
    assert_eq!(
        server[0]["error"]["data"]["requiredCapabilities"]["elicitation"]["url"],
        serde_json::json!({})
    );
}

#[test]
fn m_cap_elicit_modes_a_2025_11_25_session_asks_by_elicitation_create_with_an_id() {
    let runs = lesson();
    let server = sent(&runs[2], Side::Server);
    let ask = server
        .iter()
        .find(|m| m["method"] == "elicitation/create")
        .expect("elicitation/create");
    assert_eq!(ask["params"]["mode"], "url");
    assert!(ask["params"]["elicitationId"].is_string());
    assert_eq!(
        server.last().unwrap()["result"]["content"][0]["text"],
        "Northbank linked."
    );
}

#[test]
fn l_fallback_a_2025_06_18_session_gets_the_tools_fallback_error_and_no_url_request() {
    let runs = lesson();
    let server = sent(&runs[3], Side::Server);
    assert!(server.iter().all(|m| m["method"] != "elicitation/create"));
    let last = server.last().unwrap();
    assert_eq!(last["result"]["isError"], true);
    assert!(last["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("sign in at the bank's page"));
}
