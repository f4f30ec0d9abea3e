//! Saved tool outputs: the whole output of a call whose pruned form the model got, at
//! `outputs/<first 32 hex of sha256(sessionID)>/<callID>.txt` in the workspace directory, so
//! the model can read what was left out. Secret-scrubbed before it is written, cut at
//! `MAX_SAVED_BYTES`; removed with its session (`gc`) and by age (`gc --sweep`).

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

use super::inventory::FileInfo;
use super::layout::{ORPHAN_TEMP_AGE_MS, OUTPUTS_DIR};
use super::Workspace;
use super::{create_private_dir, remove_dir_if_empty, remove_file, write_atomically, Store};
use crate::domain::base::hash::sha256_hex;
use crate::domain::guard::secrets::scrub;
use crate::domain::upkeep::sweep::is_idle;

/// The most of one output that is saved: a build log past this is cut at a line's end.
pub const MAX_SAVED_BYTES: usize = 8 * 1024 * 1024;
/// A call id longer than this, or with other characters than these, is named by its hash.
const MAX_NAME_CHARS: usize = 64;

/// What was saved of one output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedOutput {
    pub path: PathBuf,
    pub lines: usize,
    pub bytes: u64,
    /// Whether the output was longer than `MAX_SAVED_BYTES` and was cut.
    pub cut: bool,
}

impl Workspace {
    /// `outputs/<first 32 hex of sha256(sessionID)>/`
    pub fn outputs_dir(&self, session_id: &str) -> PathBuf {
        self.dir
            .join(OUTPUTS_DIR)
            .join(&sha256_hex(session_id)[..32])
    }

    /// `outputs/<session>/<callID>.txt`: the host's call id when it is a plain name, else its
    /// hash (a call id is the host's, and may hold anything).
    pub fn output_file(&self, session_id: &str, call_id: &str) -> PathBuf {
        let plain = !call_id.is_empty()
            && call_id.len() <= MAX_NAME_CHARS
            && call_id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        let name = if plain {
            call_id.to_string()
        } else {
            sha256_hex(call_id)[..32].to_string()
        };
        self.outputs_dir(session_id).join(format!("{name}.txt"))
    }
}

impl Store {
    /// Saves `output` at `path`, scrubbed and cut at `MAX_SAVED_BYTES`.
    pub fn save_output(&self, path: &Path, output: &str) -> Result<SavedOutput> {
        let (kept, cut) = cut_at_line(output, MAX_SAVED_BYTES);
        let mut text = scrub(kept).into_owned();
        if cut {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&format!(
                "[ocmem: saved cut here: the output was {} bytes, more than the {} saved]\n",
                output.len(),
                MAX_SAVED_BYTES
            ));
        }
        let dir = path.parent().context("output path has no directory")?;
        create_private_dir(dir)?;
        write_atomically(path, text.as_bytes(), false)?;
        Ok(SavedOutput {
            path: path.to_path_buf(),
            lines: text.lines().count(),
            bytes: text.len() as u64,
            cut,
        })
    }

    /// Removes a session's saved outputs and their folder; returns what was removed.
    pub fn remove_session_outputs(
        &self,
        workspace: &Workspace,
        session_id: &str,
    ) -> Result<Vec<(PathBuf, u64)>> {
        let dir = workspace.outputs_dir(session_id);
        let mut removed = Vec::new();
        for path in files(&dir)? {
            let bytes = remove_file(&path)?;
            removed.push((path, bytes));
        }
        remove_dir_if_empty(&dir)?;
        remove_dir_if_empty(&workspace.dir.join(OUTPUTS_DIR))?;
        Ok(removed)
    }

    /// Removes the saved `outputs` older than `ttl_days` (temp files: older than an hour),
    /// then the folders left empty; returns the files and folders removed (with `dry_run`,
    /// which removes nothing: would be), and whether `outputs/` is gone.
    pub fn sweep_outputs(
        &self,
        workspace_dir: &Path,
        outputs: &[FileInfo],
        ttl_days: u16,
        dry_run: bool,
    ) -> Result<SweptOutputs> {
        let now = self.now_ms;
        let mut swept = SweptOutputs::default();
        let mut left_by_dir: std::collections::BTreeMap<PathBuf, usize> = Default::default();
        for file in outputs {
            let dir = file
                .path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            let left = left_by_dir.entry(dir).or_default();
            let old = file.modified_ms.is_some_and(|modified| {
                if file.name().contains(".tmp-") {
                    now - modified > ORPHAN_TEMP_AGE_MS
                } else {
                    is_idle(modified, now, ttl_days)
                }
            });
            if !old {
                *left += 1;
                continue;
            }
            let bytes = if dry_run {
                file.bytes
            } else {
                remove_file(&file.path)?
            };
            swept.files.push((file.path.clone(), bytes));
        }
        let root = workspace_dir.join(OUTPUTS_DIR);
        let mut dirs_left = 0;
        for dir in session_dirs(&root)? {
            let emptied = left_by_dir.get(&dir).copied().unwrap_or(0) == 0;
            let removed = emptied && (dry_run || remove_dir_if_empty(&dir)?);
            if removed {
                swept.dirs.push(dir);
            } else {
                dirs_left += 1;
            }
        }
        let root_exists = fs::symlink_metadata(&root).is_ok_and(|m| m.is_dir());
        if root_exists && dirs_left == 0 && (dry_run || remove_dir_if_empty(&root)?) {
            swept.dirs.push(root);
            swept.root_gone = true;
        }
        swept.root_gone |= !root_exists;
        Ok(swept)
    }
}

