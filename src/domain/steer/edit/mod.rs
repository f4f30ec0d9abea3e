//! What a person (or the agent, through its tools) does to workspace memory by hand: list it
//! with what the block shows and why the rest is not shown, add, edit, forget and restore
//! entries, and read an entry's history. Pure functions over a `WorkspaceMemory`; the store
//! is `engine::memory_ops`'s and the command line `cmd::memory`'s.
//!
//! Nothing is ever deleted: forgetting or editing an entry marks it `superseded`, with three
//! fields the TypeScript plugin's readers ignore (`SUPERSEDED_AT`, `SUPERSEDED_BY`,
//! `SUPERSEDED_WHY`), and restoring it makes it active again.

use serde::Serialize;
use serde_json::Value;

use crate::domain::base::text::strip_invisible;
use crate::domain::base::time::{format_rfc3339_ms, parse_rfc3339};
use crate::domain::capture::explicit::{self, MIN_BODY_CHARS};
use crate::domain::guard::injection::instructs_agent;
use crate::domain::guard::structure::entry_line;
use crate::domain::memory::kind::MemoryType;
use crate::domain::memory::workspace::{
    canonical_key, clean_text, mark_capped, merge, merge_all, render_block, stale_days, top_ranked,
    EntryStatus, MemoryEntry, Merged, NewMemory, Source, WorkspaceMemory, MAX_RENDERED_ENTRIES,
    MAX_TEXT_CHARS,
};
use crate::domain::prompt::layers::{render_layers, Layers};

/// When the entry was superseded (RFC 3339).
pub const SUPERSEDED_AT: &str = "supersededAt";
/// The id of the entry that took its place, when one did.
pub const SUPERSEDED_BY: &str = "supersededBy";
/// Why it was superseded: one of `Why`'s names.
pub const SUPERSEDED_WHY: &str = "supersededWhy";
/// The words that asked for it, when a conversation did ("forgotten on request: …").
pub const SUPERSEDED_REASON: &str = "supersededReason";

/// Confidence of an entry added by hand: what a person states is as sure as what they asked to
/// remember in a conversation, but `manual` ranks below `explicit` on a collision.
pub const MANUAL_CONFIDENCE: f64 = 0.9;

/// Why an entry was superseded by hand, as stored in `SUPERSEDED_WHY`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Why {
    Forgotten,
    Edited,
    Restored,
    Asked,
    Updated,
}

/// Each reason: its stored name, and what it means to a person.
const WHYS: [(Why, &str, &str); 5] = [
    (Why::Forgotten, "forgotten", "forgotten by hand"),
    (
        Why::Asked,
        "asked",
        "forgotten when the user asked in the conversation",
    ),
    (
        Why::Updated,
        "updated",
        "replaced by a newer memory that updates or contradicts it",
    ),
    (Why::Edited, "edited", "replaced by its edited text"),
    (
        Why::Restored,
        "restored",
        "replaced when an entry it had replaced was restored",
    ),
];

impl Why {
    pub fn as_str(self) -> &'static str {
        WHYS.iter().find(|(w, ..)| *w == self).map_or("", |w| w.1)
    }
}

/// What a stored reason means; an entry superseded by a merge has none, and a stronger entry
/// with the same text took its place.
pub fn describe_why(stored: Option<&str>) -> &'static str {
    match stored {
        Some(name) => WHYS
            .iter()
            .find(|(_, n, _)| *n == name)
            .map_or("superseded", |w| w.2),
        None => "a stronger entry with the same text took its place",
    }
}

/// Why an entry is not in the block a new session gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotShown {
    /// Forgotten, edited, or replaced by a stronger duplicate.
    Superseded,
    /// Active, but beyond the block's top entries by rank.
    Capped,
    /// Among the top entries, but its line did not fit the block's character budget.
    OverBudget,
    /// The same entry is shown from a layer above: team memory, or user memory for a
    /// workspace entry (see `layers`).
    Shared,
}

