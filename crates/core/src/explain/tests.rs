use serde_json::json;

use super::*;

#[test]
fn every_entry_names_known_rules_and_a_section() {
    for f in all() {
        assert!(!f.section.is_empty(), "{}", f.key);
        for id in f.rules {
            assert!(crate::rules::find(id).is_some(), "{}: no rule {id}", f.key);
        }
        assert!(!f.text.is_empty(), "{}", f.key);
        assert!(f.spec_url().starts_with("https://"), "{}", f.key);
    }
    let mut keys: Vec<_> = all().map(|f| f.key).collect();
    let n = keys.len();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), n, "a key is in the table twice");
    // The fallback says what the table's own entry says.
    assert_eq!(find(UNKNOWN_KEY), Some(&table::UNKNOWN));
}

const UNKNOWN_KEY: &str = "any.unknown";

#[test]
fn m_cache_hints_ttl_ms_and_cache_scope_are_explained_with_their_rules() {
    let result = json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "ttlMs": 0, "cacheScope": "public"}});
    let walked = walk(&result);
    let paths: Vec<_> = walked.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "jsonrpc",
            "id",
            "result",
            "result.resultType",
            "result.ttlMs",
            "result.cacheScope"
        ]
    );
    let ttl = &walked[4].field;
    assert_eq!(ttl.key, "ttlMs");
    assert!(ttl.rules.contains(&crate::rules::M_CACHE_HINTS));
    assert_eq!(
        ttl.spec_url(),
        "https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching"
    );
    assert!(walked[3].field.rules.contains(&crate::rules::M_RESULT_TYPE));
}

#[test]
fn m_meta_required_reserved_meta_keys_say_their_abbreviation() {
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
        "com.example/trace": {"span": 1}
    }}});
    let walked = walk(&request);
    let by_path = |p: &str| walked.iter().find(|e| e.path == p).map(|e| e.field.key);
    assert_eq!(
        by_path("params._meta[\"io.modelcontextprotocol/protocolVersion\"]"),
        Some("meta.protocolVersion")
    );
    assert_eq!(
        by_path("params._meta[\"io.modelcontextprotocol/clientCapabilities\"].elicitation"),
        Some("cap.elicitation")
    );
    assert_eq!(
        by_path("params._meta[\"io.modelcontextprotocol/clientCapabilities\"].elicitation.form"),
        Some("capsub.form")
    );
    assert_eq!(
        by_path("params._meta[\"io.modelcontextprotocol/clientInfo\"].name"),
        Some("name")
    );
    assert_eq!(
        by_path("params._meta[\"com.example/trace\"]"),
        Some("any.meta")
    );
    assert_eq!(
        by_path("params._meta[\"com.example/trace\"].span"),
        Some("any.meta")
    );
    assert!(find("meta.protocolVersion")
        .unwrap()
        .text
        .starts_with("Protocol version (PV)"));
    for abbr in ABBREVIATIONS {
        let f = abbreviation(abbr).expect(abbr);
        assert!(f.text.starts_with(&format!("{abbr}: ")), "{abbr}");
    }
}

#[test]
fn m_version_error_code_and_its_data_are_explained() {
    let reply = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32022, "message": "Unsupported protocol version",
        "data": {"supported": ["2026-07-28"], "requested": "2025-11-25"}}});
    let walked = walk(&reply);
    let key = |p: &str| walked.iter().find(|e| e.path == p).map(|e| e.field.key);
    assert_eq!(key("error.code"), Some("code.-32022"));
    assert_eq!(key("error.message"), Some("error.message"));
    assert_eq!(key("error.data"), Some("error.data"));
    assert_eq!(key("error.data.supported"), Some("supported"));
    assert_eq!(key("error.data.requested"), Some("requested"));
    let odd = walk(&json!({"error": {"code": -31999}}));
    assert_eq!(odd[1].field.key, "error.code");
    for c in crate::protocol::jsonrpc::ErrorCode::RECOGNIZED_MODERN {
        assert!(code(c.0).is_some(), "{}", c.0);
    }
}

#[test]
fn m_cap_required_missing_capability_data_is_a_capability_object() {
    let reply = json!({"error": {"code": -32021, "message": "m", "data": {"requiredCapabilities": {"elicitation": {}}}}});
    let walked = walk(&reply);
    assert_eq!(walked[4].field.key, "requiredCapabilities");
    assert_eq!(walked[5].field.key, "cap.elicitation");
}

