//! `ocmem gc`: remove what is dead. Three uses:
//! - a session event on stdin (OpenCode's `session.deleted`): that session's file and lock;
//! - `--sweep`: idle sessions and leftovers across the data directory (rules in
//!   `domain::upkeep::sweep`);
//! - `--false-positives`: stored open errors today's rules would not record (rules in
//!   `domain::session::false_positive`) and verified commands they would not count (rules in
//!   `domain::shell::verified`), each changed file backed up first.
//!
//! Workspace memory entries are never deleted: `--sweep` moves those superseded long ago to
//! the archive beside the store (`archive`). `--dry-run` reads only, without taking any lock.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;
use serde_json::json;

mod archive;

use super::{print, run_hook, Run};
use crate::cli::Gc;
use crate::context::Context;
use crate::domain::base::text::{human_bytes, one_line};
use crate::domain::memory::workspace::WorkspaceMemory;
use crate::domain::session::false_positive::judge;
use crate::domain::session::state::{OpenError, SessionState};
use crate::domain::shell::verified::{remove_rejected, RemovedCommand};
use crate::domain::upkeep::sweep::{
    idle_days, is_idle, surplus_quarantined, ttl_days, RemovalKind,
};
use crate::engine::session_end::{deleted, Deleted};
use crate::store::inventory::{backup_dir, scan, FileInfo, WorkspaceFiles};
use crate::store::layout::DIGESTS_DIR;
use crate::store::layout::MEMORY_FILE;
use crate::store::memory_top;
use crate::store::{
    lock_path, remove_dir_if_empty, remove_file, Document, Store, Stored, QUARANTINE_KEPT,
};

const USES: &str = "\
ocmem gc has three uses:
  ocmem gc < event.json          remove a deleted session: stdin {\"directory\": D, \"sessionID\": S}
  ocmem gc --sweep [--dry-run]   remove idle sessions, old temp files, surplus quarantined copies,
                                 stale locks, idle host markers, old saved tool outputs and
                                 empty workspace directories
  ocmem gc --false-positives [--dry-run]
                                 remove stored open errors and verified commands today's
                                 rules would not record (backed up first)
See 'ocmem gc --help'.";

impl Run for Gc {
    fn run(&self, ctx: &Context) -> Result<()> {
        if let Some(id) = &self.restore_archived {
            return print(&archive::restore(ctx, self, id)?);
        }
        if self.sweep {
            let ttl = ttl_days(self.older_than, ctx.ttl_days_env.as_deref())
                .map_err(|e| clap::Error::raw(clap::error::ErrorKind::InvalidValue, e + "\n"))?;
            return print(&sweep(ctx, self, ttl)?);
        }
        if self.false_positives {
            return print(&false_positives(ctx, self)?);
        }
        if std::io::stdin().is_terminal() {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::MissingRequiredArgument,
                format!("no session event on stdin and no mode given\n\n{USES}\n"),
            )
            .into());
        }
        run_hook(ctx, self.json, execute)
    }
}

/// The session-deleted event: removes that session's store and lock.
pub fn execute(ctx: &Context, stdin: &[u8], json: bool) -> Result<String> {
    let event = crate::host::json::parse_event(stdin)?;
    let session = crate::host::opencode::session(&event)?;
    let deleted = deleted(ctx, session)?;
    Ok(if json {
        let Deleted {
            path,
            removed,
            outputs,
        } = deleted;
        let output_bytes: u64 = outputs.iter().map(|(_, bytes)| bytes).sum();
        format!(
            "{}\n",
            json!({"removed": removed.is_some(), "path": path, "bytes": removed.unwrap_or(0),
                "outputsRemoved": outputs.len(), "outputBytes": output_bytes})
        )
    } else {
        String::new()
    })
}

