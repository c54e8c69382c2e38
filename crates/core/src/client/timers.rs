//! The client's timers, after quinn-proto's `connection/timer.rs`: one table
//! of deadlines, one per [`Timer`]. [`Client::poll_timeout`] is the earliest
//! armed one; [`Client::handle_timeout`] fires the expired ones in the
//! table's order.
//!
//! To add a timer: add a [`Timer`] variant (its place in [`Timer::ALL`] is
//! its firing order), arm it with `self.timers.set`, and say what it does in
//! [`Client::on_timer`].

use serde_json::json;

use super::{Client, Purpose, Waiting};
use crate::protocol::jsonrpc;
use crate::protocol::{methods, ClientCapabilities, Era};
use crate::rules;
use crate::sim::{EventKind, Side, SimTime};
use crate::transport::TransportKind;

/// One deadline the client can wait for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Timer {
    /// The host framework kills a run that is still working (L-UNDECLARED).
    HostKill = 0,
    /// The reply the client waits for is overdue: a timeout, or a silent
    /// probe (L-TIMEOUT, E-PROBE-STDIO).
    Response = 1,
    /// A `Wait` step ends.
    Sleep = 2,
    /// A list_changed burst is over: re-list once (L-LIST-CHANGED).
    Relist = 3,
}

impl Timer {
    /// Every timer, in the order expired ones fire.
    pub(super) const ALL: [Timer; 4] = [
        Timer::HostKill,
        Timer::Response,
        Timer::Sleep,
        Timer::Relist,
    ];
}

/// A deadline per [`Timer`], `None` when it is not armed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct TimerTable {
    deadlines: [Option<SimTime>; Timer::ALL.len()],
}

impl TimerTable {
    /// Arms `timer` for `deadline` (`None` stops it).
    pub(super) fn set(&mut self, timer: Timer, deadline: Option<SimTime>) {
        self.deadlines[timer as usize] = deadline;
    }

    /// Stops `timer`.
    pub(super) fn stop(&mut self, timer: Timer) {
        self.set(timer, None);
    }

    /// Stops every timer.
    pub(super) fn clear(&mut self) {
        *self = TimerTable::default();
    }

    /// Whether `timer` is armed.
    pub(super) fn is_armed(&self, timer: Timer) -> bool {
        self.deadlines[timer as usize].is_some()
    }

    /// Stops `timer` and says so if it has expired at `now`.
    pub(super) fn expire(&mut self, timer: Timer, now: SimTime) -> bool {
        let slot = &mut self.deadlines[timer as usize];
        let expired = slot.is_some_and(|deadline| now >= deadline);
        if expired {
            *slot = None;
        }
        expired
    }

    /// The earliest armed deadline.
    pub(super) fn next(&self) -> Option<SimTime> {
        self.deadlines.iter().flatten().min().copied()
    }
}

impl Client {
    /// Fires every timer expired at `now`, in [`Timer::ALL`] order, then
    /// carries on with the script.
    pub(super) fn on_timers(&mut self, now: SimTime) {
        for timer in Timer::ALL {
            if self.timers.expire(timer, now) {
                self.on_timer(now, timer);
                if self.is_closed() {
                    return;
                }
            }
        }
        self.advance(now);
    }

    /// What one expired timer does.
    fn on_timer(&mut self, now: SimTime, timer: Timer) {
        match timer {
            Timer::HostKill => {
                // Only a run still at work is killed.
                if self.work.waiting.is_some() || self.work.job.is_some() {
                    let kill = self.config.host_kill_ms.unwrap_or_default();
                    self.shut_down();
                    self.record(EventKind::HostKill, &[rules::L_UNDECLARED, rules::L_TIMEOUT],
                        crate::note!("client.timers.host_framework_kills_run", "The host framework kills the run at {kill} s. Killing a run sends nothing to the server, which keeps waiting and keeps whatever it holds.", kill = kill / 1000));
                }
            }
            Timer::Response => {
                if let Some(waiting) = self.stop_waiting() {
                    self.on_timeout(now, waiting);
                }
            }
            Timer::Sleep => {}
            Timer::Relist => self.send_relist(now),
        }
    }

    pub(super) fn on_timeout(&mut self, now: SimTime, w: Waiting) {
        let id = w.id.as_ref().map(|i| i.to_string()).unwrap_or_default();
        let probe = matches!(w.purpose, Purpose::Probe { .. });
        if probe {
            self.record(EventKind::Timeout { side: Side::Client, request_id: id.clone() }, &[rules::E_PROBE_STDIO, rules::L_TIMEOUT],
                crate::note!("client.timers.no_answer_probe_within", "No answer to the probe within the timeout: silence means legacy. The client falls back to initialize."));
        } else {
            self.record(
                EventKind::Timeout {
                    side: Side::Client,
                    request_id: id.clone(),
                },
                &[rules::L_TIMEOUT],
                crate::note!(
                    "client.timers.request_timed_out_client",
                    "Request {id} timed out: the client stops waiting.",
                    id = id
                ),
            );
        }
        // On stdio the sender cancels what it stopped waiting for; on HTTP
        // closing the response stream is the cancellation, nothing is sent.
        if let (TransportKind::Stdio, Some(req)) = (self.transport, &w.id) {
            let mut params = json!({"requestId": req.to_json(), "reason": "timed out"});
            if w.era == Era::Modern {
                params["_meta"] = self.meta(&self.chosen_version(), &ClientCapabilities::none());
            }
            let msg = jsonrpc::notification(methods::CANCELLED, params);
            self.emit(
                msg,
                w.era,
                None,
                None,
                &[rules::L_TIMEOUT, rules::RPC_NOTIFY],
                crate::note!(
                    "client.timers.client_sends_notifications_cancelled",
                    "The client sends notifications/cancelled for {id}.",
                    id = id
                ),
            );
        }
        if probe {
            self.known.era = Some(Era::Legacy);
        } else {
            self.work.job = None;
        }
        self.advance(now);
    }
}
