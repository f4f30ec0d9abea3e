//! `ocmem memory export --agents-md` / `--claude-md`: the team memory into a marked section of
//! the agent's instruction file at the repository's root. Entries the gate refuses are left
//! out (and named on stderr): a file for agents without ocmem gets no less care than the prompt.

use anyhow::{bail, Context as _, Result};
use serde_json::json;

use crate::cli::MemoryExport;
use crate::context::TerminalEnv;
use crate::domain::memory::team::gate::refusal;
use crate::domain::memory::team::instructions::splice;
use crate::domain::memory::team::TeamEntry;
use crate::store::host_files;
use crate::store::team::{read_team, repository_root};

pub(super) fn export(term: &TerminalEnv, cmd: &MemoryExport) -> Result<String> {
    if cmd.scope.user {
        bail!("--agents-md and --claude-md write the team memory of a repository, not user memory");
    }
    let dir = match &cmd.scope.workspace {
        Some(dir) if dir.is_dir() => std::path::absolute(dir).unwrap_or_else(|_| dir.clone()),
        Some(dir) => bail!("--workspace {} is not a directory", dir.display()),
        None => term
            .current_dir
            .clone()
            .context("cannot read the current directory; pass --workspace DIR")?,
    };
    let root = repository_root(&dir);
    let read = read_team(&root);
    if let Some(why) = &read.unreadable {
        bail!(
            "cannot read {}: {why}; nothing was written",
            read.path.display()
        );
    }
    let entries: Vec<TeamEntry> = read
        .memory
        .entries
        .into_iter()
        .filter(
            |entry| match refusal(&entry.text, entry.rationale.as_deref()) {
                Some(why) => {
                    eprintln!(
                        "ocmem: left out entry {} ({}:{}): {}",
                        entry.id,
                        read.path.display(),
                        entry.line,
                        why.describe()
                    );
                    false
                }
                None => true,
            },
        )
        .collect();
    let name = if cmd.agents_md {
        "AGENTS.md"
    } else {
        "CLAUDE.md"
    };
    let path = root.join(name);
    let existing = host_files::read(&path)?
        .map(|bytes| {
            String::from_utf8(bytes).map_err(|_| {
                anyhow::anyhow!("{} is not UTF-8 text; nothing was written", path.display())
            })
        })
        .transpose()?;
    let updated = splice(existing.as_deref(), &entries).map_err(|broken| {
        anyhow::anyhow!(
            "{}: {}; nothing was written",
            path.display(),
            broken.describe()
        )
    })?;
    let changed = existing.as_deref() != Some(updated.as_str());
    if changed {
        host_files::write(&path, updated.as_bytes())?;
    }
    if cmd.scope.json {
        return Ok(format!(
            "{}\n",
            serde_json::to_string_pretty(&json!({
                "schema": super::SCHEMA,
                "file": path,
                "entries": entries.len(),
                "changed": changed,
            }))?
        ));
    }
    let n = entries.len();
    let what = format!("{n} team entr{}", if n == 1 { "y" } else { "ies" });
    Ok(if changed {
        format!("wrote {what} to {}\n", path.display())
    } else {
        format!("{} already holds the {what}\n", path.display())
    })
}
