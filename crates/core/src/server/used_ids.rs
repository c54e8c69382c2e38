//! The request ids a legacy session has used (RPC-ID), kept in bounded
//! memory: a fingerprint per id, the most recent [`UsedIds::CAPACITY`] only.
//!
//! A hostile client could otherwise grow a session without bound, by many
//! requests or by long string ids. Forgetting the oldest ids means a very
//! old id reused after more than `CAPACITY` newer ones is no longer caught;
//! a 64-bit fingerprint may (with negligible odds) refuse a fresh id whose
//! fingerprint matches an earlier one. Both only ever affect the client that
//! chose the ids.

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeSet, VecDeque};
use std::hash::{Hash, Hasher};

use crate::protocol::jsonrpc::RequestId;

/// The fingerprints of a session's most recent request ids.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct UsedIds {
    order: VecDeque<u64>,
    seen: BTreeSet<u64>,
}

impl UsedIds {
    /// How many ids a session remembers.
    pub const CAPACITY: usize = 1024;

    /// Whether `id` was used (and is still remembered).
    pub fn contains(&self, id: &RequestId) -> bool {
        self.seen.contains(&fingerprint(id))
    }

    /// Records `id`; false if it was used already (and is still remembered).
    pub fn insert(&mut self, id: &RequestId) -> bool {
        let print = fingerprint(id);
        if !self.seen.insert(print) {
            return false;
        }
        self.order.push_back(print);
        if self.order.len() > Self::CAPACITY {
            if let Some(oldest) = self.order.pop_front() {
                self.seen.remove(&oldest);
            }
        }
        true
    }
}

/// A deterministic 64-bit fingerprint of an id (SipHash with fixed keys:
/// the core draws no randomness).
fn fingerprint(id: &RequestId) -> u64 {
    let mut hasher = DefaultHasher::new();
    id.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u64) -> RequestId {
        RequestId::Number(n as i64)
    }

    #[test]
    fn rpc_id_a_reused_id_is_caught_and_memory_stays_bounded() {
        let mut used = UsedIds::default();
        assert!(used.insert(&id(1)));
        assert!(!used.insert(&id(1)));
        for n in 2..=(UsedIds::CAPACITY as u64 + 10) {
            assert!(used.insert(&id(n)));
        }
        assert_eq!(used.order.len(), UsedIds::CAPACITY);
        assert!(!used.insert(&id(UsedIds::CAPACITY as u64)));
    }
}
