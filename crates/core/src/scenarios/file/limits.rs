//! The limits a scenario file must keep, each named in the error that
//! reports it. `schemas/scenario.schema.json` states the same numbers
//! (`maxLength`, `maxItems`, `maximum`); a test keeps the two in agreement.

use serde_json::Value;

/// Largest file accepted, in bytes.
pub const MAX_FILE_BYTES: usize = 1024 * 1024;
/// Deepest nesting of arrays and objects accepted (the file's own levels
/// count: a tool's input schema at `servers[0].tools[0].inputSchema` is
/// already five levels down).
pub const MAX_DEPTH: usize = 32;
/// Most set-ups side by side.
pub const MAX_SETUPS: usize = 12;
/// Most servers, and most clients, a file defines.
pub const MAX_DEFS: usize = 32;
/// Most steps in one set-up's script.
pub const MAX_STEPS: usize = 500;
/// Most tools, resources or prompts of one server.
pub const MAX_ITEMS: usize = 64;
/// Most server events of one set-up, headers of one message, lost
/// messages of one channel.
pub const MAX_LIST: usize = 64;
/// Most protocol versions in one list, and rule ids on one step.
pub const MAX_VERSIONS: usize = 16;
/// Longest id (scenario, server, client).
pub const MAX_ID: usize = 64;
/// Longest name, label, title, version or header (characters).
pub const MAX_NAME: usize = 200;
/// Longest text (a summary, a note, a result, a raw message; characters).
pub const MAX_TEXT: usize = 65_536;
/// Latest virtual time a file may name, and longest duration (24 hours,
/// the simulator's own limit).
pub const MAX_MS: u64 = 86_400_000;
/// Largest cache ttlMs (a year).
pub const MAX_TTL_MS: u64 = 31_536_000_000;
/// Largest first request id.
pub const MAX_FIRST_ID: i64 = 1_000_000_000;
/// Largest 1-based ordinal of a lost message.
pub const MAX_ORDINAL: u64 = 10_000;

/// Where the text first nests deeper than [`MAX_DEPTH`] (1-based line and
/// column), if it does. A byte scan before parsing, so a hostile file
/// cannot make the parser recurse deeply; brackets inside strings do not
/// count.
pub fn too_deep(text: &str) -> Option<(usize, usize)> {
    let (mut depth, mut line, mut column) = (0usize, 1usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        column += 1;
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '[' | '{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some((line, column));
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            '\n' => {
                line += 1;
                column = 0;
            }
            _ => {}
        }
    }
    None
}

/// The JSON path of the first place `value` nests deeper than
/// [`MAX_DEPTH`], if it does (for a file handed over as a value rather than
/// text). Never recurses further than the limit.
pub fn deep_path(value: &Value) -> Option<String> {
    fn walk(value: &Value, depth: usize, path: &mut String) -> bool {
        let nested = match value {
            Value::Array(_) | Value::Object(_) => depth + 1,
            _ => return false,
        };
        if nested > MAX_DEPTH {
            return true;
        }
        match value {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    if walk(item, nested, path) {
                        return true;
                    }
                    path.truncate(len);
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    let len = path.len();
                    super::read::push_key(path, key);
                    if walk(item, nested, path) {
                        return true;
                    }
                    path.truncate(len);
                }
            }
            _ => {}
        }
        false
    }
    let mut path = String::new();
    walk(value, 0, &mut path).then_some(path)
}
