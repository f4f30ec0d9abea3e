//! `ocmem memory … --team`, `share` and `unshare`: the repository's team memory
//! (`.ocmem/memory.md`, see `domain::memory::team`). Only these commands write it, each a deliberate
//! act that shows in `git diff`; the hooks never do. What goes in passes the team gate
//! (`domain::memory::team::gate`) first, and a refusal writes nothing.

use std::path::PathBuf;

use anyhow::{bail, Context as _, Result};
use serde_json::{json, Value};

use super::{fresh, pretty, read, workspace, SCHEMA};
use crate::cli::{
    MemoryAdd, MemoryList, MemoryScope, MemorySearch, MemoryShare, MemoryShow, MemoryUnshare,
};
use crate::context::{Context, TerminalEnv};
use crate::domain::memory::kind::MemoryType;
use crate::domain::memory::search;
use crate::domain::memory::team::gate::refusal;
use crate::domain::memory::team::{self, TeamEntry, TeamMemory};
use crate::domain::memory::workspace::{canonical_key, EntryStatus, Merged, NewMemory, Source};
use crate::domain::steer::edit::{self, MANUAL_CONFIDENCE};
use crate::engine::memory_ops;
use crate::store::team::{display, read_team, repository_root, update_team, TeamChange, TeamRead};

/// What to do once a change is in the file.
const COMMIT_IT: &str = "commit it to share it with the team";

/// Said when a write replaced a file that was not in canonical form.
const REWRITTEN: &str = "the file was not in canonical form and was rewritten whole (comments \
and layout of its own are gone); `git diff` shows it";

/// Whether the team file is missing or exactly what `team::render` makes of its entries: a
/// write then changes only the lines of what it adds or removes.
fn canonical(root: &std::path::Path) -> bool {
    let read = read_team(root);
    match std::fs::read_to_string(&read.path) {
        Ok(text) => text == team::render(&read.memory.entries),
        Err(_) => true,
    }
}

/// The lines that end the output of a command that changed the file.
fn written_note(file: &str, was_canonical: bool) -> String {
    let mut out = format!("in {file}: {COMMIT_IT}\n");
    if !was_canonical {
        out.push_str(REWRITTEN);
        out.push('\n');
    }
    out
}

/// The root of the repository whose team memory a command reads: that of `--workspace DIR`,
/// else of the current directory.
fn team_root(term: &TerminalEnv, scope: &MemoryScope) -> Result<PathBuf> {
    let dir = match &scope.workspace {
        Some(dir) if dir.is_dir() => dir.clone(),
        Some(dir) => bail!("--workspace {} is not a directory", dir.display()),
        None => term
            .current_dir
            .clone()
            .context("cannot read the current directory; pass --workspace DIR")?,
    };
    Ok(repository_root(&dir))
}

fn team_json(root: &std::path::Path, read: &TeamRead) -> Value {
    json!({
        "root": root.display().to_string(),
        "file": read.path.display().to_string(),
        "exists": read.path.exists(),
    })
}

fn entry_json(entry: &TeamEntry) -> Value {
    json!({
        "id": entry.id,
        "type": entry.kind.as_str(),
        "text": entry.text,
        "rationale": entry.rationale,
        "line": entry.line,
    })
}

/// A line naming a team entry: `3f9a2c1b [decision] text (why: …)`.
fn entry_line(entry: &TeamEntry) -> String {
    let why = entry
        .rationale
        .as_deref()
        .map(|why| format!(" (why: {why})"))
        .unwrap_or_default();
    format!("{} [{}] {}{why}", entry.id, entry.kind.as_str(), entry.text)
}

/// What could not be read in the file, a line each.
fn problem_lines(root: &std::path::Path, read: &TeamRead) -> String {
    let file = display(root, &read.path);
    let mut out = String::new();
    if let Some(why) = &read.unreadable {
        out.push_str(&format!("{file}: {why}\n"));
    }
    for problem in &read.memory.problems {
        out.push_str(&format!(
            "{file}:{}: {}\n",
            problem.line,
            problem.kind.describe()
        ));
    }
    out
}

