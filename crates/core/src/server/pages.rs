#![allow(clippy::result_large_err)] // a Refusal is built once per refused request
//! Pagination of the four list methods (M-PAGINATION): a server with a
//! page size answers one page and a `nextCursor`, a signed token naming
//! the list and where the next page starts ([`Server::seal`]); a cursor
//! it did not issue, or issued for another list, is -32602
//! ("Invalid cursor"), as the spec's example error says.

use serde_json::{json, Map, Value};

use super::{Fault, Refusal, Server};
use crate::note::Note;
use crate::rules::{self, RuleId};

/// One page of a list: its items, the `nextCursor` if more follow, and
/// the rule and words a note adds when the list was paged.
pub(crate) struct Page {
    /// The items of this page.
    pub items: Vec<Value>,
    /// The cursor of the next page, if any.
    pub next: Option<String>,
    /// Whether the list was paged at all (a page size, or a cursor).
    pub paged: bool,
    /// Where the page starts (0-based) and how many items the list has.
    pub from: usize,
    /// How many items the whole list has.
    pub total: usize,
}

impl Page {
    /// Puts the page's items under `key` of `result`, and its
    /// `nextCursor` when there is one.
    pub fn put(self, result: &mut Map<String, Value>, key: &str) -> Option<String> {
        result.insert(key.into(), Value::Array(self.items));
        if let Some(next) = &self.next {
            result.insert("nextCursor".into(), json!(next));
        }
        self.next
    }

    /// The rules a paged answer adds.
    pub fn rules(&self) -> Vec<RuleId> {
        if self.paged {
            vec![rules::M_PAGINATION]
        } else {
            Vec::new()
        }
    }

    /// The note of this answer: `whole`, the list's own note, when the
    /// list was not paged; else what this page holds.
    pub fn note(&self, method: &str, whole: Note) -> Note {
        if !self.paged {
            return whole;
        }
        let to = self.from + self.items.len();
        if self.next.is_some() {
            crate::note!(
                "server.pages.page_with_cursor",
                "{method} answers one page: items {from} to {to} of {total}, and a nextCursor for the rest.",
                method = method,
                from = self.from + 1,
                to = to,
                total = self.total
            )
        } else {
            crate::note!(
                "server.pages.last_page",
                "{method} answers items {from} to {to} of {total}: the last page, so no nextCursor.",
                method = method,
                from = self.from + 1,
                to = to,
                total = self.total
            )
        }
    }
}

impl Server {
    /// The page of `items` (the whole list `method` answers) that the
    /// request's `cursor` asks for.
    pub(crate) fn page(
        &self,
        method: &str,
        items: Vec<Value>,
        params: &Value,
    ) -> Result<Page, Refusal> {
        let total = items.len();
        let from = match params.get("cursor") {
            None | Some(Value::Null) => 0,
            Some(cursor) => self.cursor_start(method, cursor, total)?,
        };
        let paged = self.config.page_size.is_some() || from > 0;
        let size = self.config.page_size.unwrap_or(usize::MAX).max(1);
        let to = from.saturating_add(size).min(total);
        let next = (to < total).then(|| self.seal(&json!({"l": method, "o": to})));
        Ok(Page {
            items: items.into_iter().skip(from).take(to - from).collect(),
            next,
            paged: paged || params.get("cursor").is_some_and(|c| !c.is_null()),
            from,
            total,
        })
    }

    /// Where the page a cursor names starts, if this server issued it for
    /// `method`.
    fn cursor_start(&self, method: &str, cursor: &Value, total: usize) -> Result<usize, Refusal> {
        let payload = cursor.as_str().and_then(|c| self.open(c));
        let start = payload
            .filter(|p| p.get("l").and_then(Value::as_str) == Some(method))
            .and_then(|p| p.get("o").and_then(Value::as_u64))
            .and_then(|o| usize::try_from(o).ok())
            .filter(|o| *o <= total);
        start.ok_or_else(|| {
            Refusal::new(
                Fault::InvalidParams,
                "Invalid cursor",
                &[rules::M_PAGINATION, rules::H_STATUS],
                crate::note!("server.pages.invalid_cursor", "This cursor is not one the server issued for {method}: a cursor is opaque, signed by the server, and only a nextCursor it sent may come back. -32602 Invalid cursor.", method = method),
            )
        })
    }
}
