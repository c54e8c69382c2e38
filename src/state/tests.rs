//! The page reducer, natively: playback, lanes and their settings, the
//! permalink, and the state without a simulator (the lite bundle), which
//! hands every change it cannot make over to the full bundle.

use mcp_lanes_core::scenarios;
use mcp_lanes_core::settings::Setting;
use mcp_lanes_core::share::{self, LaneState};
use mcp_lanes_core::transport::TransportKind;
use serde_json::json;

use super::*;
use crate::config::{split_field, Config, Mode};

/// The full bundle's state for a scenario.
fn full(id: &str) -> State {
    State::load(Some(id), Some(Simulator::CORE))
}

/// The lite bundle's state for a scenario whose recorded runs are here.
fn lite(id: &str) -> State {
    record(id);
    State::load(Some(id), None)
}

/// Puts a scenario's recorded runs in the cache, as the lite bundle's
/// fetch of `timelines/<id>.json` does.
fn record(id: &str) {
    let runs = scenarios::run(id).expect("a catalog scenario");
    let text = serde_json::to_string(&runs).expect("timelines serialise");
    assert!(runs::keep(id, &text));
}

fn after(mut state: State, actions: impl IntoIterator<Item = Action>) -> State {
    for action in actions {
        state.update(action);
    }
    state
}

#[test]
fn a_known_scenario_opens_at_the_start_with_one_lane_per_setup() {
    let state = full("era-probe-stdio");
    assert_eq!(state.scenario.map(|s| s.id), Some("era-probe-stdio"));
    let setups = scenarios::setups("era-probe-stdio").expect("set-ups");
    assert_eq!(state.lanes.len(), setups.len());
    assert!(state.lanes.iter().all(|l| !l.added && !l.modified()));
    assert_eq!(
        (state.pos, state.playing, state.notice.as_deref()),
        (0, false, None)
    );
    assert!(!state.layout.is_empty());
}

#[test]
fn an_unknown_scenario_opens_the_first_with_a_notice() {
    let state = full("no-such-thing");
    assert_eq!(state.scenario.map(|s| s.id), Some(CATALOG[0].id));
    let notice = state.notice.expect("a notice");
    assert!(notice.contains("no-such-thing"), "{notice}");
}

#[test]
fn playback_ticks_to_the_end_and_stops_there() {
    let mut state = after(full("discover"), [Action::Play]);
    assert!(state.playing);
    let len = state.layout.len();
    for _ in 0..len {
        state.update(Action::Tick);
    }
    assert_eq!(state.pos, len);
    assert!(!state.playing, "the end stops playback");
    state.update(Action::Tick);
    assert_eq!(state.pos, len, "a late tick does nothing");
    // Play at the end starts again from the beginning.
    state.update(Action::TogglePlay);
    assert_eq!((state.pos, state.playing), (0, true));
    state.update(Action::TogglePlay);
    assert!(!state.playing);
}

#[test]
fn stepping_and_seeking_pause_and_stay_in_range() {
    let len = full("discover").layout.len();
    let state = after(
        full("discover"),
        [Action::Play, Action::StepForward, Action::StepForward],
    );
    assert_eq!((state.pos, state.playing), (2, false));
    let state = after(
        state,
        [Action::StepBack, Action::StepBack, Action::StepBack],
    );
    assert_eq!(state.pos, 0);
    let state = after(state, [Action::Seek(len + 10)]);
    assert!(state.at_end());
    let state = after(state, [Action::Restart]);
    assert_eq!(state.pos, 0);
    let state = after(state, [Action::JumpToEnd]);
    assert_eq!(state.pos, len);
}

#[test]
fn speeds_stay_among_those_offered() {
    let state = after(full("discover"), [Action::SetSpeed(99)]);
    assert_eq!(state.speed, SPEEDS.len() - 1);
    let state = after(state, [Action::Faster]);
    assert_eq!(state.speed, SPEEDS.len() - 1);
    let state = after(state, (0..9).map(|_| Action::Slower));
    assert_eq!(state.speed, 0);
    assert!(step_ms(0) > step_ms(DEFAULT_SPEED));
    assert_eq!(step_ms(DEFAULT_SPEED), STEP_MS);
}