pub fn list(term: &TerminalEnv, cmd: &MemoryList) -> Result<String> {
    let root = team_root(term, &cmd.scope)?;
    let read = read_team(&root);
    let rows: Vec<&TeamEntry> = read
        .memory
        .entries
        .iter()
        .filter(|e| cmd.kind.is_none_or(|k| e.kind == k))
        .collect();
    if cmd.scope.json {
        let problems: Vec<Value> = read
            .memory
            .problems
            .iter()
            .map(|p| json!({"line": p.line, "problem": p.kind.describe()}))
            .collect();
        return pretty(&json!({
            "schema": SCHEMA,
            "team": team_json(&root, &read),
            "entries": rows.iter().map(|e| entry_json(e)).collect::<Vec<_>>(),
            "problems": problems,
            "unreadable": read.unreadable,
        }));
    }
    let mut out = String::new();
    if read.memory.entries.is_empty() {
        out.push_str(&format!(
            "no team memory yet in {}\n`ocmem memory add --team TEXT` or `ocmem memory share ID` adds some\n",
            read.path.display()
        ));
    } else if rows.is_empty() {
        out.push_str("no entry matches\n");
    }
    for entry in rows {
        out.push_str(&entry_line(entry));
        out.push('\n');
    }
    out.push_str(&problem_lines(&root, &read));
    Ok(out)
}

