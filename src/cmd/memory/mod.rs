//! `ocmem memory …`, `ocmem remember` and `ocmem forget`: people's view of a workspace's
//! memory. Reads never create anything; every change goes through `engine::memory_ops` (the
//! store's lock, an atomic write, the checks of `domain::steer::edit`), and bad input is
//! refused before anything on disk is touched.

mod editor;
pub mod hot_state;
mod instructions;
mod table;
mod team;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _, Result};
use serde_json::{json, Value};

use super::{print, Run};
use crate::cli::{
    ExportFormat, Memory, MemoryAdd, MemoryCommand, MemoryEdit, MemoryExport, MemoryForget,
    MemoryImport, MemoryList, MemoryRestore, MemoryScope, MemorySearch, MemoryShow,
};
use crate::context::{Context, TerminalEnv};
use crate::domain::memory::archive::Restored;
use crate::domain::memory::search;
use crate::domain::memory::workspace::{EntryStatus, MemoryEntry, Merged, WorkspaceMemory};
use crate::domain::prompt::layers::Layers;
use crate::domain::steer::edit::{self, Changed, Edited, Listed, NotShown, Part};
use crate::engine::memory_ops;
use crate::store::archive::{archive_path, read_archive, restore_archived};
use crate::store::switch::{is_off, off_marker};
use crate::store::user_memory::USER_KEY;
use crate::store::{Store, Workspace};

/// The version of every `--json` document of `ocmem memory`; fields are only ever added
/// within it.
pub const SCHEMA: u32 = 1;

impl Run for Memory {
    fn run(&self, ctx: &Context) -> Result<()> {
        let term = TerminalEnv::from_env();
        let text = match &self.command {
            MemoryCommand::List(cmd) => list(ctx, &term, cmd)?,
            MemoryCommand::Show(cmd) => show(ctx, &term, cmd)?,
            MemoryCommand::Add(cmd) => add(ctx, &term, cmd)?,
            MemoryCommand::Edit(cmd) => edit(ctx, &term, cmd)?,
            MemoryCommand::Forget(cmd) => forget(ctx, &term, cmd)?,
            MemoryCommand::Restore(cmd) => restore(ctx, &term, cmd)?,
            MemoryCommand::Search(cmd) => search(ctx, &term, cmd)?,
            MemoryCommand::Export(cmd) => export(ctx, &term, cmd)?,
            MemoryCommand::Import(cmd) => import(ctx, &term, cmd)?,
            MemoryCommand::Where(cmd) => where_(ctx, &term, &cmd.scope)?,
            MemoryCommand::Off(cmd) => switch(ctx, &term, &cmd.scope, true)?,
            MemoryCommand::On(cmd) => switch(ctx, &term, &cmd.scope, false)?,
            MemoryCommand::HotState(cmd) => hot_state::show(ctx, &term, cmd)?,
            MemoryCommand::Share(cmd) => team::share(ctx, &term, cmd)?,
            MemoryCommand::Unshare(cmd) => team::unshare(ctx, &term, cmd)?,
        };
        print(&text)
    }
}

impl Run for MemoryAdd {
    fn run(&self, ctx: &Context) -> Result<()> {
        print(&add(ctx, &TerminalEnv::from_env(), self)?)
    }
}

impl Run for MemoryForget {
    fn run(&self, ctx: &Context) -> Result<()> {
        print(&forget(ctx, &TerminalEnv::from_env(), self)?)
    }
}

/// The workspace `--workspace` names, else the current directory's; found as a hook finds the
/// workspace of its `directory`.
fn workspace(store: &Store, term: &TerminalEnv, scope: &MemoryScope) -> Result<Target> {
    if scope.user {
        return Ok(Target {
            workspace: Workspace {
                root: String::new(),
                key: USER_KEY.to_string(),
                dir: store.data_dir.clone(),
            },
            user_file: Some(store.user_memory_file()),
        });
    }
    let dir = match &scope.workspace {
        Some(dir) => {
            let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
            match std::fs::metadata(dir) {
                Ok(meta) if meta.is_dir() => {}
                Ok(_) => bail!("--workspace {} is not a directory", dir.display()),
                // A folder that is gone still names the memory it left ("memory export
                // --workspace <old folder>" after a move).
                Err(_) => {
                    let left = store.locate_workspace(&absolute.to_string_lossy());
                    if !left.memory_file().exists() {
                        bail!("--workspace {} does not exist", dir.display());
                    }
                    return Ok(Target::of(left));
                }
            }
            absolute
        }
        None => term
            .current_dir
            .clone()
            .context("cannot read the current directory; pass --workspace DIR")?,
    };
    Ok(Target::of(store.workspace(&dir.to_string_lossy())))
}

