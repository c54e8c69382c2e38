//! Page and figure options, and the hand-over message, natively.

use mcp_lanes_core::share::{LaneState, ShareState};
use serde_json::json;

use super::*;

fn query<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |key| {
        pairs
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.to_string())
    }
}

#[test]
fn wrong_figure_options_are_named_and_replaced_by_defaults() {
    let options = json!({"scenario": "nope", "speed": 3, "autoplay": "yes", "colour": 1});
    let config = Config::from_options(Mode::Mount, &options);
    let problem = config.problem.expect("a problem");
    for named in ["scenario", "speed", "autoplay", "colour"] {
        assert!(problem.contains(named), "{named}: {problem}");
    }
    assert_eq!(
        (config.scenario, config.speed, config.autoplay),
        (None, None, false)
    );
}

#[test]
fn an_iframe_query_is_read_as_figure_options() {
    let config = Config::from_url(
        query(&[
            ("embed", "1"),
            ("scenario", "plain-vs-rich"),
            ("setups", "1"),
            ("autoplay", "1"),
            ("speed", "0.5"),
            ("origins", "https://a.example,https://b.example"),
        ]),
        "",
    );
    assert_eq!(config.problem, None);
    assert_eq!(config.mode, Mode::Frame);
    assert_eq!(config.scenario.as_deref(), Some("plain-vs-rich"));
    assert_eq!(config.setups, Some(vec![1]));
    assert_eq!((config.autoplay, config.speed), (true, Some(1)));
    assert_eq!(config.origins.len(), 2);
}

#[test]
fn the_page_reads_its_scenario_and_permalink() {
    let link = ShareState {
        scenario: "discover".into(),
        lanes: vec![LaneState::untouched(0)],
        step: 1,
        editor: None,
    };
    let hash = format!("#{}", share::to_fragment(&link));
    let config = Config::from_url(query(&[("scenario", "discover")]), &hash);
    assert_eq!(config.mode, Mode::Page);
    assert_eq!(config.link, Some(Ok(link)));
    assert!(Config::from_url(query(&[]), "#").link.is_none());
}

#[test]
fn a_handoff_arrives_as_it_was_sent() {
    let sent = Handoff {
        link: Some(ShareState {
            scenario: "discover".into(),
            lanes: vec![LaneState::untouched(0)],
            step: 2,
            editor: None,
        }),
        speed: Some(3),
        arrival: Arrival {
            selected: Some((0, 1)),
            editor: true,
            focus: Some("play".into()),
            open: vec!["exports".into()],
        },
    };
    let mut config = Config::from_options(Mode::Frame, &json!({"autoplay": true, "step": 5}));
    config.receive(&sent.to_json());
    assert_eq!(config.link, sent.link.map(Ok));
    assert_eq!(
        (config.step, config.speed, config.autoplay),
        (0, Some(3), false)
    );
    assert_eq!(config.arrival, Some(sent.arrival));

    let mut untouched = Config::from_options(Mode::Page, &Value::Null);
    untouched.receive("not json");
    assert_eq!(untouched, Config::from_options(Mode::Page, &Value::Null));
}

#[test]
fn a_scenario_file_is_asked_for_by_url_or_as_an_object() {
    let page = Config::from_url(query(&[("scenario-url", "scenarios/w.json")]), "#v3.abc");
    assert_eq!(page.file, Some(FileRequest::Url("scenarios/w.json".into())));
    assert_eq!(page.fragment.as_deref(), Some("#v3.abc"));
    assert_eq!(page.link, None, "checked once the file is loaded");

    let frame = Config::from_url(query(&[("embed", "1"), ("scenario-url", "/x.json")]), "");
    assert_eq!(frame.mode, Mode::Frame);
    assert_eq!(frame.file, Some(FileRequest::Url("/x.json".into())));

    let object = json!({"format": "mcp-lanes-scenario/1", "id": "x", "setups": []});
    let mount = Config::from_options(Mode::Mount, &json!({"scenario": object, "setups": [5]}));
    assert_eq!(mount.file, Some(FileRequest::Inline(object)));
    assert_eq!(
        mount.problem, None,
        "set-ups are counted once the file is loaded"
    );

    let wrong = Config::from_options(Mode::Mount, &json!({"scenarioUrl": 7}));
    assert!(wrong.problem.is_some_and(|p| p.contains("scenarioUrl")));
    assert_eq!(wrong.file, None);
}

