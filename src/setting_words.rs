//! A setting's words: what a compared lane's label says of its one change
//! ("plain client · elicitation.form on"), in English as the share state
//! and permalinks record it (`i18n` says them in the page's language).
//!
//! Data layer: plain Rust.

use mcp_lanes_core::auth::Break;
use mcp_lanes_core::client::UndeclaredPolicy;
use mcp_lanes_core::protocol::version::EraMode;
use mcp_lanes_core::settings::{known_versions, Capability, Setting, AUTH_BREAKS};
use mcp_lanes_core::transport::TransportKind;

/// Words for a setting, used in a compared lane's label.
pub fn describe(setting: &Setting) -> String {
    match setting {
        Setting::ClientEra(era) => format!("client {}", era.label()),
        Setting::ClientCapability(cap, on) => {
            format!("{} {}", cap.label(), if *on { "on" } else { "off" })
        }
        Setting::PreferredVersion(v) => format!("prefers {v}"),
        Setting::ServerEra(era) => format!("server {}", era.label()),
        Setting::ServerVersion(v, on) => {
            format!("server {} {v}", if *on { "supports" } else { "drops" })
        }
        Setting::Transport(kind) => format!("over {}", kind.name()),
        Setting::Undeclared(policy) => format!("client {}", policy.label()),
        Setting::ChecksBeforeWork(true) => "checks capability first".to_string(),
        Setting::ChecksBeforeWork(false) => "no capability check first".to_string(),
        Setting::AuthBreak(b) => auth_break(*b).to_string(),
        Setting::GatewayHides(tool, true) => format!("gateway hides {tool}"),
        Setting::GatewayHides(tool, false) => format!("gateway shows {tool}"),
        // A setting without words yet: as the share state writes it.
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// Every setting the settings panel can make.
pub fn all() -> Vec<mcp_lanes_core::settings::Setting> {
    let eras = [EraMode::ModernOnly, EraMode::LegacyOnly, EraMode::DualEra];
    let mut all = Vec::new();
    for era in eras {
        all.push(Setting::ClientEra(era));
        all.push(Setting::ServerEra(era));
    }
    for cap in Capability::ALL {
        all.push(Setting::ClientCapability(cap, true));
        all.push(Setting::ClientCapability(cap, false));
    }
    for v in known_versions() {
        all.push(Setting::PreferredVersion(v.to_string()));
        all.push(Setting::ServerVersion(v.to_string(), true));
        all.push(Setting::ServerVersion(v.to_string(), false));
    }
    for kind in [TransportKind::Stdio, TransportKind::Http] {
        all.push(Setting::Transport(kind));
    }
    for policy in [
        UndeclaredPolicy::MethodNotFound,
        UndeclaredPolicy::Drop,
        UndeclaredPolicy::Close,
    ] {
        all.push(Setting::Undeclared(policy));
    }
    all.push(Setting::ChecksBeforeWork(true));
    all.push(Setting::ChecksBeforeWork(false));
    all.push(Setting::AuthBreak(None));
    for b in AUTH_BREAKS {
        all.push(Setting::AuthBreak(Some(b)));
    }
    // A gateway's tool: its name is the server's (see `gateway_setting`).
    all.push(Setting::GatewayHides("tool".into(), true));
    all.push(Setting::GatewayHides("tool".into(), false));
    all
}

/// The gateway setting whose words `describe` wrote as `words` ("gateway
/// hides forecast"), the tool's name being any server's.
pub fn gateway_setting(words: &str) -> Option<Setting> {
    if let Some(tool) = words.strip_prefix("gateway hides ") {
        return Some(Setting::GatewayHides(tool.to_string(), true));
    }
    let tool = words.strip_prefix("gateway shows ")?;
    Some(Setting::GatewayHides(tool.to_string(), false))
}

/// The words of a protected server's flow with `b` broken (as the page's
/// catalog keys `settings.auth.<name>` say them in English).
pub fn auth_break(b: Option<Break>) -> &'static str {
    match b {
        None => "nothing broken",
        Some(Break::NoPkce) => "no PKCE",
        Some(Break::WrongResource) => "a wrong resource",
        Some(Break::MissingScope) => "a missing scope",
        Some(Break::ExpiredToken) => "an expired token",
        Some(Break::WrongIssuer) => "a wrong issuer",
        Some(Break::NoResourceMetadata) => "no resource_metadata",
    }
}

/// The catalog key of [`auth_break`]'s words.
pub fn auth_break_key(b: Option<Break>) -> String {
    format!("settings.auth.{}", b.map_or("none", Break::name))
}