/// Each reason: its short name (the list's column) and what it means.
pub const NOT_SHOWN: [(NotShown, &str, &str); 4] = [
    (
        NotShown::Superseded,
        "superseded",
        "superseded: kept on disk, never shown",
    ),
    (
        NotShown::Capped,
        "capped",
        "beyond the block's top entries by rank: shown when higher ones go",
    ),
    (
        NotShown::OverBudget,
        "over budget",
        "its line does not fit the block's character budget",
    ),
    (
        NotShown::Shared,
        "shared",
        "the same entry is shown from team memory (or, for a workspace entry, user memory)",
    ),
];

impl NotShown {
    pub fn label(self) -> &'static str {
        NOT_SHOWN
            .iter()
            .find(|(n, ..)| *n == self)
            .map_or("", |n| n.1)
    }

    pub fn meaning(self) -> &'static str {
        NOT_SHOWN
            .iter()
            .find(|(n, ..)| *n == self)
            .map_or("", |n| n.2)
    }
}

/// One entry as listed: whether the block shows it, and why not.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed<'a> {
    pub entry: &'a MemoryEntry,
    pub not_shown: Option<NotShown>,
}

/// Every entry of `memory`: the active ones best first by rank, then the superseded ones, the
/// most recently superseded first; each with whether the block rendered at `now_ms` shows it.
pub fn listing(memory: &WorkspaceMemory, now_ms: i64) -> Vec<Listed<'_>> {
    listing_in(
        memory,
        &render_block(memory, Some(now_ms)),
        |_| false,
        now_ms,
    )
}

/// Which memory of a combined block (see `user_memory::render_memory_block`) is listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Workspace,
    User,
}

/// Every entry of `memory`, as `listing`, but judged against the block a new session gets
/// with user memory first: `user` and `workspace` are both memories, `part` says which one
/// is listed. User memory takes its share of the budget, so a workspace entry that fits its
/// own block may not fit the combined one.
pub fn listing_with<'a>(
    part: Part,
    user: Option<&WorkspaceMemory>,
    workspace: Option<&WorkspaceMemory>,
    listed: &'a WorkspaceMemory,
    now_ms: i64,
) -> Vec<Listed<'a>> {
    let layers = Layers {
        user,
        team: &[],
        workspace,
    };
    listing_layered(part, layers, listed, now_ms)
}

/// `listing_with` for the block of all the layers, team memory included: an entry a layer
/// above shows is `Shared`.
pub fn listing_layered<'a>(
    part: Part,
    layers: Layers,
    listed: &'a WorkspaceMemory,
    now_ms: i64,
) -> Vec<Listed<'a>> {
    let block = render_layers(layers, Some(now_ms));
    let in_user = part == Part::User;
    let shown = if in_user {
        &block.user
    } else {
        &block.workspace
    };
    listing_in(listed, shown, |e| block.shown_above(e, in_user), now_ms)
}

/// Every entry of `memory`, each with whether `block` (a block's header and its sections)
/// shows it and why not.
fn listing_in<'a>(
    memory: &'a WorkspaceMemory,
    block: &str,
    shown_above: impl Fn(&MemoryEntry) -> bool,
    now_ms: i64,
) -> Vec<Listed<'a>> {
    let sections = block_sections(block);
    let top: Vec<&MemoryEntry> = top_ranked(memory, usize::MAX);
    let mut listed: Vec<Listed> = top
        .iter()
        .enumerate()
        .map(|(place, entry)| {
            let line = entry_line(
                &entry.text,
                entry.rationale.as_deref(),
                stale_days(entry, now_ms),
            );
            let shown = sections.iter().any(|(kind, lines)| {
                *kind == entry.kind.as_str() && lines.contains(&line.as_str())
            });
            let not_shown = match (shown, place < MAX_RENDERED_ENTRIES) {
                (true, _) => None,
                (false, _) if shown_above(entry) => Some(NotShown::Shared),
                (false, true) => Some(NotShown::OverBudget),
                (false, false) => Some(NotShown::Capped),
            };
            Listed { entry, not_shown }
        })
        .collect();
    let mut superseded: Vec<&MemoryEntry> = memory
        .entries
        .iter()
        .filter(|e| e.status == EntryStatus::Superseded)
        .collect();
    superseded.sort_by(|a, b| superseded_at(b).cmp(superseded_at(a)));
    listed.extend(superseded.into_iter().map(|entry| Listed {
        entry,
        not_shown: Some(NotShown::Superseded),
    }));
    listed
}

