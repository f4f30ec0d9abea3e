//! `memory edit ID` without TEXT: the entry's text in `$VISUAL` (else `$EDITOR`), run as a
//! shell command the way other tools run it, on a private temp file. Lines starting with `#`
//! are the instructions and are dropped; the rest, joined into one line, is the new text.

use std::io::Write;
use std::process::Command;

use anyhow::{bail, Context as _, Result};

use crate::context::TerminalEnv;
use crate::domain::memory::workspace::MemoryEntry;

/// The text the person wrote for `entry`.
pub fn edit_text(term: &TerminalEnv, entry: &MemoryEntry) -> Result<String> {
    let Some(editor) = &term.editor else {
        bail!("no editor: set VISUAL or EDITOR, or give the new text after the id");
    };
    let mut file = tempfile::Builder::new()
        .prefix("ocmem-edit-")
        .suffix(".txt")
        .tempfile()
        .context("cannot create a temp file to edit")?;
    write!(
        file,
        "{}\n\n# The text of {} ({}, {}). Lines starting with # are left out;\n# \
         the rest becomes its new text. Leave it as it is, or empty, to change nothing.\n",
        entry.text,
        entry.id,
        entry.kind.as_str(),
        entry.source.as_str()
    )
    .and_then(|()| file.flush())
    .context("cannot write the temp file to edit")?;
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(file.path())
        .status()
        .with_context(|| format!("cannot run the editor {editor:?}"))?;
    if !status.success() {
        bail!("the editor {editor:?} failed ({status}); nothing was changed");
    }
    let written = std::fs::read_to_string(file.path()).context("cannot read the edited text")?;
    let text = written
        .lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if text.is_empty() {
        bail!("the edited text is empty; nothing was changed");
    }
    Ok(text)
}