/// The memory a command acts on: its workspace's, or with `--user` the person's own, which
/// has the same format in `user-memory.json` and no workspace (root empty, key `user`).
struct Target {
    workspace: Workspace,
    user_file: Option<PathBuf>,
}

impl Target {
    fn of(workspace: Workspace) -> Target {
        Target {
            workspace,
            user_file: None,
        }
    }

    fn memory_file(&self) -> PathBuf {
        match &self.user_file {
            Some(file) => file.clone(),
            None => self.workspace.memory_file(),
        }
    }

    fn is_user(&self) -> bool {
        self.user_file.is_some()
    }
}

impl std::ops::Deref for Target {
    type Target = Workspace;
    fn deref(&self) -> &Workspace {
        &self.workspace
    }
}

/// `where`, `off` and `on` are about a workspace's directory and hooks: user memory has none.
fn workspace_only(store: &Store, term: &TerminalEnv, scope: &MemoryScope) -> Result<Workspace> {
    if scope.user {
        bail!("--user is for the entries of user memory; it has no directory or hooks of its own");
    }
    Ok(workspace(store, term, scope)?.workspace)
}

/// `memory`'s entries, each with whether a new session's block shows it: with user memory
/// first, as the hooks render it (a user memory that cannot be read counts as none here).
fn listing<'a>(
    store: &Store,
    target: &Target,
    memory: &'a WorkspaceMemory,
    now_ms: i64,
) -> Vec<Listed<'a>> {
    if target.is_user() {
        return edit::listing_with(Part::User, Some(memory), None, memory, now_ms);
    }
    let user = memory_ops::read_store(store, &store.user_memory_file())
        .ok()
        .flatten();
    // And the repository's team memory, which shows some entries in their place.
    let team = crate::engine::team_layer::team_entries(store, &target.workspace.root);
    let layers = Layers {
        user: user.as_ref(),
        team: &team,
        workspace: Some(memory),
    };
    edit::listing_layered(Part::Workspace, layers, memory, now_ms)
}

/// The memory as it is (none yet: empty), for reading.
fn read(store: &Store, workspace: &Target) -> Result<WorkspaceMemory> {
    Ok(memory_ops::read_store(store, &workspace.memory_file())?
        .unwrap_or_else(|| WorkspaceMemory::new(&workspace.root, &workspace.key)))
}

fn fresh(workspace: &Target) -> impl FnOnce() -> WorkspaceMemory + '_ {
    || WorkspaceMemory::new(&workspace.root, &workspace.key)
}

fn pretty(value: &Value) -> Result<String> {
    Ok(format!("{}\n", serde_json::to_string_pretty(value)?))
}

fn workspace_json(workspace: &Target) -> Value {
    if workspace.is_user() {
        return json!({"root": workspace.root, "key": workspace.key, "user": true});
    }
    json!({"root": workspace.root, "key": workspace.key})
}

/// An entry as `--json` lists it: as stored, with whether the block shows it and why not.
fn entry_json(entry: &MemoryEntry, not_shown: Option<NotShown>) -> Value {
    let mut value = serde_json::to_value(entry).unwrap_or(Value::Null);
    value["shown"] = json!(not_shown.is_none());
    value["notShown"] = json!(not_shown.map(NotShown::label));
    value
}

/// A line naming an entry: `mem_… [type] text`.
fn entry_line(entry: &MemoryEntry) -> String {
    format!("{} [{}] {}", entry.id, entry.kind.as_str(), entry.text)
}

const NEXT_SESSION: &str = "sessions already running keep their block; new ones show the change";