#[test]
fn a_setting_reruns_its_lane_and_the_playhead_keeps_its_time() {
    let mut state = full("plain-vs-rich");
    state.update(Action::JumpToEnd);
    let before = state.lanes[0].timeline.clone();
    state.update(Action::Apply {
        lane: 0,
        setting: Setting::Transport(TransportKind::Http),
    });
    let lane = &state.lanes[0];
    assert!(lane.modified());
    assert_eq!(lane.setup.channel.kind, TransportKind::Http);
    assert_eq!(lane.timeline.transport, TransportKind::Http);
    assert_ne!(*lane.timeline, *before);
    assert_eq!(lane.share.settings.len(), 1);
    assert!(state.at_end(), "the end stays the end");
    // Reset puts the scenario's set-up and its run back.
    state.update(Action::ResetLane(0));
    let lane = &state.lanes[0];
    assert!(!lane.modified());
    assert_eq!(*lane.timeline, *before);
    assert!(lane.share.settings.is_empty());
}

#[test]
fn compare_adds_a_labelled_lane_after_its_original_and_remove_takes_it_away() {
    let mut state = full("plain-vs-rich");
    let count = state.lanes.len();
    state.update(Action::Inspect(Some(Selection { lane: 1, event: 0 })));
    state.update(Action::Compare {
        lane: 0,
        setting: Setting::ChecksBeforeWork(false),
    });
    assert_eq!(state.lanes.len(), count + 1);
    let added = &state.lanes[1];
    assert!(added.added);
    assert!(added.setup.label.contains("no capability check first"));
    assert_eq!(
        state.selected,
        Some(Selection { lane: 2, event: 0 }),
        "the selection moves with its lane"
    );
    // Only an added lane can be removed.
    state.update(Action::RemoveLane(0));
    assert_eq!(state.lanes.len(), count + 1);
    state.update(Action::RemoveLane(1));
    assert_eq!(state.lanes.len(), count);
    assert_eq!(state.selected, Some(Selection { lane: 1, event: 0 }));
}

#[test]
fn a_permalink_restores_lanes_settings_and_step() {
    let mut state = full("plain-vs-rich");
    state.update(Action::Compare {
        lane: 0,
        setting: Setting::Transport(TransportKind::Http),
    });
    state.update(Action::Seek(3));
    let link = state.share();
    let fragment = state.fragment();
    assert!(!fragment.is_empty());
    assert_eq!(share::from_fragment(&fragment), Ok(link.clone()));

    let restored = after(full("discover"), [Action::Restore(Box::new(link.clone()))]);
    assert_eq!(restored.share(), link);
    assert_eq!(restored.pos, 3);
    assert!(restored.lanes[1].added);

    let config = Config {
        link: Some(Ok(link.clone())),
        ..Config::from_options(Mode::Page, &serde_json::Value::Null)
    };
    assert_eq!(State::start(&config, Some(Simulator::CORE)).share(), link);
}

#[test]
fn an_untouched_start_has_no_fragment() {
    assert_eq!(full("discover").fragment(), "");
    assert_ne!(
        after(full("discover"), [Action::StepForward]).fragment(),
        ""
    );
}

#[test]
fn figure_options_pick_setups_speed_and_step() {
    let options = json!({"scenario": "era-probe-stdio", "setups": [1, 2], "speed": 2, "step": 3, "autoplay": true});
    let config = Config::from_options(Mode::Frame, &options);
    assert_eq!(config.problem, None);
    let state = State::start(&config, Some(Simulator::CORE));
    let bases: Vec<usize> = state.lanes.iter().map(|l| l.share.base).collect();
    assert_eq!(bases, [1, 2]);
    assert_eq!((state.speed, state.pos, state.playing), (3, 3, true));
}

