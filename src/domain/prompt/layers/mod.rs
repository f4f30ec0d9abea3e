//! The memory block of a new session is made of three layers, each under its own header so
//! the agent can tell where an entry comes from:
//!
//! | layer     | where it is kept                        | header           | share of the budget    |
//! |-----------|-----------------------------------------|------------------|------------------------|
//! | user      | the data directory's `user-memory.json` | `USER_HEADER`    | at most a third        |
//! | team      | the repository's `.ocmem/memory.md`     | `TEAM_HEADER`    | at most a third        |
//! | workspace | the workspace's `memory.json`           | `WORKSPACE_HEADER` | all that is left     |
//!
//! Shown in that order. An entry is shown once: the same entry (same canonical key) in two
//! layers is shown from the team layer when the team shows it, else from user memory, and
//! never again below. Entries that differ, even when one contradicts the other, are each
//! shown in their own layer: a personal entry is the person's own decision to keep.
//! Team entries have no rank or age: they are shown in file order, as the team wrote them.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::domain::base::text::layout;
use crate::domain::guard::structure::{entry_line, TEAM_HEADER, USER_HEADER};
use crate::domain::memory::kind::MemoryType;
use crate::domain::memory::team::TeamEntry;
use crate::domain::memory::workspace::{
    canonical_key, render_block_within, render_entries, stale_days, top_ranked, EntryStatus,
    MemoryEntry, WorkspaceMemory, MAX_RENDERED_CHARS, MAX_RENDERED_ENTRIES,
};

/// At most this many user entries are rendered.
pub const USER_RENDERED_ENTRIES: usize = MAX_RENDERED_ENTRIES / 3;
/// The user section takes at most this many characters of the block, newlines included.
pub const USER_RENDERED_CHARS: usize = MAX_RENDERED_CHARS / 3;
/// At most this many team entries are rendered.
pub const TEAM_RENDERED_ENTRIES: usize = MAX_RENDERED_ENTRIES / 3;
/// The team section takes at most this many characters of the block, newlines included.
pub const TEAM_RENDERED_CHARS: usize = MAX_RENDERED_CHARS / 3;
/// Between two sections: a blank line.
const SECTION_BREAK: &str = "\n\n";

/// What a block is made of. `user` and `workspace` may be a whole memory or its block memory.
#[derive(Debug, Clone, Copy, Default)]
pub struct Layers<'a> {
    pub user: Option<&'a WorkspaceMemory>,
    pub team: &'a [TeamEntry],
    pub workspace: Option<&'a WorkspaceMemory>,
}

/// The block, section by section, and which entries a layer above hid below.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LayeredBlock {
    pub user: String,
    pub team: String,
    pub workspace: String,
    /// Canonical keys of the entries the team section shows.
    pub team_keys: HashSet<String>,
    /// Canonical keys of the entries the user section shows.
    pub user_keys: HashSet<String>,
    /// How many active personal entries were left out because a layer above shows them.
    pub hidden: usize,
}

impl LayeredBlock {
    /// The sections that have something, in order, separated by a blank line.
    pub fn text(&self) -> String {
        [&self.user, &self.team, &self.workspace]
            .into_iter()
            .filter(|section| !section.is_empty())
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(SECTION_BREAK)
    }

    /// Whether a personal entry of user memory (`in_user`) or of workspace memory is left
    /// out because a layer above shows the same entry.
    pub fn shown_above(&self, entry: &MemoryEntry, in_user: bool) -> bool {
        let key = canonical_key(entry.kind, &entry.text);
        self.team_keys.contains(&key) || (!in_user && self.user_keys.contains(&key))
    }
}