#[test]
fn m_tool_input_arguments_and_schema_properties_are_named_by_their_author() {
    let msg = json!({"result": {"tools": [{"name": "t", "inputSchema": {"type": "object",
        "properties": {"type": {"type": "string", "x-mcp-header": "Kind", "default": {"a": 1}}}, "required": ["type"]}}]},
        "params": {"name": "t", "arguments": {"type": {"nested": 1}}}});
    let walked = walk(&msg);
    let key = |p: &str| walked.iter().find(|e| e.path == p).map(|e| e.field.key);
    assert_eq!(key("result.tools"), Some("tools"));
    assert_eq!(key("result.tools[0].inputSchema.type"), Some("schema.type"));
    assert_eq!(
        key("result.tools[0].inputSchema.properties.type"),
        Some("any.property")
    );
    assert_eq!(
        key("result.tools[0].inputSchema.properties.type.type"),
        Some("schema.type")
    );
    assert_eq!(
        key("result.tools[0].inputSchema.properties.type.x-mcp-header"),
        Some("schema.x-mcp-header")
    );
    assert_eq!(
        key("result.tools[0].inputSchema.properties.type.default.a"),
        Some("any.value")
    );
    assert_eq!(key("params.arguments.type"), Some("any.argument"));
    assert_eq!(key("params.arguments.type.nested"), Some("any.argument"));
}

#[test]
fn m_mrtr_input_requests_are_keyed_by_the_server() {
    let msg = json!({"result": {"resultType": "input_required", "inputRequests": {"confirm": {"method": "elicitation/create",
        "params": {"mode": "form", "message": "ok?", "requestedSchema": {"type": "object", "properties": {}}}}}, "requestState": "x"}});
    let walked = walk(&msg);
    let key = |p: &str| walked.iter().find(|e| e.path == p).map(|e| e.field.key);
    assert_eq!(key("result.inputRequests"), Some("inputRequests"));
    assert_eq!(key("result.inputRequests.confirm"), Some("any.input"));
    assert_eq!(key("result.inputRequests.confirm.method"), Some("method"));
    assert_eq!(
        key("result.inputRequests.confirm.params.requestedSchema.properties"),
        Some("schema.properties")
    );
    assert_eq!(key("result.requestState"), Some("requestState"));
    assert!(find("inputRequests")
        .unwrap()
        .text
        .contains("(multi round-trip requests, MRTR)"));
}

#[test]
fn rpc_unknown_field_a_key_no_schema_defines_is_said_to_be_ignored() {
    let walked = walk(&json!({"jsonrpc": "2.0", "id": 1, "result": {"x-vendor": 1}}));
    assert_eq!(walked[3].field.key, "any.unknown");
    assert!(walked[3]
        .field
        .rules
        .contains(&crate::rules::RPC_UNKNOWN_FIELD));
}

#[test]
fn h_headers_every_header_the_simulator_draws_is_explained_in_any_case() {
    for name in [
        "Content-Type",
        "accept",
        "MCP-Protocol-Version",
        "Mcp-Method",
        "Mcp-Name",
        "Mcp-Session-Id",
        "Mcp-Param-Region",
        "Last-Event-ID",
        "Origin",
        "Host",
        "Allow",
    ] {
        assert!(header(name).is_some(), "{name}");
    }
    assert_eq!(
        header("mcp-param-level").map(|f| f.key),
        Some("header.mcp-param")
    );
    assert!(header("X-Other").is_none());
}

#[test]
fn a_bearer_the_token_header_and_the_servers_challenge_are_explained() {
    let token = header("Authorization").expect("Authorization");
    assert!(token.rules.contains(&crate::rules::A_BEARER));
    assert_eq!(
        token.spec_url(),
        "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#access-token-usage"
    );
    let challenge = header("www-authenticate").expect("WWW-Authenticate");
    assert!(challenge.rules.contains(&crate::rules::A_CHALLENGE));
}

#[test]
fn paths_quote_keys_that_are_not_plain_names() {
    let mut p = String::new();
    push_key(&mut p, "a");
    push_index(&mut p, 2);
    push_key(&mut p, "b\"c");
    push_key(&mut p, "d-e");
    assert_eq!(p, "a[2][\"b\\\"c\"].d-e");
}
