//! The team layer of a session's block: the repository's team file, read when the block is
//! frozen. A file that cannot be read, or not all of it, is a warning in the log (once for
//! the same findings), never a failure and never a line on a hook's output.

use std::fmt::Write as _;
use std::path::Path;

use crate::domain::memory::team::gate::refusal_on_render;
use crate::domain::memory::team::TeamEntry;
use crate::store::team::{read_team, repository_root};
use crate::store::Store;

/// The team entries to render for a session in `directory`: every entry the file holds that
/// the team gate lets through (a hand edit may have put in what `memory share` refuses).
pub fn team_entries(store: &Store, directory: &str) -> Vec<TeamEntry> {
    let read = read_team(&repository_root(Path::new(directory)));
    let mut findings: Vec<String> = Vec::new();
    if let Some(reason) = &read.unreadable {
        findings.push(format!("cannot be read: {reason}"));
    }
    findings.extend(
        read.memory
            .problems
            .iter()
            .map(|p| format!("line {}: {}", p.line, p.kind.describe())),
    );
    let mut entries = Vec::with_capacity(read.memory.entries.len());
    for entry in read.memory.entries {
        match refusal_on_render(&entry.text, entry.rationale.as_deref()) {
            Some(why) => findings.push(format!(
                "line {}: not shown, {}",
                entry.line,
                why.describe()
            )),
            None => entries.push(entry),
        }
    }
    if !findings.is_empty() {
        let mut text = format!("team memory {}:", read.path.display());
        for finding in &findings {
            let _ = write!(text, " {finding};");
        }
        text.pop();
        text.push_str(" (the rest is shown; check it with `ocmem baseline --check --team`)");
        store.log_warning_once(&text);
    }
    entries
}