/// The block's sections: each label without its colon, with its lines.
fn block_sections(block: &str) -> Vec<(&str, Vec<&str>)> {
    let mut sections: Vec<(&str, Vec<&str>)> = Vec::new();
    for line in block.lines().skip(1) {
        match line
            .strip_suffix(':')
            .filter(|l| MemoryType::parse(l).is_some())
        {
            Some(label) => sections.push((label, Vec::new())),
            None => {
                if let Some((_, lines)) = sections.last_mut() {
                    lines.push(line);
                }
            }
        }
    }
    sections
}

/// When a superseded entry was superseded: its own note, else its last update.
pub fn superseded_at(entry: &MemoryEntry) -> &str {
    entry
        .extra
        .get(SUPERSEDED_AT)
        .and_then(Value::as_str)
        .unwrap_or(&entry.updated_at)
}

/// The entry `id` names: the whole id, or the end of exactly one id (at least 4 characters:
/// the random part of `mem_<ms>_<6 chars>` is enough to type).
pub fn find(entries: &[MemoryEntry], id: &str) -> Result<usize, String> {
    let id = id.trim();
    if let Some(at) = entries.iter().position(|e| e.id == id) {
        return Ok(at);
    }
    if id.chars().count() >= 4 {
        let ends: Vec<usize> = entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.id.ends_with(id))
            .map(|(at, _)| at)
            .collect();
        match ends.as_slice() {
            [one] => return Ok(*one),
            [] => {}
            more => {
                return Err(format!(
                    "{} entries have ids ending in {id:?}; give the whole id",
                    more.len()
                ))
            }
        }
    }
    Err(format!("no entry has the id {id:?}"))
}

/// The text as it would be stored, or why it cannot be: the rules of a memory the user asks
/// for in a conversation (invisible characters and `<private>` spans removed, secrets
/// scrubbed, one line, at least `MIN_BODY_CHARS` wide); instructions to the agent are refused
/// by `merge`, as on every path.
pub fn checked_text(text: &str) -> Result<String, String> {
    let visible = strip_invisible(text);
    let public = explicit::strip_private(&visible);
    let cleaned = clean_text(&public, MAX_TEXT_CHARS);
    if cleaned.is_empty() {
        return Err("the text is empty".into());
    }
    if explicit::body_width(&cleaned) < MIN_BODY_CHARS {
        return Err(format!(
            "{cleaned:?} is too short to be worth remembering (at least {MIN_BODY_CHARS} characters)"
        ));
    }
    // `merge` refuses it too; said here, before anything is locked or written.
    if let Some(kind) = instructs_agent(&cleaned) {
        return Err(refusal(&Merged::Refused { kind }).unwrap_or_default());
    }
    Ok(cleaned)
}

/// The type of a new entry: the one asked for, else the one its text reads as.
pub fn kind_of(text: &str, asked: Option<MemoryType>) -> MemoryType {
    asked.unwrap_or_else(|| explicit::classify(text))
}

/// What adding, importing or editing one memory did, or why nothing was stored.
pub fn refusal(merged: &Merged) -> Option<String> {
    match merged {
        Merged::Refused { kind } => Some(format!(
            "the text reads as an instruction to the agent ({}); nothing was stored",
            kind.name()
        )),
        Merged::Empty => Some("the text is empty once cleaned; nothing was stored".into()),
        _ => None,
    }
}