fn list(ctx: &Context, term: &TerminalEnv, cmd: &MemoryList) -> Result<String> {
    if cmd.team {
        return team::list(term, cmd);
    }
    let store = ctx.store();
    let workspace = workspace(&store, term, &cmd.scope)?;
    let memory = read(&store, &workspace)?;
    let listed = listing(&store, &workspace, &memory, ctx.now_ms);
    let wanted = |l: &&Listed| {
        cmd.kind.is_none_or(|k| l.entry.kind == k) && cmd.source.is_none_or(|s| l.entry.source == s)
    };
    let filtered: Vec<&Listed> = listed.iter().filter(wanted).collect();
    let rows: Vec<&Listed> = filtered
        .iter()
        .copied()
        .filter(|l| cmd.all || l.not_shown.is_none())
        .collect();
    if cmd.scope.json {
        let entries: Vec<Value> = rows
            .iter()
            .map(|l| entry_json(l.entry, l.not_shown))
            .collect();
        return pretty(&json!({
            "schema": SCHEMA,
            "workspace": workspace_json(&workspace),
            "off": is_off(&workspace) || ctx.disabled,
            "entries": entries,
        }));
    }
    let mut out = String::new();
    if memory.entries.is_empty() {
        out.push_str(&match workspace.is_user() {
            true => "no user memory yet\n".to_string(),
            false => format!(
                "no memory yet for {} (key {})\n",
                workspace.root, workspace.key
            ),
        });
    } else if rows.is_empty() {
        out.push_str("no entry matches\n");
    } else {
        out.push_str(&table::entries(term, &rows, ctx.now_ms, None));
    }
    let hidden = filtered.len() - rows.len();
    if hidden > 0 {
        out.push_str(&format!(
            "{hidden} more not shown in the block ({}); --all lists them\n",
            table::reason_counts(filtered.iter().filter(|l| l.not_shown.is_some()).copied())
        ));
    }
    out.push_str(&off_note(ctx, &workspace));
    Ok(out)
}

/// A line saying memory is off, when it is.
fn off_note(ctx: &Context, workspace: &Workspace) -> String {
    if ctx.disabled {
        "memory is off: OCMEM_DISABLE is set, so the hooks do nothing\n".into()
    } else if is_off(workspace) {
        "memory is off for this workspace: the hooks do nothing (`ocmem memory on` turns it back on)\n".into()
    } else {
        String::new()
    }
}

/// The entries of the store and of its archive, for looking up ids and history.
fn with_archive(workspace: &Target, memory: &WorkspaceMemory) -> Result<Vec<MemoryEntry>> {
    let mut entries = memory.entries.clone();
    if let Some(archive) = read_archive(&archive_path(&workspace.memory_file()))? {
        let live: std::collections::HashSet<&str> =
            memory.entries.iter().map(|e| e.id.as_str()).collect();
        entries.extend(
            archive
                .entries
                .into_iter()
                .filter(|e| !live.contains(e.id.as_str())),
        );
    }
    Ok(entries)
}

fn show(ctx: &Context, term: &TerminalEnv, cmd: &MemoryShow) -> Result<String> {
    if cmd.team {
        return team::show(term, cmd);
    }
    let store = ctx.store();
    let workspace = workspace(&store, term, &cmd.scope)?;
    let memory = read(&store, &workspace)?;
    let entries = with_archive(&workspace, &memory)?;
    let at = edit::find(&entries, &cmd.id).map_err(anyhow::Error::msg)?;
    let entry = &entries[at];
    let archived = at >= memory.entries.len();
    let not_shown = if archived {
        Some(NotShown::Superseded)
    } else {
        listing(&store, &workspace, &memory, ctx.now_ms)
            .into_iter()
            .find(|l| l.entry.id == entry.id)
            .and_then(|l| l.not_shown)
    };
    let all: Vec<&MemoryEntry> = entries.iter().collect();
    let history = edit::history(&all, entry);
    if cmd.scope.json {
        let mut value = entry_json(entry, not_shown);
        value["archived"] = json!(archived);
        value["history"] = serde_json::to_value(&history)?;
        return pretty(&json!({
            "schema": SCHEMA,
            "workspace": workspace_json(&workspace),
            "entry": value,
        }));
    }
    Ok(table::show(
        entry, not_shown, archived, &history, ctx.now_ms,
    ))
}

