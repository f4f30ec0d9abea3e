//! Team memory: what a team decided to share about its repository, kept in the repository
//! itself as `.ocmem/memory.md` and synchronised by git. The file is Markdown meant to be read
//! and reviewed in a pull request: one section per memory type, one bullet per entry, each
//! ending with a short stable id in an HTML comment. It holds nothing volatile (no times, no
//! counters), and bullets are sorted by id within their section, so two branches that each add
//! entries usually touch different lines and merge without a conflict; when they do conflict,
//! the conflict is an ordinary one about whole lines.
//!
//! Reading is forgiving: a line that is not understood, a bullet outside a section or the
//! markers of an unresolved merge conflict are reported as problems and skipped, and every
//! bullet that can be read is read. Writing always produces the canonical form (`render`).

pub mod check;
pub mod gate;
pub mod instructions;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use sha2::{Digest, Sha256};

use crate::domain::memory::kind::MemoryType;
use crate::domain::memory::workspace::canonical_key;

/// Where the team file lives, relative to the repository's root.
pub const TEAM_FILE: &str = ".ocmem/memory.md";

/// The file's title line.
const TITLE: &str = "# Team memory";

/// What the file says of itself under its title, for the people who open it.
const PREAMBLE: &str = "<!-- Shared with everyone who works on this repository, through git. \
ocmem reads it at the start of every agent session. One entry per bullet; the comment at the \
end of a bullet is its id: keep it when you edit the text. Add entries with `ocmem memory add \
--team` or `ocmem memory share ID`, or by hand; check with `ocmem baseline --check --team`. -->";

/// The heading of each type's section, in file order. Reading also accepts the type's name
/// in any case, singular or plural.
pub const SECTIONS: [(MemoryType, &str); 4] = [
    (MemoryType::Feedback, "Feedback"),
    (MemoryType::Project, "Project"),
    (MemoryType::Decision, "Decisions"),
    (MemoryType::Reference, "References"),
];

/// Between an entry's text and its rationale.
const WHY: &str = " Why: ";
/// An id comment: `<!-- ocmem:3f9a2c1b -->`.
const ID_OPEN: &str = "<!-- ocmem:";
const ID_CLOSE: &str = " -->";
/// Hex digits of an id.
pub const ID_LEN: usize = 8;

/// One entry of team memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamEntry {
    pub id: String,
    pub kind: MemoryType,
    pub text: String,
    pub rationale: Option<String>,
    /// The line of the file it was read from (1-based); 0 for an entry not read from a file.
    pub line: usize,
}

impl TeamEntry {
    /// A new entry, not read from a file: its id from its text (see `new_id`), and no empty
    /// rationale.
    pub fn new(kind: MemoryType, text: &str, rationale: Option<&str>) -> Self {
        TeamEntry {
            id: new_id(kind, text),
            kind,
            text: text.to_string(),
            rationale: rationale
                .filter(|why| !why.trim().is_empty())
                .map(str::to_string),
            line: 0,
        }
    }
}

/// An entry as `TeamEntry::new` makes it, but with the id `id`, as one edited by hand keeps.
#[cfg(test)]
pub fn entry_with_id(id: &str, kind: MemoryType, text: &str) -> TeamEntry {
    TeamEntry {
        id: id.to_string(),
        ..TeamEntry::new(kind, text, None)
    }
}

/// What is wrong with a line of the team file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
    /// `<<<<<<<`, `|||||||`, `=======` or `>>>>>>>`: a merge conflict left unresolved. The
    /// bullets of both sides are read.
    ConflictMarker,
    /// A `##` heading that names no memory type: its bullets are skipped.
    UnknownSection,
    /// A bullet before the first section.
    OutsideSection,
    /// A bullet with no text.
    EmptyEntry,
    /// An id comment that is not 8 lowercase hex digits.
    BadId,
    /// A second bullet with an id already read: skipped.
    DuplicateId,
    /// A second bullet with the same type and canonical text as one already read: skipped.
    DuplicateEntry,
    /// Any other line that is not blank, a heading, a bullet or a comment.
    Unreadable,
}

impl ProblemKind {
    pub fn describe(self) -> &'static str {
        match self {
            ProblemKind::ConflictMarker => "unresolved merge conflict marker",
            ProblemKind::UnknownSection => {
                "section is not feedback, project, decisions or references"
            }
            ProblemKind::OutsideSection => "entry outside any section",
            ProblemKind::EmptyEntry => "entry without text",
            ProblemKind::BadId => "id is not 8 lowercase hex digits",
            ProblemKind::DuplicateId => "id used by an earlier entry",
            ProblemKind::DuplicateEntry => "same entry as an earlier one",
            ProblemKind::Unreadable => "not a heading, an entry or a comment",
        }
    }
}

/// A problem and the line (1-based) it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub kind: ProblemKind,
}

/// The team file as read: its entries in file order, and what could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TeamMemory {
    pub entries: Vec<TeamEntry>,
    pub problems: Vec<Problem>,
}

