//! Protocol versions and eras (E-TERMS).

use serde::{Deserialize, Serialize};

/// A protocol revision string such as `2026-07-28`. Open set: unknown values
/// are kept as they are, never rejected at parse time.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ProtocolVersion(pub String);

impl ProtocolVersion {
    /// The modern revision: stateless, per-request `_meta`.
    pub const MODERN: &'static str = "2026-07-28";
    /// Legacy revisions (initialize handshake), newest first.
    pub const LEGACY: &'static [&'static str] =
        &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

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
pub fn pick_mutual(ours: &[String], theirs: &[String]) -> Option<String> {
    ours.iter().find(|v| theirs.contains(v)).cloned()
}