/// Adds `text` as a `manual` entry of `kind` (see `checked_text`), merged with the usual
/// dedupe. An error says why nothing was stored.
pub fn add(
    memory: &mut WorkspaceMemory,
    text: &str,
    kind: Option<MemoryType>,
    now_ms: i64,
) -> Result<Merged, String> {
    let text = checked_text(text)?;
    let merged = merge(
        memory,
        NewMemory {
            kind: kind_of(&text, kind),
            text,
            rationale: None,
            source: Source::Manual,
            confidence: MANUAL_CONFIDENCE,
        },
        now_ms,
    );
    match refusal(&merged) {
        Some(why) => Err(why),
        None => Ok(merged),
    }
}

/// Why the agent's own wording of a memory is refused, if it is: see `gate_refusal`.
pub fn agent_refusal(text: &str, kind: MemoryType) -> Option<String> {
    gate_refusal(text, kind, true)
}

/// Why a memory added by hand (`memory add`, by a person or, `by_agent`, by the agent's tools)
/// is refused, if it is. Every path into memory passes the compaction gate: the agent's whole
/// verdict, a person's only when it finds what no memory should hold (a secret, an
/// instruction, a raw error, a commit hash, a file list), refused with its reason. A person
/// may keep their deliberate choice with `--force`; the agent may not.
pub fn gate_refusal(text: &str, kind: MemoryType, by_agent: bool) -> Option<String> {
    let candidate = crate::domain::capture::candidates::Candidate {
        kind,
        text: text.to_string(),
        rationale: None,
        line: text.to_string(),
        tagged: true,
    };
    use crate::domain::capture::candidates::{gate, Rejection};
    let rejection = gate(&candidate).err()?;
    // A person states what they mean: only what no memory should hold is refused them (a
    // secret, an instruction to the agent, a raw error, a hash, code, a list of paths). The
    // length was checked already, by the person's own measure.
    let refused_to_a_person = matches!(rejection, Rejection::Secret | Rejection::PromptInjection)
        || (rejection.is_structural() && rejection != Rejection::TooShort);
    if !by_agent && !refused_to_a_person {
        return None;
    }
    Some(if by_agent {
        format!(
            "not stored: it reads as {}; remember a durable fact or rule, stated as such",
            rejection.reason()
        )
    } else {
        format!(
            "not stored: it reads as {}; add --force to keep it as written",
            rejection.reason()
        )
    })
}

/// Marks `entry` superseded at `now`, `why`, by `by` when an entry took its place.
fn supersede(entry: &mut MemoryEntry, why: Why, by: Option<&str>, now: &str) {
    entry.status = EntryStatus::Superseded;
    entry.capped = false;
    entry.updated_at = now.to_string();
    entry
        .extra
        .insert(SUPERSEDED_AT.into(), Value::String(now.into()));
    entry
        .extra
        .insert(SUPERSEDED_WHY.into(), Value::String(why.as_str().into()));
    match by {
        Some(id) => entry
            .extra
            .insert(SUPERSEDED_BY.into(), Value::String(id.into())),
        None => entry.extra.remove(SUPERSEDED_BY),
    };
}

/// What forgetting or restoring one entry did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Changed {
    /// It changed, and these active entries were superseded along with it (restore only).
    Done { superseded: Vec<String> },
    /// It was that way already: nothing changed.
    Already,
}

/// Forgets the entry at `at`: superseded, kept on disk, and out of the block from the next
/// session on (an entry capped away comes back in its place).
pub fn forget(memory: &mut WorkspaceMemory, at: usize, now_ms: i64) -> Changed {
    if memory.entries[at].status == EntryStatus::Superseded {
        return Changed::Already;
    }
    supersede(
        &mut memory.entries[at],
        Why::Forgotten,
        None,
        &format_rfc3339_ms(now_ms),
    );
    mark_capped(memory);
    Changed::Done {
        superseded: Vec::new(),
    }
}

/// The active entries whose text holds every term of `query` (see `search::matches_all`), in
/// store order.
pub fn matching(memory: &WorkspaceMemory, query: &str) -> Vec<usize> {
    memory
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.status == EntryStatus::Active)
        .filter(|(_, e)| crate::domain::memory::search::matches_all(query, &searchable(e)))
        .map(|(at, _)| at)
        .collect()
}

