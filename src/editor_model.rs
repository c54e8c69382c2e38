//! View models for the request editor: JSON tokens for highlighting,
//! bracket pairs, the place of a parse error, caret arithmetic for
//! auto-indent, and a line diff of two replies. Text only: nothing here
//! knows a protocol rule (the core's `editor` module does).
//!
//! Data layer: plain Rust, built and tested natively.

/// Highlighting stops above this many bytes: longer text is drawn plain, so
/// a pasted megabyte does not rebuild thousands of spans on every keystroke.
pub const HIGHLIGHT_LIMIT: usize = 64 * 1024;

/// Lines per side above which two replies are not diffed.
pub const DIFF_LIMIT: usize = 2_000;

/// What a run of text is, for its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    /// An object key.
    Key,
    /// A string value.
    Str,
    /// A number.
    Num,
    /// `true`, `false` or `null`.
    Lit,
    /// Punctuation, whitespace and anything else.
    Plain,
}

impl Tok {
    /// CSS class of a highlighted run (`None` for plain text).
    pub fn class(self) -> Option<&'static str> {
        match self {
            Tok::Key => Some("tk-k"),
            Tok::Str => Some("tk-s"),
            Tok::Num => Some("tk-n"),
            Tok::Lit => Some("tk-l"),
            Tok::Plain => None,
        }
    }
}

/// Splits (possibly broken) JSON text into runs `(kind, start, end)` of
/// byte offsets. Runs only ever start and end at ASCII bytes, so every
/// offset is a char boundary. Text above [`HIGHLIGHT_LIMIT`] is one plain run.
pub fn tokens(text: &str) -> Vec<(Tok, usize, usize)> {
    let b = text.as_bytes();
    if b.len() > HIGHLIGHT_LIMIT {
        return vec![(Tok::Plain, 0, b.len())];
    }
    let mut out: Vec<(Tok, usize, usize)> = Vec::new();
    let mut push = |kind: Tok, start: usize, end: usize| match out.last_mut() {
        Some(last) if last.0 == kind && kind == Tok::Plain && last.2 == start => last.2 = end,
        _ => out.push((kind, start, end)),
    };
    let mut i = 0;
    while i < b.len() {
        let start = i;
        match b[i] {
            b'"' => {
                i += 1;
                // To the closing quote, or the end of the line when there is none.
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' && i + 1 < b.len() && b[i + 1] != b'\n' {
                        2
                    } else {
                        1
                    };
                }
                if i < b.len() && b[i] == b'"' {
                    i += 1;
                }
                let mut j = i;
                while j < b.len() && matches!(b[j], b' ' | b'\t' | b'\r' | b'\n') {
                    j += 1;
                }
                let kind = if b.get(j) == Some(&b':') {
                    Tok::Key
                } else {
                    Tok::Str
                };
                push(kind, start, i);
            }
            b'-' | b'0'..=b'9' => {
                i += 1;
                while i < b.len() && matches!(b[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                {
                    i += 1;
                }
                push(Tok::Num, start, i);
            }
            c if c.is_ascii_alphabetic() => {
                while i < b.len() && b[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                let kind = match &text[start..i] {
                    "true" | "false" | "null" => Tok::Lit,
                    _ => Tok::Plain,
                };
                push(kind, start, i);
            }
            _ => {
                i += 1;
                while i < b.len()
                    && !matches!(b[i], b'"' | b'-' | b'0'..=b'9')
                    && !b[i].is_ascii_alphabetic()
                {
                    i += 1;
                }
                push(Tok::Plain, start, i);
            }
        }
    }
    out
}

/// The bracket next to the caret (just before it, else just after it) and
/// its partner, as byte offsets; `(at, None)` for a bracket without one.
/// Brackets inside strings do not count.
pub fn bracket_pair(
    text: &str,
    toks: &[(Tok, usize, usize)],
    caret: usize,
) -> Option<(usize, Option<usize>)> {
    if text.len() > HIGHLIGHT_LIMIT {
        return None;
    }
    let b = text.as_bytes();
    let mut brackets: Vec<usize> = Vec::new();
    for &(kind, s, e) in toks {
        if kind == Tok::Plain {
            brackets.extend((s..e).filter(|&i| matches!(b[i], b'{' | b'[' | b'}' | b']')));
        }
    }
    let at = [caret.checked_sub(1), Some(caret)]
        .into_iter()
        .flatten()
        .find(|i| brackets.binary_search(i).is_ok())?;
    let mut stack: Vec<usize> = Vec::new();
    for &i in &brackets {
        if matches!(b[i], b'{' | b'[') {
            stack.push(i);
            continue;
        }
        let open = stack.pop();
        let pair = open.filter(|&o| (b[o] == b'{') == (b[i] == b'}'));
        if i == at || open == Some(at) {
            return Some((at, if i == at { pair } else { pair.map(|_| i) }));
        }
    }
    Some((at, None))
}

/// Byte offset of a 1-based line and column (columns count bytes, as the
/// JSON parser reports them), kept inside that line and on a char boundary.
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map(|(i, _)| i + 1)
            .unwrap_or(text.len())
    };
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let mut at = (start + column.saturating_sub(1)).min(end);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Byte offset of a caret given in UTF-16 code units (as the DOM counts).
pub fn byte_of_utf16(text: &str, units: usize) -> usize {
    let mut n = 0;
    for (i, c) in text.char_indices() {
        if n >= units {
            return i;
        }
        n += c.len_utf16();
    }
    text.len()
}