#[test]
fn control_messages_of_the_documented_shapes_become_actions() {
    let control = |v: serde_json::Value| Action::from_control(&v);
    let play = control(json!({"type": "mcp-lanes:control", "action": "play"}));
    assert!(matches!(play, Some(Action::Play)));
    let seek = control(json!({"type": "mcp-lanes:control", "action": "seek", "step": 4}));
    assert!(matches!(seek, Some(Action::Seek(4))));
    for bad in [
        json!({"type": "mcp-lanes:control", "action": "seek"}),
        json!({"type": "mcp-lanes:control", "action": "play", "extra": 1}),
        json!({"type": "other", "action": "play"}),
        json!("play"),
    ] {
        assert!(control(bad.clone()).is_none(), "{bad}");
    }
}

#[test]
fn without_a_simulator_a_setting_becomes_an_upgrade_with_the_change_made() {
    let mut state = lite("plain-vs-rich");
    assert!(!state.lanes.is_empty());
    assert_eq!(
        *state.lanes[0].timeline,
        scenarios::run("plain-vs-rich").expect("runs")[0],
        "lanes show the recorded runs"
    );
    state.update(Action::Play);
    let setting = Setting::Transport(TransportKind::Http);
    let action = Action::Apply {
        lane: 0,
        setting: setting.clone(),
    };
    let upgrade = state.upgrade_for(&action).expect("an upgrade");
    state.update(action);
    assert!(!state.playing, "playback stops for the hand-over");
    assert!(
        !state.lanes[0].modified(),
        "the lite page never changes a lane"
    );
    let asked = state.upgrade.as_deref().expect("asked for the full bundle");
    assert_eq!(*asked, upgrade);
    let link = asked.link.as_ref().expect("a link");
    assert_eq!(link.lanes[0].settings, [setting]);
    assert!(!asked.editor);
    // With a simulator the same action is made at once.
    assert!(full("plain-vs-rich")
        .upgrade_for(&Action::ShowEditor(true))
        .is_none());
}

#[test]
fn without_a_simulator_the_editor_and_compare_hand_over() {
    let state = after(lite("discover"), [Action::ToggleEditor]);
    let upgrade = state.upgrade.as_deref().expect("an upgrade");
    assert!(upgrade.editor);
    assert!(!state.editor);

    let state = after(
        lite("discover"),
        [Action::Compare {
            lane: 0,
            setting: Setting::ChecksBeforeWork(false),
        }],
    );
    let link = state.upgrade.as_deref().and_then(|u| u.link.clone());
    let lanes = link.expect("a link").lanes;
    assert_eq!(lanes.len(), 2);
    assert!(lanes[1].label.is_some());
}

#[test]
fn without_a_simulator_a_scenario_not_here_is_fetched_then_opened() {
    let id = "legacy-handshake";
    let mut state = lite("discover");
    state.update(Action::Load(id.into()));
    assert_eq!(state.fetching, Some((id.to_string(), 0)));
    assert_eq!(
        state.scenario.map(|s| s.id),
        Some("discover"),
        "still shown"
    );
    record(id);
    state.update(Action::Recorded(id.into(), 2));
    assert_eq!(state.fetching, None);
    assert_eq!(state.scenario.map(|s| s.id), Some(id));
    assert_eq!(state.pos, 2);
}

#[test]
fn without_a_simulator_what_only_the_full_bundle_shows_is_handed_over() {
    // The benchmark load and changed lanes in a link.
    let state = after(lite("discover"), [Action::Load("stress".into())]);
    assert_eq!(state.upgrade.as_deref().map(|u| u.link.clone()), Some(None));

    let mut link = full("discover").share();
    link.lanes[0] = LaneState {
        settings: vec![Setting::ChecksBeforeWork(false)],
        ..link.lanes[0].clone()
    };
    assert!(needs_simulator(&link));
    let state = after(lite("discover"), [Action::Restore(Box::new(link.clone()))]);
    assert_eq!(
        state.upgrade.as_deref().and_then(|u| u.link.clone()),
        Some(link)
    );
}

