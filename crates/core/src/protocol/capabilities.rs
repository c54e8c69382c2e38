//! Capability objects and implementation info. Optional fields skip when
//! absent; unknown keys are ignored, never rejected (RPC-UNKNOWN-FIELD).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// An open JSON object used for capability settings (`{}` = supported).
pub type Settings = Map<String, Value>;

/// Elicitation modes a client accepts (M-CAP-ELICIT-MODES).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ElicitationCapability {
    /// Form mode. `elicitation: {}` also means form mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<Settings>,
    /// URL mode; only when declared explicitly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<Settings>,
}

impl ElicitationCapability {
    /// Form mode is supported when declared or when the object is empty.
    pub fn supports_form(&self) -> bool {
        self.form.is_some() || self.url.is_none()
    }
    /// URL mode needs `elicitation.url`.
    pub fn supports_url(&self) -> bool {
        self.url.is_some()
    }
}

/// What a client can accept (ClientCapabilities).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClientCapabilities {
    /// Server may ask the user questions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<ElicitationCapability>,
    /// Server may ask for model completions (deprecated in 2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<Settings>,
    /// Server may list the client's roots (deprecated in 2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roots: Option<Settings>,
    /// Optional extensions, keyed by identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Map<String, Value>>,
    /// Experimental capabilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<Map<String, Value>>,
}

impl ClientCapabilities {
    /// `{}`: only the basics.
    pub fn none() -> Self {
        Self::default()
    }
    /// `{"elicitation": {}}`: form-mode elicitation.
    pub fn elicitation_form() -> Self {
        Self {
            elicitation: Some(ElicitationCapability::default()),
            ..Self::default()
        }
    }
    /// `{"elicitation": {"url": {}}}`: URL-mode elicitation.
    pub fn elicitation_url() -> Self {
        Self {
            elicitation: Some(ElicitationCapability {
                form: None,
                url: Some(Settings::new()),
            }),
            ..Self::default()
        }
    }
    /// Whether every capability named in `required` is declared here.
    pub fn covers(&self, required: &ClientCapabilities) -> bool {
        self.missing(required).is_empty()
    }
    /// The part of `required` this object does not declare, shaped like
    /// ClientCapabilities (for `data.requiredCapabilities`).
    pub fn missing(&self, required: &ClientCapabilities) -> ClientCapabilities {
        let mut out = ClientCapabilities::default();
        if let Some(req) = &required.elicitation {
            let ok = match &self.elicitation {
                None => false,
                // `elicitation: {}` requires form mode (M-CAP-ELICIT-MODES).
                Some(have) => {
                    (!req.supports_url() || have.supports_url())
                        && (!req.supports_form() || have.supports_form())
                }
            };
            if !ok {
                out.elicitation = Some(req.clone());
            }
        }
        if required.sampling.is_some() && self.sampling.is_none() {
            out.sampling = required.sampling.clone();
        }
        if required.roots.is_some() && self.roots.is_none() {
            out.roots = required.roots.clone();
        }
        if let Some(req) = &required.extensions {
            let have = self.extensions.clone().unwrap_or_default();
            let lacking: Map<String, Value> = req
                .iter()
                .filter(|(k, _)| !have.contains_key(*k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if !lacking.is_empty() {
                out.extensions = Some(lacking);
            }
        }
        out
    }
    /// Whether this declares the capability `name` (`elicitation`,
    /// `sampling`, `roots`): what a server request's row says a client
    /// must have declared ([`LegacyNeeds`](super::methods::LegacyNeeds)).
    pub fn declares(&self, name: &str) -> bool {
        match name {
            "elicitation" => self.elicitation.is_some(),
            "sampling" => self.sampling.is_some(),
            "roots" => self.roots.is_some(),
            _ => false,
        }
    }
    /// Whether nothing at all is declared.
    pub fn is_empty(&self) -> bool {
        self == &ClientCapabilities::default()
    }
    /// Names of the declared top-level capabilities, for narration.
    pub fn names(&self) -> Vec<String> {
        match self.to_json() {
            Value::Object(map) => map.keys().cloned().collect(),
            _ => Vec::new(),
        }
    }
    /// Reads ClientCapabilities from JSON, keeping what it knows and
    /// ignoring the rest (RPC-UNKNOWN-FIELD); wrong types read as absent.
    /// (Hand-written rather than derived: far smaller in WebAssembly.)
    pub fn from_json(value: &Value) -> Self {
        let object = |v: Option<&Value>, key: &str| {
            v.and_then(|v| v.get(key))
                .and_then(Value::as_object)
                .cloned()
        };
        let v = Some(value);
        let elicitation = value.get("elicitation");
        ClientCapabilities {
            elicitation: elicitation
                .and_then(Value::as_object)
                .map(|_| ElicitationCapability {
                    form: object(elicitation, "form"),
                    url: object(elicitation, "url"),
                }),
            sampling: object(v, "sampling"),
            roots: object(v, "roots"),
            extensions: object(v, "extensions"),
            experimental: object(v, "experimental"),
        }
    }
    /// This object as JSON (hand-written, like [`ClientCapabilities::from_json`]).
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        if let Some(e) = &self.elicitation {
            let mut em = Map::new();
            if let Some(form) = &e.form {
                em.insert("form".into(), Value::Object(form.clone()));
            }
            if let Some(url) = &e.url {
                em.insert("url".into(), Value::Object(url.clone()));
            }
            out.insert("elicitation".into(), Value::Object(em));
        }
        let rest = [
            ("sampling", &self.sampling),
            ("roots", &self.roots),
            ("extensions", &self.extensions),
            ("experimental", &self.experimental),
        ];
        for (key, slot) in rest {
            if let Some(map) = slot {
                out.insert(key.into(), Value::Object(map.clone()));
            }
        }
        Value::Object(out)
    }
}

/// A `listChanged` / `subscribe` style capability with optional flags.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ListCapability {
    /// The server announces list changes.
    #[serde(
        rename = "listChanged",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub list_changed: Option<bool>,
    /// Resources only: the server accepts subscriptions (legacy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribe: Option<bool>,
}