/// UTF-16 length of a text (for placing the caret after an insertion).
pub fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// What Enter inserts at byte offset `at`: a newline with the line's
/// indentation, one level more after `{` or `[`; between a bracket pair
/// the closing one moves to its own line. Returns the text and how much of
/// it goes before the caret.
pub fn newline_at(text: &str, at: usize) -> (String, String) {
    let at = at.min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent: String = text[line_start..at]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let before = text[line_start..at].trim_end().chars().last();
    let after = text[at..].trim_start_matches([' ', '\t']).chars().next();
    let opens = matches!(before, Some('{') | Some('['));
    if !opens {
        return (format!("\n{indent}"), String::new());
    }
    let inner = format!("\n{indent}  ");
    let closes = matches!(
        (before, after),
        (Some('{'), Some('}')) | (Some('['), Some(']'))
    );
    (
        inner,
        if closes {
            format!("\n{indent}")
        } else {
            String::new()
        },
    )
}

/// One line of a diff: `' '` in both, `'-'` only in the first, `'+'` only
/// in the second.
pub type DiffLine<'a> = (char, &'a str);

/// A line diff of `a` and `b` (longest common subsequence of lines), or
/// `None` when either has more than [`DIFF_LIMIT`] lines after their
/// common head and tail.
pub fn line_diff<'a>(a: &'a str, b: &'a str) -> Option<Vec<DiffLine<'a>>> {
    let a: Vec<&str> = a.lines().collect();
    let b: Vec<&str> = b.lines().collect();
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    if ma.len() > DIFF_LIMIT || mb.len() > DIFF_LIMIT {
        return None;
    }
    // lcs[i][j]: common lines of ma[i..] and mb[j..].
    let w = mb.len() + 1;
    let mut lcs = vec![0u16; (ma.len() + 1) * w];
    for i in (0..ma.len()).rev() {
        for j in (0..mb.len()).rev() {
            lcs[i * w + j] = if ma[i] == mb[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let mut out: Vec<DiffLine> = a[..head].iter().map(|l| (' ', *l)).collect();
    let (mut i, mut j) = (0, 0);
    while i < ma.len() || j < mb.len() {
        if i < ma.len() && j < mb.len() && ma[i] == mb[j] {
            out.push((' ', ma[i]));
            i += 1;
            j += 1;
        } else if i < ma.len() && (j == mb.len() || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
            // Removals first, then additions, as diff tools print them.
            out.push(('-', ma[i]));
            i += 1;
        } else {
            out.push(('+', mb[j]));
            j += 1;
        }
    }
    out.extend(a[a.len() - tail..].iter().map(|l| (' ', *l)));
    Some(out)
}

#[cfg(test)]
mod tests;
