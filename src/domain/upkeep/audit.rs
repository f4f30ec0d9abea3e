//! `baseline`: a read-only audit of the stores of a data directory. Pure: the command lists
//! the files and reads every store; this module turns what it found into per-workspace
//! figures, totals, a list of problems, a table for people and a JSON report for scripts.
//!
//! - Entries are counted by status: `active` (all active entries), `notRendered` (the active
//!   entries `render` would not show: beyond the top entries by rank, or past the character
//!   budget; a subset of `active`) and `superseded`; each by type and by source.
//! - A secret is what `secrets::secret_kinds` finds in an entry's text or rationale (any
//!   status: it is on disk either way) or in a session's open errors (summary, command),
//!   recent decisions and pending memories (text, rationale). Its value is never printed.
//! - A stale entry is an active one past its `staleAfterDays` (rendered with `[Nd old, verify]`).
//! - A suspected false positive is an open error `false_positive::judge` rejects, the same
//!   rules `gc --false-positives` applies.
//! - Problems (what `baseline --check` fails on): suspected false positives, stored secrets,
//!   corrupt live stores and stores of a newer format version. Quarantined copies and orphan
//!   temp files are counted, not problems: they are what recovery left, and `gc --sweep`
//!   prunes them.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::domain::base::text::{human_bytes, one_line};
use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::guard::secrets::{scrub, secret_kinds};
use crate::domain::guard::structure::entry_line;
use crate::domain::memory::kind::MemoryType;
use crate::domain::memory::team::TeamEntry;
use crate::domain::memory::workspace::{
    ranked, stale_days, EntryStatus, MemoryEntry, Source, WorkspaceMemory, MAX_RENDERED_ENTRIES,
    MEMORY_VERSION,
};
use crate::domain::prompt::layers::{render_layers, LayeredBlock, Layers};
use crate::domain::session::false_positive::judge;
use crate::domain::session::state::{ErrorStatus, SessionState, SESSION_VERSION};
use crate::domain::shell::verified;
use crate::domain::upkeep::sweep::idle_days;

/// The version of the JSON report's layout. Adding a field keeps it; renaming, removing or
/// changing the meaning of one bumps it.
pub const SCHEMA: u32 = 1;

/// Characters of stored text (error summaries, parse errors) quoted in a problem.
const QUOTE_CHARS: usize = 80;
/// Characters of a workspace root shown in the table (the detail lines show it whole).
const ROOT_COLUMN_CHARS: usize = 32;

// ---------------------------------------------------------------------------------------------
// Input: what the command found on disk.

pub use crate::domain::base::stored::Stored;

/// One store file and what reading it gave.
#[derive(Debug, Clone, PartialEq)]
pub struct StoreInput<T> {
    pub path: PathBuf,
    pub stored: Stored<T>,
    /// The file's modification time, Unix ms, when known.
    pub modified_ms: Option<i64>,
}

/// One `workspaces/<key>/` directory.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkspaceInput {
    pub key: String,
    pub dir: PathBuf,
    /// `workspace-memory.json` (`Missing` when the workspace has none).
    pub memory: StoreInput<WorkspaceMemory>,
    pub sessions: Vec<StoreInput<SessionState>>,
    /// `<store>.corrupt-<ms>` copies.
    pub quarantined: u64,
    /// Temp files no writer will rename any more.
    pub orphan_temp_files: u64,
    /// Every file of the workspace directory and of its `sessions/`.
    pub bytes: u64,
    /// Lock paths holding something other than a regular file, and what it is.
    pub bad_locks: Vec<(PathBuf, String)>,
    /// `workspace-memory.archive.jsonl`, when there is one.
    pub archive: Option<ArchiveInput>,
    /// The team entries of the workspace's repository, shown in the block above its own.
    pub team: Vec<TeamEntry>,
}

/// The archive of entries moved out of the memory store, as read.
#[derive(Debug, Clone, PartialEq)]
pub struct ArchiveInput {
    pub path: PathBuf,
    pub archive: crate::domain::memory::archive::Archive,
}

// ---------------------------------------------------------------------------------------------
// Output: the report. Field names are the JSON schema (documented in docs/operations.md).

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub schema: u32,
    pub data_dir: String,
    /// RFC 3339, UTC.
    pub now: String,
    pub workspaces: Vec<WorkspaceAudit>,
    pub totals: Totals,
    pub problems: Vec<Problem>,
}

/// How the workspace memory store read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoreState {
    Ok,
    Missing,
    Corrupt,
    NewerVersion,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceAudit {
    pub key: String,
    pub dir: String,
    /// The root the memory store names; `None` without a readable memory store.
    pub root: Option<String>,
    pub memory: StoreState,
    /// The memory store's format version, when it was read or is newer than this build's.
    pub memory_version: Option<u64>,
    pub entries: Entries,
    /// Distinct entries in the archive beside the memory store.
    pub archived: u64,
    /// Characters of the block `render` would print now.
    pub rendered_chars: u64,
    /// The store's `limits.maxRenderedChars`; `None` without a readable memory store.
    pub budget_chars: Option<u64>,
    pub secrets: Secrets,
    pub stale: u64,
    pub sessions: Sessions,
    pub errors: Errors,
    pub files: Files,
    pub bytes: u64,
    /// Per validation category, the verified command the block shows (see `verified`).
    pub verified_commands: Vec<VerifiedCommand>,
}

/// A verified command as the workspace block shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifiedCommand {
    pub category: &'static str,
    pub command: String,
    /// Sessions it passed in.
    pub count: u64,
    /// RFC 3339, as stored.
    pub last_passed: String,
}

/// Entries in one group: all active ones, the active ones not rendered, the superseded ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EntryCounts {
    pub active: u64,
    pub not_rendered: u64,
    pub superseded: u64,
}

impl EntryCounts {
    fn add(&mut self, other: &EntryCounts) {
        self.active += other.active;
        self.not_rendered += other.not_rendered;
        self.superseded += other.superseded;
    }

    fn count(&mut self, entry: &MemoryEntry, rendered: bool) {
        match entry.status {
            EntryStatus::Active => {
                self.active += 1;
                if !rendered {
                    self.not_rendered += 1;
                }
            }
            EntryStatus::Superseded => self.superseded += 1,
        }
    }

    /// `active/not rendered/superseded`
    fn cell(&self) -> String {
        format!("{}/{}/{}", self.active, self.not_rendered, self.superseded)
    }
}

/// Entry counts kept apart by one key: the memory type, the source.
trait CountsBy: Copy {
    type Key: Copy + 'static;
    /// Every key, in the order the table shows them.
    const KEYS: &'static [Self::Key];

    fn name(key: Self::Key) -> &'static str;

