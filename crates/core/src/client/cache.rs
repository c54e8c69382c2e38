//! What the client remembers about the server between requests: its era
//! (E-CACHE) and its discover result, fresh for ttlMs (M-CACHE-FRESH); and
//! the decision, before each request, whether to probe, discover or
//! initialize first.

use serde_json::Value;

use super::listed::Listed;
use super::{Client, Job, Session, Step};
use crate::protocol::version::EraMode;
use crate::protocol::Era;
use crate::rules;
use crate::sim::{EventKind, SimTime};

/// A cached discover result (M-CACHE-FRESH).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct CachedDiscover {
    pub(super) supported: Vec<String>,
    pub(super) received_at: SimTime,
    pub(super) ttl_ms: u64,
}

impl CachedDiscover {
    pub(super) fn fresh(&self, now: SimTime) -> bool {
        self.ttl_ms > 0 && now < self.received_at.plus_millis(self.ttl_ms)
    }
}

/// What the client knows about the server, kept between requests.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Known {
    /// The server's era, once known (E-CACHE): fixed for a single-era
    /// client, probed for a dual-era one.
    pub(super) era: Option<Era>,
    /// The last discover result, fresh for its ttlMs (M-CACHE-FRESH).
    pub(super) discover: Option<CachedDiscover>,
    /// The legacy session, after a successful initialize.
    pub(super) session: Option<Session>,
    /// An `Mcp-Session-Id` that arrived with the initialize response, kept
    /// until the handshake completes.
    pub(super) pending_http_session: Option<String>,
    /// A modern request has worked on this server: a version error now
    /// means it was upgraded underneath (E-CACHE).
    pub(super) worked_modern: bool,
    /// What the last lists returned (`listed.rs`).
    pub(super) listed: Listed,
}

impl Known {
    /// What a client of `mode` knows before its first message.
    pub(super) fn new(mode: EraMode) -> Known {
        Known {
            era: match mode {
                EraMode::ModernOnly => Some(Era::Modern),
                EraMode::LegacyOnly => Some(Era::Legacy),
                EraMode::DualEra => None,
            },
            discover: None,
            session: None,
            pending_http_session: None,
            worked_modern: false,
            listed: Listed::default(),
        }
    }
}

impl Client {
    /// Makes sure the era is known and the connection usable; sends a probe,
    /// discover or initialize if needed and returns false while waiting.
    pub(super) fn ensure_ready(&mut self, now: SimTime, job: &Job) -> bool {
        let is_discover_step = matches!(job.step, Step::Discover { .. });
        match self.known.era {
            None => {
                self.record(
                    EventKind::CacheMiss { key: "era".into() },
                    &[rules::E_CACHE],
                    crate::note!(
                        "client.cache.no_era_cached_server",
                        "No era is cached for this server yet, so the dual-era client probes."
                    ),
                );
                self.send_probe(now, self.preferred_modern());
                false
            }
            Some(Era::Legacy) => {
                if self.known.session.is_some() {
                    return true;
                }
                if self.config.era == EraMode::ModernOnly {
                    self.abandon(now, &[rules::E_MATRIX], crate::note!("client.cache.modern_only_client_cannot", "A modern-only client cannot talk to a legacy server: it surfaces an actionable error instead."));
                    return false;
                }
                self.send_initialize(now);
                false
            }
            Some(Era::Modern) => {
                let wants_discover =
                    self.config.era == EraMode::DualEra || self.config.discover_first;
                if !wants_discover || is_discover_step {
                    return true;
                }
                match &self.known.discover {
                    Some(_) if job.discovered => true,
                    Some(cached) if cached.fresh(now) => {
                        let left = cached
                            .received_at
                            .plus_millis(cached.ttl_ms)
                            .millis_since(now);
                        self.record(EventKind::CacheHit { key: "server/discover".into() }, &[rules::M_CACHE_FRESH, rules::E_CACHE],
                            crate::note!("client.cache.cached_discover_result_still", "The cached discover result is still fresh ({left} s left of ttlMs), so no probe is needed.", left = left / 1000));
                        true
                    }
                    Some(_) => {
                        self.known.discover = None;
                        self.record(EventKind::CacheExpired { key: "server/discover".into() }, &[rules::M_CACHE_FRESH, rules::E_CACHE],
                            crate::note!("client.cache.cached_discover_result_s", "The cached discover result's ttlMs has run out: the client asks again before relying on it."));
                        if self.config.era == EraMode::DualEra {
                            self.known.era = None;
                            self.send_probe(now, self.preferred_modern());
                        } else {
                            self.send_discover(now, self.preferred_modern(), false);
                        }
                        false
                    }
                    None => {
                        self.record(
                            EventKind::CacheMiss {
                                key: "server/discover".into(),
                            },
                            &[rules::M_CACHE_FRESH],
                            crate::note!(
                                "client.cache.nothing_cached_server_discover",
                                "Nothing cached for this server: discover first."
                            ),
                        );
                        self.send_discover(now, self.preferred_modern(), false);
                        false
                    }
                }
            }
        }
    }

    pub(super) fn mark_discovered(&mut self) {
        if let Some(job) = self.work.job.as_mut() {
            job.discovered = true;
        }
    }

    pub(super) fn cache_discover(&mut self, now: SimTime, result: &Value) {
        let supported: Vec<String> = result
            .get("supportedVersions")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let ttl = result
            .get("ttlMs")
            .and_then(Value::as_i64)
            .unwrap_or(0)
            .max(0) as u64;
        self.known.discover = Some(CachedDiscover {
            supported,
            received_at: now,
            ttl_ms: ttl,
        });
        self.record(EventKind::CacheStored { key: "server/discover".into(), ttl_ms: ttl }, &[rules::M_CACHE_FRESH, rules::E_CACHE],
            if ttl == 0 { crate::note!("client.cache.ttlms_0_result_stale", "ttlMs is 0: the result is stale at once and will be fetched again when needed.") }
            else { crate::note!("client.cache.client_caches_discover_result", "The client caches the discover result (and the era) for ttlMs = {ttl} ms ({minutes} min).", ttl = ttl, minutes = ttl / 60_000) });
    }
}
