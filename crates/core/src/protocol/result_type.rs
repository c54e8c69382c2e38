//! The `resultType` of a 2026-07-28 result (M-RESULT-TYPE).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What kind of result a modern server returned: `complete`, or
/// `input_required` (an MRTR round trip, M-MRTR). Open set, after rmcp: the
/// kinds this simulator knows are named constants, and any other value a
/// server sends is kept as it is, for the client to call unknown.
/// Serialises as the plain string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ResultType(Cow<'static, str>);

impl ResultType {
    /// The member of a result object that carries it.
    pub const KEY: &'static str = "resultType";
    /// The request is done; the result is final.
    pub const COMPLETE: ResultType = ResultType(Cow::Borrowed("complete"));
    /// The server needs answers first (`inputRequests`, `requestState`).
    pub const INPUT_REQUIRED: ResultType = ResultType(Cow::Borrowed("input_required"));

    /// A result type as named on the wire.
    pub fn new(value: impl Into<String>) -> ResultType {
        ResultType(Cow::Owned(value.into()))
    }

    /// The `resultType` of a result object, when it names one (a string).
    pub fn of(result: &Value) -> Option<ResultType> {
        result
            .get(Self::KEY)
            .and_then(Value::as_str)
            .map(ResultType::new)
    }

    /// Whether `result` (a result object) is of this type.
    pub fn is_of(&self, result: &Value) -> bool {
        result.get(Self::KEY).and_then(Value::as_str) == Some(self.as_str())
    }

    /// A new result object of this type (`resultType` first, as servers
    /// write it), for the rest of the members to be added to.
    pub fn start_result(&self) -> Map<String, Value> {
        let mut result = Map::new();
        result.insert(Self::KEY.into(), Value::from(self.as_str()));
        result
    }

    /// The type as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ResultType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