/// Renders the three layers within the one budget of the block (see the module's table).
pub fn render_layers(layers: Layers, now_ms: Option<i64>) -> LayeredBlock {
    let mut block = LayeredBlock::default();
    let team_lines: Vec<(usize, String)> = layers
        .team
        .iter()
        .take(TEAM_RENDERED_ENTRIES)
        .map(|e| {
            (
                section_of(e.kind),
                entry_line(&e.text, e.rationale.as_deref(), None),
            )
        })
        .collect();
    block.team = layout(TEAM_HEADER, &labels(), &team_lines, TEAM_RENDERED_CHARS);
    block.team_keys = shown_keys(
        &block.team,
        layers.team.iter().map(|e| {
            let line = entry_line(&e.text, e.rationale.as_deref(), None);
            (e.kind, line, canonical_key(e.kind, &e.text))
        }),
    );

    if let Some(user) = layers.user {
        let (user, hidden) = without(user, &block.team_keys, &HashSet::new());
        block.hidden += hidden;
        block.user = render_entries(
            &user,
            now_ms,
            USER_HEADER,
            USER_RENDERED_ENTRIES,
            USER_RENDERED_CHARS,
        );
        block.user_keys = shown_keys(
            &block.user,
            top_ranked(&user, USER_RENDERED_ENTRIES)
                .into_iter()
                .map(|e| personal_line(e, now_ms)),
        );
    }

    let (mut entries_left, mut chars_left) = (MAX_RENDERED_ENTRIES, MAX_RENDERED_CHARS);
    for section in [&block.user, &block.team] {
        if !section.is_empty() {
            entries_left -= section.lines().filter(|l| l.starts_with("- ")).count();
            chars_left = chars_left.saturating_sub(section.chars().count() + SECTION_BREAK.len());
        }
    }
    if let Some(workspace) = layers.workspace {
        let (workspace, hidden) = without(workspace, &block.team_keys, &block.user_keys);
        block.hidden += hidden;
        block.workspace = render_block_within(&workspace, now_ms, entries_left, chars_left);
    }
    block
}

/// The section labels, in display order.
fn labels() -> Vec<&'static str> {
    MemoryType::ALL
        .iter()
        .map(|t| match t {
            MemoryType::Feedback => "feedback:",
            MemoryType::Project => "project:",
            MemoryType::Decision => "decision:",
            MemoryType::Reference => "reference:",
        })
        .collect()
}

fn section_of(kind: MemoryType) -> usize {
    MemoryType::ALL.iter().position(|t| *t == kind).unwrap_or(0)
}

/// A personal entry's type, rendered line and canonical key.
fn personal_line(entry: &MemoryEntry, now_ms: Option<i64>) -> (MemoryType, String, String) {
    let line = entry_line(
        &entry.text,
        entry.rationale.as_deref(),
        now_ms.and_then(|now| stale_days(entry, now)),
    );
    (entry.kind, line, canonical_key(entry.kind, &entry.text))
}

/// The keys of the `candidates` (type, line, key) whose line `section` shows under its type.
fn shown_keys(
    section: &str,
    candidates: impl Iterator<Item = (MemoryType, String, String)>,
) -> HashSet<String> {
    if section.is_empty() {
        return HashSet::new();
    }
    let mut shown: HashSet<(MemoryType, &str)> = HashSet::new();
    let mut current: Option<MemoryType> = None;
    for line in section.lines().skip(1) {
        match MemoryType::ALL
            .into_iter()
            .find(|t| line.strip_suffix(':') == Some(t.as_str()))
        {
            Some(kind) => current = Some(kind),
            None => {
                if let Some(kind) = current {
                    shown.insert((kind, line));
                }
            }
        }
    }
    candidates
        .filter(|(kind, line, _)| shown.contains(&(*kind, line.as_str())))
        .map(|(_, _, key)| key)
        .collect()
}

/// `memory` without the active entries whose key is in `first` or `second`, and how many
/// were left out. Borrowed when none is.
fn without<'a>(
    memory: &'a WorkspaceMemory,
    first: &HashSet<String>,
    second: &HashSet<String>,
) -> (Cow<'a, WorkspaceMemory>, usize) {
    if first.is_empty() && second.is_empty() {
        return (Cow::Borrowed(memory), 0);
    }
    let hidden = |e: &MemoryEntry| {
        e.status == EntryStatus::Active && {
            let key = canonical_key(e.kind, &e.text);
            first.contains(&key) || second.contains(&key)
        }
    };
    let count = memory.entries.iter().filter(|e| hidden(e)).count();
    if count == 0 {
        return (Cow::Borrowed(memory), 0);
    }
    let mut kept = memory.clone();
    kept.entries.retain(|e| !hidden(e));
    (Cow::Owned(kept), count)
}

#[cfg(test)]
mod tests;
