//! Runs with more than two actors (issue 28): a timeline listing its
//! actors reads back as it was written, each message between its two
//! actors, and a run of the two MCP sides alone serializes as it always
//! did (no `actors`, `from_actor`, `to_actor` or `actor`).

use mcp_lanes_core::export::mermaid;
use mcp_lanes_core::sim::{Actor, EventKind, Timeline};

/// The text of the hand-written three-actor fixture (`tests/fixtures/actors/`).
fn three_text() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/actors/three-actors.json");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn three() -> Timeline {
    Timeline::from_json(&three_text()).expect("reads").remove(0)
}

#[test]
fn a_timeline_of_three_actors_reads_back_as_written() {
    let timeline = three();
    assert_eq!(
        timeline.columns(),
        vec![Actor::Client, Actor::Server, Actor::AuthServer]
    );
    let again = Timeline::from_json(&serde_json::to_string(&[&timeline]).unwrap()).unwrap();
    assert_eq!(again[0], timeline);
    let ends: Vec<(Actor, Actor)> = timeline.messages().map(|(_, m)| m.ends()).collect();
    assert_eq!(ends[0], (Actor::Client, Actor::Server));
    assert_eq!(ends[1], (Actor::Server, Actor::Client));
    assert_eq!(ends[4], (Actor::Client, Actor::AuthServer));
    assert_eq!(ends[5], (Actor::AuthServer, Actor::Client));
    assert!(timeline.messages().next().unwrap().1.is_mcp());
    assert!(!timeline.messages().nth(4).unwrap().1.is_mcp());
    let consent = &timeline.events[6];
    assert!(matches!(consent.kind, EventKind::Decision { .. }));
    assert_eq!(consent.actor, Some(Actor::AuthServer));
}

#[test]
fn a_run_of_two_sides_names_no_actor() {
    let timeline = mcp_lanes_core::sim::run(
        &mcp_lanes_core::scenarios::setups("discover")
            .expect("a scenario")
            .remove(0),
    );
    assert!(timeline.actors.is_empty());
    assert_eq!(timeline.columns(), vec![Actor::Client, Actor::Server]);
    let text = serde_json::to_string(&timeline).unwrap();
    for key in ["\"actors\"", "\"from_actor\"", "\"to_actor\"", "\"actor\""] {
        assert!(!text.contains(key), "{key} in {text}");
    }
}

#[test]
fn mermaid_names_every_participant_and_draws_each_message_between_its_actors() {
    let text = mermaid(&three());
    assert!(text.contains("participant C as client\n"), "{text}");
    assert!(text.contains("participant S as server\n"), "{text}");
    assert!(
        text.contains("participant A as authorization server\n"),
        "{text}"
    );
    assert!(
        text.contains("Note over C,A: three actors (http)"),
        "{text}"
    );
    assert!(
        text.contains("C->>A: GET authorization server metadata"),
        "{text}"
    );
    assert!(text.contains("A-->>C: 200 metadata"), "{text}");
    assert!(text.contains("C->>S: tools/call"), "{text}");
}