#[test]
fn an_author_names_a_figure_and_captions_it() {
    let config = Config::from_options(
        Mode::Mount,
        &json!({"scenario": "discover", "title": "Figure 1: discover", "caption": "One round trip."}),
    );
    assert_eq!(config.problem, None);
    assert_eq!(config.title.as_deref(), Some("Figure 1: discover"));
    assert_eq!(config.caption.as_deref(), Some("One round trip."));
}

#[test]
fn origins_star_is_refused_with_a_clear_problem() {
    let config = Config::from_url(query(&[("embed", "1"), ("origins", "*")]), "");
    let problem = config.problem.expect("a problem");
    assert!(problem.contains("not \"*\""), "{problem}");
    assert!(config.origins.is_empty());
}

#[test]
fn colours_are_names_and_hex_digits_only() {
    let config = Config::from_url(
        query(&[
            ("embed", "1"),
            ("colors", "ink:2b2118,accent:#0b625d"),
            ("darkColors", "page:1c1814"),
        ]),
        "",
    );
    assert_eq!(config.problem, None);
    assert_eq!(
        config.colors,
        [
            vec![
                ("--ink", "#2b2118".to_string()),
                ("--blueprint", "#0b625d".to_string())
            ],
            vec![("--bg-page", "#1c1814".to_string())],
        ]
    );
    for hostile in ["ink:red;}body{", "ink:url(x)", "nope:#000", "ink:#12345"] {
        let config = Config::from_options(Mode::Frame, &json!({ "colors": [hostile] }));
        assert!(config.problem.is_some(), "{hostile}");
        assert!(config.colors[0].is_empty(), "{hostile}");
    }
}

#[test]
fn an_iframe_figure_honours_a_permalink_fragment() {
    let link = ShareState {
        scenario: "discover".into(),
        lanes: vec![LaneState::untouched(0)],
        step: 2,
        editor: None,
    };
    let hash = format!("#{}", share::to_fragment(&link));
    let config = Config::from_url(query(&[("embed", "1"), ("scenario", "discover")]), &hash);
    assert_eq!(config.mode, Mode::Frame);
    assert_eq!(config.link, Some(Ok(link)));
}

#[test]
fn tapped_conversations_come_as_a_list_of_urls() {
    let page = Config::from_url(
        query(&[("tap", "http://127.0.0.1:7001/, http://127.0.0.1:7002/,")]),
        "",
    );
    assert_eq!(
        page.tap,
        vec!["http://127.0.0.1:7001/", "http://127.0.0.1:7002/"]
    );
    let many = ["http://127.0.0.1:1/"; MAX_TAPS + 3].join(",");
    assert_eq!(
        Config::from_url(query(&[("tap", &many)]), "").tap.len(),
        MAX_TAPS
    );
    assert!(Config::from_url(query(&[]), "").tap.is_empty());
}

#[test]
fn recorded_conversations_come_by_url_or_inline() {
    // The page: `?transcript=` is `?timeline=`'s alias.
    let page = Config::from_url(query(&[("transcript", " /t.json ")]), "");
    assert_eq!(page.timeline, Some(FileRequest::Url("/t.json".into())));
    let page = Config::from_url(query(&[("timeline", "/a.json")]), "");
    assert_eq!(page.timeline, Some(FileRequest::Url("/a.json".into())));
    // An iframe figure: `?embed=1&transcript=URL`.
    let frame = Config::from_url(query(&[("embed", "1"), ("transcript", "/t.har")]), "");
    assert_eq!(frame.timeline, Some(FileRequest::Url("/t.har".into())));
    assert_eq!(frame.problem, None);
    // `mount`: a URL, or the file's JSON itself.
    let url = Config::from_options(Mode::Mount, &json!({"transcriptUrl": "/t.json"}));
    assert_eq!(url.timeline, Some(FileRequest::Url("/t.json".into())));
    let inline = json!([{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]);
    let mounted = Config::from_options(Mode::Mount, &json!({"transcript": inline.clone()}));
    assert_eq!(mounted.timeline, Some(FileRequest::Inline(inline)));
    assert_eq!(mounted.problem, None);
    // Ill-typed ones are said like the other options' problems.
    for (options, key) in [
        (json!({"transcript": "x.json"}), "transcript"),
        (json!({"transcript": 3}), "transcript"),
        (json!({"transcriptUrl": 7}), "transcriptUrl"),
        (json!({"transcriptUrl": " "}), "transcriptUrl"),
    ] {
        let config = Config::from_options(Mode::Mount, &options);
        assert_eq!(config.timeline, None, "{options}");
        assert!(
            config.problem.as_deref().is_some_and(|p| p.contains(key)),
            "{options}: {:?}",
            config.problem
        );
    }
}