#[test]
fn without_a_simulator_opening_a_full_bundle_panel_hands_over_the_state_as_it_is() {
    let state = after(lite("discover"), [Action::StepForward]);
    let upgrade = state.upgrade_for(&Action::HandOver).expect("an upgrade");
    assert_eq!(upgrade.link, Some(state.share()));
    assert!(!upgrade.editor);
    // With a simulator the state makes every change itself.
    assert!(full("discover").upgrade_for(&Action::HandOver).is_none());
}

#[test]
fn without_a_simulator_a_failed_hand_over_leaves_a_notice() {
    let state = after(
        lite("discover"),
        [Action::ToggleEditor, Action::HandOverFailed],
    );
    assert!(state.upgrade.is_none());
    assert!(state
        .notice
        .expect("a notice")
        .contains("could not be loaded"));
}

fn weather() -> std::rc::Rc<mcp_lanes_core::scenarios::file::ScenarioFile> {
    let text = include_str!("../../www/scenarios/weather-forecast.json");
    std::rc::Rc::new(mcp_lanes_core::scenarios::file::load(text).expect("the author's file loads"))
}

#[test]
fn a_scenario_file_opens_as_lanes_and_its_permalink_names_it() {
    let mut config = Config::from_options(Mode::Page, &serde_json::Value::Null);
    config.loaded = Some(Ok(weather()));
    let mut state = State::start(&config, Some(Simulator::CORE));
    assert_eq!(state.scenario_id(), "weather-forecast");
    assert_eq!(state.lanes.len(), 2);
    assert_eq!(state.file_servers.len(), 1);
    state.update(Action::Seek(3));
    let fragment = state.fragment();
    let link = share::from_fragment_for(&fragment, "weather-forecast", 2).expect("its own link");
    assert_eq!(link.step, 3);
    assert!(
        share::from_fragment(&fragment).is_err(),
        "not a catalog scenario"
    );

    config.fragment = Some(format!("#{fragment}"));
    let again = State::start(&config, Some(Simulator::CORE));
    assert_eq!(again.pos, 3);
    assert_eq!(again.notice, None);
}

#[test]
fn an_invalid_file_shows_its_problems_and_no_lanes() {
    let mut config = Config::from_options(Mode::Page, &serde_json::Value::Null);
    config.loaded = Some(Err(vec!["id: expected an id".into()]));
    let state = State::start(&config, Some(Simulator::CORE));
    assert_eq!(state.problems.as_deref().map(Vec::len), Some(1));
    assert!(state.lanes.is_empty());
    assert_eq!(state.scenario_id(), "");
}

#[test]
fn a_run_ends_when_its_last_message_arrives() {
    for info in scenarios::CATALOG {
        let state = after(full(info.id), [Action::JumpToEnd]);
        let end = state.time().expect("an end");
        for lane in state.lanes.iter() {
            for m in lane.timeline.events.iter().filter_map(|e| e.message()) {
                if let Some(t) = m.delivered_at_ms {
                    assert!(
                        t <= end,
                        "{}: {} arrives at {t} after the end {end}",
                        info.id,
                        m.label
                    );
                }
            }
        }
    }
}

#[test]
fn autoplay_waits_for_play_when_the_reader_asks_for_reduced_motion() {
    let mut config = Config::from_options(
        Mode::Frame,
        &json!({"scenario": "discover", "autoplay": true}),
    );
    config.reduced_motion = true;
    let state = State::start(&config, Some(Simulator::CORE));
    assert!(!state.playing);
    assert!(state
        .notice
        .as_deref()
        .is_some_and(|n| n.contains("reduced motion")));
}