fn add(ctx: &Context, term: &TerminalEnv, cmd: &MemoryAdd) -> Result<String> {
    if cmd.team {
        return team::add(ctx, term, cmd);
    }
    let store = ctx.store();
    let workspace = workspace(&store, term, &cmd.scope)?;
    // Checked before the store is touched: bad input changes nothing on disk.
    let text = edit::checked_text(&cmd.text).map_err(anyhow::Error::msg)?;
    if !cmd.force {
        // The text as typed: cleaning would scrub a secret into a redaction, which the gate
        // refuses too.
        if let Some(refused) = edit::gate_refusal(&text, edit::kind_of(&text, cmd.kind), cmd.agent)
        {
            bail!("{refused}");
        }
    }
    let added = memory_ops::add_to_store(
        &store,
        &workspace.memory_file(),
        fresh(&workspace),
        &cmd.text,
        cmd.kind,
    )?;
    if cmd.scope.json {
        let mut value = serde_json::to_value(&added.merged)?;
        value["entry"] = serde_json::to_value(&added.entry)?;
        return pretty(&value);
    }
    let line = added.entry.as_ref().map(entry_line).unwrap_or_default();
    Ok(match &added.merged {
        Merged::Added { .. } => format!("added {line}\n{NEXT_SESSION}\n"),
        Merged::Replaced { superseded, .. } => {
            format!(
                "added {line}\nit replaces {superseded}, which had the same text\n{NEXT_SESSION}\n"
            )
        }
        _ => format!("already remembered: {line}\nnothing changed\n"),
    })
}

fn edit(ctx: &Context, term: &TerminalEnv, cmd: &MemoryEdit) -> Result<String> {
    let store = ctx.store();
    let workspace = workspace(&store, term, &cmd.scope)?;
    let memory = read(&store, &workspace)?;
    let at = edit::find(&memory.entries, &cmd.id).map_err(anyhow::Error::msg)?;
    let entry = &memory.entries[at];
    if entry.status != EntryStatus::Active {
        bail!("{} is superseded; restore it first to edit it", entry.id);
    }
    let text = match &cmd.text {
        Some(text) => text.clone(),
        None => editor::edit_text(term, entry)?,
    };
    edit::checked_text(&text).map_err(anyhow::Error::msg)?;
    let edited = memory_ops::edit_in_store(&store, &workspace.memory_file(), &entry.id, &text)?;
    if cmd.scope.json {
        return pretty(&match &edited {
            Edited::Unchanged => json!({"outcome": "unchanged", "id": entry.id}),
            Edited::Replaced { old, id, new } => {
                json!({"outcome": "edited", "old": old, "id": id, "new": new})
            }
        });
    }
    Ok(match edited {
        Edited::Unchanged => format!("{} already says that; nothing changed\n", entry.id),
        Edited::Replaced { old, id, new: true } => {
            format!("{old} is superseded by {id}\n{NEXT_SESSION}\n")
        }
        Edited::Replaced {
            old,
            id,
            new: false,
        } => format!("{old} is superseded by {id}, which already had that text\n{NEXT_SESSION}\n"),
    })
}