    fn get_mut(&mut self, key: Self::Key) -> &mut EntryCounts;

    /// The counts of `key`, by value: `get_mut` alone says which field is whose.
    fn get(self, key: Self::Key) -> EntryCounts {
        let mut copy = self;
        *copy.get_mut(key)
    }

    fn add(&mut self, other: Self) {
        for &key in Self::KEYS {
            self.get_mut(key).add(&other.get(key));
        }
    }

    /// `<key> <active/not rendered/superseded>` for every key, for the table.
    fn cells(self) -> String {
        let cells: Vec<String> = Self::KEYS
            .iter()
            .map(|&key| format!("{} {}", Self::name(key), self.get(key).cell()))
            .collect();
        cells.join("  ")
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ByType {
    pub feedback: EntryCounts,
    pub project: EntryCounts,
    pub decision: EntryCounts,
    pub reference: EntryCounts,
}

impl CountsBy for ByType {
    type Key = MemoryType;
    const KEYS: &'static [MemoryType] = &MemoryType::ALL;

    fn name(kind: MemoryType) -> &'static str {
        kind.as_str()
    }

    fn get_mut(&mut self, kind: MemoryType) -> &mut EntryCounts {
        match kind {
            MemoryType::Feedback => &mut self.feedback,
            MemoryType::Project => &mut self.project,
            MemoryType::Decision => &mut self.decision,
            MemoryType::Reference => &mut self.reference,
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BySource {
    pub explicit: EntryCounts,
    pub manual: EntryCounts,
    pub compaction: EntryCounts,
}

impl CountsBy for BySource {
    type Key = Source;
    const KEYS: &'static [Source] = &[Source::Explicit, Source::Manual, Source::Compaction];

    fn name(source: Source) -> &'static str {
        source.as_str()
    }

    fn get_mut(&mut self, source: Source) -> &mut EntryCounts {
        match source {
            Source::Explicit => &mut self.explicit,
            Source::Manual => &mut self.manual,
            Source::Compaction => &mut self.compaction,
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entries {
    pub active: u64,
    pub not_rendered: u64,
    pub superseded: u64,
    pub by_type: ByType,
    pub by_source: BySource,
}

impl Entries {
    fn counts(&self) -> EntryCounts {
        EntryCounts {
            active: self.active,
            not_rendered: self.not_rendered,
            superseded: self.superseded,
        }
    }

    fn add_counts(&mut self, counts: &EntryCounts) {
        self.active += counts.active;
        self.not_rendered += counts.not_rendered;
        self.superseded += counts.superseded;
    }

    /// Counts `entry` in all, under its type and under its source; `rendered` says whether the
    /// block shows it.
    fn count(&mut self, entry: &MemoryEntry, rendered: bool) {
        let mut one = EntryCounts::default();
        one.count(entry, rendered);
        self.by_type.get_mut(entry.kind).add(&one);
        self.by_source.get_mut(entry.source).add(&one);
        self.add_counts(&one);
    }

    fn add(&mut self, other: &Entries) {
        self.add_counts(&other.counts());
        self.by_type.add(other.by_type);
        self.by_source.add(other.by_source);
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Secrets {
    /// Memory entries whose text or rationale holds a secret.
    pub entries: u64,
    /// Values of session stores holding one: open-error summaries and commands, texts and
    /// rationales of recent decisions and pending memories.
    pub session_values: u64,
}

impl Secrets {
    fn total(&self) -> u64 {
        self.entries + self.session_values
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sessions {
    /// Session store files, readable or not.
    pub count: u64,
    /// Whole days since the least recently used session was last used; `None` without one.
    pub oldest_days: Option<i64>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Errors {
    /// Stored open errors, whatever their status.
    pub total: u64,
    pub open: u64,
    pub maybe_fixed: u64,
    pub suspected_false_positives: u64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Files {
    /// Live stores (memory or session) that do not parse, and lock paths holding something
    /// other than a regular file.
    pub corrupt: u64,
    /// Quarantined `.corrupt-<ms>` copies.
    pub quarantined: u64,
    pub orphan_temp: u64,
    /// Live stores written by a newer format version.
    pub newer_version: u64,
    /// Lines of the memory archive that are not an entry.
    pub malformed_archive_lines: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    pub workspaces: u64,
    pub entries: Entries,
    pub archived: u64,
    pub rendered_chars: u64,
    /// The sum of the budgets of the readable memory stores.
    pub budget_chars: u64,
    pub secrets: Secrets,
    pub stale: u64,
    pub sessions: Sessions,
    pub errors: Errors,
    pub files: Files,
    pub bytes: u64,
    pub problems: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemKind {
    FalsePositive,
    Secret,
    Corrupt,
    NewerVersion,
}

impl ProblemKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemKind::FalsePositive => "false-positive",
            ProblemKind::Secret => "secret",
            ProblemKind::Corrupt => "corrupt",
            ProblemKind::NewerVersion => "newer-version",
        }
    }
}

/// Something `baseline --check` fails on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// The workspace key.
    pub workspace: String,
    pub kind: ProblemKind,
    /// The file concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The entry or error concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// For a false positive, the rule (`inspection-command`, `status-hidden`, `no-error-line`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    /// One line for people; names the file relative to the workspace directory.
    pub detail: String,
}

impl Problem {
    /// `<workspace key>: <kind>: <detail>`
    pub fn check_line(&self) -> String {
        format!(
            "{}: {}: {}",
            self.workspace,
            self.kind.as_str(),
            self.detail
        )
    }
}

// ---------------------------------------------------------------------------------------------
// The audit.

/// Audits every workspace (in the order given) and sums them up.
pub fn report(
    data_dir: &Path,
    now_ms: i64,
    inputs: &[WorkspaceInput],
    user: Option<&WorkspaceMemory>,
) -> Report {
    let mut workspaces = Vec::new();
    let mut problems = Vec::new();
    for input in inputs {
        let (audit, found) = audit_workspace_with(input, user, now_ms);
        workspaces.push(audit);
        problems.extend(found);
    }
    let totals = totals(&workspaces, problems.len() as u64);
    Report {
        schema: SCHEMA,
        data_dir: data_dir.to_string_lossy().into_owned(),
        now: format_rfc3339_ms(now_ms),
        workspaces,
        totals,
        problems,
    }
}

/// One workspace's figures and problems.
pub fn audit_workspace(input: &WorkspaceInput, now_ms: i64) -> (WorkspaceAudit, Vec<Problem>) {
    audit_workspace_with(input, None, now_ms)
}

/// `audit_workspace`, with `user` memory rendered first in the block as the hooks render it:
/// it takes its share of the budget, so fewer workspace entries may be rendered.
pub fn audit_workspace_with(
    input: &WorkspaceInput,
    user: Option<&WorkspaceMemory>,
    now_ms: i64,
) -> (WorkspaceAudit, Vec<Problem>) {
    let mut audit = WorkspaceAudit::listed(input);
    let mut problems = Problems::of(input);
    // The problems are listed in the order of these steps.
    audit_memory_store(&mut audit, &mut problems, input, user, now_ms);
    audit_locks(&mut audit.files, &mut problems, &input.bad_locks);
    audit_archive(&mut audit, &mut problems, input.archive.as_ref());
    audit_sessions(&mut audit, &mut problems, &input.sessions, now_ms);
    (audit, problems.found)
}

impl WorkspaceAudit {
    /// What the listing of the workspace directory tells, before any store is read.
    fn listed(input: &WorkspaceInput) -> Self {
        WorkspaceAudit {
            key: input.key.clone(),
            dir: input.dir.to_string_lossy().into_owned(),
            root: None,
            memory: StoreState::Missing,
            memory_version: None,
            entries: Entries::default(),
            archived: 0,
            rendered_chars: 0,
            budget_chars: None,
            secrets: Secrets::default(),
            stale: 0,
            sessions: Sessions::default(),
            errors: Errors::default(),
            files: Files {
                quarantined: input.quarantined,
                orphan_temp: input.orphan_temp_files,
                ..Files::default()
            },
            bytes: input.bytes,
            verified_commands: Vec::new(),
        }
    }
}

/// The problems of one workspace, in the order they are found.
struct Problems<'a> {
    key: &'a str,
    dir: &'a Path,
    found: Vec<Problem>,
}

impl<'a> Problems<'a> {
    fn of(input: &'a WorkspaceInput) -> Self {
        Problems {
            key: &input.key,
            dir: &input.dir,
            found: Vec::new(),
        }
    }

    /// `path` as a problem names it: relative to the workspace directory.
    fn name(&self, path: &Path) -> String {
        relative(path, self.dir)
    }

    /// A problem of the file at `path` as a whole.
    fn push(&mut self, kind: ProblemKind, path: &Path, detail: String) {
        self.push_about(kind, path, None, None, detail);
    }

    /// A problem of the entry or error `id` stored at `path`, found by `rule`.
    fn push_about(
        &mut self,
        kind: ProblemKind,
        path: &Path,
        id: Option<&str>,
        rule: Option<&'static str>,
        detail: String,
    ) {
        self.found.push(Problem {
            workspace: self.key.to_string(),
            kind,
            path: Some(path.to_string_lossy().into_owned()),
            id: id.map(str::to_string),
            rule,
            // Ids and names come from the store: keep the line one line.
            detail: one_line(&detail),
        });
    }
}

/// The workspace memory store: how it read and, when it did, its root, its budget, the block
/// it renders, its verified commands and its entries.
fn audit_memory_store(
    audit: &mut WorkspaceAudit,
    problems: &mut Problems,
    input: &WorkspaceInput,
    user: Option<&WorkspaceMemory>,
    now_ms: i64,
) {
    let path = &input.memory.path;
    let memory = match &input.memory.stored {
        Stored::Missing => return,
        Stored::Corrupt(reason) => {
            audit.memory = StoreState::Corrupt;
            corrupt_store(&mut audit.files, problems, path, reason);
            return;
        }
        Stored::Newer(version) => {
            audit.memory = StoreState::NewerVersion;
            audit.memory_version = Some(*version);
            newer_store(&mut audit.files, problems, path, *version, MEMORY_VERSION);
            return;
        }
        Stored::Ok(memory) => memory,
    };
    audit.memory = StoreState::Ok;
    audit.memory_version = Some(memory.version);
    audit.root = Some(memory.workspace.root.clone()).filter(|r| !r.is_empty());
    audit.budget_chars = Some(memory.limits.max_rendered_chars);
    let block = rendered_block(memory, &input.team, user, now_ms);
    audit.rendered_chars = block.text().chars().count() as u64;
    audit.verified_commands = verified_commands(memory);
    // The workspace's own entries are in its section, after user and team memory.
    let rendered = rendered_entries(memory, &block.workspace, now_ms);
    for (entry, shown) in memory.entries.iter().zip(rendered) {
        audit_entry(audit, problems, path, entry, shown, now_ms);
    }
}

/// The block the hooks would render now: user memory, the team entries of the workspace's
/// repository, then the workspace's own.
fn rendered_block(
    memory: &WorkspaceMemory,
    team: &[TeamEntry],
    user: Option<&WorkspaceMemory>,
    now_ms: i64,
) -> LayeredBlock {
    let layers = Layers {
        user,
        team,
        workspace: Some(memory),
    };
    render_layers(layers, Some(now_ms))
}

/// Per validation category, the verified command the block shows, as it shows it.
fn verified_commands(memory: &WorkspaceMemory) -> Vec<VerifiedCommand> {
    verified::shown(&memory.verified_commands)
        .into_iter()
        .map(|(category, v)| VerifiedCommand {
            category: category.as_str(),
            command: one_line(&scrub(&v.command)),
            count: v.count,
            last_passed: one_line(&v.last_passed),
        })
        .collect()
}

/// One entry of the memory store at `path`: counted by status, type and source, and whether
/// the block shows it (`shown`); stale, or holding a secret (a problem).
fn audit_entry(
    audit: &mut WorkspaceAudit,
    problems: &mut Problems,
    path: &Path,
    entry: &MemoryEntry,
    shown: bool,
    now_ms: i64,
) {
    audit.entries.count(entry, shown);
    if entry.status == EntryStatus::Active && stale_days(entry, now_ms).is_some() {
        audit.stale += 1;
    }
    let kinds = entry_secret_kinds(entry);
    if kinds.is_empty() {
        return;
    }
    audit.secrets.entries += 1;
    let status = match entry.status {
        EntryStatus::Active => "active",
        EntryStatus::Superseded => "superseded",
    };
    let detail = format!(
        "{}: {status} {} entry {} ({}) holds a secret ({}) in plain text",
        problems.name(path),
        entry.kind.as_str(),
        entry.id,
        entry.source.as_str(),
        kinds.join(", ")
    );
    problems.push_about(ProblemKind::Secret, path, Some(&entry.id), None, detail);
}

/// The kinds of secret an entry's text and rationale hold, each once: the text's first.
fn entry_secret_kinds(entry: &MemoryEntry) -> Vec<&'static str> {
    let mut kinds = secret_kinds(&entry.text);
    for kind in entry
        .rationale
        .as_deref()
        .map(secret_kinds)
        .unwrap_or_default()
    {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
}

/// Lock paths holding something other than a regular file: corrupt files, a problem each.
fn audit_locks(files: &mut Files, problems: &mut Problems, bad_locks: &[(PathBuf, String)]) {
    for (path, what) in bad_locks {
        files.corrupt += 1;
        let detail = format!(
            "{} is {what}, not a regular file; a hook would move it aside",
            problems.name(path)
        );
        problems.push(ProblemKind::Corrupt, path, detail);
    }
}

/// The archive beside the memory store: its distinct entries, and a problem for each line that
/// is not one.
fn audit_archive(
    audit: &mut WorkspaceAudit,
    problems: &mut Problems,
    archive: Option<&ArchiveInput>,
) {
    let Some(archive) = archive else {
        return;
    };
    audit.archived = archive.archive.entries.len() as u64;
    let name = problems.name(&archive.path);
    for bad in &archive.archive.malformed {
        audit.files.malformed_archive_lines += 1;
        let detail = format!(
            "{name}: line {} is not an archived entry ({})",
            bad.line,
            quote(&bad.reason)
        );
        problems.push(ProblemKind::Corrupt, &archive.path, detail);
    }
}

/// The session stores: how many there are and how long the least recently used one has been
/// idle; in each readable one, its open errors and the secrets it holds.
fn audit_sessions(
    audit: &mut WorkspaceAudit,
    problems: &mut Problems,
    sessions: &[StoreInput<SessionState>],
    now_ms: i64,
) {
    let mut oldest_used: Option<i64> = None;
    for session in sessions {
        let path = &session.path;
        let used = match &session.stored {
            // Gone between listing and reading: not counted.
            Stored::Missing => continue,
            Stored::Corrupt(reason) => {
                corrupt_store(&mut audit.files, problems, path, reason);
                session.modified_ms
            }
            Stored::Newer(version) => {
                newer_store(&mut audit.files, problems, path, *version, SESSION_VERSION);
                session.modified_ms
            }
            Stored::Ok(state) => {
                audit_open_errors(&mut audit.errors, problems, path, state);
                audit_session_secrets(&mut audit.secrets, problems, path, state);
                state.last_used_ms().or(session.modified_ms)
            }
        };
        audit.sessions.count += 1;
        if let Some(used) = used {
            oldest_used = Some(oldest_used.map_or(used, |o| o.min(used)));
        }
    }
    audit.sessions.oldest_days = oldest_used.map(|used| idle_days(used, now_ms));
}

/// The open errors of the session store at `path`: counted by status, and a problem for each
/// that `false_positive::judge` rejects.
fn audit_open_errors(
    errors: &mut Errors,
    problems: &mut Problems,
    path: &Path,
    state: &SessionState,
) {
    let name = problems.name(path);
    for error in &state.open_errors {
        errors.total += 1;
        match error.status {
            ErrorStatus::Open => errors.open += 1,
            ErrorStatus::MaybeFixed => errors.maybe_fixed += 1,
        }
        let Some(verdict) = judge(error) else {
            continue;
        };
        errors.suspected_false_positives += 1;
        let command = match error.command.as_deref() {
            Some(c) if !c.trim().is_empty() => format!("`{}`", quote(c)),
            _ => "no stored command".to_string(),
        };
        let detail = format!(
            "{name}: error {} [{}] \"{}\" (from {command}): {}",
            error.id,
            error.category.as_str(),
            quote(&error.summary),
            verdict.reason()
        );
        problems.push_about(
            ProblemKind::FalsePositive,
            path,
            Some(&error.id),
            Some(verdict.rule()),
            detail,
        );
    }
}

/// The values of the session store at `path` that hold a secret: counted, a problem each.
fn audit_session_secrets(
    secrets: &mut Secrets,
    problems: &mut Problems,
    path: &Path,
    state: &SessionState,
) {
    let name = problems.name(path);
    for (what, id, kinds) in session_secrets(state) {
        secrets.session_values += 1;
        let detail = format!(
            "{name}: {what} holds a secret ({}) in plain text",
            kinds.join(", ")
        );
        problems.push_about(ProblemKind::Secret, path, id.as_deref(), None, detail);
    }
}

/// A live store at `path` that does not parse: a corrupt file, and a problem.
fn corrupt_store(files: &mut Files, problems: &mut Problems, path: &Path, reason: &str) {
    files.corrupt += 1;
    let detail = format!(
        "{} does not parse ({}); ocmem would quarantine it and start afresh",
        problems.name(path),
        quote(reason)
    );
    problems.push(ProblemKind::Corrupt, path, detail);
}

/// A live store at `path` written in format `version`, newer than the `understood` one: not
/// read, counted, and a problem.
fn newer_store(
    files: &mut Files,
    problems: &mut Problems,
    path: &Path,
    version: u64,
    understood: u64,
) {
    files.newer_version += 1;
    let detail = format!(
        "{} has format version {version}, newer than this ocmem reads ({understood}); not read, and never overwritten",
        problems.name(path)
    );
    problems.push(ProblemKind::NewerVersion, path, detail);
}

/// For each entry of `memory` (in store order), whether `block` (what `render_block` made of
/// it) shows it: the rendered candidates, best first, each matched to one line of its section.
fn rendered_entries(memory: &WorkspaceMemory, block: &str, now_ms: i64) -> Vec<bool> {
    let mut sections: Vec<Vec<&str>> = vec![Vec::new(); MemoryType::ALL.len()];
    let mut current: Option<usize> = None;
    for line in block.lines() {
        if line.starts_with("- ") {
            if let Some(section) = current {
                sections[section].push(line);
            }
        } else {
            current = MemoryType::ALL
                .iter()
                .position(|t| line.strip_suffix(':') == Some(t.as_str()));
        }
    }
    let mut shown = vec![false; memory.entries.len()];
    for entry in ranked(memory).into_iter().take(MAX_RENDERED_ENTRIES) {
        let section = MemoryType::ALL
            .iter()
            .position(|t| *t == entry.kind)
            .unwrap_or(0);
        let line = entry_line(
            &entry.text,
            entry.rationale.as_deref(),
            stale_days(entry, now_ms),
        );
        let lines = &mut sections[section];
        if let Some(at) = lines.iter().position(|l| *l == line) {
            lines.remove(at);
            if let Some(index) = memory.entries.iter().position(|e| std::ptr::eq(e, entry)) {
                shown[index] = true;
            }
        }
    }
    shown
}

/// The values of a session store that hold a secret: what they are, the id of the error,
/// decision or memory, and the kinds found.
fn session_secrets(state: &SessionState) -> Vec<(String, Option<String>, Vec<&'static str>)> {
    let mut found = Vec::new();
    for error in &state.open_errors {
        for (field, text) in [
            ("summary", Some(error.summary.as_str())),
            ("command", error.command.as_deref()),
        ] {
            let kinds = text.map(secret_kinds).unwrap_or_default();
            if !kinds.is_empty() {
                found.push((
                    format!("open error {} ({field})", error.id),
                    Some(error.id.clone()),
                    kinds,
                ));
            }
        }
    }
    let lists = [
        ("recent decision", state.recent_decisions.as_slice()),
        (
            "pending memory",
            state.pending_memories.as_deref().unwrap_or_default(),
        ),
    ];
    for (what, items) in lists {
        for (index, item) in items.iter().enumerate() {
            let id = item.get("id").and_then(Value::as_str).map(str::to_string);
            for field in ["text", "rationale"] {
                let kinds = item
                    .get(field)
                    .and_then(Value::as_str)
                    .map(secret_kinds)
                    .unwrap_or_default();
                if !kinds.is_empty() {
                    let name = id.clone().unwrap_or_else(|| format!("#{}", index + 1));
                    found.push((format!("{what} {name} ({field})"), id.clone(), kinds));
                }
            }
        }
    }
    found
}

fn totals(workspaces: &[WorkspaceAudit], problems: u64) -> Totals {
    let mut totals = Totals {
        workspaces: workspaces.len() as u64,
        entries: Entries::default(),
        archived: 0,
        rendered_chars: 0,
        budget_chars: 0,
        secrets: Secrets::default(),
        stale: 0,
        sessions: Sessions::default(),
        errors: Errors::default(),
        files: Files::default(),
        bytes: 0,
        problems,
    };
    for w in workspaces {
        totals.entries.add(&w.entries);
        totals.archived += w.archived;
        totals.files.malformed_archive_lines += w.files.malformed_archive_lines;
        totals.rendered_chars += w.rendered_chars;
        totals.budget_chars += w.budget_chars.unwrap_or(0);
        totals.secrets.entries += w.secrets.entries;
        totals.secrets.session_values += w.secrets.session_values;
        totals.stale += w.stale;
        totals.sessions.count += w.sessions.count;
        totals.sessions.oldest_days = totals.sessions.oldest_days.max(w.sessions.oldest_days);
        totals.errors.total += w.errors.total;
        totals.errors.open += w.errors.open;
        totals.errors.maybe_fixed += w.errors.maybe_fixed;
        totals.errors.suspected_false_positives += w.errors.suspected_false_positives;
        totals.files.corrupt += w.files.corrupt;
        totals.files.quarantined += w.files.quarantined;
        totals.files.orphan_temp += w.files.orphan_temp;
        totals.files.newer_version += w.files.newer_version;
        totals.bytes += w.bytes;
    }
    totals
}

/// Stored text fit to quote in one line: secrets scrubbed, one line, at most `QUOTE_CHARS`.
fn quote(text: &str) -> String {
    clip(&one_line(&scrub(text)), QUOTE_CHARS)
}

fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", cut.trim_end())
}

/// `path` relative to `dir` when it lies inside it.
fn relative(path: &Path, dir: &Path) -> String {
    path.strip_prefix(dir)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

// ---------------------------------------------------------------------------------------------
// The table.

#[derive(Clone, Copy, PartialEq, Eq)]
enum Align {
    Left,
    Right,
}

const COLUMNS: [(&str, Align); 16] = [
    ("KEY", Align::Left),
    ("ROOT", Align::Left),
    ("ENTRIES", Align::Right),
    ("CHARS", Align::Right),
    ("SECRETS", Align::Right),
    ("STALE", Align::Right),
    ("SESSIONS", Align::Right),
    ("OLDEST", Align::Right),
    ("ERRORS", Align::Right),
    ("MAYBE-FIXED", Align::Right),
    ("SUSPECT", Align::Right),
    ("CORRUPT", Align::Right),
    ("QUARANTINED", Align::Right),
    ("TEMP", Align::Right),
    ("NEWER", Align::Right),
    ("BYTES", Align::Right),
];

const LEGEND: &str = "\
ENTRIES active/not rendered/superseded (not rendered: active, but beyond the top 28 or the budget)
CHARS rendered/budget    OLDEST days since the least recently used session was used
SECRETS entries and session values holding a secret    STALE active entries past their staleAfterDays
SUSPECT suspected false-positive errors (ocmem gc --false-positives)    TEMP orphan temp files (ocmem gc --sweep)
CORRUPT live stores that do not parse    QUARANTINED .corrupt-<ms> copies    NEWER stores of a newer format, not read";

/// The report for people: one row per workspace and a totals row, the entries of each
/// workspace by type and by source, and the problems. `scope` says what was asked for when
/// it was not the whole data directory (e.g. `for /home/dev/demo`).
pub fn render_table(report: &Report, scope: Option<&str>) -> String {
    if report.workspaces.is_empty() {
        let scope = scope.map(|s| format!(" {s}")).unwrap_or_default();
        return format!(
            "no workspaces under {}{scope}: nothing to audit\n",
            report.data_dir
        );
    }
    let mut rows: Vec<Vec<String>> = vec![COLUMNS.iter().map(|(h, _)| h.to_string()).collect()];
    for w in &report.workspaces {
        let readable = w.memory == StoreState::Ok || w.memory == StoreState::Missing;
        let (entries, chars) = if readable {
            let budget = w
                .budget_chars
                .map_or_else(|| "-".to_string(), |b| b.to_string());
            (
                w.entries.counts().cell(),
                format!("{}/{budget}", w.rendered_chars),
            )
        } else {
            ("-".to_string(), "-".to_string())
        };
        let root = match (&w.root, w.memory) {
            (Some(root), _) => shorten_root(root),
            (None, StoreState::Ok | StoreState::Missing) => "-".to_string(),
            (None, StoreState::Corrupt) => "(corrupt memory)".to_string(),
            (None, StoreState::NewerVersion) => "(newer memory)".to_string(),
        };
        rows.push(row(
            w.key.clone(),
            root,
            entries,
            chars,
            &w.secrets,
            w.stale,
            &w.sessions,
            &w.errors,
            &w.files,
            w.bytes,
        ));
    }
    let t = &report.totals;
    rows.push(row(
        "total".to_string(),
        format!(
            "{} workspace{}",
            t.workspaces,
            if t.workspaces == 1 { "" } else { "s" }
        ),
        t.entries.counts().cell(),
        format!("{}/{}", t.rendered_chars, t.budget_chars),
        &t.secrets,
        t.stale,
        &t.sessions,
        &t.errors,
        &t.files,
        t.bytes,
    ));
    let mut out = align(&rows);
    out.push('\n');
    out.push_str(LEGEND);
    out.push_str("\n\n");

    for w in &report.workspaces {
        out.push_str(&format!(
            "{}  {}\n",
            w.key,
            w.root.as_deref().unwrap_or("(root unknown)")
        ));
        match w.memory {
            StoreState::Ok => {
                out.push_str(&format!("  by type:   {}\n", w.entries.by_type.cells()));
                out.push_str(&format!("  by source: {}\n", w.entries.by_source.cells()));
                if !w.verified_commands.is_empty() {
                    let verified: Vec<String> = w
                        .verified_commands
                        .iter()
                        .map(|v| {
                            format!(
                                "{} `{}` ({} session{}, last {})",
                                v.category,
                                v.command,
                                v.count,
                                if v.count == 1 { "" } else { "s" },
                                v.last_passed
                            )
                        })
                        .collect();
                    out.push_str(&format!("  verified:  {}\n", verified.join("  ")));
                }
            }
            StoreState::Missing => out.push_str("  no workspace memory (sessions only)\n"),
            StoreState::Corrupt => {
                out.push_str("  workspace memory does not parse: entries not counted\n")
            }
            StoreState::NewerVersion => out.push_str(&format!(
                "  workspace memory has format version {}: not read\n",
                w.memory_version.unwrap_or_default()
            )),
        }
    }

    out.push('\n');
    if report.problems.is_empty() {
        out.push_str("problems: none\n");
    } else {
        out.push_str(&format!("problems ({}):\n", report.problems.len()));
        for p in &report.problems {
            out.push_str(&format!(
                "- {} {}: {}\n",
                p.workspace,
                p.kind.as_str(),
                p.detail
            ));
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn row(
    key: String,
    root: String,
    entries: String,
    chars: String,
    secrets: &Secrets,
    stale: u64,
    sessions: &Sessions,
    errors: &Errors,
    files: &Files,
    bytes: u64,
) -> Vec<String> {
    vec![
        key,
        root,
        entries,
        chars,
        secrets.total().to_string(),
        stale.to_string(),
        sessions.count.to_string(),
        sessions
            .oldest_days
            .map_or_else(|| "-".to_string(), |d| format!("{d}d")),
        errors.total.to_string(),
        errors.maybe_fixed.to_string(),
        errors.suspected_false_positives.to_string(),
        files.corrupt.to_string(),
        files.quarantined.to_string(),
        files.orphan_temp.to_string(),
        files.newer_version.to_string(),
        human_bytes(bytes),
    ]
}

/// Columns padded to their widest cell, two spaces apart, no trailing spaces.
fn align(rows: &[Vec<String>]) -> String {
    let width = |col: usize| {
        rows.iter()
            .map(|r| r[col].chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..COLUMNS.len()).map(width).collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (col, cell) in row.iter().enumerate() {
            if col > 0 {
                line.push_str("  ");
            }
            let pad = " ".repeat(widths[col] - cell.chars().count());
            match COLUMNS[col].1 {
                Align::Left => {
                    line.push_str(cell);
                    line.push_str(&pad);
                }
                Align::Right => {
                    line.push_str(&pad);
                    line.push_str(cell);
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A root that fits the column: whole when short, else `…/` and its last components (the
/// last one cut from the left when even it is too long).
fn shorten_root(root: &str) -> String {
    if root.chars().count() <= ROOT_COLUMN_CHARS {
        return root.to_string();
    }
    let budget = ROOT_COLUMN_CHARS - "…/".chars().count();
    let mut tail = String::new();
    for part in root.rsplit('/').filter(|p| !p.is_empty()) {
        let candidate = if tail.is_empty() {
            part.to_string()
        } else {
            format!("{part}/{tail}")
        };
        if candidate.chars().count() > budget {
            break;
        }
        tail = candidate;
    }
    if tail.is_empty() {
        let last = root.trim_end_matches('/');
        let chars: Vec<char> = last.chars().collect();
        let keep = ROOT_COLUMN_CHARS - 1;
        return format!(
            "…{}",
            chars[chars.len() - keep..].iter().collect::<String>()
        );
    }
    format!("…/{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::base::time::parse_rfc3339;
    use crate::domain::memory::workspace::{merge, render_block, NewMemory};
    use crate::domain::session::state::OpenError;
    use crate::domain::shell::command::Category;
    use serde_json::{json, Map};

    const NOW: i64 = 1_795_276_800_000; // 2026-11-21T16:00:00Z
    const DAY: i64 = 86_400_000;

    #[test]
    fn user_memory_takes_its_share_of_the_block_the_audit_counts() {
        let workspace = numbered(28, MemoryType::Decision, Source::Compaction, |i| {
            format!("Decision {i} keeps service {i} behind the gateway")
        });
        let user = memory_with(&[
            (
                MemoryType::Feedback,
                "Reply in Traditional Chinese",
                Source::Explicit,
            ),
            (
                MemoryType::Feedback,
                "Keep answers short and lead with the result",
                Source::Explicit,
            ),
            (
                MemoryType::Feedback,
                "Never add emoji to commit messages",
                Source::Explicit,
            ),
        ]);
        let alone = audit_workspace(&input(Stored::Ok(workspace.clone()), vec![]), NOW).0;
        assert_eq!(alone.entries.not_rendered, 0);
        let beside =
            audit_workspace_with(&input(Stored::Ok(workspace), vec![]), Some(&user), NOW).0;
        assert_eq!(beside.entries.not_rendered, 3);
        assert!(beside.rendered_chars > alone.rendered_chars);
    }

    fn memory_with(entries: &[(MemoryType, &str, Source)]) -> WorkspaceMemory {
        let mut memory = WorkspaceMemory::new("/home/dev/demo", "0123456789abcdef");
        for (kind, text, source) in entries {
            merge(
                &mut memory,
                NewMemory {
                    kind: *kind,
                    text: text.to_string(),
                    rationale: None,
                    source: *source,
                    confidence: if *source == Source::Explicit {
                        1.0
                    } else {
                        0.75
                    },
                },
                NOW - DAY,
            );
        }
        memory
    }

    /// A memory store holding one explicit preference.
    fn one_preference() -> Stored<WorkspaceMemory> {
        Stored::Ok(memory_with(&[(
            MemoryType::Feedback,
            "always run the linter before pushing",
            Source::Explicit,
        )]))
    }

    /// A memory of `count` entries of one type and source, each text made from its number.
    fn numbered(
        count: usize,
        kind: MemoryType,
        source: Source,
        text: impl Fn(usize) -> String,
    ) -> WorkspaceMemory {
        let texts: Vec<String> = (0..count).map(text).collect();
        let entries: Vec<(MemoryType, &str, Source)> =
            texts.iter().map(|t| (kind, t.as_str(), source)).collect();
        memory_with(&entries)
    }

    fn error(command: Option<&str>, summary: &str, status: ErrorStatus) -> OpenError {
        OpenError {
            id: format!("err_{}", summary.len()),
            category: Category::Runtime,
            summary: summary.into(),
            command: command.map(String::from),
            file: None,
            fingerprint: "000000000000".into(),
            status,
            first_seen: NOW - 3 * DAY,
            last_seen: NOW - 3 * DAY,
            seen_count: 1,
            extra: Map::new(),
        }
    }

    fn input(
        memory: Stored<WorkspaceMemory>,
        sessions: Vec<Stored<SessionState>>,
    ) -> WorkspaceInput {
        let dir = PathBuf::from("/data/workspaces/0123456789abcdef");
        WorkspaceInput {
            key: "0123456789abcdef".into(),
            memory: StoreInput {
                path: dir.join("workspace-memory.json"),
                stored: memory,
                modified_ms: Some(NOW - DAY),
            },
            sessions: sessions
                .into_iter()
                .enumerate()
                .map(|(i, stored)| StoreInput {
                    path: dir.join(format!("sessions/s{i}.json")),
                    stored,
                    modified_ms: Some(NOW - 10 * DAY),
                })
                .collect(),
            dir,
            team: Vec::new(),
            quarantined: 1,
            orphan_temp_files: 2,
            bytes: 4096,
            bad_locks: Vec::new(),
            archive: None,
        }
    }

    #[test]
    fn entries_are_counted_by_status_type_and_source() {
        let memory = memory_with(&[
            (
                MemoryType::Feedback,
                "always run the linter before pushing",
                Source::Explicit,
            ),
            (
                MemoryType::Project,
                "the API server is written in Go",
                Source::Compaction,
            ),
            (
                MemoryType::Project,
                "the API server is written in Go",
                Source::Explicit,
            ),
        ]);
        let (audit, problems) = audit_workspace(&input(Stored::Ok(memory.clone()), vec![]), NOW);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(audit.memory, StoreState::Ok);
        assert_eq!(audit.root.as_deref(), Some("/home/dev/demo"));
        assert_eq!(audit.entries.counts().cell(), "2/0/1");
        assert_eq!(audit.entries.by_type.project.cell(), "1/0/1");
        assert_eq!(audit.entries.by_source.compaction.cell(), "0/0/1");
        assert_eq!(audit.entries.by_source.explicit.cell(), "2/0/0");
        let block = render_block(&memory, Some(NOW));
        assert_eq!(audit.rendered_chars, block.chars().count() as u64);
        assert_eq!(audit.budget_chars, Some(5200));
        assert_eq!(audit.files.quarantined, 1);
        assert_eq!(audit.files.orphan_temp, 2);
    }

    #[test]
    fn entries_beyond_the_cap_or_the_budget_are_not_rendered() {
        let memory = numbered(35, MemoryType::Reference, Source::Compaction, |i| {
            format!("reference number {i} {}", "lorem ipsum dolor ".repeat(13))
        });
        let block = render_block(&memory, Some(NOW));
        let shown = block.lines().filter(|l| l.starts_with("- ")).count() as u64;
        assert!(shown < 28, "the budget cuts before the cap: {shown}");
        let (audit, _) = audit_workspace(&input(Stored::Ok(memory), vec![]), NOW);
        assert_eq!(audit.entries.active, 35);
        assert_eq!(audit.entries.not_rendered, 35 - shown);
        assert_eq!(audit.entries.by_type.reference.not_rendered, 35 - shown);
        assert!(audit.rendered_chars <= 5200);
    }

    #[test]
    fn a_store_without_capped_marks_is_judged_by_what_renders() {
        // The TypeScript plugin wrote no `capped`: 30 active entries, 28 rendered.
        let mut memory = numbered(30, MemoryType::Feedback, Source::Explicit, |i| {
            format!("short preference number {i}")
        });
        for entry in &mut memory.entries {
            entry.capped = false;
        }
        let (audit, _) = audit_workspace(&input(Stored::Ok(memory), vec![]), NOW);
        assert_eq!(audit.entries.counts().cell(), "30/2/0");
    }

    #[test]
    fn secrets_stale_entries_and_session_values_are_found() {
        let mut memory = memory_with(&[(
            MemoryType::Decision,
            "we chose Postgres over MySQL for the ledger",
            Source::Compaction,
        )]);
        let mut leaked = memory.entries[0].clone();
        leaked.id = "mem_1_leaked".into();
        leaked.kind = MemoryType::Reference;
        leaked.text = "the key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789".into();
        memory.entries.push(leaked);
        memory.entries[0].updated_at = format_rfc3339_ms(NOW - 50 * DAY);
        let mut state = SessionState::new("s");
        state.updated_at = format_rfc3339_ms(NOW - 4 * DAY);
        state.recent_decisions.push(json!({
            "id": "dec_1",
            "text": "use the token ghp_abcdefghijklmnopqrstuvwxyz0123456789 for CI"
        }));
        let (audit, problems) =
            audit_workspace(&input(Stored::Ok(memory), vec![Stored::Ok(state)]), NOW);
        assert_eq!(audit.stale, 1);
        assert_eq!(audit.secrets.entries, 1);
        assert_eq!(audit.secrets.session_values, 1);
        assert_eq!(audit.sessions.oldest_days, Some(4));
        let secrets: Vec<&Problem> = problems
            .iter()
            .filter(|p| p.kind == ProblemKind::Secret)
            .collect();
        assert_eq!(secrets.len(), 2, "{problems:?}");
        assert_eq!(secrets[0].id.as_deref(), Some("mem_1_leaked"));
        assert!(
            secrets[0].detail.contains("(openai)"),
            "{}",
            secrets[0].detail
        );
        assert!(secrets[1].detail.contains("recent decision dec_1 (text)"));
        for p in &problems {
            assert!(!p.detail.contains("sk-proj-"), "a secret is never printed");
        }
    }

    #[test]
    fn errors_are_counted_and_false_positives_judged() {
        let mut state = SessionState::new("s");
        state.open_errors = vec![
            error(
                Some("git log --oneline -5"),
                "4832b38 fix: errors in the parser",
                ErrorStatus::Open,
            ),
            error(
                Some("npm run typecheck"),
                "src/index.ts(10,3): error TS2345: Argument of type 'string' is not assignable",
                ErrorStatus::MaybeFixed,
            ),
        ];
        state.open_errors[1].category = Category::Typecheck;
        let (audit, problems) =
            audit_workspace(&input(Stored::Missing, vec![Stored::Ok(state)]), NOW);
        assert_eq!(audit.memory, StoreState::Missing);
        assert_eq!(audit.root, None);
        assert_eq!(
            audit.errors,
            Errors {
                total: 2,
                open: 1,
                maybe_fixed: 1,
                suspected_false_positives: 1
            }
        );
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].kind, ProblemKind::FalsePositive);
        assert_eq!(problems[0].rule, Some("inspection-command"));
        assert_eq!(
            problems[0].check_line(),
            "0123456789abcdef: false-positive: sessions/s0.json: error err_33 [runtime] \
             \"4832b38 fix: errors in the parser\" (from `git log --oneline -5`): recorded from \
             a command that only inspects or sets up (git, cat, grep, ls …)"
        );
        // updatedAt empty: the newest time an error was seen.
        assert_eq!(audit.sessions.oldest_days, Some(3));
    }

    #[test]
    fn verified_commands_are_reported_as_the_block_shows_them() {
        let mut memory = memory_with(&[]);
        memory.verified_commands = serde_json::from_value(json!({
            "typecheck": [
                {"command": "npx tsc", "count": 1, "lastPassed": "2026-11-20T10:00:00.000Z"},
                {"command": "npm run typecheck", "count": 3, "lastPassed": "2026-11-19T10:00:00.000Z"}
            ],
            // Today's rules count none of these: not reported.
            "test": [
                {"command": "git log", "count": 9, "lastPassed": "2026-11-20T10:00:00.000Z"},
                {"command": "pytest /tmp/case", "count": 5, "lastPassed": "2026-11-20T10:00:00.000Z"}
            ],
            "runtime": [{"command": "node a.js", "count": 4, "lastPassed": "2026-11-20T10:00:00.000Z"}]
        }))
        .unwrap();
        let (audit, problems) = audit_workspace(&input(Stored::Ok(memory), Vec::new()), NOW);
        assert!(problems.is_empty());
        assert_eq!(
            audit.verified_commands,
            [VerifiedCommand {
                category: "typecheck",
                command: "npm run typecheck".into(),
                count: 3,
                last_passed: "2026-11-19T10:00:00.000Z".into(),
            }]
        );
        assert!(audit.rendered_chars > 0, "the line alone renders a block");
        let report = report(
            Path::new("/data"),
            NOW,
            &[input(Stored::Ok(memory_with(&[])), Vec::new())],
            None,
        );
        assert_eq!(
            serde_json::to_value(&report).unwrap()["workspaces"][0]["verifiedCommands"],
            json!([])
        );
    }

    #[test]
    fn corrupt_and_newer_stores_are_problems() {
        let (audit, problems) = audit_workspace(
            &input(
                Stored::Newer(99),
                vec![
                    Stored::Corrupt("not valid JSON: EOF while parsing".into()),
                    Stored::Missing,
                ],
            ),
            NOW,
        );
        assert_eq!(audit.memory, StoreState::NewerVersion);
        assert_eq!(audit.memory_version, Some(99));
        assert_eq!(audit.files.corrupt, 1);
        assert_eq!(audit.files.newer_version, 1);
        // A session gone between listing and reading is not counted.
        assert_eq!(audit.sessions.count, 1);
        assert_eq!(audit.sessions.oldest_days, Some(10));
        let kinds: Vec<&str> = problems.iter().map(|p| p.kind.as_str()).collect();
        assert_eq!(kinds, ["newer-version", "corrupt"]);
        assert!(problems[0]
            .detail
            .starts_with("workspace-memory.json has format version 99"));
        assert!(problems[1]
            .detail
            .starts_with("sessions/s0.json does not parse"));
        assert_eq!(
            problems[1].path.as_deref(),
            Some("/data/workspaces/0123456789abcdef/sessions/s0.json")
        );
    }

    #[test]
    fn totals_add_up_and_the_json_has_the_schema() {
        let a = input(one_preference(), vec![]);
        let mut b = input(Stored::Corrupt("bad".into()), vec![]);
        b.key = "fedcba9876543210".into();
        let report = report(Path::new("/data"), NOW, &[a, b], None);
        assert_eq!(report.totals.workspaces, 2);
        assert_eq!(report.totals.entries.active, 1);
        assert_eq!(report.totals.bytes, 8192);
        assert_eq!(report.totals.files.quarantined, 2);
        assert_eq!(report.totals.problems, 1);
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["schema"], 1);
        assert_eq!(json["now"], "2026-11-21T16:00:00.000Z");
        assert_eq!(parse_rfc3339(json["now"].as_str().unwrap()), Some(NOW));
        assert_eq!(
            json["workspaces"][0]["entries"]["byType"]["feedback"]["active"],
            1
        );
        assert_eq!(json["workspaces"][1]["root"], Value::Null);
        assert_eq!(json["workspaces"][1]["memory"], "corrupt");
        assert_eq!(json["problems"][0]["kind"], "corrupt");
        assert_eq!(json["problems"][0]["workspace"], "fedcba9876543210");
        assert!(json["problems"][0].get("id").is_none());
        assert_eq!(json["totals"]["files"]["orphanTemp"], 4);
    }

    #[test]
    fn the_table_is_aligned_and_ends_with_the_problems() {
        let a = input(
            one_preference(),
            vec![Stored::Corrupt("not valid JSON".into())],
        );
        let table = render_table(&report(Path::new("/data"), NOW, &[a], None), None);
        let lines: Vec<&str> = table.lines().collect();
        assert!(
            lines[0].starts_with("KEY               ROOT            ENTRIES"),
            "{table}"
        );
        assert!(
            lines[1].starts_with("0123456789abcdef  /home/dev/demo    1/0/0"),
            "{table}"
        );
        assert!(
            lines[2].starts_with("total             1 workspace       1/0/0"),
            "{table}"
        );
        // Right-aligned columns end where their header ends.
        let end = lines[0].find("BYTES").unwrap() + "BYTES".len();
        assert_eq!(lines[1].len(), end, "{table}");
        assert!(lines[1].ends_with("4.0 KiB"));
        assert!(
            table.contains("  by type:   feedback 1/0/0  project 0/0/0"),
            "{table}"
        );
        assert!(table.contains("  by source: explicit 1/0/0  manual 0/0/0  compaction 0/0/0"));
        assert!(table.contains(
            "problems (1):\n- 0123456789abcdef corrupt: sessions/s0.json does not parse (not valid JSON)"
        ), "{table}");
        let empty = report(Path::new("/data"), NOW, &[], None);
        assert_eq!(
            render_table(&empty, None),
            "no workspaces under /data: nothing to audit\n"
        );
    }

    #[test]
    fn long_roots_keep_their_last_components() {
        assert_eq!(shorten_root("/home/dev/demo"), "/home/dev/demo");
        assert_eq!(
            shorten_root("/home/someone/src/github.com/acme/widgets"),
            "…/src/github.com/acme/widgets"
        );
        let long = format!("/x/{}", "a".repeat(40));
        let short = shorten_root(&long);
        assert_eq!(short.chars().count(), ROOT_COLUMN_CHARS);
        assert!(short.starts_with('…'));
        assert_eq!(human_bytes(1023), "1023 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
    }
}