#[test]
fn a_recording_opens_without_the_simulator_and_takes_its_schema_verdicts_in_place() {
    use mcp_lanes_core::check::{Outcome, Verdict};
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/import/violations.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the fixture");
    let checked = crate::checked::read("violations.json", &text).expect("a transcript");
    // The lite bundle's state: no simulator, no set-up builders.
    let mut state = State::load(None, None);
    state.update(Action::OpenChecked(Rc::new(checked)));
    assert_eq!(state.lanes.len(), 1);
    let lane = &state.lanes[0];
    let events = lane.timeline.events.len();
    let violation = lane
        .timeline
        .events
        .iter()
        .position(|e| e.message().is_some_and(|m| m.violation.is_some()))
        .expect("a marked violation");
    let plain = (0..events)
        .find(|i| {
            lane.timeline.events[*i]
                .message()
                .is_some_and(|m| m.violation.is_none())
        })
        .expect("an unmarked message");
    state.update(Action::Seek(2));
    let failing = |at: usize| Verdict {
        rule: "S-SCHEMA".into(),
        verdict: Outcome::Fail,
        expected: String::new(),
        got: String::new(),
        expected_msg: None,
        got_msg: None,
        exchange: Some(at),
    };
    // Another recording's verdicts are not taken.
    state.update(Action::CheckedSchema {
        source: "other.json".into(),
        verdicts: vec![vec![failing(plain)]],
    });
    assert!(!state.lanes[0].verdicts.iter().any(|v| v.rule == "S-SCHEMA"));
    state.update(Action::CheckedSchema {
        source: "violations.json".into(),
        verdicts: vec![vec![failing(violation), failing(plain)]],
    });
    let schema: Vec<_> = state.lanes[0]
        .verdicts
        .iter()
        .filter(|v| v.rule == "S-SCHEMA")
        .map(|v| (v.exchange, v.verdict))
        .collect();
    // A failure at a marked violation is expected; elsewhere it fails.
    assert!(schema.contains(&(Some(violation), Outcome::ExpectedFailure)));
    assert!(schema.contains(&(Some(plain), Outcome::Fail)));
    let checked = state.checked.clone().expect("still open");
    assert_eq!(checked.runs[0].verdicts, state.lanes[0].verdicts);
    assert_eq!(state.pos, 2, "the playhead stays");
}

#[test]
fn a_link_to_one_field_selects_its_message_and_opens_the_field() {
    let path = "params._meta[\"io.modelcontextprotocol/protocolVersion\"]";
    let fragment = field_fragment("", 0, 1, path);
    assert_eq!(
        fragment,
        "/m0.1/params._meta[%22io.modelcontextprotocol%2FprotocolVersion%22]"
    );
    assert_eq!(
        split_field(&fragment),
        ("", Some(((0, 1), path.to_string())))
    );
    assert_eq!(
        split_field("v3.abc/m2.10/result.ttlMs"),
        ("v3.abc", Some(((2, 10), "result.ttlMs".to_string())))
    );
    assert_eq!(split_field("v3.abc"), ("v3.abc", None));
    assert_eq!(split_field("/mx.y/z").1, None);
    // The page opens it: selected, the field shown, and its link says so.
    let hash = "/m0.1/result.ttlMs";
    let config = Config::from_url(|k| (k == "scenario").then(|| "discover".to_string()), hash);
    assert_eq!(config.field, Some(((0, 1), "result.ttlMs".to_string())));
    record("discover");
    let state = State::start(&config, None);
    assert_eq!(state.selected, Some(Selection { lane: 0, event: 1 }));
    assert!(state.pos > 0, "the playhead is on the message");
    assert_eq!(state.open_field(), Some("result.ttlMs"));
    assert!(state.fragment().ends_with(hash), "{}", state.fragment());
    // Another selection closes it; a link past the run selects nothing.
    let mut other = state.clone();
    other.update(Action::Inspect(Some(Selection { lane: 0, event: 0 })));
    assert_eq!(other.open_field(), None);
    let far = Config::from_url(
        |k| (k == "scenario").then(|| "discover".to_string()),
        "/m0.99/id",
    );
    assert_eq!(State::start(&far, None).selected, None);
}