fn forget(ctx: &Context, term: &TerminalEnv, cmd: &MemoryForget) -> Result<String> {
    let store = ctx.store();
    let workspace = workspace(&store, term, &cmd.scope)?;
    let memory = read(&store, &workspace)?;
    let ids: Vec<String> = match (&cmd.id, &cmd.matching) {
        (Some(id), _) => {
            let at = edit::find(&memory.entries, id).map_err(anyhow::Error::msg)?;
            vec![memory.entries[at].id.clone()]
        }
        (None, Some(query)) => {
            let found = edit::matching(&memory, query);
            match found.len() {
                0 => bail!("no active entry holds every word of {query:?}; nothing was changed"),
                1 => vec![memory.entries[found[0]].id.clone()],
                n if !cmd.all => {
                    let candidates: Vec<&MemoryEntry> =
                        found.iter().map(|&at| &memory.entries[at]).collect();
                    let listing = if cmd.scope.json {
                        let entries: Vec<Value> =
                            candidates.iter().map(|e| entry_json(e, None)).collect();
                        pretty(&json!({"forgotten": [], "candidates": entries}))?
                    } else {
                        candidates
                            .iter()
                            .map(|e| format!("{}\n", entry_line(e)))
                            .collect()
                    };
                    print(&listing)?;
                    bail!(
                        "{n} entries match {query:?}; nothing was changed: forget one by its id, or pass --all"
                    );
                }
                _ => found
                    .iter()
                    .map(|&at| memory.entries[at].id.clone())
                    .collect(),
            }
        }
        (None, None) => bail!("name an entry by its id, or pass --match TEXT"),
    };
    let outcomes = memory_ops::forget_in_store(&store, &workspace.memory_file(), &ids)?;
    let (done, already): (Vec<_>, Vec<_>) = outcomes
        .iter()
        .partition(|(_, changed)| matches!(changed, Changed::Done { .. }));
    if cmd.scope.json {
        let ids = |list: &[&(String, Changed)]| -> Vec<String> {
            list.iter().map(|(id, _)| id.clone()).collect()
        };
        return pretty(&json!({"forgotten": ids(&done), "already": ids(&already)}));
    }
    let mut out = String::new();
    for (id, _) in &done {
        out.push_str(&format!("forgot {id}\n"));
    }
    for (id, _) in &already {
        out.push_str(&format!("{id} was forgotten already; nothing changed\n"));
    }
    if !done.is_empty() {
        out.push_str(&format!(
            "`ocmem memory restore ID` brings it back; {NEXT_SESSION}\n"
        ));
    }
    Ok(out)
}

fn restore(ctx: &Context, term: &TerminalEnv, cmd: &MemoryRestore) -> Result<String> {
    let store = ctx.store();
    let workspace = workspace(&store, term, &cmd.scope)?;
    let memory = read(&store, &workspace)?;
    let path = workspace.memory_file();
    let (id, superseded, already) = match edit::find(&memory.entries, &cmd.id) {
        Ok(_) => {
            let (id, changed) = memory_ops::restore_in_store(&store, &path, &cmd.id)?;
            match changed {
                Changed::Done { superseded } => (id, superseded, false),
                Changed::Already => (id, Vec::new(), true),
            }
        }
        // Not in the store: perhaps in its archive.
        Err(live_error) => {
            let entries = with_archive(&workspace, &memory)?;
            let Ok(at) = edit::find(&entries, &cmd.id) else {
                bail!("{live_error}");
            };
            let id = entries[at].id.clone();
            match restore_archived(&store, &path, &id, ctx.now_ms)? {
                Restored::Restored { superseded } => (id, superseded.into_iter().collect(), false),
                Restored::AlreadyLive => (id, Vec::new(), true),
            }
        }
    };
    if cmd.scope.json {
        return pretty(&json!({"id": id, "restored": !already, "superseded": superseded}));
    }
    if already {
        return Ok(format!("{id} is active already; nothing changed\n"));
    }
    let mut out = format!("restored {id}\n");
    for old in superseded {
        out.push_str(&format!(
            "{old}, which had taken its place, is superseded\n"
        ));
    }
    out.push_str(NEXT_SESSION);
    out.push('\n');
    Ok(out)
}

