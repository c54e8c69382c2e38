//! Wire-level vocabulary: JSON-RPC 2.0 envelopes, MCP error codes, `_meta`
//! keys, protocol versions and eras, capabilities and method names.
//!
//! Messages travel as `serde_json::Value` plus their exact wire text; the
//! typed structs here are used where the simulator builds or checks a shape.
//! Unknown fields are always tolerated (RPC-UNKNOWN-FIELD).

pub mod capabilities;
pub mod elicitation;
pub mod input_schema;
pub mod jsonrpc;
pub mod meta;
pub mod methods;
pub mod result_type;
pub mod schema_defs;
pub mod shape;
pub mod version;

pub use capabilities::{ClientCapabilities, Implementation, ServerCapabilities};
pub use jsonrpc::{Envelope, ErrorCode, ErrorObject, RequestId};
pub use result_type::ResultType;
pub use version::{Era, ProtocolVersion};
