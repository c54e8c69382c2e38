//! Multi round-trip requests and their signed `requestState`.

use crate::common::*;
use crate::fixtures::*;
use serde_json::{json, Value};

#[test]
fn m_mrtr_state_multi_round_carries_answers_and_rejects_tampering() {
    let mut s = reference();
    let tool = "test_input_required_result_multi_round";
    let (_, r1) = exchange(&mut s, &call(json!(1), tool, json!({}), ALL_CAPS()));
    let r1 = result(&r1);
    assert_eq!(r1["resultType"], "input_required");
    let state1 = r1["requestState"].as_str().expect("state").to_string();
    assert!(r1["inputRequests"]["user_name"].is_object());
    let retry = |id: i64, responses: Value, state: &str| {
        let mut msg = call(json!(id), tool, json!({}), ALL_CAPS());
        msg["params"]["inputResponses"] = responses;
        msg["params"]["requestState"] = json!(state);
        msg
    };
    let (_, r2) = exchange(
        &mut s,
        &retry(
            2,
            json!({"user_name": {"action": "accept", "content": {"name": "Alice"}}}),
            &state1,
        ),
    );
    let r2 = result(&r2);
    assert_eq!(
        r2["resultType"], "input_required",
        "round two asks again: {r2}"
    );
    let state2 = r2["requestState"].as_str().expect("state").to_string();
    assert_ne!(state1, state2);
    assert!(r2["inputRequests"]["favorite_color"].is_object());
    let (_, r3) = exchange(
        &mut s,
        &retry(
            3,
            json!({"favorite_color": {"action": "accept", "content": {"color": "blue"}}}),
            &state2,
        ),
    );
    let r3 = result(&r3);
    assert_eq!(r3["resultType"], "complete");
    assert_eq!(
        r3["content"][0]["text"], "Alice likes blue.",
        "the first round's answer travelled in the state"
    );
    // Tampered, or another server's key: rejected with an error, nothing done.
    for bad in [format!("{state1}-TAMPERED"), "x.y".into(), "garbage".into()] {
        let (_, m) = exchange(
            &mut s,
            &retry(
                4,
                json!({"user_name": {"action": "accept", "content": {"name": "Eve"}}}),
                &bad,
            ),
        );
        assert_eq!(code(&response(&m)), Some(-32602), "{bad}");
    }
    let mut other = reference();
    other.set_state_key(b"another key");
    let (_, m) = exchange(
        &mut other,
        &retry(
            5,
            json!({"user_name": {"action": "accept", "content": {"name": "Eve"}}}),
            &state1,
        ),
    );
    assert_eq!(code(&response(&m)), Some(-32602));
    // A state bound to one tool does not open another.
    let mut msg = retry(
        6,
        json!({"confirm": {"action": "accept", "content": {"ok": true}}}),
        &state1,
    );
    msg["params"]["name"] = json!("test_input_required_result_tampered_state");
    let (_, m) = exchange(&mut s, &msg);
    assert_eq!(code(&response(&m)), Some(-32602));
    // A missing answer is asked for again, not an error.
    let (_, m) = exchange(
        &mut s,
        &retry(
            7,
            json!({"wrong_key": {"action": "accept", "content": {}}}),
            &state1,
        ),
    );
    assert_eq!(result(&m)["resultType"], "input_required");
}

#[test]
fn m_mrtr_state_basic_flows_and_capabilities() {
    let mut s = reference();
    // Sampling and roots round trips, no state.
    for (tool, key, answer, text) in [
        (
            "test_input_required_result_sampling",
            "capital_question",
            json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m", "stopReason": "endTurn"}),
            "The model says: Paris",
        ),
        (
            "test_input_required_result_list_roots",
            "client_roots",
            json!({"roots": [{"uri": "file:///test/root", "name": "Test Root"}]}),
            "Roots: file:///test/root",
        ),
    ] {
        let (_, r1) = exchange(&mut s, &call(json!(1), tool, json!({}), ALL_CAPS()));
        let r1 = result(&r1);
        assert!(r1["inputRequests"][key].is_object(), "{r1}");
        assert!(r1.get("requestState").is_none());
        let mut retry = call(json!(2), tool, json!({}), ALL_CAPS());
        retry["params"]["inputResponses"] = json!({key: answer});
        let (_, r2) = exchange(&mut s, &retry);
        assert_eq!(result(&r2)["content"][0]["text"], text);
    }
    // Only what the request declared (M-MRTR-CAP).
    let (_, m) = exchange(
        &mut s,
        &call(
            json!(3),
            "test_input_required_result_capabilities",
            json!({}),
            json!({"sampling": {}}),
        ),
    );
    let r = result(&m);
    let methods: Vec<&str> = r["inputRequests"]
        .as_object()
        .expect("map")
        .values()
        .filter_map(|v| v["method"].as_str())
        .collect();
    assert_eq!(methods, ["sampling/createMessage"]);
    let (resp, m) = exchange(
        &mut s,
        &call(
            json!(4),
            "test_input_required_result_elicitation",
            json!({}),
            json!({}),
        ),
    );
    assert_eq!((resp.status, code(&response(&m))), (400, Some(-32021)));
    // An answer of the wrong shape is a protocol error.
    let mut bad = call(
        json!(5),
        "test_input_required_result_elicitation",
        json!({}),
        ALL_CAPS(),
    );
    bad["params"]["inputResponses"] = json!({"user_name": 12345});
    let (_, m) = exchange(&mut s, &bad);
    assert_eq!(code(&response(&m)), Some(-32602));
    // MRTR on prompts/get.
    let get = |id: i64| {
        modern(
            json!(id),
            "prompts/get",
            json!({"name": "test_input_required_result_prompt"}),
            ALL_CAPS(),
        )
    };
    let (_, m) = exchange(&mut s, &get(6));
    assert_eq!(result(&m)["resultType"], "input_required");
    let mut retry = get(7);
    retry["params"]["inputResponses"] =
        json!({"user_context": {"action": "accept", "content": {"context": "ctx"}}});
    let (_, m) = exchange(&mut s, &retry);
    assert_eq!(result(&m)["messages"][0]["content"]["text"], "Context: ctx");
}