fn search(ctx: &Context, term: &TerminalEnv, cmd: &MemorySearch) -> Result<String> {
    if cmd.team {
        return team::search(term, cmd);
    }
    let store = ctx.store();
    let workspace = workspace(&store, term, &cmd.scope)?;
    let memory = read(&store, &workspace)?;
    let mut listed: Vec<Listed> = listing(&store, &workspace, &memory, ctx.now_ms)
        .into_iter()
        .filter(|l| l.entry.status == EntryStatus::Active)
        .collect();
    // A workspace's search covers the user memory its block shows above it too; an unreadable
    // user memory counts as none.
    let user = if workspace.is_user() {
        None
    } else {
        memory_ops::read_store(&store, &store.user_memory_file())
            .ok()
            .flatten()
    };
    let from_workspace = listed.len();
    if let Some(user) = &user {
        listed.extend(
            edit::listing_with(Part::User, Some(user), None, user, ctx.now_ms)
                .into_iter()
                .filter(|l| l.entry.status == EntryStatus::Active),
        );
    }
    let texts: Vec<String> = listed.iter().map(|l| edit::searchable(l.entry)).collect();
    let hits = search::top(&cmd.query, &texts, cmd.limit as usize);
    let layer = |at: usize| {
        if workspace.is_user() || at >= from_workspace {
            "user"
        } else {
            "workspace"
        }
    };
    if cmd.scope.json {
        let results: Vec<Value> = hits
            .iter()
            .map(|&(at, score)| {
                let mut value = entry_json(listed[at].entry, listed[at].not_shown);
                value["score"] = json!(search::shown_score(score));
                value["layer"] = json!(layer(at));
                value
            })
            .collect();
        return pretty(&json!({
            "schema": SCHEMA,
            "workspace": workspace_json(&workspace),
            "query": cmd.query,
            "results": results,
        }));
    }
    if hits.is_empty() {
        return Ok(format!("nothing matches {:?}\n", cmd.query));
    }
    let rows: Vec<&Listed> = hits.iter().map(|&(at, _)| &listed[at]).collect();
    let scores: Vec<f64> = hits.iter().map(|&(_, s)| s).collect();
    let mut out = table::entries(term, &rows, ctx.now_ms, Some(&scores));
    let from_user: Vec<&str> = hits
        .iter()
        .filter(|&&(at, _)| !workspace.is_user() && at >= from_workspace)
        .map(|&(at, _)| listed[at].entry.id.as_str())
        .collect();
    if !from_user.is_empty() {
        out.push_str(&format!("from user memory: {}\n", from_user.join(", ")));
    }
    Ok(out)
}

fn export(ctx: &Context, term: &TerminalEnv, cmd: &MemoryExport) -> Result<String> {
    if cmd.agents_md || cmd.claude_md {
        return instructions::export(term, cmd);
    }
    let store = ctx.store();
    let workspace = workspace(&store, term, &cmd.scope)?;
    let memory = read(&store, &workspace)?;
    let active: Vec<&MemoryEntry> = memory
        .entries
        .iter()
        .filter(|e| e.status == EntryStatus::Active)
        .collect();
    if cmd.scope.json || cmd.format == ExportFormat::Json {
        let mut doc = WorkspaceMemory::new(&workspace.root, &workspace.key);
        doc.entries = active.into_iter().cloned().collect();
        for entry in &mut doc.entries {
            entry.capped = false;
        }
        doc.updated_at = memory.updated_at.clone();
        return pretty(&serde_json::to_value(&doc)?);
    }
    Ok(edit::to_markdown(&memory, &active))
}

fn import(ctx: &Context, term: &TerminalEnv, cmd: &MemoryImport) -> Result<String> {
    let store = ctx.store();
    let workspace = workspace(&store, term, &cmd.scope)?;
    let text = read_input(&cmd.file)?;
    let news = if text.trim_start().starts_with(['{', '[']) {
        let value: Value = serde_json::from_str(&text)
            .with_context(|| format!("{} is not valid JSON", cmd.file.display()))?;
        let value = match value {
            // A bare list of entries.
            Value::Array(entries) => json!({"entries": entries}),
            other => other,
        };
        if let Some(version) = value.get("version").and_then(Value::as_u64) {
            if version > crate::domain::memory::workspace::MEMORY_VERSION {
                bail!(
                    "{} has format version {version}, newer than this ocmem understands; nothing was imported",
                    cmd.file.display()
                );
            }
        }
        let memory: WorkspaceMemory = serde_json::from_value(value).with_context(|| {
            format!(
                "{} is not in the workspace memory format",
                cmd.file.display()
            )
        })?;
        edit::from_store(&memory)
    } else {
        edit::from_markdown(&text).map_err(|e| anyhow::anyhow!("{}: {e}", cmd.file.display()))?
    };
    if news.is_empty() {
        bail!(
            "{} holds no active entry; nothing was imported",
            cmd.file.display()
        );
    }
    let outcomes =
        memory_ops::import_into_store(&store, &workspace.memory_file(), fresh(&workspace), news)?;
    let count = |f: fn(&Result<Merged, String>) -> bool| outcomes.iter().filter(|o| f(o)).count();
    let added = count(|o| matches!(o, Ok(Merged::Added { .. } | Merged::Replaced { .. })));
    let duplicates = count(|o| matches!(o, Ok(Merged::Duplicate { .. })));
    let refused: Vec<&String> = outcomes.iter().filter_map(|o| o.as_ref().err()).collect();
    if cmd.scope.json {
        return pretty(&json!({
            "added": added,
            "duplicates": duplicates,
            "refused": refused,
        }));
    }
    let mut out = format!(
        "imported {added} new entr{}, {duplicates} already remembered, {} refused\n",
        if added == 1 { "y" } else { "ies" },
        refused.len()
    );
    for why in refused {
        out.push_str(&format!("  refused: {why}\n"));
    }
    if added > 0 {
        out.push_str(NEXT_SESSION);
        out.push('\n');
    }
    Ok(out)
}

