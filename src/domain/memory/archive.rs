//! The archive of workspace memory: entries superseded long ago, moved out of the live store
//! by `gc --sweep` so that every hook reads a small file, and never deleted.
//!
//! - Due: a superseded entry whose `updatedAt` (the time it was superseded) is more than
//!   `ARCHIVE_AFTER_DAYS` days old. 30 days is the default session TTL: by then no live session
//!   still lists it as pending, and a wrong replacement has had a month to be noticed. Active
//!   entries stay, capped ones included: they are live memory and come back when others go.
//! - The archive holds one entry a line, as the store holds it plus `archivedAt`. It is
//!   appended to and never rewritten; a crash between the append and the rewrite of the store
//!   leaves the same entry twice, so it is read by id, the last line winning.
//! - Restoring brings an archived entry back as active; an active entry with the same
//!   canonical key is superseded by it, since the user asked for this one.

use std::collections::HashMap;

use serde_json::Value;

use crate::domain::base::time::{format_rfc3339_ms, parse_rfc3339};
use crate::domain::memory::workspace::{
    canonical_key, mark_capped, EntryStatus, MemoryEntry, WorkspaceMemory,
};

/// Days after being superseded that an entry leaves the live store.
pub const ARCHIVE_AFTER_DAYS: i64 = 30;
/// The field added to each archived line: when it was archived, RFC 3339.
pub const ARCHIVED_AT: &str = "archivedAt";
const DAY_MS: i64 = 86_400_000;

/// Whether `entry` is due for the archive at `now_ms`. An entry whose time cannot be read is
/// never due: its age is unknown.
pub fn is_due(entry: &MemoryEntry, now_ms: i64) -> bool {
    entry.status == EntryStatus::Superseded
        && parse_rfc3339(&entry.updated_at)
            .is_some_and(|superseded| now_ms - superseded > ARCHIVE_AFTER_DAYS * DAY_MS)
}

/// Removes the due entries from `memory` and returns them with their places in the store, in
/// store order, so that `put_back` can undo it exactly.
pub fn take_due(memory: &mut WorkspaceMemory, now_ms: i64) -> Vec<(usize, MemoryEntry)> {
    let mut taken = Vec::new();
    let mut kept = Vec::with_capacity(memory.entries.len());
    for (at, entry) in std::mem::take(&mut memory.entries).into_iter().enumerate() {
        if is_due(&entry, now_ms) {
            taken.push((at, entry));
        } else {
            kept.push(entry);
        }
    }
    memory.entries = kept;
    taken
}

/// Puts entries taken by `take_due` back where they were.
pub fn put_back(memory: &mut WorkspaceMemory, taken: Vec<(usize, MemoryEntry)>) {
    for (at, entry) in taken {
        let at = at.min(memory.entries.len());
        memory.entries.insert(at, entry);
    }
}

/// The archive lines of `entries`, each ending in a newline.
pub fn archive_lines<'a>(
    entries: impl IntoIterator<Item = &'a MemoryEntry>,
    now_ms: i64,
) -> String {
    let archived_at = Value::String(format_rfc3339_ms(now_ms));
    let mut text = String::new();
    for entry in entries {
        let mut entry = entry.clone();
        entry.extra.insert(ARCHIVED_AT.into(), archived_at.clone());
        // An entry always serialises: its fields are strings, numbers and JSON values.
        text.push_str(&serde_json::to_string(&entry).unwrap_or_default());
        text.push('\n');
    }
    text
}

/// A line of the archive that is not an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    /// 1-based.
    pub line: usize,
    pub reason: String,
}

/// What an archive file holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Archive {
    /// Distinct by id, in order of first appearance, each as its last line has it.
    pub entries: Vec<MemoryEntry>,
    pub malformed: Vec<Malformed>,
}

impl Archive {
    pub fn read(text: &str) -> Archive {
        let mut archive = Archive::default();
        let mut by_id: HashMap<String, usize> = HashMap::new();
        for (index, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<MemoryEntry>(line) {
                Ok(entry) => match by_id.get(&entry.id) {
                    Some(&at) => archive.entries[at] = entry,
                    None => {
                        by_id.insert(entry.id.clone(), archive.entries.len());
                        archive.entries.push(entry);
                    }
                },
                Err(e) => archive.malformed.push(Malformed {
                    line: index + 1,
                    reason: e.to_string(),
                }),
            }
        }
        archive
    }

    pub fn get(&self, id: &str) -> Option<&MemoryEntry> {
        self.entries.iter().find(|e| e.id == id)
    }
}

/// What restoring an entry did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Restored {
    /// Back as active; `superseded` names the active entry with the same key it replaced.
    Restored { superseded: Option<String> },
    /// An entry with that id is in the live store already; nothing changed.
    AlreadyLive,
}

