//! Verifying a skill's files before the client uses them (the skills
//! extension, SEP-2640): a skill entry of `skills/list` names each file of
//! the skill with its `size` and `digest` (`sha256:<hex>`), and the
//! frontmatter of its `SKILL.md`. A file read is checked for its size
//! (C-SKILL-SIZE), then its digest (C-SKILL-DIGEST); a `SKILL.md` that
//! passes both has its YAML frontmatter compared field by field with the
//! entry's (C-SKILL-FRONTMATTER). Pure functions: the YAML itself is read
//! by a [`FrontmatterReader`] the caller hands the client (the CLI's; the
//! core links no YAML parser).

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::note::Note;
use crate::rules::{self, RuleId};

/// Reads the YAML between a `SKILL.md`'s `---` lines into a JSON object,
/// or says why it cannot.
pub type FrontmatterReader = fn(&str) -> Result<Map<String, Value>, String>;

/// One file of a skill as its entry lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFile {
    /// The file's resource URI.
    pub uri: String,
    /// `sha256:` and the lowercase hex SHA-256 of its bytes.
    pub digest: String,
    /// Its length in bytes.
    pub size: u64,
}

/// A skill entry of `skills/list`: the skill's `SKILL.md` URI, its
/// frontmatter and its files.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillEntry {
    /// The URI of the skill's `SKILL.md`.
    pub uri: String,
    /// The frontmatter the entry announces.
    pub frontmatter: Map<String, Value>,
    /// Every file of the skill (its `resources`), `SKILL.md` among them.
    pub files: Vec<SkillFile>,
}

impl SkillEntry {
    /// The entry in `entry`, or why it cannot be verified against.
    pub fn from_listing(entry: &Value) -> Result<SkillEntry, Note> {
        let uri = entry.get("uri").and_then(Value::as_str).ok_or_else(|| {
            crate::note!("client.skill.entry_no_uri", "The skill entry has no uri.")
        })?;
        let frontmatter = entry
            .get("frontmatter")
            .and_then(Value::as_object)
            .cloned()
            .ok_or_else(|| {
                crate::note!(
                    "client.skill.entry_no_frontmatter",
                    "The entry of {uri} has no frontmatter object to compare its SKILL.md with.",
                    uri = uri
                )
            })?;
        let listed = entry
            .get("resources")
            .and_then(Value::as_array)
            .ok_or_else(|| crate::note!("client.skill.entry_no_resources", "The entry of {uri} lists no resources with sizes and digests, so none of its files can be verified.", uri = uri))?;
        let mut files = Vec::new();
        for item in listed {
            let file = item.get("uri").and_then(Value::as_str);
            let digest = item.get("digest").and_then(Value::as_str);
            let size = item.get("size").and_then(Value::as_u64);
            match (file, digest, size) {
                (Some(file), Some(digest), Some(size)) => files.push(SkillFile {
                    uri: file.to_string(),
                    digest: digest.to_string(),
                    size,
                }),
                _ => {
                    return Err(crate::note!(
                        "client.skill.entry_bad_resource",
                        "A resource of the entry of {uri} lacks a uri, a digest or a size: {item}",
                        uri = uri,
                        item = item.to_string()
                    ))
                }
            }
        }
        if !files.iter().any(|f| f.uri == uri) {
            return Err(crate::note!("client.skill.entry_no_skill_md", "The entry of {uri} does not list its own SKILL.md among its resources, so it has no size or digest to verify it against.", uri = uri));
        }
        Ok(SkillEntry {
            uri: uri.to_string(),
            frontmatter,
            files,
        })
    }

    /// The files in the order the client reads them: `SKILL.md` first.
    pub fn reading_order(&self) -> Vec<SkillFile> {
        let mut order: Vec<SkillFile> = self
            .files
            .iter()
            .filter(|f| f.uri == self.uri)
            .take(1)
            .cloned()
            .collect();
        order.extend(self.files.iter().filter(|f| f.uri != self.uri).cloned());
        order
    }
}