/// The text search reads of an entry: its text and its rationale.
pub fn searchable(entry: &MemoryEntry) -> String {
    crate::domain::memory::search::document(&entry.text, entry.rationale.as_deref())
}

/// Brings the superseded entry at `at` back as active. Whatever took its place goes, as an
/// undo would have it: the entry that superseded it and any active entry with the same text
/// are superseded in turn (`Why::Restored`).
pub fn restore(memory: &mut WorkspaceMemory, at: usize, now_ms: i64) -> Changed {
    if memory.entries[at].status == EntryStatus::Active {
        return Changed::Already;
    }
    let now = format_rfc3339_ms(now_ms);
    let id = memory.entries[at].id.clone();
    let key = canonical_key(memory.entries[at].kind, &memory.entries[at].text);
    let successors = successors(memory, at);
    let mut superseded = Vec::new();
    for (other, entry) in memory.entries.iter_mut().enumerate() {
        let replaces = other != at
            && entry.status == EntryStatus::Active
            && (successors.contains(&entry.id) || canonical_key(entry.kind, &entry.text) == key);
        if replaces {
            supersede(entry, Why::Restored, Some(&id), &now);
            superseded.push(entry.id.clone());
        }
    }
    let entry = &mut memory.entries[at];
    entry.status = EntryStatus::Active;
    entry.updated_at = now;
    for field in [
        SUPERSEDED_AT,
        SUPERSEDED_BY,
        SUPERSEDED_WHY,
        SUPERSEDED_REASON,
    ] {
        entry.extra.remove(field);
    }
    mark_capped(memory);
    Changed::Done { superseded }
}

/// What an edit did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edited {
    /// The new text is the old one: nothing changed.
    Unchanged,
    /// The old entry is superseded by `id`: a new entry, or an active one that already held
    /// the new text.
    Replaced { old: String, id: String, new: bool },
}

/// Replaces the text of the active entry at `at`: the old entry is superseded (`Why::Edited`)
/// by a new one with the same type, source, confidence and rationale, merged with the usual
/// dedupe. An error says why nothing changed, and leaves `memory` as it was.
pub fn edit(
    memory: &mut WorkspaceMemory,
    at: usize,
    text: &str,
    now_ms: i64,
) -> Result<Edited, String> {
    let mut work = memory.clone();
    let edited = edit_in(&mut work, at, text, now_ms)?;
    *memory = work;
    Ok(edited)
}

fn edit_in(
    memory: &mut WorkspaceMemory,
    at: usize,
    text: &str,
    now_ms: i64,
) -> Result<Edited, String> {
    let old = memory.entries[at].clone();
    if old.status != EntryStatus::Active {
        return Err(format!(
            "{} is superseded; restore it first to edit it",
            old.id
        ));
    }
    let text = checked_text(text)?;
    if text == old.text {
        return Ok(Edited::Unchanged);
    }
    let now = format_rfc3339_ms(now_ms);
    supersede(&mut memory.entries[at], Why::Edited, None, &now);
    let merged = merge(
        memory,
        NewMemory {
            kind: old.kind,
            text,
            rationale: old.rationale.clone(),
            source: old.source,
            confidence: old.confidence,
        },
        now_ms,
    );
    if let Some(why) = refusal(&merged) {
        return Err(why);
    }
    let (id, new) = match &merged {
        Merged::Added { id } => (id.clone(), true),
        Merged::Replaced { id, superseded } => {
            // The new entry replaced a weaker duplicate too: it names both.
            if let Some(entry) = memory.entries.iter_mut().find(|e| &e.id == id) {
                entry.supersedes = Some(Value::from(vec![superseded.clone(), old.id.clone()]));
            }
            (id.clone(), true)
        }
        Merged::Duplicate { id } => (id.clone(), false),
        Merged::Empty | Merged::Refused { .. } => unreachable!("refused above"),
    };
    if new {
        if let Some(entry) = memory.entries.iter_mut().find(|e| e.id == id) {
            if entry.supersedes.is_none() {
                entry.supersedes = Some(Value::String(old.id.clone()));
            }
        }
    }
    memory.entries[at]
        .extra
        .insert(SUPERSEDED_BY.into(), Value::String(id.clone()));
    Ok(Edited::Replaced {
        old: old.id,
        id,
        new,
    })
}

