//! stdio framing: one JSON message per line, no embedded newlines.

/// Why a line could not be framed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FramingError(pub String);

/// Frames a message for stdio. Compact JSON never contains a raw newline
/// (newlines in strings are escaped), so only hand-written text can fail.
pub fn frame(text: &str) -> Result<String, FramingError> {
    if text.contains('\n') || text.contains('\r') {
        return Err(FramingError(
            "stdio carries one JSON message per line; this text has an embedded newline and would arrive as several broken messages".into(),
        ));
    }
    Ok(format!("{text}\n"))
}

/// Splits a stream of bytes into complete lines, keeping the unfinished tail.
#[derive(Debug, Default, Clone)]
pub struct LineReader {
    buffer: String,
}

impl LineReader {
    /// Feeds text; returns every complete line (without its newline).
    pub fn feed(&mut self, chunk: &str) -> Vec<String> {
        self.buffer.push_str(chunk);
        let mut lines = Vec::new();
        while let Some(pos) = self.buffer.find('\n') {
            let line: String = self.buffer.drain(..=pos).collect();
            let line = line.trim_end_matches(['\n', '\r']).to_string();
            if !line.trim().is_empty() {
                lines.push(line);
            }
        }
        lines
    }
}
