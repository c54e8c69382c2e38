//! A validator over the official MCP JSON Schemas of every revision.
//!
//! Each revision's `schema.json` is loaded once. A message is checked against
//! the most specific definition that applies to it:
//! - a request or notification: every definition whose `method` is the
//!   constant equal to its method;
//! - a result response: the revision's result-response envelope, then the
//!   `result` against the result type of the originating method
//!   (`InputRequiredResult` when `resultType` is `input_required`), and the
//!   method's `<Type>Response` definition where the revision has one;
//! - an error response: the revision's error-response envelope, plus the
//!   definition for its code when the revision has one (a whole-response
//!   definition such as `UnsupportedProtocolVersionError`, or an
//!   error-object definition such as `ParseError`).
//!
//! A single definition is checked by compiling
//! `{"$schema": …, "$ref": "#/$defs/Name", "$defs": {…all…}}` (or
//! `definitions` for draft-07), once per definition.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::{Draft, Validator};
use mcp_lanes_core::protocol::methods;
use serde_json::{json, Map, Value};

/// Every revision whose schema the spec folder holds.
pub const REVISIONS: &[&str] = &[
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

/// One revision's schema.
struct Revision {
    draft: Draft,
    meta_schema: String,
    defs_key: &'static str,
    defs: Map<String, Value>,
    cache: Mutex<HashMap<String, Arc<Validator>>>,
}

/// The schemas of every revision.
pub struct Schemas {
    revisions: BTreeMap<String, Revision>,
}

/// Why a message failed: the definition and the error lines.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The definition (or the lookup) that failed.
    pub def: String,
    /// One line per error: `instance path: message (schema path)`.
    pub errors: Vec<String>,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "against {}:", self.def)?;
        for e in &self.errors {
            write!(f, "\n      {e}")?;
        }
        Ok(())
    }
}

/// The schemas, loaded once per test binary.
pub fn schemas() -> &'static Schemas {
    static SCHEMAS: OnceLock<Schemas> = OnceLock::new();
    SCHEMAS.get_or_init(Schemas::load)
}

impl Schemas {
    fn load() -> Schemas {
        let dir = super::spec_dir();
        let mut revisions = BTreeMap::new();
        for rev in REVISIONS {
            let path = dir.join(rev).join("schema.json");
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let root: Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
            let meta_schema = root["$schema"].as_str().unwrap_or_default().to_string();
            let (draft, defs_key) = if meta_schema.contains("draft-07") {
                (Draft::Draft7, "definitions")
            } else if meta_schema.contains("2020-12") {
                (Draft::Draft202012, "$defs")
            } else {
                panic!("{}: unexpected $schema {meta_schema:?}", path.display())
            };
            let defs = root[defs_key]
                .as_object()
                .unwrap_or_else(|| panic!("{} has no {defs_key}", path.display()))
                .clone();
            revisions.insert(
                rev.to_string(),
                Revision {
                    draft,
                    meta_schema,
                    defs_key,
                    defs,
                    cache: Mutex::new(HashMap::new()),
                },
            );
        }
        Schemas { revisions }
    }

    fn revision(&self, rev: &str) -> Result<&Revision, Failure> {
        self.revisions.get(rev).ok_or_else(|| Failure {
            def: "(revision lookup)".into(),
            errors: vec![format!("no schema for revision {rev:?}")],
        })
    }

    /// Whether `rev` defines `def`.
    pub fn has_def(&self, rev: &str, def: &str) -> bool {
        self.revisions
            .get(rev)
            .is_some_and(|r| r.defs.contains_key(def))
    }

    /// Every definition of a revision.
    pub fn defs(&self, rev: &str) -> &Map<String, Value> {
        &self.revisions[rev].defs
    }

    fn validator(&self, rev: &str, def: &str) -> Result<Arc<Validator>, Failure> {
        let revision = self.revision(rev)?;
        if !revision.defs.contains_key(def) {
            return Err(Failure {
                def: def.into(),
                errors: vec![format!("revision {rev} has no definition {def}")],
            });
        }
        let mut cache = revision.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(v) = cache.get(def) {
            return Ok(v.clone());
        }
        let mut schema = Map::new();
        schema.insert("$schema".into(), json!(revision.meta_schema));
        schema.insert(
            "$ref".into(),
            json!(format!("#/{}/{def}", revision.defs_key)),
        );
        schema.insert(
            revision.defs_key.into(),
            Value::Object(revision.defs.clone()),
        );
        let validator = jsonschema::options()
            .with_draft(revision.draft)
            .build(&Value::Object(schema))
            .map_err(|e| Failure {
                def: def.into(),
                errors: vec![format!("the schema of {def} does not compile: {e}")],
            })?;
        let validator = Arc::new(validator);
        cache.insert(def.to_string(), validator.clone());
        Ok(validator)
    }