#[test]
fn a_hand_over_keeps_the_inspector_as_drawn_until_the_reader_selects_again() {
    record("discover");
    let mut config = Config::from_url(|k| (k == "scenario").then(|| "discover".to_string()), "");
    config.receive(r#"{"selected": [0, 1]}"#);
    let mut state = State::start(&config, None);
    assert_eq!(state.selected, Some(Selection { lane: 0, event: 1 }));
    assert!(state.plain_inspector);
    state.update(Action::Inspect(Some(Selection { lane: 0, event: 0 })));
    assert!(!state.plain_inspector);
}

#[test]
fn a_tapped_client_that_left_is_drawn_where_it_left_and_followed() {
    // What tap's `closed` event adds to the conversation.
    let text = r#"[
      {"message":{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}},"from":"client","at_ms":0},
      {"left":"client","why":"closed_stdin","at_ms":7}
    ]"#;
    let checked = Rc::new(crate::checked::read("python3 server.py", text).expect("a transcript"));
    let mut state = State::load(None, None);
    state.update(Action::TapChecked(checked));
    assert!(state.following && state.at_end());
    let events = &state.lanes[0].timeline.events;
    assert_eq!(
        events.last().map(|e| &e.kind),
        Some(&mcp_lanes_core::sim::EventKind::Disconnected {
            side: mcp_lanes_core::sim::Side::Client
        })
    );
    // The request it left waiting is no failure of the server's.
    assert!(state.lanes[0]
        .verdicts
        .iter()
        .all(|v| v.verdict != mcp_lanes_core::check::Outcome::Fail));
}

#[test]
fn a_tapped_conversation_follows_its_end_until_the_person_steps_back() {
    let entries = [
        r#"{"message":{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}},"from":"client","at_ms":0}"#,
        r#"{"message":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}},"from":"server","at_ms":5}"#,
        r#"{"message":{"jsonrpc":"2.0","id":2,"method":"prompts/list","params":{}},"from":"client","at_ms":9}"#,
        r#"{"message":{"jsonrpc":"2.0","id":2,"result":{"prompts":[]}},"from":"server","at_ms":12}"#,
    ];
    let so_far = |n: usize| {
        let text = format!("[{}]", entries[..n].join(","));
        Rc::new(crate::checked::read("python3 server.py", &text).expect("a transcript"))
    };
    let mut state = State::load(None, None);
    state.update(Action::TapChecked(so_far(1)));
    assert!(state.following && state.at_end());
    state.update(Action::TapChecked(so_far(2)));
    assert!(state.following && state.at_end() && state.pos > 0);
    assert_eq!(state.lanes[0].timeline.messages().count(), 2);
    // The person steps back: the view stays where they are.
    state.update(Action::Seek(1));
    let time = state.time();
    state.update(Action::TapChecked(so_far(4)));
    assert!(!state.following && !state.at_end());
    assert_eq!(state.time(), time);
    assert_eq!(state.lanes[0].timeline.messages().count(), 4);
    // Back at the end, it follows again.
    state.update(Action::Seek(state.layout.len()));
    state.update(Action::TapChecked(so_far(4)));
    assert!(state.following && state.at_end());
    // Each exchange graded by the core: the answers pass.
    assert!(state.lanes[0]
        .verdicts
        .iter()
        .all(|v| v.verdict != mcp_lanes_core::check::Outcome::Fail));
}

#[test]
fn a_tapped_request_waiting_for_its_answer_is_no_failure_yet() {
    let text = r#"[{"message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{}}},"from":"client","at_ms":0}]"#;
    let fails = |c: &crate::checked::Checked| {
        c.verdicts()
            .iter()
            .filter(|v| v.verdict == mcp_lanes_core::check::Outcome::Fail)
            .count()
    };
    let going_on = crate::checked::read_so_far("tap", text).expect("a transcript");
    assert_eq!(fails(&going_on), 0, "{:?}", going_on.verdicts());
    let over = crate::checked::read("tap", text).expect("a transcript");
    assert!(fails(&over) > 0, "the end says what never came");
}

