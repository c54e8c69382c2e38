//! Cutting a byte stream into the newline-delimited messages of the stdio
//! transport, as the bytes pass: what [`Lines::feed`] is given has already
//! gone on unchanged; this only reads it.

/// The longest line kept for the record (the importer's file limit): a
/// longer one still passes through, and is reported instead of recorded.
pub const MAX_LINE: usize = 4 * 1024 * 1024;

/// One line read off the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A whole line, without its `\n` (nor a `\r` before it).
    Text(Vec<u8>),
    /// A line over [`MAX_LINE`] bytes: how long it was.
    TooLong(usize),
}

/// The line being read, across the chunks the stream arrives in.
#[derive(Debug, Default)]
pub struct Lines {
    partial: Vec<u8>,
    /// The length of the current line once it went over [`MAX_LINE`]
    /// (its bytes are no longer kept).
    over: Option<usize>,
}

impl Lines {
    /// The lines that `chunk` completes.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Line> {
        let mut out = Vec::new();
        let mut rest = chunk;
        while let Some(at) = rest.iter().position(|&b| b == b'\n') {
            self.take(&rest[..at]);
            out.push(self.end());
            rest = &rest[at + 1..];
        }
        self.take(rest);
        out
    }

    /// What is left when the stream ends: a last line without its `\n`
    /// (its length), if any.
    pub fn finish(&mut self) -> Option<usize> {
        let len = self.over.take().unwrap_or(self.partial.len());
        self.partial.clear();
        (len > 0).then_some(len)
    }

    fn take(&mut self, bytes: &[u8]) {
        if let Some(len) = &mut self.over {
            *len += bytes.len();
        } else if self.partial.len() + bytes.len() > MAX_LINE {
            self.over = Some(self.partial.len() + bytes.len());
            self.partial = Vec::new();
        } else {
            self.partial.extend_from_slice(bytes);
        }
    }

    fn end(&mut self) -> Line {
        if let Some(len) = self.over.take() {
            return Line::TooLong(len);
        }
        let mut line = std::mem::take(&mut self.partial);
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Line::Text(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_cut_across_chunks_and_a_partial_last_line_is_told() {
        let mut lines = Lines::default();
        assert_eq!(lines.feed(b"{\"a\":"), vec![]);
        assert_eq!(
            lines.feed(b"1}\r\n{}\nx"),
            vec![
                Line::Text(b"{\"a\":1}".to_vec()),
                Line::Text(b"{}".to_vec())
            ]
        );
        assert_eq!(lines.finish(), Some(1));
        assert_eq!(lines.finish(), None);
    }

    #[test]
    fn a_huge_line_is_measured_not_kept() {
        let mut lines = Lines::default();
        let chunk = vec![b'x'; MAX_LINE];
        assert_eq!(lines.feed(&chunk), vec![]);
        assert_eq!(
            lines.feed(b"yy\n{}\n"),
            vec![Line::TooLong(MAX_LINE + 2), Line::Text(b"{}".to_vec())]
        );
        assert!(lines.partial.capacity() < MAX_LINE);
    }
}
