//! Protocol versions and eras (E-TERMS).

use serde::{Deserialize, Serialize};

/// A protocol revision such as `2026-07-28`: what a message names in
/// `_meta` or `initialize`, what a session agreed on, and the revision whose
/// schema a message follows. Open set: unknown values are kept as they are,
/// never rejected at parse time. Serialises as the plain string.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ProtocolVersion(String);

impl ProtocolVersion {
    /// The modern revision: stateless, per-request `_meta`.
    pub const MODERN: &'static str = "2026-07-28";
    /// The newest legacy revision (the last with the initialize handshake).
    pub const NEWEST_LEGACY: &'static str = "2025-11-25";
    /// Legacy revisions (initialize handshake), newest first.
    pub const LEGACY: &'static [&'static str] = &[
        Self::NEWEST_LEGACY,
        "2025-06-18",
        "2025-03-26",
        "2024-11-05",
    ];
    /// The legacy revision a peer speaks when its configuration lists none
    /// (see [`ProtocolVersion::legacy_default`]).
    pub const LEGACY_FALLBACK: &'static str = "2025-06-18";

    /// A version as named on the wire (any text: the set is open).
    pub fn new(version: impl Into<String>) -> ProtocolVersion {
        ProtocolVersion(version.into())
    }

    /// The modern revision, [`ProtocolVersion::MODERN`].
    pub fn modern() -> ProtocolVersion {
        ProtocolVersion::new(Self::MODERN)
    }

    /// The legacy version a peer offers first: the first of its configured
    /// legacy versions (newest preferred), else [`Self::LEGACY_FALLBACK`].
    pub fn legacy_default(configured: &[String]) -> ProtocolVersion {
        ProtocolVersion::new(
            configured
                .first()
                .map_or(Self::LEGACY_FALLBACK, String::as_str),
        )
    }

    /// The version as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The version as an owned string.
    pub fn into_string(self) -> String {
        self.0
    }

    /// The era this version belongs to (describes the version only; the era
    /// of a *message* is decided by its shape, see [`Era`]).
    pub fn era(&self) -> Era {
        Self::era_of(&self.0)
    }

    /// The era a version string belongs to. Only used to describe versions;
    /// the era of a *message* is decided by its shape (see [`Era`]).
    pub fn era_of(version: &str) -> Era {
        if version >= Self::MODERN {
            Era::Modern
        } else {
            Era::Legacy
        }
    }

    /// Whether the simulator knows this revision at all.
    pub fn is_known(version: &str) -> bool {
        version == Self::MODERN || Self::LEGACY.contains(&version)
    }
}

impl std::fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for ProtocolVersion {
    fn from(version: &str) -> Self {
        ProtocolVersion::new(version)
    }
}

impl From<String> for ProtocolVersion {
    fn from(version: String) -> Self {
        ProtocolVersion(version)
    }
}

impl From<ProtocolVersion> for String {
    fn from(version: ProtocolVersion) -> Self {
        version.0
    }
}

impl PartialEq<str> for ProtocolVersion {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for ProtocolVersion {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for ProtocolVersion {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

/// Which generation of the protocol a peer or message speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Era {
    /// Per-request `_meta` (2026-07-28 and later).
    Modern,
    /// `initialize` handshake (2025-11-25 and earlier).
    Legacy,
}

/// What a peer is built to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EraMode {
    /// Only per-request `_meta`.
    ModernOnly,
    /// Only the `initialize` handshake.
    LegacyOnly,
    /// Both (E-TERMS: dual-era).
    DualEra,
}

impl EraMode {
    /// Whether this mode speaks the modern era.
    pub fn speaks_modern(self) -> bool {
        matches!(self, EraMode::ModernOnly | EraMode::DualEra)
    }
    /// Whether this mode speaks the legacy era.
    pub fn speaks_legacy(self) -> bool {
        matches!(self, EraMode::LegacyOnly | EraMode::DualEra)
    }
    /// A short human label.
    pub fn label(self) -> &'static str {
        match self {
            EraMode::ModernOnly => "modern-only",
            EraMode::LegacyOnly => "legacy-only",
            EraMode::DualEra => "dual-era",
        }
    }
}

/// Picks the first version in `ours` (preference order) that `theirs` lists.
pub fn pick_mutual(ours: &[String], theirs: &[String]) -> Option<ProtocolVersion> {
    ours.iter()
        .find(|v| theirs.contains(v))
        .map(|v| ProtocolVersion::new(v.as_str()))
}