/// The ids an entry's `supersedes` names (a string, or a list of them).
pub fn supersedes_ids(entry: &MemoryEntry) -> Vec<String> {
    match &entry.supersedes {
        Some(Value::String(id)) => vec![id.clone()],
        Some(Value::Array(ids)) => ids
            .iter()
            .filter_map(|id| id.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// The id of the entry that took the place of `entry`: its own note, else the newest entry
/// that names it in `supersedes`.
fn successor_id(entries: &[MemoryEntry], entry: &MemoryEntry) -> Option<String> {
    if let Some(id) = entry.extra.get(SUPERSEDED_BY).and_then(Value::as_str) {
        return Some(id.to_string());
    }
    entries
        .iter()
        .rev()
        .find(|e| supersedes_ids(e).contains(&entry.id))
        .map(|e| e.id.clone())
}

/// The ids of the entries that took the place of the one at `at`, one after the other (an
/// edit of an edit): whichever of them stands now is what a restore replaces.
fn successors(memory: &WorkspaceMemory, at: usize) -> Vec<String> {
    let mut chain: Vec<String> = Vec::new();
    let mut current = &memory.entries[at];
    while let Some(next) = successor_id(&memory.entries, current) {
        if chain.contains(&next) || next == memory.entries[at].id {
            break;
        }
        chain.push(next.clone());
        match memory.entries.iter().find(|e| e.id == next) {
            Some(entry) => current = entry,
            None => break,
        }
    }
    chain
}

/// One step of an entry's history: another entry, when it was superseded, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Link {
    pub id: String,
    /// Its text, when the entry is still in the store (or its archive).
    pub text: Option<String>,
    /// When the older of the two was superseded.
    pub at: Option<String>,
    pub why: String,
}

/// Why `entry` was superseded, for a person: the reason, and the words that asked for it when
/// a conversation did.
fn why_superseded(entry: &MemoryEntry) -> String {
    let why = describe_why(entry.extra.get(SUPERSEDED_WHY).and_then(Value::as_str));
    match entry.extra.get(SUPERSEDED_REASON).and_then(Value::as_str) {
        Some(reason) if !reason.is_empty() => format!("{why} ({reason})"),
        _ => why.to_string(),
    }
}

/// What an entry superseded and what superseded it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct History {
    pub supersedes: Vec<Link>,
    pub superseded_by: Option<Link>,
}

/// The history of `entry`, looked up among `entries` (the store's, then its archive's).
pub fn history(entries: &[&MemoryEntry], entry: &MemoryEntry) -> History {
    let find = |id: &str| entries.iter().find(|e| e.id == id).copied();
    let link_to = |older: Option<&MemoryEntry>, id: &str| Link {
        id: id.to_string(),
        text: find(id).map(|e| e.text.clone()),
        at: older.map(|o| superseded_at(o).to_string()),
        why: older.map_or_else(|| describe_why(None).to_string(), why_superseded),
    };
    let supersedes = supersedes_ids(entry)
        .iter()
        .map(|id| link_to(find(id), id))
        .collect();
    let successor = entry
        .extra
        .get(SUPERSEDED_BY)
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| {
            entries
                .iter()
                .rev()
                .find(|e| supersedes_ids(e).contains(&entry.id))
                .map(|e| e.id.clone())
        });
    let superseded_by = match (&successor, entry.status) {
        (Some(id), EntryStatus::Superseded) => Some(link_to(Some(entry), id)),
        (None, EntryStatus::Superseded) => Some(Link {
            id: String::new(),
            text: None,
            at: Some(superseded_at(entry).to_string()),
            why: why_superseded(entry),
        }),
        _ => None,
    };
    History {
        supersedes,
        superseded_by,
    }
}

