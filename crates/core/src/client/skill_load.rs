//! Loading a skill (the skills extension, SEP-2640): [`Step::LoadSkill`]
//! reads the skill's `SKILL.md`, then each other file of its entry, one
//! read at a time, and uses none of it until [`skill_verify`] passed it
//! (C-SKILL-SIZE, C-SKILL-DIGEST, C-SKILL-FRONTMATTER). The first failure
//! ends the load: the skill is not loaded and no later file is read.

use std::collections::VecDeque;

use serde_json::Value;

use super::skill_verify::{self, SkillEntry, SkillFile};
use super::{Client, Step};
use crate::protocol::methods;
use crate::rules::{self, RuleId};

/// The skills extension's list method.
pub(super) const SKILLS_LIST: &str = "skills/list";

/// Every rule a skill load applies.
const LOAD_RULES: &[RuleId] = &[
    rules::C_SKILL_SIZE,
    rules::C_SKILL_DIGEST,
    rules::C_SKILL_FRONTMATTER,
];

/// A skill being loaded: its entry, the file whose read is awaited and
/// those still to read.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SkillLoad {
    entry: SkillEntry,
    current: SkillFile,
    rest: VecDeque<SkillFile>,
}

impl Client {
    /// Starts loading the listed skill whose `SKILL.md` is `uri` (the first
    /// listed one for `None`): its `SKILL.md` is read first.
    pub(super) fn start_skill_load(&mut self, uri: Option<&str>) {
        self.work.skill = None;
        let Some(skills) = &self.known.listed.skills else {
            self.decide(LOAD_RULES, crate::note!("client.skill.no_list", "The client has no skills/list result, so there is no skill entry to load and verify against."));
            return;
        };
        let found = skills.iter().find(|entry| match uri {
            Some(uri) => entry.get("uri").and_then(Value::as_str) == Some(uri),
            None => true,
        });
        let Some(found) = found else {
            self.decide(
                LOAD_RULES,
                crate::note!(
                    "client.skill.not_listed",
                    "No listed skill has the uri {uri}.",
                    uri = uri.unwrap_or("")
                ),
            );
            return;
        };
        let entry = match SkillEntry::from_listing(found) {
            Ok(entry) => entry,
            Err(why) => {
                let mut note = crate::note!(
                    "client.skill.not_loaded_entry",
                    "The client does not load this skill:"
                );
                note.push(why);
                self.decide(LOAD_RULES, note);
                return;
            }
        };
        let mut order: VecDeque<SkillFile> = entry.reading_order().into();
        let Some(current) = order.pop_front() else {
            return;
        };
        self.decide(LOAD_RULES, crate::note!("client.skill.loading", "The client loads the skill {uri}: it reads SKILL.md first and checks its size, digest and frontmatter against the listed entry before it uses it or reads any of the skill's {count} other file(s).", uri = entry.uri, count = order.len()));
        self.work
            .script
            .push_front(Step::read_resource(&current.uri));
        self.work.skill = Some(SkillLoad {
            entry,
            current,
            rest: order,
        });
    }

    /// A complete result of the step in progress: when it is the read of
    /// the skill file awaited, verify it, then read the next file or say
    /// the skill is loaded; on a mismatch, drop the skill.
    pub(super) fn on_skill_file(&mut self, method: &str, params: &Value, result: &Value) {
        if method != methods::RESOURCES_READ {
            return;
        }
        let Some(load) = self.work.skill.take() else {
            return;
        };
        let uri = params.get("uri").and_then(Value::as_str).unwrap_or("");
        if uri != load.current.uri {
            self.work.skill = Some(load);
            return;
        }
        let checked = match skill_verify::content_bytes(result, uri) {
            None => Err(skill_verify::Mismatch::NoContent),
            Some(bytes) => skill_verify::verify_bytes(&load.current, &bytes).and_then(|()| {
                if load.current.uri == load.entry.uri {
                    skill_verify::verify_frontmatter(
                        &load.entry.frontmatter,
                        &bytes,
                        self.frontmatter_reader,
                    )
                } else {
                    Ok(())
                }
            }),
        };
        if let Err(mismatch) = checked {
            let mut note = crate::note!("client.skill.rejected", "Verification failed, so the client does not load the skill {skill}: it uses none of it and reads no more of its files.", skill = load.entry.uri);
            note.push(mismatch.note(uri));
            self.decide(&[mismatch.rule()], note);
            return;
        }
        let is_skill_md = load.current.uri == load.entry.uri;
        let (rules, note) = if is_skill_md {
            (LOAD_RULES, crate::note!("client.skill.skill_md_verified", "{uri}: {size} bytes and its digest as listed, and its frontmatter equal to the entry's, field by field.", uri = uri, size = load.current.size))
        } else {
            (
                &LOAD_RULES[..2],
                crate::note!(
                    "client.skill.file_verified",
                    "{uri}: {size} bytes and its digest as listed.",
                    uri = uri,
                    size = load.current.size
                ),
            )
        };
        self.decide(rules, note);
        let SkillLoad {
            entry, mut rest, ..
        } = load;
        match rest.pop_front() {
            Some(next) => {
                self.work.script.push_front(Step::read_resource(&next.uri));
                self.work.skill = Some(SkillLoad {
                    entry,
                    current: next,
                    rest,
                });
            }
            None => self.decide(
                LOAD_RULES,
                crate::note!(
                    "client.skill.loaded",
                    "Every file of the skill {uri} is verified: the skill is loaded.",
                    uri = entry.uri
                ),
            ),
        }
    }

    /// The step given up on: when it is the read of the skill file
    /// awaited, the file cannot be verified, so the skill is not loaded.
    pub(super) fn skill_read_lost(&mut self, step: &Step) {
        let Step::Request { method, params, .. } = step else {
            return;
        };
        let uri = params.get("uri").and_then(Value::as_str);
        let awaited = self
            .work
            .skill
            .as_ref()
            .map(|load| load.current.uri.as_str());
        if method != methods::RESOURCES_READ || uri.is_none() || uri != awaited {
            return;
        }
        let Some(load) = self.work.skill.take() else {
            return;
        };
        self.decide(&[rules::C_SKILL_DIGEST], crate::note!("client.skill.read_lost", "The client does not load the skill {skill}: {uri} could not be read, so it cannot be verified.", skill = load.entry.uri, uri = load.current.uri));
    }
}
