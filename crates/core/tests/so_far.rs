//! A conversation still going on (tap's log, the page's `?tap=`) is graded
//! by `check::grade_so_far`: a request whose answer has not come yet is no
//! failure; everything else is `grade_recorded`'s.

use mcp_lanes_core::check::{self, Outcome};
use mcp_lanes_core::import;

#[test]
fn an_answer_not_come_yet_is_no_failure_until_the_end() {
    let text = r#"[
        {"message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}, "from": "client", "at_ms": 0},
        {"message": {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}, "from": "server", "at_ms": 3},
        {"message": {"jsonrpc": "2.0", "id": 2, "method": "prompts/list", "params": {}}, "from": "client", "at_ms": 5},
        {"message": {"jsonrpc": "2.0", "id": 1, "method": "resources/list", "params": {}}, "from": "client", "at_ms": 6}
    ]"#;
    let lanes = import::read("t", text).expect("a transcript").lanes;
    let at_the_end = check::grade_recorded(&lanes[0]);
    let so_far = check::grade_so_far(&lanes[0]);
    let failing = |vs: &[check::Verdict]| -> Vec<(String, String)> {
        vs.iter()
            .filter(|v| v.verdict == Outcome::Fail)
            .map(|v| (v.rule.clone(), v.got.clone()))
            .collect()
    };
    let end = failing(&at_the_end);
    assert!(end.iter().any(|(_, got)| got == "no answer"), "{end:?}");
    let now = failing(&so_far);
    assert!(!now.iter().any(|(_, got)| got == "no answer"), "{now:?}");
    // What is wrong already stays wrong: nothing else is left out.
    let others: Vec<_> = end
        .into_iter()
        .filter(|(_, got)| got != "no answer")
        .collect();
    assert_eq!(now, others);
    assert_eq!(
        so_far.len()
            + at_the_end
                .iter()
                .filter(|v| v.verdict == Outcome::Fail && v.got == "no answer")
                .count(),
        at_the_end.len()
    );
}