/// What `sweep_outputs` removed.
#[derive(Debug, Default)]
pub struct SweptOutputs {
    pub files: Vec<(PathBuf, u64)>,
    pub dirs: Vec<PathBuf>,
    /// `outputs/` is gone (or never was).
    pub root_gone: bool,
}

/// `text` up to its last line end within `max` bytes, and whether it was cut.
fn cut_at_line(text: &str, max: usize) -> (&str, bool) {
    if text.len() <= max {
        return (text, false);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let end = text[..end].rfind('\n').map_or(end, |newline| newline + 1);
    (&text[..end], true)
}

/// The per-session folders of `outputs/`, never through a symbolic link.
fn session_dirs(root: &Path) -> Result<Vec<PathBuf>> {
    Ok(entries(root)?
        .into_iter()
        .filter(|p| fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()))
        .collect())
}

/// The regular files of a session's folder.
fn files(dir: &Path) -> Result<Vec<PathBuf>> {
    Ok(entries(dir)?
        .into_iter()
        .filter(|p| fs::symlink_metadata(p).is_ok_and(|m| m.is_file()))
        .collect())
}

fn entries(dir: &Path) -> Result<Vec<PathBuf>> {
    if !fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return Ok(Vec::new());
    }
    let mut paths = Vec::new();
    for entry in fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        paths.push(
            entry
                .with_context(|| format!("cannot list {}", dir.display()))?
                .path(),
        );
    }
    paths.sort();
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_ids_become_safe_file_names() {
        let ws = Workspace::locate(Path::new("/data"), "/nonexistent/ocmem/demo");
        let dir = ws.outputs_dir("ses_1");
        assert_eq!(dir.parent().unwrap(), ws.dir.join(OUTPUTS_DIR));
        assert_eq!(ws.output_file("ses_1", "call_17"), dir.join("call_17.txt"));
        for hostile in ["../../etc/passwd", "a/b", "", ".hidden", &"x".repeat(65)] {
            let file = ws.output_file("ses_1", hostile);
            assert_eq!(file.parent().unwrap(), dir, "{hostile:?}");
            assert_eq!(file.file_name().unwrap().len(), 32 + 4, "{hostile:?}");
        }
    }

    #[test]
    fn long_outputs_are_cut_at_a_line_end() {
        assert_eq!(cut_at_line("ab\ncd\nef", 100), ("ab\ncd\nef", false));
        assert_eq!(cut_at_line("ab\ncd\nef", 7), ("ab\ncd\n", true));
        assert_eq!(cut_at_line("abcdef", 4), ("abcd", true));
        assert_eq!(cut_at_line("ééé", 3), ("é", true));
    }

    #[test]
    fn a_saved_output_is_scrubbed_and_capped() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::new(tmp.path().to_path_buf(), 0);
        let path = tmp.path().join("o/s/call_1.txt");
        let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        let saved = store
            .save_output(&path, &format!("ok\ntoken={secret}\ndone\n"))
            .unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(!text.contains(secret), "{text}");
        assert!(text.starts_with("ok\n") && text.ends_with("done\n"));
        assert_eq!((saved.lines, saved.cut), (3, false));

        let big = "0123456789\n".repeat(MAX_SAVED_BYTES / 11 + 10);
        let saved = store.save_output(&path, &big).unwrap();
        assert!(saved.cut && saved.bytes <= MAX_SAVED_BYTES as u64 + 200);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.ends_with("saved]\n"), "{}", &text[text.len() - 100..]);
    }
}