/// How long ago `at` was, for a person: `5m`, `3h`, `12d`; `-` when it cannot be read.
pub fn age(at: &str, now_ms: i64) -> String {
    let Some(then) = parse_rfc3339(at) else {
        return "-".into();
    };
    let minutes = (now_ms - then).max(0) / 60_000;
    match minutes {
        0..=59 => format!("{minutes}m"),
        60..=2879 => format!("{}h", minutes / 60),
        _ => format!("{}d", minutes / 1440),
    }
}

/// The entries of a memory as Markdown, one section per type in the block's order, each line
/// as the block writes it: what `export --format markdown` prints and `import` reads back.
pub fn to_markdown(memory: &WorkspaceMemory, entries: &[&MemoryEntry]) -> String {
    let mut out = format!("# Workspace memory: {}\n", memory.workspace.root);
    for kind in MemoryType::ALL {
        let lines: Vec<String> = entries
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| entry_line(&e.text, e.rationale.as_deref(), None))
            .collect();
        if lines.is_empty() {
            continue;
        }
        out.push_str(&format!("\n## {}\n\n", kind.as_str()));
        for line in lines {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// Merges imported memories with the usual dedupe, each text checked as `add` checks it;
/// returns, in order, what each did or why it was not stored.
pub fn import(
    memory: &mut WorkspaceMemory,
    news: Vec<NewMemory>,
    now_ms: i64,
) -> Vec<Result<Merged, String>> {
    let checked: Vec<Result<NewMemory, String>> = news
        .into_iter()
        .map(|new| {
            let text = checked_text(&new.text)?;
            Ok(NewMemory { text, ..new })
        })
        .collect();
    let valid: Vec<NewMemory> = checked.iter().filter_map(|c| c.clone().ok()).collect();
    let mut merged = merge_all(memory, valid, now_ms).into_iter();
    checked
        .into_iter()
        .map(|c| {
            c.and_then(|_| {
                let outcome = merged.next().unwrap_or(Merged::Empty);
                match refusal(&outcome) {
                    Some(why) => Err(why),
                    None => Ok(outcome),
                }
            })
        })
        .collect()
}

/// The memories of a Markdown file as `to_markdown` writes it: `- text [Why: rationale]`
/// lines under `## <type>` headings, as `manual` entries. Lines elsewhere are ignored; a list
/// line under no type heading is an error naming its line.
pub fn from_markdown(text: &str) -> Result<Vec<NewMemory>, String> {
    let mut kind: Option<MemoryType> = None;
    let mut memories = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(heading) = line.strip_prefix("## ") {
            kind = MemoryType::parse(heading);
            continue;
        }
        let Some(item) = line.strip_prefix("- ").or_else(|| line.strip_prefix("* ")) else {
            continue;
        };
        let Some(kind) = kind else {
            return Err(format!(
                "line {}: a list item under no `## feedback|project|decision|reference` heading",
                index + 1
            ));
        };
        let (text, rationale) = match item.split_once(" Why: ") {
            Some((text, why)) => (text, Some(why.to_string())),
            None => (item, None),
        };
        memories.push(NewMemory {
            kind,
            text: text.to_string(),
            rationale,
            source: Source::Manual,
            confidence: MANUAL_CONFIDENCE,
        });
    }
    Ok(memories)
}

/// The memories of a JSON document shaped like a workspace memory store (what `export
/// --format json` writes, or a store itself): its active entries, each keeping its type,
/// source, confidence and rationale.
pub fn from_store(memory: &WorkspaceMemory) -> Vec<NewMemory> {
    memory
        .entries
        .iter()
        .filter(|e| e.status == EntryStatus::Active)
        .map(|e| NewMemory {
            kind: e.kind,
            text: e.text.clone(),
            rationale: e.rationale.clone(),
            source: e.source,
            confidence: e.confidence,
        })
        .collect()
}

#[cfg(test)]
mod tests;
