//! `ocmem baseline --team`: the audit of a repository's team file, read-only, needing no
//! data directory, so that a CI job or a pre-commit hook can run it on a bare checkout.

use std::path::Path;

use anyhow::{bail, Context as _, Result};
use serde_json::json;

use super::super::print;
use crate::cli::Baseline;
use crate::context::TerminalEnv;
use crate::domain::memory::team::check::{findings, Finding};
use crate::store::team::{read_team, repository_root};

/// The version of the `--json` document; fields are only ever added within it.
const SCHEMA: u32 = 1;

pub(super) fn run(cmd: &Baseline) -> Result<()> {
    let dir = match &cmd.workspace {
        Some(dir) => {
            if !dir.is_dir() {
                bail!("--workspace {} is not a directory", dir.display());
            }
            std::path::absolute(dir).unwrap_or_else(|_| dir.clone())
        }
        None => TerminalEnv::from_env()
            .current_dir
            .context("cannot read the current directory; pass --workspace DIR")?,
    };
    let root = repository_root(&dir);
    let read = read_team(&root);
    let exists = read.path.exists();
    let mut found = findings(&read.memory);
    if let Some(why) = &read.unreadable {
        found.insert(
            0,
            Finding {
                line: 0,
                reason: format!("cannot be read: {why}"),
            },
        );
    }
    let text = if cmd.json {
        let value = json!({
            "schema": SCHEMA,
            "file": read.path,
            "exists": exists,
            "entries": read.memory.entries.len(),
            "findings": found,
        });
        format!("{}\n", serde_json::to_string_pretty(&value)?)
    } else {
        report(&read.path, exists, read.memory.entries.len(), &found)
    };
    print(&text)?;
    if cmd.check && !found.is_empty() {
        let n = found.len();
        bail!(
            "team memory check failed: {n} finding{} in {}",
            if n == 1 { "" } else { "s" },
            read.path.display()
        );
    }
    Ok(())
}

fn report(path: &Path, exists: bool, entries: usize, found: &[Finding]) -> String {
    if !exists {
        return format!("no team memory at {} (nothing to check)\n", path.display());
    }
    let mut text: String = found
        .iter()
        .map(|finding| format!("{}\n", finding.check_line()))
        .collect();
    let s = |n: usize| if n == 1 { "" } else { "s" };
    text.push_str(&format!(
        "{}: {entries} entr{}, {} finding{}\n",
        path.display(),
        if entries == 1 { "y" } else { "ies" },
        found.len(),
        s(found.len())
    ));
    text
}
