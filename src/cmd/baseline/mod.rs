//! `ocmem baseline`: a read-only audit of every store under the data directory. Lists the
//! workspace directories, reads each store with `Store::snapshot` (a shared lock when a lock
//! file exists, never a write, a quarantine or a new file), and hands what it found to
//! `domain::upkeep::audit`, which counts, judges and formats.

mod team;

use crate::store::user_memory::UserMemory;
use anyhow::{bail, Context as _, Result};

use super::{print, Run};
use crate::cli::Baseline;
use crate::context::Context;
use crate::domain::upkeep::audit::{self, StoreInput, Stored, WorkspaceInput};
use crate::store::inventory::{scan, FileInfo, WorkspaceFiles};
use crate::store::layout::MEMORY_FILE;
use crate::store::switch::is_off_in;
use crate::store::{Document, Store};

impl Run for Baseline {
    fn run(&self, ctx: &Context) -> Result<()> {
        if self.team {
            return team::run(self);
        }
        let store = ctx.store();
        let only = self
            .workspace
            .as_deref()
            .map(|dir| store.locate_workspace(&dir.to_string_lossy()));
        // Absolute, so that every path in the report can be used as it is.
        let data_dir = std::path::absolute(&ctx.data_dir).unwrap_or_else(|_| ctx.data_dir.clone());
        // A mistyped --data-dir must not pass for a clean audit.
        match std::fs::metadata(&data_dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => bail!("data directory {} is not a directory", data_dir.display()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                bail!("data directory {} does not exist", data_dir.display())
            }
            Err(e) => {
                return Err(e).with_context(|| {
                    format!("cannot inspect data directory {}", data_dir.display())
                })
            }
        }
        let workspaces = scan(&data_dir, only.as_ref().map(|w| w.key.as_str()))?;
        let inputs = workspaces
            .iter()
            .map(|files| workspace_input(&store, files, ctx.now_ms))
            .collect::<Result<Vec<_>>>()?;
        // Read only, as the rest: a user memory that cannot be read counts as none here.
        let user = match store.snapshot::<UserMemory>(&store.user_memory_file()) {
            Ok(Stored::Ok(memory)) => Some(memory.0),
            _ => None,
        };
        let report = audit::report(&data_dir, ctx.now_ms, &inputs, user.as_ref());

        // Which workspaces have memory turned off (`ocmem memory off`), by key.
        let off: Vec<&str> = workspaces
            .iter()
            .filter(|files| is_off_in(&files.dir))
            .map(|files| files.key.as_str())
            .collect();
        let text = if self.json {
            let mut value = serde_json::to_value(&report)?;
            value["disabledByEnv"] = ctx.disabled.into();
            if let Some(list) = value["workspaces"].as_array_mut() {
                for workspace in list {
                    let key = workspace["key"].as_str().unwrap_or_default();
                    workspace["off"] = off.contains(&key).into();
                }
            }
            format!("{}\n", serde_json::to_string_pretty(&value)?)
        } else {
            let scope = only.map(|w| format!("for {} (key {})", w.root, w.key));
            let mut text = audit::render_table(&report, scope.as_deref());
            text.push_str(&off_lines(ctx.disabled, &off));
            text
        };
        print(&text)?;

        if self.check && !report.problems.is_empty() {
            for problem in &report.problems {
                eprintln!("ocmem: check: {}", problem.check_line());
            }
            let n = report.problems.len();
            bail!(
                "baseline check failed: {n} problem{}",
                if n == 1 { "" } else { "s" }
            );
        }
        Ok(())
    }
}

/// Lines saying that the hooks are off, everywhere or for some workspaces.
fn off_lines(disabled: bool, off: &[&str]) -> String {
    let mut text = String::new();
    if disabled {
        text.push_str("memory off: OCMEM_DISABLE is set, every hook does nothing\n");
    }
    for key in off {
        text.push_str(&format!(
            "memory off for workspace {key}: its hooks do nothing (`ocmem memory on` in it turns them back on)\n"
        ));
    }
    text
}

/// Reads every store of one workspace directory, read-only.
fn workspace_input(store: &Store, files: &WorkspaceFiles, now_ms: i64) -> Result<WorkspaceInput> {
    let memory = match &files.memory {
        Some(info) => read::<crate::domain::memory::workspace::WorkspaceMemory>(store, info)?,
        None => StoreInput {
            path: files.dir.join(MEMORY_FILE),
            stored: Stored::Missing,
            modified_ms: None,
        },
    };
    let sessions = files
        .sessions
        .iter()
        .map(|info| read(store, info))
        .collect::<Result<Vec<_>>>()?;
    let orphans = files
        .temp_files
        .iter()
        .filter(|t| t.is_orphan_temp(now_ms))
        .count();
    // The team memory of the repository the workspace's memory belongs to.
    let team = match &memory.stored {
        Stored::Ok(memory) if !memory.workspace.root.is_empty() => {
            crate::engine::team_layer::team_entries(store, &memory.workspace.root)
        }
        _ => Vec::new(),
    };
    Ok(WorkspaceInput {
        key: files.key.clone(),
        dir: files.dir.clone(),
        memory,
        sessions,
        quarantined: files.quarantined.len() as u64,
        orphan_temp_files: orphans as u64,
        bytes: files.bytes(),
        bad_locks: files
            .bad_locks
            .iter()
            .map(|(path, what)| (path.clone(), what.to_string()))
            .collect(),
        archive: read_archive_input(&files.dir)?,
        team,
    })
}

/// The memory archive, read without the lock: it is only ever appended to, in whole lines.
fn read_archive_input(dir: &std::path::Path) -> Result<Option<audit::ArchiveInput>> {
    let path = dir.join(crate::store::archive::ARCHIVE_FILE);
    Ok(crate::store::archive::read_archive(&path)?
        .map(|archive| audit::ArchiveInput { path, archive }))
}

fn read<T: Document>(store: &Store, info: &FileInfo) -> Result<StoreInput<T>> {
    Ok(StoreInput {
        path: info.path.clone(),
        stored: store.snapshot::<T>(&info.path)?,
        modified_ms: info.modified_ms,
    })
}