/// One frontmatter field that differs between the entry and the file.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldDiff {
    /// The field's name.
    pub field: String,
    /// What the entry says (null when absent).
    pub entry: Value,
    /// What the file says (null when absent).
    pub file: Value,
}

/// Why a file fails verification.
#[derive(Debug, Clone, PartialEq)]
pub enum Mismatch {
    /// Its byte length is not the entry's `size` (C-SKILL-SIZE).
    Size {
        /// The entry's size.
        expected: u64,
        /// The length read.
        got: u64,
    },
    /// Its SHA-256 is not the entry's `digest`, or the digest is not one
    /// the client can check (C-SKILL-DIGEST).
    Digest {
        /// The entry's digest.
        expected: String,
        /// `sha256:` and the hex SHA-256 of what was read.
        got: String,
    },
    /// The read carried no text or blob content (C-SKILL-DIGEST).
    NoContent,
    /// `SKILL.md` is not UTF-8 text, or does not begin with a `---`
    /// delimited frontmatter block (C-SKILL-FRONTMATTER).
    NoFrontmatter,
    /// The client has no YAML reader, so it cannot compare
    /// (C-SKILL-FRONTMATTER).
    NoYamlReader,
    /// The frontmatter is not a YAML mapping: the reader's own words
    /// (C-SKILL-FRONTMATTER).
    FrontmatterUnreadable(String),
    /// The file's frontmatter differs from the entry's (C-SKILL-FRONTMATTER).
    Fields(Vec<FieldDiff>),
}

impl Mismatch {
    /// The rule the failed check applies.
    pub fn rule(&self) -> RuleId {
        match self {
            Mismatch::Size { .. } => rules::C_SKILL_SIZE,
            Mismatch::Digest { .. } | Mismatch::NoContent => rules::C_SKILL_DIGEST,
            Mismatch::NoFrontmatter
            | Mismatch::NoYamlReader
            | Mismatch::FrontmatterUnreadable(_)
            | Mismatch::Fields(_) => rules::C_SKILL_FRONTMATTER,
        }
    }

    /// What mismatched in `uri`, in a sentence.
    pub fn note(&self, uri: &str) -> Note {
        match self {
            Mismatch::Size { expected, got } => crate::note!("client.skill.size_mismatch", "{uri} is {got} bytes; its entry says {expected}.", uri = uri, got = got, expected = expected),
            Mismatch::Digest { expected, got } => crate::note!("client.skill.digest_mismatch", "{uri} hashes to {got}; its entry says {expected}.", uri = uri, got = got, expected = expected),
            Mismatch::NoContent => crate::note!("client.skill.no_content", "The read of {uri} carried no text or blob, so there is nothing to verify.", uri = uri),
            Mismatch::NoFrontmatter => crate::note!("client.skill.no_frontmatter", "{uri} does not begin with a --- delimited YAML frontmatter block.", uri = uri),
            Mismatch::NoYamlReader => crate::note!("client.skill.no_yaml_reader", "This client has no YAML reader, so it cannot compare the frontmatter of {uri} with its entry's.", uri = uri),
            Mismatch::FrontmatterUnreadable(why) => crate::note!("client.skill.frontmatter_unreadable", "The frontmatter of {uri} is not a YAML mapping: {why}", uri = uri, why = why),
            Mismatch::Fields(diffs) => {
                let mut note = crate::note!("client.skill.frontmatter_fields", "The frontmatter of {uri} differs from its entry's:", uri = uri);
                for d in diffs {
                    note.push(crate::note!("client.skill.frontmatter_field", "{field}: entry {entry}, file {file}.", field = d.field, entry = d.entry, file = d.file));
                }
                note
            }
        }
    }
}