    /// Checks `instance` against one definition of revision `rev`.
    pub fn validate_def(&self, rev: &str, def: &str, instance: &Value) -> Result<(), Failure> {
        let validator = self.validator(rev, def)?;
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .map(|e| {
                let path = e.instance_path().to_string();
                let at = if path.is_empty() { "/".into() } else { path };
                format!("{at}: {e} (schema {})", e.schema_path())
            })
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Failure {
                def: def.into(),
                errors,
            })
        }
    }

    /// The definitions whose `method` is the constant `method`.
    pub fn defs_for_method(&self, rev: &str, method: &str) -> Vec<String> {
        let Some(revision) = self.revisions.get(rev) else {
            return Vec::new();
        };
        let mut found: Vec<String> = revision
            .defs
            .iter()
            .filter(|(_, d)| d.pointer("/properties/method/const") == Some(&json!(method)))
            .map(|(k, _)| k.clone())
            .collect();
        // Unions such as ClientNotification only match when nothing more
        // specific does.
        if found.len() > 1 {
            found.retain(|k| {
                !matches!(
                    k.as_str(),
                    "ClientNotification" | "ServerNotification" | "ClientRequest" | "ServerRequest"
                )
            });
        }
        found
    }

    /// Whether any revision defines a message with this method.
    pub fn method_known_anywhere(&self, method: &str) -> bool {
        REVISIONS
            .iter()
            .any(|rev| !self.defs_for_method(rev, method).is_empty())
    }

    /// The definition for an error code: `(name, whole_response)`.
    pub fn def_for_error_code(&self, rev: &str, code: i64) -> Option<(String, bool)> {
        mcp_lanes_core::protocol::schema_defs::error_code_definition(
            &self.revisions.get(rev)?.defs,
            code,
        )
    }

    /// The revision's envelope for a result response.
    pub fn result_envelope(&self, rev: &str) -> &'static str {
        if self.has_def(rev, "JSONRPCResultResponse") {
            "JSONRPCResultResponse"
        } else {
            "JSONRPCResponse"
        }
    }

    /// The revision's envelope for an error response.
    pub fn error_envelope(&self, rev: &str) -> &'static str {
        if self.has_def(rev, "JSONRPCErrorResponse") {
            "JSONRPCErrorResponse"
        } else {
            "JSONRPCError"
        }
    }

    /// Validates one wire message of revision `rev`. `origin` is the method
    /// of the request a response answers (needed for results). Returns the
    /// definitions checked.
    pub fn validate_message(
        &self,
        rev: &str,
        message: &Value,
        origin: Option<&str>,
    ) -> Result<Vec<String>, Failure> {
        self.revision(rev)?;
        let mut checked = Vec::new();
        let Some(obj) = message.as_object() else {
            return Err(Failure {
                def: "(shape)".into(),
                errors: vec![format!("not a JSON object: {message}")],
            });
        };
        if let Some(method) = obj.get("method").and_then(Value::as_str) {
            let defs = self.defs_for_method(rev, method);
            if defs.is_empty() && !self.method_known_anywhere(method) {
                // A method no revision defines (e.g. a deliberately unknown
                // one): it can only be checked as a generic JSON-RPC message.
                let generic = if obj.contains_key("id") {
                    "JSONRPCRequest"
                } else {
                    "JSONRPCNotification"
                };
                self.validate_def(rev, generic, message)?;
                return Ok(vec![format!(
                    "{generic} (method unknown to every revision)"
                )]);
            }
            if defs.is_empty() {
                return Err(Failure {
                    def: "(method lookup)".into(),
                    errors: vec![format!(
                        "revision {rev} defines no message with method {method:?}"
                    )],
                });
            }
            for def in defs {
                self.validate_def(rev, &def, message)?;
                checked.push(def);
            }
            return Ok(checked);
        }
        if let Some(result) = obj.get("result") {
            let envelope = self.result_envelope(rev);
            self.validate_def(rev, envelope, message)?;
            checked.push(envelope.to_string());
            let Some(method) = origin else {
                return Err(Failure {
                    def: "(result type lookup)".into(),
                    errors: vec![format!(
                        "no originating request found for result id {}",
                        message["id"]
                    )],
                });
            };
            let input_required =
                result.get("resultType").and_then(Value::as_str) == Some("input_required");
            let def = if input_required {
                "InputRequiredResult"
            } else {
                // The result type is the method's row's (the core's `METHODS`).
                methods::result_schema(method).ok_or_else(|| Failure {
                    def: "(result type lookup)".into(),
                    errors: vec![format!("no result type known for method {method:?}")],
                })?
            };
            self.validate_def(rev, def, result)?;
            checked.push(def.to_string());
            let response_def = format!("{def}Response");
            if !input_required && self.has_def(rev, &response_def) {
                self.validate_def(rev, &response_def, message)?;
                checked.push(response_def);
            }
            return Ok(checked);
        }
        if let Some(error) = obj.get("error") {
            let envelope = self.error_envelope(rev);
            self.validate_def(rev, envelope, message)?;
            checked.push(envelope.to_string());
            if let Some(code) = error.get("code").and_then(Value::as_i64) {
                if let Some((def, whole)) = self.def_for_error_code(rev, code) {
                    self.validate_def(rev, &def, if whole { message } else { error })?;
                    checked.push(def);
                }
            }
            return Ok(checked);
        }
        Err(Failure {
            def: "(shape)".into(),
            errors: vec![format!("neither method, result nor error: {message}")],
        })
    }
}