/// The id of a new entry: the first 8 hex digits of the sha256 of its canonical key. It is
/// given once, when the entry is added, and kept when the text is edited later.
pub fn new_id(kind: MemoryType, text: &str) -> String {
    let digest = Sha256::digest(canonical_key(kind, text).as_bytes());
    let mut id = String::with_capacity(ID_LEN);
    for byte in &digest[..ID_LEN / 2] {
        let _ = write!(id, "{byte:02x}");
    }
    id
}

/// Reads a team file. Never fails: what cannot be read is a problem.
pub fn parse(text: &str) -> TeamMemory {
    let mut memory = TeamMemory::default();
    let mut section: Option<Option<MemoryType>> = None;
    let mut ids: BTreeMap<String, usize> = BTreeMap::new();
    let mut keys: BTreeMap<String, usize> = BTreeMap::new();
    let mut in_comment = false;
    for (at, raw) in text.lines().enumerate() {
        let number = at + 1;
        let line = raw.trim_end();
        let mut problem = |kind| memory.problems.push(Problem { line: number, kind });
        if in_comment {
            in_comment = !line.contains("-->");
            continue;
        }
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed == TITLE || is_title(trimmed) {
            continue;
        }
        if is_conflict_marker(line) {
            problem(ProblemKind::ConflictMarker);
            continue;
        }
        if trimmed.starts_with("<!--") {
            in_comment = !trimmed.contains("-->");
            continue;
        }
        if let Some(heading) = trimmed.strip_prefix("## ") {
            let kind = section_kind(heading);
            if kind.is_none() {
                problem(ProblemKind::UnknownSection);
            }
            section = Some(kind);
            continue;
        }
        let Some(bullet) = trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix("* "))
        else {
            problem(ProblemKind::Unreadable);
            continue;
        };
        let kind = match section {
            None => {
                problem(ProblemKind::OutsideSection);
                continue;
            }
            Some(None) => continue,
            Some(Some(kind)) => kind,
        };
        let (body, id) = split_id(bullet);
        let (text, rationale) = split_rationale(body);
        if text.is_empty() {
            problem(ProblemKind::EmptyEntry);
            continue;
        }
        let id = match id {
            Some(id) if is_id(id) => id.to_string(),
            Some(_) => {
                problem(ProblemKind::BadId);
                new_id(kind, text)
            }
            None => new_id(kind, text),
        };
        let key = canonical_key(kind, text);
        if keys.contains_key(&key) {
            problem(ProblemKind::DuplicateEntry);
            continue;
        }
        if ids.contains_key(&id) {
            problem(ProblemKind::DuplicateId);
            continue;
        }
        ids.insert(id.clone(), number);
        keys.insert(key, number);
        memory.entries.push(TeamEntry {
            id,
            kind,
            text: text.to_string(),
            rationale: rationale.map(str::to_string),
            line: number,
        });
    }
    memory
}

/// The canonical file for `entries`: title, preamble, every section in order (empty ones
/// too, so that a branch adding the first entry of a section changes no heading), bullets
/// sorted by id. Entries are expected to be one line each, as `parse` and the gate leave them.
pub fn render(entries: &[TeamEntry]) -> String {
    let mut out = format!("{TITLE}\n\n{PREAMBLE}\n");
    for (kind, heading) in SECTIONS {
        let _ = write!(out, "\n## {heading}\n\n");
        let mut bullets: Vec<&TeamEntry> = entries.iter().filter(|e| e.kind == kind).collect();
        bullets.sort_by(|a, b| a.id.cmp(&b.id));
        for entry in bullets {
            out.push_str("- ");
            out.push_str(&entry.text);
            if let Some(why) = entry.rationale.as_deref().filter(|w| !w.is_empty()) {
                out.push_str(WHY);
                out.push_str(why);
            }
            let _ = writeln!(out, " {ID_OPEN}{}{ID_CLOSE}", entry.id);
        }
    }
    out
}

fn is_title(line: &str) -> bool {
    line.starts_with("# ")
}

fn is_conflict_marker(line: &str) -> bool {
    ["<<<<<<<", "|||||||", ">>>>>>>"]
        .iter()
        .any(|marker| line.starts_with(marker))
        || line == "======="
}

fn section_kind(heading: &str) -> Option<MemoryType> {
    let name = heading.trim().to_lowercase();
    let singular = name.strip_suffix('s').unwrap_or(&name);
    MemoryType::ALL
        .into_iter()
        .find(|kind| kind.as_str() == name || kind.as_str() == singular)
}

/// A bullet's body and the id of its trailing comment, if it has one.
fn split_id(bullet: &str) -> (&str, Option<&str>) {
    let bullet = bullet.trim_end();
    match bullet
        .strip_suffix(ID_CLOSE.trim_start())
        .and_then(|rest| rest.rfind(ID_OPEN).map(|at| (rest, at)))
    {
        Some((rest, at)) => (
            rest[..at].trim_end(),
            Some(rest[at + ID_OPEN.len()..].trim()),
        ),
        None => (bullet, None),
    }
}

/// A bullet's text and its rationale, split at " Why: " as the file writes them.
pub fn split_rationale(body: &str) -> (&str, Option<&str>) {
    match body.split_once(WHY) {
        Some((text, why)) if !why.trim().is_empty() => (text.trim(), Some(why.trim())),
        _ => (body.trim(), None),
    }
}

fn is_id(id: &str) -> bool {
    id.len() == ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests;