/// The bytes of a `resources/read` result for `uri`: its text, or its
/// blob decoded from base64.
pub fn content_bytes(result: &Value, uri: &str) -> Option<Vec<u8>> {
    let contents = result.get("contents")?.as_array()?;
    let item = contents
        .iter()
        .find(|c| c.get("uri").and_then(Value::as_str) == Some(uri))
        .or_else(|| contents.first())?;
    if let Some(text) = item.get("text").and_then(Value::as_str) {
        return Some(text.as_bytes().to_vec());
    }
    use base64::Engine as _;
    let blob = item.get("blob").and_then(Value::as_str)?;
    base64::engine::general_purpose::STANDARD.decode(blob).ok()
}

/// `sha256:` and the lowercase hex SHA-256 of `bytes`.
pub fn sha256_digest(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut out = String::from("sha256:");
    for byte in hash {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

/// Checks `bytes` against `file`: its size first (C-SKILL-SIZE), then its
/// digest (C-SKILL-DIGEST). A digest that is not `sha256:` with 64 hex
/// digits cannot be checked, and fails.
pub fn verify_bytes(file: &SkillFile, bytes: &[u8]) -> Result<(), Mismatch> {
    let got = bytes.len() as u64;
    if got != file.size {
        return Err(Mismatch::Size {
            expected: file.size,
            got,
        });
    }
    let got = sha256_digest(bytes);
    if !got.eq_ignore_ascii_case(&file.digest) {
        return Err(Mismatch::Digest {
            expected: file.digest.clone(),
            got,
        });
    }
    Ok(())
}

/// The text between a `SKILL.md`'s opening `---` line and the next `---`
/// line (a byte order mark before it and trailing blanks after the
/// closing dashes allowed), or `None` when the file does not start so.
pub fn frontmatter_block(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\r\n")
        .or_else(|| text.strip_prefix("---\n"))?;
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        let bare = line
            .trim_end_matches(['\n', '\r'])
            .trim_end_matches([' ', '\t']);
        if bare == "---" {
            let block = &rest[..at];
            return Some(
                block
                    .strip_suffix("\r\n")
                    .or_else(|| block.strip_suffix('\n'))
                    .unwrap_or(block),
            );
        }
        at += line.len();
    }
    None
}

/// Every field whose value differs between the entry's frontmatter and the
/// file's, an absent field counting as null; numbers compare by value.
pub fn compare_frontmatter(
    entry: &Map<String, Value>,
    file: &Map<String, Value>,
) -> Vec<FieldDiff> {
    let mut names: Vec<&String> = entry.keys().collect();
    names.extend(file.keys().filter(|k| !entry.contains_key(*k)));
    names
        .into_iter()
        .filter_map(|name| {
            let a = entry.get(name).unwrap_or(&Value::Null);
            let b = file.get(name).unwrap_or(&Value::Null);
            (!same(a, b)).then(|| FieldDiff {
                field: name.clone(),
                entry: a.clone(),
                file: b.clone(),
            })
        })
        .collect()
}

/// Deep equality, numbers by value (YAML `1` and JSON `1.0` agree).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Checks a `SKILL.md`'s frontmatter against the entry's
/// (C-SKILL-FRONTMATTER), with `reader` for the YAML; without one the
/// frontmatter cannot be checked, and fails.
pub fn verify_frontmatter(
    entry: &Map<String, Value>,
    bytes: &[u8],
    reader: Option<FrontmatterReader>,
) -> Result<(), Mismatch> {
    let text = std::str::from_utf8(bytes).map_err(|_| Mismatch::NoFrontmatter)?;
    let block = frontmatter_block(text).ok_or(Mismatch::NoFrontmatter)?;
    let reader = reader.ok_or(Mismatch::NoYamlReader)?;
    let file = reader(block).map_err(Mismatch::FrontmatterUnreadable)?;
    let diffs = compare_frontmatter(entry, &file);
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(Mismatch::Fields(diffs))
    }
}