/// What a server offers (ServerCapabilities).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ServerCapabilities {
    /// Tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<ListCapability>,
    /// Resources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ListCapability>,
    /// Prompts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<ListCapability>,
    /// Argument completions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completions: Option<Settings>,
    /// Logging (deprecated in 2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logging: Option<Settings>,
    /// Extensions, keyed by identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Map<String, Value>>,
}

impl ListCapability {
    /// Whether `cap`, a list capability a server may not have, declares
    /// `listChanged: true`.
    pub fn announces_changes(cap: &Option<ListCapability>) -> bool {
        cap.as_ref().and_then(|c| c.list_changed).unwrap_or(false)
    }

    fn to_json(&self) -> Value {
        let mut out = Map::new();
        if let Some(v) = self.list_changed {
            out.insert("listChanged".into(), Value::Bool(v));
        }
        if let Some(v) = self.subscribe {
            out.insert("subscribe".into(), Value::Bool(v));
        }
        Value::Object(out)
    }
}

impl ServerCapabilities {
    /// Whether this declares the capability `name` (`tools`, `prompts`,
    /// `resources`, `completions`, `logging`), or, as `name.flag`, a flag
    /// of a list capability set to true (`resources.subscribe`,
    /// `tools.listChanged`): what a method's row says a legacy session
    /// needs ([`LegacyNeeds`](super::methods::LegacyNeeds)).
    pub fn declares(&self, name: &str) -> bool {
        let (name, flag) = match name.split_once('.') {
            Some((name, flag)) => (name, Some(flag)),
            None => (name, None),
        };
        let list = match name {
            "tools" => &self.tools,
            "prompts" => &self.prompts,
            "resources" => &self.resources,
            "completions" => return flag.is_none() && self.completions.is_some(),
            "logging" => return flag.is_none() && self.logging.is_some(),
            _ => return false,
        };
        match (list, flag) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(cap), Some("subscribe")) => cap.subscribe.unwrap_or(false),
            (Some(cap), Some("listChanged")) => cap.list_changed.unwrap_or(false),
            (Some(_), Some(_)) => false,
        }
    }

    /// This object as JSON (hand-written: far smaller in WebAssembly than
    /// the derived serializer).
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        for (key, slot) in [
            ("tools", &self.tools),
            ("resources", &self.resources),
            ("prompts", &self.prompts),
        ] {
            if let Some(cap) = slot {
                out.insert(key.into(), cap.to_json());
            }
        }
        for (key, slot) in [
            ("completions", &self.completions),
            ("logging", &self.logging),
            ("extensions", &self.extensions),
        ] {
            if let Some(map) = slot {
                out.insert(key.into(), Value::Object(map.clone()));
            }
        }
        Value::Object(out)
    }
}

/// Name and version of a peer (serverInfo / clientInfo). Display only (M-SINFO).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Implementation {
    /// Programmatic name.
    pub name: String,
    /// Version string.
    pub version: String,
}

impl Implementation {
    /// A name/version pair.
    pub fn new(name: &str, version: &str) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
        }
    }
    /// This object as JSON.
    pub fn to_json(&self) -> Value {
        serde_json::json!({"name": self.name, "version": self.version})
    }
}

/// Builds a settings object from a JSON literal (must be an object).
pub fn settings(value: Value) -> Settings {
    match value {
        Value::Object(map) => map,
        _ => Settings::new(),
    }
}