/// Brings the archived entry `id` back into `memory` as active, or says why not.
pub fn restore(
    memory: &mut WorkspaceMemory,
    archive: &Archive,
    id: &str,
    now_ms: i64,
) -> Result<Restored, String> {
    if memory.entries.iter().any(|e| e.id == id) {
        return Ok(Restored::AlreadyLive);
    }
    let mut entry = archive
        .get(id)
        .cloned()
        .ok_or_else(|| format!("no archived entry has the id {id:?}"))?;
    let now = format_rfc3339_ms(now_ms);
    let key = canonical_key(entry.kind, &entry.text);
    let superseded = memory
        .entries
        .iter_mut()
        .find(|e| e.status == EntryStatus::Active && canonical_key(e.kind, &e.text) == key)
        .map(|old| {
            old.status = EntryStatus::Superseded;
            old.capped = false;
            old.updated_at = now.clone();
            old.id.clone()
        });
    entry.extra.remove(ARCHIVED_AT);
    entry.status = EntryStatus::Active;
    entry.updated_at = now;
    memory.entries.push(entry);
    mark_capped(memory);
    Ok(Restored::Restored { superseded })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::memory::kind::MemoryType;
    use crate::domain::memory::workspace::{merge, NewMemory, Source};

    const DAY: i64 = DAY_MS;

    fn new(text: &str, source: Source) -> NewMemory {
        NewMemory {
            kind: MemoryType::Decision,
            text: text.into(),
            rationale: None,
            source,
            confidence: 0.75,
        }
    }

    /// Two entries superseded at day 1 and day 50, their replacements, and one capped away.
    fn store() -> WorkspaceMemory {
        let mut memory = WorkspaceMemory::new("/r", "k");
        merge(
            &mut memory,
            new("Use Postgres for reports", Source::Compaction),
            0,
        );
        merge(
            &mut memory,
            new("use postgres for reports!", Source::Explicit),
            DAY,
        );
        merge(
            &mut memory,
            new("Retry payments three times", Source::Compaction),
            2 * DAY,
        );
        merge(
            &mut memory,
            new("retry payments three times", Source::Explicit),
            50 * DAY,
        );
        memory
    }

    #[test]
    fn only_entries_superseded_long_ago_are_due() {
        let memory = store();
        let due: Vec<bool> = memory.entries.iter().map(|e| is_due(e, 60 * DAY)).collect();
        // Superseded on day 1 (59 days ago): due. Superseded on day 50: not yet. Active: never.
        assert_eq!(due, [true, false, false, false]);
        let mut unreadable = memory.entries[0].clone();
        unreadable.updated_at = "yesterday".into();
        assert!(!is_due(&unreadable, 600 * DAY));
        let mut capped = memory.entries[1].clone();
        capped.capped = true;
        capped.updated_at = format_rfc3339_ms(0);
        assert!(!is_due(&capped, 600 * DAY));
    }

    #[test]
    fn taking_and_putting_back_restores_the_store_exactly() {
        let before = store();
        let mut memory = before.clone();
        let taken = take_due(&mut memory, 100 * DAY);
        assert_eq!(taken.len(), 2);
        assert_eq!(memory.entries.len(), 2);
        assert!(memory
            .entries
            .iter()
            .all(|e| e.status == EntryStatus::Active));
        put_back(&mut memory, taken);
        assert_eq!(memory, before);
    }

    #[test]
    fn lines_read_back_by_id_and_flag_what_is_not_an_entry() {
        let memory = store();
        let lines = archive_lines(&memory.entries[..2], 70 * DAY);
        assert_eq!(lines.lines().count(), 2);
        assert!(lines
            .lines()
            .all(|l| l.contains("\"archivedAt\":\"1970-03-12T")));
        // A crash re-archived the first entry; a torn line and garbage follow.
        let mut changed = memory.entries[0].clone();
        changed.text = "Use Postgres for all reports".into();
        let text = format!(
            "{lines}{}{{\"id\":\"mem_torn\",\"ty\n\nnot json\n",
            archive_lines([&changed], 71 * DAY)
        );
        let archive = Archive::read(&text);
        assert_eq!(archive.entries.len(), 2);
        assert_eq!(archive.entries[0].text, "Use Postgres for all reports");
        let bad: Vec<usize> = archive.malformed.iter().map(|m| m.line).collect();
        assert_eq!(bad, [4, 6]);
    }

    #[test]
    fn restore_brings_an_entry_back_and_supersedes_its_live_twin() {
        let mut memory = store();
        let taken = take_due(&mut memory, 100 * DAY);
        let archive = Archive::read(&archive_lines(taken.iter().map(|(_, e)| e), 100 * DAY));
        let id = taken[0].1.id.clone();
        let twin = memory.entries[0].id.clone();
        let restored = restore(&mut memory, &archive, &id, 101 * DAY).unwrap();
        assert_eq!(
            restored,
            Restored::Restored {
                superseded: Some(twin.clone())
            }
        );
        let back = memory.entries.iter().find(|e| e.id == id).unwrap();
        assert_eq!(back.status, EntryStatus::Active);
        assert!(!back.extra.contains_key(ARCHIVED_AT));
        assert_eq!(back.updated_at, format_rfc3339_ms(101 * DAY));
        let twin = memory.entries.iter().find(|e| e.id == twin).unwrap();
        assert_eq!(twin.status, EntryStatus::Superseded);
        let active = memory
            .entries
            .iter()
            .filter(|e| e.status == EntryStatus::Active)
            .count();
        assert_eq!(active, 2);

        let before = memory.clone();
        assert_eq!(
            restore(&mut memory, &archive, &id, 102 * DAY),
            Ok(Restored::AlreadyLive)
        );
        assert!(restore(&mut memory, &archive, "mem_0_nothere", 102 * DAY).is_err());
        assert_eq!(memory, before);
    }
}