/// The workspaces a run covers: all, or the one `--workspace` names.
fn workspaces(ctx: &Context, only: Option<&Path>) -> Result<Vec<WorkspaceFiles>> {
    let key = only.map(|dir| ctx.store().locate_workspace(&dir.to_string_lossy()).key);
    scan(&ctx.data_dir, key.as_deref())
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Removal {
    kind: &'static str,
    path: PathBuf,
    bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    idle_days: Option<i64>,
    /// For archived entries: how many.
    #[serde(skip_serializing_if = "Option::is_none")]
    entries: Option<usize>,
}

#[derive(Debug, Default)]
struct Sweep {
    removed: Vec<Removal>,
    /// Files and directories that were due but were in use or changed meanwhile.
    kept: Vec<(PathBuf, String)>,
}

impl Sweep {
    fn push(&mut self, kind: RemovalKind, path: &Path, bytes: u64, idle: Option<i64>) {
        self.removed.push(Removal {
            kind: kind.as_str(),
            path: path.to_path_buf(),
            bytes,
            idle_days: idle,
            entries: None,
        });
    }
}

fn sweep(ctx: &Context, gc: &Gc, ttl: u16) -> Result<String> {
    let store = ctx.store();
    let now = ctx.now_ms;
    let mut sweep = Sweep::default();
    for workspace in workspaces(ctx, gc.workspace.as_deref())? {
        sweep_workspace(&store, &workspace, now, ttl, gc.dry_run, &mut sweep)?;
    }
    // User memory belongs to no workspace: swept with all of them, not with one.
    let user_memory = store.user_memory_file();
    if gc.workspace.is_none() && user_memory.exists() {
        if let Some(archived) =
            crate::store::archive::archive_due(&store, &user_memory, now, gc.dry_run)?
        {
            sweep.push(
                RemovalKind::ArchivedEntries,
                &user_memory,
                archived.bytes,
                None,
            );
            if let Some(removal) = sweep.removed.last_mut() {
                removal.entries = Some(archived.entries);
            }
        }
    }
    let bytes: u64 = sweep.removed.iter().map(|r| r.bytes).sum();
    if gc.json {
        let report = json!({
            "dryRun": gc.dry_run,
            "ttlDays": ttl,
            "removed": sweep.removed,
            "kept": with_reasons(&sweep.kept),
            "bytes": bytes,
        });
        return Ok(format!("{report:#}\n"));
    }
    let verb = removal_verb(gc.dry_run);
    let mut out = String::new();
    for removal in &sweep.removed {
        let mut notes = Vec::new();
        if removal.kind != RemovalKind::EmptyDirectory.as_str() {
            notes.push(human_bytes(removal.bytes));
        }
        if let Some(days) = removal.idle_days {
            notes.push(format!("idle {days} days"));
        }
        if let Some(n) = removal.entries {
            notes.push(format!("{n} entries to {}", archive::ARCHIVE_NAME));
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", notes.join(", "))
        };
        out.push_str(&format!(
            "{verb} {:<19} {}{notes}\n",
            removal.kind,
            removal.path.display(),
        ));
    }
    for (path, why) in &sweep.kept {
        out.push_str(&format!("kept {}: {why}\n", path.display()));
    }
    if sweep.removed.is_empty() {
        out.push_str(&format!(
            "nothing to remove (sessions are kept until idle for more than {ttl} days)\n"
        ));
    } else {
        out.push_str(&format!(
            "{verb} {} item{}, {} {}\n",
            sweep.removed.len(),
            plural(sweep.removed.len()),
            human_bytes(bytes),
            if gc.dry_run {
                "would be reclaimed"
            } else {
                "reclaimed"
            }
        ));
    }
    Ok(out)
}

fn sweep_workspace(
    store: &Store,
    workspace: &WorkspaceFiles,
    now: i64,
    ttl: u16,
    dry_run: bool,
    sweep: &mut Sweep,
) -> Result<()> {
    let before = sweep.removed.len();
    // Sets, not lists: a sweep may remove tens of thousands of files.
    let mut gone: HashSet<PathBuf> = HashSet::new();
    let lock_bytes_by_path: HashMap<&Path, u64> = workspace
        .locks
        .iter()
        .map(|l| (l.path.as_path(), l.bytes))
        .collect();
    if let Some((path, archived)) = archive::archive_memory(store, workspace, now, dry_run)? {
        sweep.push(RemovalKind::ArchivedEntries, &path, archived.bytes, None);
        if let Some(removal) = sweep.removed.last_mut() {
            removal.entries = Some(archived.entries);
        }
    }

    let (digests_removed, digests_dir_gone) = store.sweep_digests(&workspace.dir, ttl, dry_run)?;
    for (path, bytes) in digests_removed {
        sweep.push(RemovalKind::IdleDigest, &path, bytes, None);
    }
    let digests_dir = workspace.dir.join(DIGESTS_DIR);
    let outputs = store.sweep_outputs(&workspace.dir, &workspace.outputs, ttl, dry_run)?;
    for (path, bytes) in &outputs.files {
        sweep.push(RemovalKind::OldOutput, path, *bytes, None);
    }
    for dir in &outputs.dirs {
        sweep.push(RemovalKind::EmptyDirectory, dir, 0, None);
    }

    for session in &workspace.sessions {
        let last_used = |snapshot: &Stored<SessionState>| match snapshot {
            Stored::Ok(state) => state.last_used_ms().or(session.modified_ms),
            Stored::Corrupt(_) => session.modified_ms,
            // Another version owns it; it sweeps it.
            Stored::Newer(_) | Stored::Missing => None,
        };
        let idle = |snapshot: &Stored<SessionState>| {
            last_used(snapshot).filter(|&used| is_idle(used, now, ttl))
        };
        let snapshot = store.snapshot::<SessionState>(&session.path)?;
        let Some(used) = idle(&snapshot) else {
            continue;
        };
        let lock = lock_path(&session.path);
        let lock_bytes = lock_bytes_by_path.get(lock.as_path()).copied().unwrap_or(0);
        let removed = if dry_run {
            Some(session.bytes + lock_bytes)
        } else {
            store.remove_store_if::<SessionState>(&session.path, |s| idle(s).is_some())?
        };
        match removed {
            Some(bytes) => {
                sweep.push(
                    RemovalKind::IdleSession,
                    &session.path,
                    bytes,
                    Some(idle_days(used, now)),
                );
                gone.insert(session.path.clone());
                gone.insert(lock);
            }
            None => sweep
                .kept
                .push((session.path.clone(), "used again meanwhile".into())),
        }
    }

    for temp in &workspace.temp_files {
        if temp.is_orphan_temp(now) {
            remove(sweep, &mut gone, RemovalKind::OrphanTemp, temp, dry_run)?;
        }
    }

    // The block cache of a memory file that is gone (removed by hand): derived from it, so
    // nothing is lost, and left there it would keep the workspace directory forever.
    let memory_path = workspace.dir.join(MEMORY_FILE);
    let top = memory_top::top_path(&memory_path);
    if let Some(file) = workspace.other.iter().find(|f| f.path == top) {
        if workspace.memory.is_none() && std::fs::symlink_metadata(&memory_path).is_err() {
            remove(
                sweep,
                &mut gone,
                RemovalKind::OrphanBlockCache,
                file,
                dry_run,
            )?;
        }
    }

    let mut copies_by_store: BTreeMap<PathBuf, Vec<&FileInfo>> = BTreeMap::new();
    for copy in &workspace.quarantined {
        copies_by_store
            .entry(copy.store_path())
            .or_default()
            .push(copy);
    }
    for copies in copies_by_store.values() {
        let stamps: Vec<u64> = copies
            .iter()
            .map(|c| c.quarantine_stamp().unwrap_or(0))
            .collect();
        for index in surplus_quarantined(&stamps, QUARANTINE_KEPT) {
            remove(
                sweep,
                &mut gone,
                RemovalKind::SurplusQuarantined,
                copies[index],
                dry_run,
            )?;
        }
    }

    for lock in &workspace.locks {
        let store_path = lock.store_path();
        let store_gone = gone.contains(&store_path) || !store_path.exists();
        if gone.contains(&lock.path) || !store_gone {
            continue;
        }
        let removed = dry_run || store.remove_unused_lock(&lock.path)?;
        if removed {
            sweep.push(RemovalKind::StaleLock, &lock.path, lock.bytes, None);
            gone.insert(lock.path.clone());
        }
    }

    // Directories left empty. A dry run predicts it from what it would remove.
    let all_files = workspace
        .memory
        .iter()
        .chain(&workspace.sessions)
        .chain(&workspace.locks)
        .chain(&workspace.quarantined)
        .chain(&workspace.temp_files)
        .chain(&workspace.other);
    let sessions_dir = workspace.sessions_dir();
    let hosts_dir = workspace.hosts_dir();
    // What is left, by directory; host markers are counted apart, below.
    let (mut left_in_sessions, mut left_in_hosts, mut left_in_root) = (0, 0, 0);
    let left_paths = all_files
        .filter(|f| !gone.contains(&f.path))
        .map(|f| f.path.as_path())
        .chain(workspace.other_dirs.iter().map(PathBuf::as_path));
    for path in left_paths {
        match path.parent() {
            Some(dir) if dir == sessions_dir => left_in_sessions += 1,
            Some(dir) if dir == hosts_dir => left_in_hosts += 1,
            _ => left_in_root += 1,
        }
    }
    if !digests_dir_gone && digests_dir.is_dir() {
        left_in_root += 1;
    }
    if !outputs.root_gone {
        left_in_root += 1;
    }
    // Not through a link: what it points at is not the data directory's.
    let sessions_dir_exists = std::fs::symlink_metadata(&sessions_dir).is_ok_and(|m| m.is_dir());
    let sessions_dir_removed = sessions_dir_exists
        && left_in_sessions == 0
        && if dry_run {
            true
        } else {
            remove_dir_if_empty(&sessions_dir)?
        };
    if sessions_dir_removed {
        sweep.push(RemovalKind::EmptyDirectory, &sessions_dir, 0, None);
    }
    let sessions_dir_left = sessions_dir_exists && !sessions_dir_removed;
    let nothing_else_left = left_in_root == 0 && !sessions_dir_left && left_in_hosts == 0;
    let hosts_dir_left =
        !sweep_host_markers(workspace, now, ttl, dry_run, nothing_else_left, sweep)?;
    // Only a workspace this sweep emptied, or one found empty, goes.
    if nothing_else_left
        && !hosts_dir_left
        && (sweep.removed.len() > before || workspace.bytes() == 0)
    {
        let removed = dry_run || remove_dir_if_empty(&workspace.dir)?;
        if removed {
            sweep.push(RemovalKind::EmptyDirectory, &workspace.dir, 0, None);
        }
    }
    Ok(())
}

/// Removes the host markers of a workspace that holds `nothing_else`, when every one is idle
/// past the TTL, and then `hosts/`. Returns whether `hosts/` is gone (or was never there).
fn sweep_host_markers(
    workspace: &WorkspaceFiles,
    now: i64,
    ttl: u16,
    dry_run: bool,
    nothing_else: bool,
    sweep: &mut Sweep,
) -> Result<bool> {
    let hosts_dir = workspace.hosts_dir();
    if !std::fs::symlink_metadata(&hosts_dir).is_ok_and(|m| m.is_dir()) {
        return Ok(true);
    }
    // A marker of unknown age is as good as a fresh one.
    let all_idle = workspace
        .host_markers
        .iter()
        .all(|m| m.modified_ms.is_some_and(|used| is_idle(used, now, ttl)));
    if !nothing_else || !all_idle {
        return Ok(false);
    }
    let mut gone = HashSet::new();
    for marker in &workspace.host_markers {
        remove(
            sweep,
            &mut gone,
            RemovalKind::IdleHostMarker,
            marker,
            dry_run,
        )?;
        if let Some(removal) = sweep.removed.last_mut() {
            removal.idle_days = marker.modified_ms.map(|used| idle_days(used, now));
        }
    }
    // A hook that noted its call meanwhile keeps the directory, and the workspace.
    let removed = dry_run || remove_dir_if_empty(&hosts_dir)?;
    if removed {
        sweep.push(RemovalKind::EmptyDirectory, &hosts_dir, 0, None);
    }
    Ok(removed)
}

fn remove(
    sweep: &mut Sweep,
    gone: &mut HashSet<PathBuf>,
    kind: RemovalKind,
    file: &FileInfo,
    dry_run: bool,
) -> Result<()> {
    let bytes = if dry_run {
        file.bytes
    } else {
        remove_file(&file.path)?
    };
    sweep.push(kind, &file.path, bytes, None);
    gone.insert(file.path.clone());
    Ok(())
}

/// `kind` of a removal of `--false-positives`.
const OPEN_ERROR: &str = "open-error";
const VERIFIED_COMMAND: &str = "verified-command";

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct RemovedError {
    kind: &'static str,
    workspace: String,
    session_file: PathBuf,
    id: String,
    category: &'static str,
    summary: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    command: Option<String>,
    rule: &'static str,
    reason: &'static str,
}

fn removed_error(
    workspace: &WorkspaceFiles,
    session: &Path,
    error: &OpenError,
) -> Option<RemovedError> {
    let verdict = judge(error)?;
    Some(RemovedError {
        kind: OPEN_ERROR,
        workspace: workspace.key.clone(),
        session_file: session.to_path_buf(),
        id: error.id.clone(),
        category: error.category.as_str(),
        summary: error.summary.clone(),
        command: error.command.clone(),
        rule: verdict.rule(),
        reason: verdict.reason(),
    })
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct RemovedVerified {
    kind: &'static str,
    workspace: String,
    memory_file: PathBuf,
    category: &'static str,
    /// Shown with any secret scrubbed: the report is printed, the backup keeps it as it was.
    command: String,
    count: u64,
    rule: &'static str,
    reason: &'static str,
}

fn removed_verified(
    workspace: &WorkspaceFiles,
    memory_file: &Path,
    removed: RemovedCommand,
) -> RemovedVerified {
    RemovedVerified {
        kind: VERIFIED_COMMAND,
        workspace: workspace.key.clone(),
        memory_file: memory_file.to_path_buf(),
        category: removed.category.as_str(),
        command: crate::domain::guard::secrets::scrub(&removed.command).into_owned(),
        count: removed.count,
        rule: removed.why.rule(),
        reason: removed.why.reason(),
    }
}

/// What `--false-positives` found in one store: the removals, or why it was skipped.
/// Takes out of the store at `path` what `remove` returns: under its lock, with the file backed
/// up to `backup` first, or, without a backup (a dry run), on a snapshot, changing nothing.
fn clean_store<T: Document, R>(
    store: &Store,
    path: &Path,
    backup: Option<PathBuf>,
    mut remove: impl FnMut(&mut T) -> Vec<R>,
) -> Result<Stored<Vec<R>>> {
    Ok(match backup {
        None => store.snapshot::<T>(path)?.map(|mut doc| remove(&mut doc)),
        Some(backup) => store
            .update_with_backup::<T, _>(path, &backup, remove)?
            .map(|(gone, _written)| gone),
    })
}

fn outcome<R>(stored: Stored<Vec<R>>, path: &Path, skipped: &mut Vec<(PathBuf, String)>) -> Vec<R> {
    match stored {
        Stored::Ok(gone) => gone,
        Stored::Missing => Vec::new(),
        Stored::Corrupt(why) => {
            skipped.push((
                path.to_path_buf(),
                format!("does not parse ({})", one_line(&why)),
            ));
            Vec::new()
        }
        Stored::Newer(version) => {
            skipped.push((
                path.to_path_buf(),
                format!("written by a newer ocmem (format version {version})"),
            ));
            Vec::new()
        }
    }
}

fn false_positives(ctx: &Context, gc: &Gc) -> Result<String> {
    let store = ctx.store();
    let backups = backup_dir(&ctx.data_dir, ctx.now_ms);
    let mut removed: Vec<RemovedError> = Vec::new();
    let mut changed_files: Vec<PathBuf> = Vec::new();
    let mut removed_verified_commands: Vec<RemovedVerified> = Vec::new();
    let mut changed_memory: Vec<PathBuf> = Vec::new();
    let mut skipped: Vec<(PathBuf, String)> = Vec::new();
    for workspace in workspaces(ctx, gc.workspace.as_deref())? {
        for session in &workspace.sessions {
            let path = &session.path;
            let relative = path.strip_prefix(&ctx.data_dir).unwrap_or(path);
            let stored = clean_store::<SessionState, _>(
                &store,
                path,
                (!gc.dry_run).then(|| backups.join(relative)),
                |state| {
                    let mut gone = Vec::new();
                    state
                        .open_errors
                        .retain(|e| match removed_error(&workspace, path, e) {
                            Some(r) => {
                                gone.push(r);
                                false
                            }
                            None => true,
                        });
                    gone
                },
            )?;
            let gone = outcome(stored, path, &mut skipped);
            if !gone.is_empty() {
                changed_files.push(path.clone());
            }
            removed.extend(gone);
        }
        if let Some(memory) = &workspace.memory {
            let path = &memory.path;
            let relative = path.strip_prefix(&ctx.data_dir).unwrap_or(path);
            let stored = clean_store::<WorkspaceMemory, _>(
                &store,
                path,
                (!gc.dry_run).then(|| backups.join(relative)),
                |memory| remove_rejected(&mut memory.verified_commands),
            )?;
            let gone = outcome(stored, path, &mut skipped);
            if !gone.is_empty() {
                changed_memory.push(path.clone());
            }
            removed_verified_commands.extend(
                gone.into_iter()
                    .map(|r| removed_verified(&workspace, path, r)),
            );
        }
    }

    let anything_changed = !changed_files.is_empty() || !changed_memory.is_empty();
    let backup_dir = (!gc.dry_run && anything_changed).then_some(&backups);
    if gc.json {
        let all_removed: Vec<serde_json::Value> = removed
            .iter()
            .map(serde_json::to_value)
            .chain(removed_verified_commands.iter().map(serde_json::to_value))
            .collect::<Result<_, _>>()?;
        let report = json!({
            "dryRun": gc.dry_run,
            "removed": all_removed,
            "sessionFilesChanged": changed_files,
            "memoryFilesChanged": changed_memory,
            "backupDir": backup_dir,
            "skipped": with_reasons(&skipped),
        });
        return Ok(format!("{report:#}\n"));
    }
    let verb = removal_verb(gc.dry_run);
    let mut out = String::new();
    for error in &removed {
        out.push_str(&format!(
            "{verb} [{}] {}\n    from {}\n    recorded from: {}\n    why: {}\n",
            error.category,
            error.summary,
            error.session_file.display(),
            error.command.as_deref().unwrap_or("(no command stored)"),
            error.reason,
        ));
    }
    for command in &removed_verified_commands {
        out.push_str(&format!(
            "{verb} verified {} command `{}`\n    from {}\n    why: {}\n",
            command.category,
            command.command,
            command.memory_file.display(),
            command.reason,
        ));
    }
    for (path, why) in &skipped {
        out.push_str(&format!("skipped {}: {why}\n", path.display()));
    }
    let mut summary = vec![if removed.is_empty() {
        "no suspected false-positive errors".to_string()
    } else {
        format!(
            "{verb} {} suspected false-positive error{} from {} session file{}",
            removed.len(),
            plural(removed.len()),
            changed_files.len(),
            plural(changed_files.len()),
        )
    }];
    if !removed_verified_commands.is_empty() {
        summary.push(format!(
            "{verb} {} verified command{} today's rules would not count from {} workspace memory file{}",
            removed_verified_commands.len(),
            plural(removed_verified_commands.len()),
            changed_memory.len(),
            plural(changed_memory.len()),
        ));
    }
    out.push_str(&summary.join("\n"));
    match backup_dir {
        Some(dir) => out.push_str(&format!("; originals backed up in {}\n", dir.display())),
        None => out.push('\n'),
    }
    Ok(out)
}

fn removal_verb(dry_run: bool) -> &'static str {
    if dry_run {
        "would remove"
    } else {
        "removed"
    }
}

/// `[{"path", "reason"}]` for the JSON reports.
fn with_reasons(items: &[(PathBuf, String)]) -> Vec<serde_json::Value> {
    items
        .iter()
        .map(|(path, why)| json!({"path": path, "reason": why}))
        .collect()
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