#[test]
fn a_protected_lanes_auth_setting_breaks_one_step_and_travels_in_the_permalink() {
    use mcp_lanes_core::auth::Break;
    let mut state = full("auth-happy-path");
    let label = |state: &State, lane: usize| {
        state.lanes[lane]
            .timeline
            .messages()
            .last()
            .map(|(_, m)| m.label.clone())
    };
    assert_eq!(label(&state, 0).as_deref(), Some("200 result"));
    state.update(Action::Apply {
        lane: 0,
        setting: Setting::AuthBreak(Some(Break::NoPkce)),
    });
    assert_eq!(label(&state, 0).as_deref(), Some("400 invalid_grant"));
    state.update(Action::Compare {
        lane: 0,
        setting: Setting::AuthBreak(Some(Break::ExpiredToken)),
    });
    assert!(state.lanes[1].setup.label.contains("an expired token"));
    let refreshed = state.lanes[1]
        .timeline
        .messages()
        .any(|(_, m)| m.label == "POST /token (refresh)");
    assert!(refreshed, "an expired token is refreshed");
    let link = state.share();
    let restored = after(full("discover"), [Action::Restore(Box::new(link.clone()))]);
    assert_eq!(restored.share(), link);
    assert_eq!(label(&restored, 0).as_deref(), Some("400 invalid_grant"));
    // A lane whose server is not protected does not change.
    let mut plain = full("plain-vs-rich");
    let before = plain.lanes[0].timeline.clone();
    plain.update(Action::Apply {
        lane: 0,
        setting: Setting::AuthBreak(Some(Break::NoPkce)),
    });
    assert_eq!(*plain.lanes[0].timeline, *before);
}

#[test]
fn a_gateway_lanes_setting_shows_a_hidden_tool_and_travels_in_the_permalink() {
    let mut state = full("gateways");
    let listed = |state: &State, lane: usize| -> Vec<String> {
        state.lanes[lane]
            .timeline
            .messages()
            .filter_map(|(_, m)| m.json.as_ref()?.pointer("/result/tools").cloned())
            .last()
            .and_then(|tools| tools.as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|t| t.get("name")?.as_str().map(str::to_string))
            .collect()
    };
    assert_eq!(listed(&state, 1), ["weather_forecast", "weather_stations"]);
    state.update(Action::Apply {
        lane: 1,
        setting: Setting::GatewayHides("reset_stations".into(), false),
    });
    assert_eq!(
        listed(&state, 1),
        [
            "weather_forecast",
            "weather_stations",
            "weather_reset_stations"
        ]
    );
    state.update(Action::Compare {
        lane: 1,
        setting: Setting::GatewayHides("forecast".into(), true),
    });
    let compared = state
        .lanes
        .iter()
        .position(|l| l.setup.label.contains("gateway hides forecast"))
        .expect("the compared lane");
    assert_eq!(
        listed(&state, compared),
        ["weather_stations", "weather_reset_stations"]
    );
    let link = state.share();
    let restored = after(full("discover"), [Action::Restore(Box::new(link.clone()))]);
    assert_eq!(restored.share(), link);
    assert_eq!(listed(&restored, 1).len(), 3);
    // A lane without a gateway does not change.
    let before = state.lanes[0].timeline.clone();
    state.update(Action::Apply {
        lane: 0,
        setting: Setting::GatewayHides("reset_stations".into(), true),
    });
    assert_eq!(*state.lanes[0].timeline, *before);
}

#[test]
fn a_permalink_redacts_the_editors_secrets_unless_the_reader_keeps_them() {
    use mcp_lanes_core::share::EditorState;
    let editor = EditorState {
        target: "reference".into(),
        transport: TransportKind::Http,
        text: r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"refresh_token":"r-7"}}}"#.into(),
        headers: vec![("Authorization".into(), "Bearer tok-9".into())],
    };
    let state = after(
        full("discover"),
        [Action::EditorLink(Box::new(editor.clone()))],
    );
    let link = share::from_fragment(&state.fragment()).expect("a link");
    let got = link.editor.expect("the editor");
    assert_eq!(got.headers[0].1, "Bearer [redacted]");
    assert!(!got.text.contains("r-7"), "{}", got.text);
    let kept = after(state, [Action::KeepSecrets(true)]);
    let link = share::from_fragment(&kept.fragment()).expect("a link");
    assert_eq!(link.editor, Some(editor));
}