/// The bytes of FILE, or of stdin for `-`, as text.
fn read_input(file: &Path) -> Result<String> {
    let bytes = if file == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
            .context("cannot read stdin")?;
        bytes
    } else {
        std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?
    };
    String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8 text", file.display()))
}

fn where_(ctx: &Context, term: &TerminalEnv, scope: &MemoryScope) -> Result<String> {
    let store = ctx.store();
    let workspace = workspace_only(&store, term, scope)?;
    let data_dir = std::path::absolute(&ctx.data_dir).unwrap_or_else(|_| ctx.data_dir.clone());
    let workspace = Workspace {
        dir: data_dir.join("workspaces").join(&workspace.key),
        ..workspace
    };
    let memory = workspace.memory_file();
    let places: [(&str, &str, PathBuf); 5] = [
        ("dataDir", "data dir", data_dir.clone()),
        ("workspaceDir", "directory", workspace.dir.clone()),
        ("memoryFile", "memory", memory.clone()),
        ("archiveFile", "archive", archive_path(&memory)),
        ("offMarker", "off marker", off_marker(&workspace)),
    ];
    let off = is_off(&workspace);
    if scope.json {
        let mut value = json!({
            "schema": SCHEMA,
            "root": workspace.root,
            "key": workspace.key,
            "off": off,
            "disabledByEnv": ctx.disabled,
        });
        for (field, _, path) in &places {
            value[*field] = json!(path.display().to_string());
        }
        return pretty(&value);
    }
    let mut out = format!(
        "{:<12}{}\n{:<12}{}\n",
        "root", workspace.root, "key", workspace.key
    );
    for (_, label, path) in &places {
        let exists = if path.exists() { "" } else { " (not yet)" };
        out.push_str(&format!("{label:<12}{}{exists}\n", path.display()));
    }
    let state = match (ctx.disabled, off) {
        (true, _) => "off (OCMEM_DISABLE is set)",
        (false, true) => "off for this workspace (`ocmem memory on` turns it back on)",
        (false, false) => "on",
    };
    out.push_str(&format!("{:<12}{state}\n", "hooks"));
    Ok(out)
}

fn switch(ctx: &Context, term: &TerminalEnv, scope: &MemoryScope, off: bool) -> Result<String> {
    let store = ctx.store();
    let workspace = workspace_only(&store, term, scope)?;
    let changed = store.set_off(&workspace, off)?;
    if scope.json {
        return pretty(&json!({
            "root": workspace.root,
            "key": workspace.key,
            "off": off,
            "changed": changed,
            "marker": off_marker(&workspace).display().to_string(),
            "disabledByEnv": ctx.disabled,
        }));
    }
    let mut out = match (off, changed) {
        (true, true) => format!(
            "memory is off for {}: its hooks do nothing from now on (`ocmem memory on` undoes it)\n",
            workspace.root
        ),
        (true, false) => format!("memory is off for {} already\n", workspace.root),
        (false, true) => format!("memory is on again for {}\n", workspace.root),
        (false, false) => format!("memory is on for {} already\n", workspace.root),
    };
    if !off && ctx.disabled {
        out.push_str("but OCMEM_DISABLE is set: every hook does nothing while it is\n");
    }
    Ok(out)
}
