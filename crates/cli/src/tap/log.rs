//! Tap's log: one line per message as the conversation goes, on stderr or
//! in `--log FILE`: when it passed (from tap's start), which way, the method
//! or the outcome, and the rules it broke, graded by the check's grader
//! (`check::grade_recorded`, what `check --transcript` runs).
//!
//! The log runs on a thread of its own, fed a copy of each recorded entry:
//! the bytes never wait for the grader. It grades the whole conversation
//! at most every 50 ms (or eight times as long as the last grade took,
//! when that is longer), with every entry that came meanwhile, so that a flood
//! costs a grade per pause, not per message, and the grader never takes
//! the CPU the pumps need. While the
//! conversation goes on, a request not answered yet is no failure; the
//! last grade, when the server has exited, says everything.

use std::collections::HashSet;
use std::io::Write;
use std::sync::mpsc::{Receiver, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use mcp_lanes_core::check::{self, Outcome, Verdict};
use mcp_lanes_core::import;
use mcp_lanes_core::sim::Timeline;
use serde_json::Value;

use crate::i18n::Catalog;
use crate::run::event_line;

/// How long the log gathers messages before it grades them: lines come at
/// most this late, and a flood costs a grade per pause, not per message.
const PAUSE: Duration = Duration::from_millis(50);

/// What the log is fed.
pub enum Fed {
    /// A recorded entry (the transcript's wrapper: message, side, time).
    Entry(Value),
    /// A side that left: a line of tap's own, written after the lines of
    /// the entries fed before it, and its recorded entry (graded with the
    /// rest: a request left waiting is the client's leaving).
    Gone(super::gone::Gone, Option<Value>),
    /// The conversation is over: the last grade.
    End,
}

/// The log's state: the entries so far, and what it has written.
pub struct Log {
    entries: Vec<Value>,
    /// Messages written, per lane.
    written: Vec<usize>,
    /// The failures written, by lane, rule and event.
    reported: HashSet<(usize, String, Option<usize>)>,
    lang: Catalog,
    label: String,
}

impl Log {
    /// A log of the run called `label`, in `lang`'s language.
    pub fn new(lang: Catalog, label: &str) -> Log {
        Log {
            entries: Vec::new(),
            written: Vec::new(),
            reported: HashSet::new(),
            lang,
            label: label.to_string(),
        }
    }

    /// Takes entries from `from` until [`Fed::End`] (or every sender is
    /// gone), writing lines to `out` as it grades; then the last grade.
    pub fn run(mut self, from: &Receiver<Fed>, out: &mut dyn Write) {
        let mut open = true;
        // Grown to eight times what the last grade took: a long
        // conversation's grades (each reads it whole) take at most a ninth
        // of a core, which the pumps would otherwise wait behind.
        let mut pause = PAUSE;
        loop {
            let mut said = Vec::new();
            match from.recv() {
                Ok(Fed::Entry(entry)) => self.entries.push(entry),
                Ok(Fed::Gone(gone, entry)) => {
                    said.push(gone.words(&self.lang));
                    self.entries.extend(entry);
                }
                Ok(Fed::End) | Err(_) => break,
            }
            // What comes within the pause is graded with it: a grade reads
            // the whole conversation, and a busy one must not take the CPU
            // the bytes need. The thread sleeps through the pause in steps
            // and takes what came after each: a flood wakes it once per
            // step, not once per message, and a pump's send never has to
            // wake it; the end is seen within a step.
            let until = Instant::now() + pause;
            let mut ended = false;
            while let Some(left) = until.checked_duration_since(Instant::now()) {
                thread::sleep(left.min(PAUSE));
                loop {
                    match from.try_recv() {
                        Ok(Fed::Entry(entry)) => self.entries.push(entry),
                        Ok(Fed::Gone(gone, entry)) => {
                            said.push(gone.words(&self.lang));
                            self.entries.extend(entry);
                        }
                        Ok(Fed::End) | Err(TryRecvError::Disconnected) => {
                            ended = true;
                            break;
                        }
                        Err(TryRecvError::Empty) => break,
                    }
                }
                if ended {
                    break;
                }
            }
            let graded = Instant::now();
            let mut lines = self.grade(false);
            pause = PAUSE.max(graded.elapsed() * 8);
            lines.extend(said);
            // A log that cannot be written: the conversation goes on.
            if open && write_lines(out, &lines).is_err() {
                open = false;
            }
            if ended {
                break;
            }
        }
        if open {
            let _ = write_lines(out, &self.grade(true));
        }
    }

    /// Grades the conversation so far; the lines not written yet. `last`:
    /// the conversation is over, a missing answer is a failure too.
    pub fn grade(&mut self, last: bool) -> Vec<String> {
        let text = Value::Array(self.entries.clone()).to_string();
        let Ok(imported) = import::read(&self.label, &text) else {
            return Vec::new();
        };
        let mut lines = Vec::new();
        for (lane, timeline) in imported.lanes.iter().enumerate() {
            if self.written.len() <= lane {
                self.written.push(0);
            }
            // While it goes on, an answer not come yet is no failure.
            let verdicts = if last {
                check::grade_recorded(timeline)
            } else {
                check::grade_so_far(timeline)
            };
            let failing = |v: &&Verdict| v.verdict == Outcome::Fail;
            let new: Vec<&Verdict> = verdicts
                .iter()
                .filter(failing)
                .filter(|v| !self.reported.contains(&(lane, v.rule.clone(), v.exchange)))
                .collect();
            lines.extend(self.lines(lane, timeline, &new));
            for v in new {
                self.reported.insert((lane, v.rule.clone(), v.exchange));
            }
        }
        lines
    }

    /// The lines of lane `lane`'s messages not written yet, each with the
    /// rules it broke among `new`; then the failures `new` has on messages
    /// written before, and on none.
    fn lines(&mut self, lane: usize, timeline: &Timeline, new: &[&Verdict]) -> Vec<String> {
        let prefix = if self.written.len() > 1 || lane > 0 {
            format!("[{}] ", lane + 1)
        } else {
            String::new()
        };
        let broken = |index: Option<usize>| -> Vec<&str> {
            let mut rules: Vec<&str> = new
                .iter()
                .filter(|v| v.exchange == index)
                .map(|v| v.rule.as_str())
                .collect();
            rules.dedup();
            rules
        };
        let mut lines = Vec::new();
        let messages: Vec<_> = timeline.messages().map(|(e, _)| e).collect();
        let first_new = self.written[lane];
        for event in messages.iter().skip(first_new) {
            let mut line = format!("{prefix}{}", event_line(event, Some(&self.lang)));
            let rules = broken(Some(event.index));
            if !rules.is_empty() {
                line.push_str("  ");
                line.push_str(&self.breaks(&rules));
            }
            lines.push(line);
        }
        // Failures found later on messages written before (an answer that
        // never came), or on the whole run.
        for event in messages.iter().take(first_new) {
            let rules = broken(Some(event.index));
            if !rules.is_empty() {
                lines.push(format!(
                    "{prefix}{}  {}",
                    event_line(event, Some(&self.lang)),
                    self.breaks(&rules)
                ));
            }
        }
        let whole = broken(None);
        if !whole.is_empty() {
            lines.push(format!("{prefix}{}", self.breaks(&whole)));
        }
        self.written[lane] = messages.len();
        lines
    }

    /// "breaks RPC-ID, M-META", in the language.
    fn breaks(&self, rules: &[&str]) -> String {
        self.lang.fill(
            "cli.tap.breaks",
            "breaks {rules}",
            &[("rules", rules.join(", "))],
        )
    }
}

/// Writes `lines`, each as tap's, in one write per line.
fn write_lines(out: &mut dyn Write, lines: &[String]) -> std::io::Result<()> {
    for line in lines {
        out.write_all(format!("mcp-lanes tap: {line}\n").as_bytes())?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(from: &str, message: Value) -> Value {
        json!({"message": message, "from": from, "at_ms": 0})
    }

    #[test]
    fn rpc_id_each_message_gets_a_line_and_a_broken_rule_is_said_once() {
        let mut log = Log::new(Catalog::or_english(None), "t");
        log.entries.push(entry(
            "client",
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
        ));
        let lines = log.grade(false);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("tools/list"), "{lines:?}");
        // Not answered yet: no failure while the conversation goes on.
        assert!(!lines[0].contains("breaks"), "{lines:?}");
        // A second request with the id still awaited breaks RPC-ID.
        log.entries.push(entry(
            "client",
            json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/list", "params": {}}),
        ));
        let lines = log.grade(false);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].contains("prompts/list") && lines[0].contains("breaks RPC-ID"),
            "{lines:?}"
        );
        // Said once: nothing new, nothing written.
        assert!(log.grade(false).is_empty());
    }

    #[test]
    fn the_last_grade_says_what_never_came() {
        let mut log = Log::new(Catalog::or_english(None), "t");
        log.entries.push(entry(
            "client",
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
        ));
        let during = log.grade(false);
        assert!(!during.iter().any(|l| l.contains("breaks")), "{during:?}");
        let last = log.grade(true);
        assert!(
            last.iter()
                .any(|l| l.contains("tools/list") && l.contains("breaks")),
            "{last:?}"
        );
    }
}
