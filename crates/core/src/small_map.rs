//! A small map kept as a vector of pairs in insertion order: the handful of
//! sessions and pending calls a simulated server holds do not need a tree,
//! and one generic tree per key/value type costs kilobytes of WebAssembly.

use std::borrow::Borrow;

/// A map for a few entries, with linear lookups and deterministic order.
#[derive(Debug, Clone, PartialEq)]
pub struct SmallMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SmallMap<K, V> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

impl<K: PartialEq, V> SmallMap<K, V> {
    fn position<Q: ?Sized + PartialEq>(&self, key: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
    {
        self.entries.iter().position(|(k, _)| k.borrow() == key)
    }
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }
    /// The value for `key`.
    pub fn get<Q: ?Sized + PartialEq>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.position(key).map(|i| &self.entries[i].1)
    }
    /// The value for `key`, mutably.
    pub fn get_mut<Q: ?Sized + PartialEq>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.position(key).map(|i| &mut self.entries[i].1)
    }
    /// Whether `key` is present.
    pub fn contains_key<Q: ?Sized + PartialEq>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.get(key).is_some()
    }
    /// Inserts or replaces.
    pub fn insert(&mut self, key: K, value: V) {
        match self.position(&key) {
            Some(i) => self.entries[i].1 = value,
            None => self.entries.push((key, value)),
        }
    }
    /// Removes and returns the value for `key`.
    pub fn remove<Q: ?Sized + PartialEq>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let pos = self.position(key)?;
        Some(self.entries.remove(pos).1)
    }
    /// Entries in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }
    /// Keys in insertion order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.iter().map(|(k, _)| k)
    }
}