/// The team entry `id` names: exactly, else as the start of exactly one id.
fn find<'a>(memory: &'a TeamMemory, id: &str) -> Result<&'a TeamEntry> {
    let id = id.trim().to_ascii_lowercase();
    if let Some(entry) = memory.entries.iter().find(|e| e.id == id) {
        return Ok(entry);
    }
    let starting: Vec<&TeamEntry> = memory
        .entries
        .iter()
        .filter(|e| !id.is_empty() && e.id.starts_with(&id))
        .collect();
    match starting.as_slice() {
        [entry] => Ok(entry),
        [] => bail!("no team entry has the id {id:?}; `ocmem memory list --team` lists them"),
        many => bail!(
            "{id:?} starts {} team ids ({}); give more of it",
            many.len(),
            many.iter()
                .map(|e| e.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

pub fn show(term: &TerminalEnv, cmd: &MemoryShow) -> Result<String> {
    let root = team_root(term, &cmd.scope)?;
    let read = read_team(&root);
    let entry = find(&read.memory, &cmd.id)?;
    if cmd.scope.json {
        return pretty(&json!({
            "schema": SCHEMA,
            "team": team_json(&root, &read),
            "entry": entry_json(entry),
        }));
    }
    let mut out = format!(
        "{:<8}{}\n{:<8}{}\n{:<8}{}\n",
        "id",
        entry.id,
        "type",
        entry.kind.as_str(),
        "text",
        entry.text
    );
    if let Some(why) = &entry.rationale {
        out.push_str(&format!("{:<8}{why}\n", "why"));
    }
    out.push_str(&format!(
        "{:<8}{}:{}\n",
        "file",
        display(&root, &read.path),
        entry.line
    ));
    Ok(out)
}

pub fn search(term: &TerminalEnv, cmd: &MemorySearch) -> Result<String> {
    let root = team_root(term, &cmd.scope)?;
    let read = read_team(&root);
    let entries = &read.memory.entries;
    let texts: Vec<String> = entries
        .iter()
        .map(|e| search::document(&e.text, e.rationale.as_deref()))
        .collect();
    let hits = search::top(&cmd.query, &texts, cmd.limit as usize);
    if cmd.scope.json {
        let results: Vec<Value> = hits
            .iter()
            .map(|&(at, score)| {
                let mut value = entry_json(&entries[at]);
                value["score"] = json!(search::shown_score(score));
                value
            })
            .collect();
        return pretty(&json!({
            "schema": SCHEMA,
            "team": team_json(&root, &read),
            "query": cmd.query,
            "results": results,
        }));
    }
    if hits.is_empty() {
        return Ok(format!("nothing in team memory matches {:?}\n", cmd.query));
    }
    Ok(hits
        .iter()
        .map(|&(at, score)| format!("{score:.2}  {}\n", entry_line(&entries[at])))
        .collect())
}

/// A new entry's id: `team::new_id`, unless an entry holds it already (its text edited since,
/// or a clash of 8 hex digits); then the first free one derived from it.
fn fresh_id(entries: &[TeamEntry], kind: MemoryType, text: &str) -> String {
    let taken = |id: &str| entries.iter().any(|e| e.id == id);
    let mut id = team::new_id(kind, text);
    let mut salt = 0u32;
    while taken(&id) {
        salt += 1;
        id = team::new_id(kind, &format!("{text}\n{salt}"));
    }
    id
}

/// Adds `kind`/`text`/`rationale` to `entries` unless an entry with the same canonical key is
/// there: returns the entry that holds it and whether it is new.
fn insert(
    entries: &mut Vec<TeamEntry>,
    kind: MemoryType,
    text: &str,
    rationale: Option<&str>,
) -> (TeamEntry, bool) {
    let key = canonical_key(kind, text);
    if let Some(there) = entries
        .iter()
        .find(|e| e.kind == kind && canonical_key(e.kind, &e.text) == key)
    {
        return (there.clone(), false);
    }
    let entry = TeamEntry {
        id: fresh_id(entries, kind, text),
        ..TeamEntry::new(kind, text, rationale)
    };
    entries.push(entry.clone());
    (entry, true)
}

/// Refuses `entries` when the file they make would not read back as exactly them (a text that
/// looks like the file's own syntax): what is written must be what every teammate reads.
fn reads_back(entries: &[TeamEntry]) -> Result<()> {
    let again = team::parse(&team::render(entries));
    let same = |a: &TeamEntry, b: &TeamEntry| {
        a.id == b.id && a.kind == b.kind && a.text == b.text && a.rationale == b.rationale
    };
    for entry in entries {
        if !again.entries.iter().any(|e| same(e, entry)) || !again.problems.is_empty() {
            bail!(
                "{:?} cannot be written as one entry of the team file; reword it; nothing was written",
                entry.text
            );
        }
    }
    Ok(())
}

pub fn add(ctx: &Context, term: &TerminalEnv, cmd: &MemoryAdd) -> Result<String> {
    let store = ctx.store();
    let root = team_root(term, &cmd.scope)?;
    // Judged as typed, before cleaning scrubs a secret into a redaction, and as cleaned.
    if let Some(refused) = refusal(&cmd.text, None) {
        bail!("not added to team memory: {}", refused.describe());
    }
    let cleaned = edit::checked_text(&cmd.text).map_err(anyhow::Error::msg)?;
    let (text, rationale) = team::split_rationale(&cleaned);
    let kind = edit::kind_of(text, cmd.kind);
    if let Some(refused) = refusal(text, rationale) {
        bail!("not added to team memory: {}", refused.describe());
    }
    if !cmd.force {
        if let Some(refused) = edit::gate_refusal(text, kind, cmd.agent) {
            bail!("{refused}");
        }
    }
    let was_canonical = canonical(&root);
    let (entry, new) = update_team(&store, &root, |memory| {
        let mut entries = memory.entries.clone();
        let (entry, new) = insert(&mut entries, kind, text, rationale);
        if !new {
            return Ok(TeamChange::Keep((entry, false)));
        }
        reads_back(&entries)?;
        Ok(TeamChange::Write(entries, (entry, true)))
    })?;
    let file = display(&root, &read_team(&root).path);
    if cmd.scope.json {
        return pretty(&json!({
            "schema": SCHEMA,
            "outcome": if new { "added" } else { "duplicate" },
            "entry": entry_json(&entry),
            "file": file,
        }));
    }
    Ok(match new {
        true => format!(
            "added to team memory: {}\n{}",
            entry_line(&entry),
            written_note(&file, was_canonical)
        ),
        false => format!(
            "team memory holds it already: {}\nnothing changed\n",
            entry_line(&entry)
        ),
    })
}

pub fn share(ctx: &Context, term: &TerminalEnv, cmd: &MemoryShare) -> Result<String> {
    let store = ctx.store();
    let target = workspace(&store, term, &cmd.scope)?;
    let root = team_root(term, &cmd.scope)?;
    let memory = read(&store, &target)?;
    let mut chosen = Vec::new();
    for id in &cmd.ids {
        let at = edit::find(&memory.entries, id).map_err(anyhow::Error::msg)?;
        let entry = &memory.entries[at];
        if entry.status != EntryStatus::Active {
            bail!(
                "{} is superseded; restore it first to share it; nothing was shared",
                entry.id
            );
        }
        if !chosen.iter().any(|e: &&_| std::ptr::eq(*e, entry)) {
            chosen.push(entry);
        }
    }
    let refused: Vec<String> = chosen
        .iter()
        .filter_map(|e| {
            refusal(&e.text, e.rationale.as_deref())
                .map(|why| format!("refused {}: {}", e.id, why.describe()))
        })
        .collect();
    if !refused.is_empty() {
        // A line each, then the error that exits 1.
        for line in &refused {
            eprintln!("ocmem: {line}");
        }
        bail!(
            "{} of {} entries refused for team memory; nothing was shared",
            refused.len(),
            chosen.len()
        );
    }
    let was_canonical = canonical(&root);
    let outcomes = update_team(&store, &root, |team| {
        let mut entries = team.entries.clone();
        let outcomes: Vec<(String, TeamEntry, bool)> = chosen
            .iter()
            .map(|e| {
                // A text that carries its own " Why: " is split as the file will read it.
                let (text, rationale) = match &e.rationale {
                    Some(why) => (e.text.as_str(), Some(why.as_str())),
                    None => team::split_rationale(&e.text),
                };
                let (entry, new) = insert(&mut entries, e.kind, text, rationale);
                (e.id.clone(), entry, new)
            })
            .collect();
        if outcomes.iter().all(|(_, _, new)| !new) {
            return Ok(TeamChange::Keep(outcomes));
        }
        reads_back(&entries)?;
        Ok(TeamChange::Write(entries, outcomes))
    })?;
    let file = display(&root, &read_team(&root).path);
    if cmd.scope.json {
        let shared: Vec<Value> = outcomes
            .iter()
            .map(|(from, entry, new)| {
                json!({"from": from, "outcome": if *new { "shared" } else { "duplicate" }, "entry": entry_json(entry)})
            })
            .collect();
        return pretty(&json!({"schema": SCHEMA, "file": file, "shared": shared}));
    }
    let mut out = String::new();
    for (from, entry, new) in &outcomes {
        out.push_str(&match new {
            true => format!("shared {from} as {}\n", entry_line(entry)),
            false => format!("{from} is in team memory already, as {}\n", entry.id),
        });
    }
    if outcomes.iter().any(|(_, _, new)| *new) {
        out.push_str(&written_note(&file, was_canonical));
    }
    Ok(out)
}

pub fn unshare(ctx: &Context, term: &TerminalEnv, cmd: &MemoryUnshare) -> Result<String> {
    let store = ctx.store();
    let target = workspace(&store, term, &cmd.scope)?;
    let root = team_root(term, &cmd.scope)?;
    let was_canonical = canonical(&root);
    let (entry, kept) = update_team(&store, &root, |team| {
        let entry = find(team, &cmd.id)?.clone();
        // Into personal memory first: were the team file not written after it, the entry
        // would be in both, never in neither.
        let outcome = memory_ops::import_into_store(
            &store,
            &target.memory_file(),
            fresh(&target),
            vec![NewMemory {
                kind: entry.kind,
                text: entry.text.clone(),
                rationale: entry.rationale.clone(),
                source: Source::Manual,
                confidence: MANUAL_CONFIDENCE,
            }],
        )?
        .pop()
        .unwrap_or(Ok(Merged::Empty));
        let kept = match outcome {
            Ok(merged) => merged,
            Err(why) => bail!(
                "{} cannot be kept in your memory ({why}); it stays in team memory",
                entry.id
            ),
        };
        let entries = team
            .entries
            .iter()
            .filter(|e| e.id != entry.id)
            .cloned()
            .collect();
        Ok(TeamChange::Write(entries, (entry, kept)))
    })?;
    let file = display(&root, &read_team(&root).path);
    let personal = kept.id().unwrap_or_default().to_string();
    let added = matches!(kept, Merged::Added { .. });
    if cmd.scope.json {
        return pretty(&json!({
            "schema": SCHEMA,
            "file": file,
            "entry": entry_json(&entry),
            "personal": {"id": personal, "added": added},
        }));
    }
    let mut out = format!("removed from team memory: {}\n", entry_line(&entry));
    out.push_str(&match added {
        true => format!("your memory did not hold it: it is kept there as {personal}\n"),
        false => format!("your memory holds it as {personal}\n"),
    });
    out.push_str(&written_note(&file, was_canonical));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::memory::team::entry_with_id as entry;

    #[test]
    fn a_new_id_taken_by_an_edited_entry_is_not_reused() {
        let kind = MemoryType::Decision;
        let natural = team::new_id(kind, "Use pnpm, not npm");
        // The entry first added with that text, since edited by hand: it kept its id.
        let edited = entry(&natural, kind, "Use pnpm 9, not npm");
        let mut entries = vec![edited.clone()];
        let (added, new) = insert(&mut entries, kind, "Use pnpm, not npm", None);
        assert!(new);
        assert_ne!(added.id, natural);
        assert_eq!(added.id.len(), team::ID_LEN);
        assert_eq!(fresh_id(&[], kind, "Use pnpm, not npm"), natural);
        // The same text again, in other case and punctuation, is the entry already there.
        let (again, new) = insert(&mut entries, kind, "use PNPM: not npm!", None);
        assert!(!new);
        assert_eq!(again.id, added.id);
        assert_eq!(entries.len(), 2);
    }

    #[test]
    fn ids_are_found_whole_or_by_a_unique_start() {
        let memory = TeamMemory {
            entries: vec![
                entry("3f9a2c1b", MemoryType::Decision, "Use pnpm, not npm"),
                entry(
                    "3f0b7d22",
                    MemoryType::Feedback,
                    "Run the linter before pushing",
                ),
            ],
            problems: Vec::new(),
        };
        assert_eq!(find(&memory, "3F9A").unwrap().id, "3f9a2c1b");
        assert_eq!(find(&memory, "3f0b7d22").unwrap().id, "3f0b7d22");
        let ambiguous = find(&memory, "3f").unwrap_err().to_string();
        assert!(ambiguous.contains("3f9a2c1b") && ambiguous.contains("3f0b7d22"));
        assert!(find(&memory, "").is_err());
        assert!(find(&memory, "9a2c").is_err());
    }

    #[test]
    fn only_what_reads_back_as_itself_is_written() {
        let kind = MemoryType::Reference;
        let plain = entry(
            "0000000a",
            kind,
            "Comments look like <!-- this --> in Markdown",
        );
        assert!(reads_back(std::slice::from_ref(&plain)).is_ok());
        // A rationale inside the text would read back as a rationale.
        let mut split = entry("0000000b", kind, "Use the mirror Why: the registry is slow");
        split.rationale = Some("it is cached".to_string());
        assert!(reads_back(&[plain, split]).is_err());
    }
}
