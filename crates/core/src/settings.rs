//! The knobs a person can turn on a set-up (the UI's settings panel and the
//! "compare" action), applied so the result is always a consistent
//! configuration. The UI only picks a [`Setting`]; what it means for the
//! client and server configs is decided here.

use serde::{Deserialize, Serialize};

use crate::auth::Break;
use crate::client::UndeclaredPolicy;
use crate::protocol::capabilities::{settings, ElicitationCapability};
use crate::protocol::version::EraMode;
use crate::protocol::{meta, ClientCapabilities, ProtocolVersion};
use crate::sim::Setup;
use crate::transport::TransportKind;

/// A client capability that can be declared or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Capability {
    /// `elicitation.form` (form-mode questions).
    ElicitationForm,
    /// `elicitation.url` (URL-mode questions).
    ElicitationUrl,
    /// `sampling`.
    Sampling,
    /// `roots`.
    Roots,
    /// `extensions["io.modelcontextprotocol/tasks"]`.
    TasksExtension,
}

impl Capability {
    /// All toggles, in display order.
    pub const ALL: [Capability; 5] = [
        Capability::ElicitationForm,
        Capability::ElicitationUrl,
        Capability::Sampling,
        Capability::Roots,
        Capability::TasksExtension,
    ];
    /// Label as written in JSON.
    pub fn label(self) -> &'static str {
        match self {
            Capability::ElicitationForm => "elicitation.form",
            Capability::ElicitationUrl => "elicitation.url",
            Capability::Sampling => "sampling",
            Capability::Roots => "roots",
            Capability::TasksExtension => "extensions: tasks",
        }
    }
}

/// One change to a set-up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "setting", content = "value", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Setting {
    /// Which eras the client speaks.
    ClientEra(EraMode),
    /// Declare (true) or stop declaring (false) a client capability.
    ClientCapability(Capability, bool),
    /// The modern version the client prefers (names in `_meta`).
    PreferredVersion(String),
    /// Which eras the server speaks.
    ServerEra(EraMode),
    /// Whether the server supports a given version.
    ServerVersion(String, bool),
    /// Transport between the two.
    Transport(TransportKind),
    /// What a legacy client does with an undeclared request.
    Undeclared(UndeclaredPolicy),
    /// Whether the server checks capabilities before doing work.
    ChecksBeforeWork(bool),
    /// A protected server's flow with one step broken on purpose (`None`:
    /// nothing broken); no change to a set-up whose server is not protected.
    AuthBreak(Option<Break>),
    /// Whether the set-up's gateway hides (true) or lets through (false)
    /// the server's tool of this name (G-FILTER); no change to a set-up
    /// without a gateway.
    GatewayHides(String, bool),
}

/// The breaks the settings panel offers (the others are scenarios of their
/// own: a wrong issuer, a challenge without `resource_metadata`).
pub const AUTH_BREAKS: [Break; 4] = [
    Break::NoPkce,
    Break::WrongResource,
    Break::MissingScope,
    Break::ExpiredToken,
];

/// Every version string the settings offer.
pub fn known_versions() -> Vec<&'static str> {
    let mut all = vec![ProtocolVersion::MODERN];
    all.extend_from_slice(ProtocolVersion::LEGACY);
    all
}

/// Whether `cap` is currently declared by the set-up's client.
pub fn declares(setup: &Setup, cap: Capability) -> bool {
    has_capability(&setup.client.capabilities, cap)
}

/// Whether a ClientCapabilities object declares `cap`.
pub fn has_capability(caps: &ClientCapabilities, cap: Capability) -> bool {
    match cap {
        Capability::ElicitationForm => caps.elicitation.as_ref().is_some_and(|e| e.supports_form()),
        Capability::ElicitationUrl => caps.elicitation.as_ref().is_some_and(|e| e.supports_url()),
        Capability::Sampling => caps.sampling.is_some(),
        Capability::Roots => caps.roots.is_some(),
        Capability::TasksExtension => caps
            .extensions
            .as_ref()
            .is_some_and(|e| e.contains_key(meta::TASKS_EXTENSION)),
    }
}

