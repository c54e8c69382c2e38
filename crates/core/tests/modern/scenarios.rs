//! Eras, and the results of every catalog scenario in the modern revision.

use crate::common::*;
use mcp_lanes_core::protocol::meta;
use serde_json::{json, Value};

// ---- eras ------------------------------------------------------------------------------

#[test]
fn e_terms_era_is_the_message_shape_not_the_version_string() {
    // A modern request naming a legacy version is still modern: -32022, not
    // a legacy answer and not -32601.
    for preset in ["deploy-console", "dual-era"] {
        let mut s = server(preset);
        let r = reply(
            &mut s,
            &modern_v(json!(1), "tools/list", json!({}), "2025-06-18", json!({})),
        );
        assert_eq!(code(&r), Some(-32022), "{preset}: {r}");
    }
    // A legacy-shaped request to a modern-only server is a malformed modern
    // request (no _meta), not a legacy session.
    let mut s = server("deploy-console");
    let r = reply(&mut s, &plain(json!(2), "tools/list"));
    assert_eq!(code(&r), Some(-32602), "{r}");
    use mcp_lanes_core::protocol::{Era, ProtocolVersion};
    assert_eq!(ProtocolVersion::era_of("2026-07-28"), Era::Modern);
    assert_eq!(ProtocolVersion::era_of("2025-11-25"), Era::Legacy);
    assert_eq!(ProtocolVersion::era_of("2024-11-05"), Era::Legacy);
}

/// Every server result of the 2026-07-28 revision in every scenario, with
/// the method of the request it answers.
fn scenario_modern_results() -> Vec<(String, String, Value)> {
    use mcp_lanes_core::sim::Side;
    use std::collections::HashMap;
    let mut out = Vec::new();
    for id in scenario_ids() {
        for t in run(id) {
            let mut asked: HashMap<String, String> = HashMap::new();
            for (_, m) in t.messages() {
                let Some(json) = &m.json else { continue };
                if m.from == Side::Client {
                    if let (Some(method), Some(rid)) = (json["method"].as_str(), json.get("id")) {
                        asked.insert(rid.to_string(), method.to_string());
                    }
                } else if m.revision == MODERN
                    && json.get("result").is_some()
                    // A reply a set-up scripts wrong on purpose is marked.
                    && m.violation.is_none()
                {
                    let method = asked
                        .get(&json["id"].to_string())
                        .cloned()
                        .unwrap_or_default();
                    out.push((
                        format!("{id} / {}", t.label),
                        method,
                        json["result"].clone(),
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn m_sinfo_and_m_result_type_on_every_modern_result_of_every_scenario() {
    let results = scenario_modern_results();
    assert!(results.len() > 20, "{}", results.len());
    for (where_, method, result) in results {
        assert!(
            result["_meta"][meta::SERVER_INFO]["name"].is_string(),
            "{where_}: {method} result without serverInfo: {result}"
        );
        assert!(
            matches!(
                result["resultType"].as_str(),
                Some("complete") | Some("input_required")
            ),
            "{where_}: {method}: {result}"
        );
    }
}

#[test]
fn m_cache_hints_in_every_scenario_only_where_cacheable() {
    use mcp_lanes_core::protocol::methods;
    for (where_, method, result) in scenario_modern_results() {
        let complete = result["resultType"] == "complete";
        let has_hints = result.get("ttlMs").is_some() || result.get("cacheScope").is_some();
        if methods::is_cacheable(&method) && complete {
            assert!(
                result["ttlMs"].is_u64() && result["cacheScope"].is_string(),
                "{where_}: {method}: {result}"
            );
        } else {
            assert!(
                !has_hints,
                "{where_}: {method} must not carry cache hints: {result}"
            );
        }
    }
}
