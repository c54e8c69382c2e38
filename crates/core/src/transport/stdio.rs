//! stdio framing: one JSON message per line, no embedded newlines.

/// Why a line could not be framed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FramingError {
    /// The text has a raw newline: it would arrive as several messages.
    EmbeddedNewline,
}

impl std::fmt::Display for FramingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FramingError::EmbeddedNewline => "stdio carries one JSON message per line; this text has an embedded newline and would arrive as several broken messages",
        })
    }
}

impl std::error::Error for FramingError {}

/// Frames a message for stdio. Compact JSON never contains a raw newline
/// (newlines in strings are escaped), so only hand-written text can fail.
pub fn frame(text: &str) -> Result<String, FramingError> {
    if text.contains('\n') || text.contains('\r') {
        return Err(FramingError::EmbeddedNewline);
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