/// Applies a change, keeping the configuration consistent (e.g. a
/// legacy-only server always has at least one legacy version).
pub fn apply(setup: &mut Setup, setting: &Setting) {
    match setting {
        Setting::ClientEra(era) => {
            setup.client.era = *era;
            if era.speaks_modern() && setup.client.modern_versions.is_empty() {
                setup.client.modern_versions = vec![ProtocolVersion::MODERN.into()];
            }
            if era.speaks_legacy() && setup.client.legacy_versions.is_empty() {
                setup.client.legacy_versions = vec![ProtocolVersion::LEGACY_FALLBACK.into()];
            }
        }
        Setting::ClientCapability(cap, on) => set_capability(setup, *cap, *on),
        Setting::PreferredVersion(v) => {
            let versions = &mut setup.client.modern_versions;
            versions.retain(|x| x != v);
            versions.insert(0, v.clone());
        }
        Setting::ServerEra(era) => {
            let server = &mut setup.server;
            server.era = *era;
            if era.speaks_modern() && server.modern_versions.is_empty() {
                server.modern_versions = vec![ProtocolVersion::MODERN.into()];
            }
            if !era.speaks_modern() {
                server.modern_versions.clear();
            }
            if era.speaks_legacy() && server.legacy_versions.is_empty() {
                server.legacy_versions = vec![ProtocolVersion::LEGACY_FALLBACK.into()];
            }
            if !era.speaks_legacy() {
                server.legacy_versions.clear();
            }
        }
        Setting::ServerVersion(v, on) => {
            let server = &mut setup.server;
            let list = if ProtocolVersion::era_of(v) == crate::protocol::Era::Modern {
                &mut server.modern_versions
            } else {
                &mut server.legacy_versions
            };
            list.retain(|x| x != v);
            if *on {
                list.push(v.clone());
                list.sort_by(|a, b| b.cmp(a));
            }
        }
        Setting::Transport(kind) => setup.channel.kind = *kind,
        Setting::Undeclared(policy) => setup.client.undeclared = *policy,
        Setting::ChecksBeforeWork(on) => setup.server.checks_capability_before_work = *on,
        Setting::AuthBreak(b) => {
            if let Some(auth) = setup.auth.as_mut() {
                auth.broken = *b;
            }
        }
        Setting::GatewayHides(tool, hide) => {
            if let Some(gateway) = setup.gateway.as_mut() {
                gateway.hide.retain(|t| t != tool);
                if *hide {
                    gateway.hide.push(tool.clone());
                }
            }
        }
    }
}

/// Declares (or stops declaring) `cap` in a ClientCapabilities object,
/// keeping the object well-formed (e.g. no empty `extensions`).
pub fn set_capability_in(caps: &mut ClientCapabilities, cap: Capability, on: bool) {
    match cap {
        Capability::ElicitationForm | Capability::ElicitationUrl => {
            let mut e = caps.elicitation.clone().unwrap_or_default();
            let (form, url) = (
                e.supports_form() && caps.elicitation.is_some(),
                e.supports_url(),
            );
            let (form, url) = if cap == Capability::ElicitationForm {
                (on, url)
            } else {
                (form, on)
            };
            e = ElicitationCapability {
                form: form.then(|| settings(serde_json::json!({}))),
                url: url.then(|| settings(serde_json::json!({}))),
            };
            caps.elicitation = (form || url).then_some(e);
        }
        Capability::Sampling => caps.sampling = on.then(|| settings(serde_json::json!({}))),
        Capability::Roots => caps.roots = on.then(|| settings(serde_json::json!({}))),
        Capability::TasksExtension => {
            let mut ext = caps.extensions.clone().unwrap_or_default();
            if on {
                ext.insert(meta::TASKS_EXTENSION.into(), serde_json::json!({}));
            } else {
                ext.remove(meta::TASKS_EXTENSION);
            }
            caps.extensions = (!ext.is_empty()).then_some(ext);
        }
    }
}

fn set_capability(setup: &mut Setup, cap: Capability, on: bool) {
    set_capability_in(&mut setup.client.capabilities, cap, on);
    let caps = &setup.client.capabilities;
    // A step that pinned its own declaration follows the toggle too, so the
    // change is visible on every request of the run.
    for step in &mut setup.script {
        if let crate::client::Step::Request {
            declare: Some(d), ..
        } = step
        {
            if on {
                *d = caps.clone();
            }
        }
    }
}
