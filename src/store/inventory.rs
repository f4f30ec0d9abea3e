//! What lies in the data directory, for `gc --sweep` and `baseline`: every workspace
//! directory with its stores, locks, quarantined copies, temp files and host-call markers.
//! Listing only; reading a store goes through `Store::snapshot`. The warnings log at the data
//! directory's root is not a workspace's and is not listed.
//!
//! Directories are never entered through a symbolic link (`workspaces/<key>`, `sessions` or
//! `hosts` linked elsewhere), so nothing outside the data directory is listed, or swept.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use anyhow::{Context as _, Result};

use super::layout::{
    DIGESTS_DIR, HOSTS_DIR, MEMORY_FILE, ORPHAN_TEMP_AGE_MS, OUTPUTS_DIR, SESSIONS_DIR,
};

/// What a file in a workspace directory is, judged by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Store,
    Lock,
    /// `<store>.corrupt-<unix ms>`, moved aside because it did not parse.
    Quarantined,
    /// `<store>.tmp…`, left behind by a writer that died before its rename.
    Temp,
    Other,
}

/// `<store>.corrupt-<unix ms>`: the store's name and the stamp.
pub fn quarantined_copy(name: &str) -> Option<(&str, u64)> {
    let (store, stamp) = name.split_once(".corrupt-")?;
    if stamp.is_empty() || !stamp.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((store, stamp.parse().ok()?))
}

/// The kind of a file from its name, and the name of the store it belongs to.
pub fn classify(name: &str) -> (FileKind, &str) {
    if let Some(store) = name.strip_suffix(".lock") {
        return (FileKind::Lock, store);
    }
    if let Some((store, _)) = quarantined_copy(name) {
        return (FileKind::Quarantined, store);
    }
    // Ours are `<store>.tmp-<pid>-<nanos>`; other writers used `<store>.tmp` or `.tmp.<n>`.
    if let Some(index) = name.find(".json.tmp") {
        return (FileKind::Temp, &name[..index + ".json".len()]);
    }
    if name.ends_with(".json") {
        return (FileKind::Store, name);
    }
    (FileKind::Other, name)
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileInfo {
    pub path: PathBuf,
    pub bytes: u64,
    /// Unix milliseconds of the last modification, when the file system tells it.
    pub modified_ms: Option<i64>,
}

impl FileInfo {
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    }

    /// A temp file no writer will rename any more (its age is unknown: not an orphan).
    pub fn is_orphan_temp(&self, now_ms: i64) -> bool {
        self.modified_ms
            .is_some_and(|m| now_ms - m > ORPHAN_TEMP_AGE_MS)
    }

    /// When it was quarantined, for a `.corrupt-<unix ms>` copy.
    pub fn quarantine_stamp(&self) -> Option<u64> {
        quarantined_copy(&self.name()).map(|(_, stamp)| stamp)
    }

    /// The store a lock, quarantined copy or temp file belongs to, next to it.
    pub fn store_path(&self) -> PathBuf {
        let name = self.name();
        self.path.with_file_name(classify(&name).1)
    }
}

/// One `workspaces/<key>/` directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkspaceFiles {
    pub key: String,
    pub dir: PathBuf,
    pub memory: Option<FileInfo>,
    pub sessions: Vec<FileInfo>,
    /// The regular files of `hosts/`: when each host last called (any name: a newer ocmem
    /// may know more hosts).
    pub host_markers: Vec<FileInfo>,
    /// Files of the workspace directory, of `sessions/` and of `hosts/`, by kind.
    pub locks: Vec<FileInfo>,
    pub quarantined: Vec<FileInfo>,
    pub temp_files: Vec<FileInfo>,
    pub other: Vec<FileInfo>,
    /// Directories other than `sessions/` and `hosts/` (in the workspace directory or in
    /// those), which ocmem never made and never removes.
    pub other_dirs: Vec<PathBuf>,
    /// Lock paths holding something other than a regular file, and what: a hook moves it
    /// aside.
    pub bad_locks: Vec<(PathBuf, &'static str)>,
    /// The entries of `digests/` (session digests and their locks), swept apart (see
    /// `digests`).
    pub digests: Vec<FileInfo>,
    /// The files of `outputs/<session>/` (saved tool outputs), swept apart (see `outputs`).
    pub outputs: Vec<FileInfo>,
}

impl WorkspaceFiles {
    pub fn bytes(&self) -> u64 {
        self.memory
            .iter()
            .chain(&self.sessions)
            .chain(&self.host_markers)
            .chain(&self.locks)
            .chain(&self.quarantined)
            .chain(&self.temp_files)
            .chain(&self.other)
            .chain(&self.digests)
            .chain(&self.outputs)
            .map(|f| f.bytes)
            .sum()
    }

    pub fn sessions_dir(&self) -> PathBuf {
        self.dir.join(SESSIONS_DIR)
    }

    pub fn hosts_dir(&self) -> PathBuf {
        self.dir.join(HOSTS_DIR)
    }
}

/// Where `gc --false-positives` copies the session files it changes in a run at `now_ms`:
/// `<data dir>/backups/<UTC time, e.g. 20261121T193109.504Z>/`.
pub fn backup_dir(data_dir: &Path, now_ms: i64) -> PathBuf {
    let stamp = crate::domain::base::time::format_rfc3339_ms(now_ms).replace([':', '-'], "");
    data_dir.join("backups").join(stamp)
}

/// Every workspace directory under `data_dir`, sorted by key; only `only_key` when given.
/// A data directory that does not exist holds no workspaces.
pub fn scan(data_dir: &Path, only_key: Option<&str>) -> Result<Vec<WorkspaceFiles>> {
    let root = data_dir.join("workspaces");
    let mut workspaces = Vec::new();
    for entry in list(&root)? {
        let key = entry
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if !is_real_dir(&entry) || only_key.is_some_and(|k| k != key) {
            continue;
        }
        let mut workspace = WorkspaceFiles {
            key,
            dir: entry.clone(),
            ..WorkspaceFiles::default()
        };
        let sessions_dir = entry.join(SESSIONS_DIR);
        let hosts_dir = entry.join(HOSTS_DIR);
        let digests_dir = entry.join(DIGESTS_DIR);
        let outputs_dir = entry.join(OUTPUTS_DIR);
        for path in list(&entry)? {
            let apart = path == digests_dir || path == outputs_dir;
            if (path == sessions_dir || path == hosts_dir || apart) && is_real_dir(&path) {
                continue;
            }
            workspace.add(&path, false)?;
        }
        for path in list(&sessions_dir)? {
            workspace.add(&path, true)?;
        }
        for path in list(&hosts_dir)? {
            workspace.add_host_entry(&path)?;
        }
        if is_real_dir(&digests_dir) {
            for path in list(&digests_dir)? {
                if let Some((info, _)) = file_info(&path)? {
                    workspace.digests.push(info);
                }
            }
        }
        // `outputs/<session>/<call>.txt`; `list` never enters a link.
        for session_dir in list(&outputs_dir)? {
            for path in list(&session_dir)? {
                if let Some((info, file_type)) = file_info(&path)? {
                    if file_type.is_file() {
                        workspace.outputs.push(info);
                    }
                }
            }
        }
        workspaces.push(workspace);
    }
    workspaces.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(workspaces)
}

impl WorkspaceFiles {
    /// Files a path by its name and type; `in_sessions` for the entries of `sessions/`.
    fn add(&mut self, path: &Path, in_sessions: bool) -> Result<()> {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let (kind, store) = classify(&name);
        let Some((info, file_type)) = file_info(path)? else {
            return Ok(());
        };
        let is_store = kind == FileKind::Store && (in_sessions || store == MEMORY_FILE);
        if kind == FileKind::Lock && !file_type.is_file() {
            let what = super::lock::describe(&file_type);
            self.bad_locks.push((path.to_path_buf(), what));
        }
        if file_type.is_dir() && !is_store {
            self.other_dirs.push(path.to_path_buf());
            return Ok(());
        }
        match kind {
            // Whatever its type: reading it says what is wrong with it.
            FileKind::Store if is_store && in_sessions => self.sessions.push(info),
            FileKind::Store if is_store => self.memory = Some(info),
            FileKind::Lock => self.locks.push(info),
            FileKind::Quarantined => self.quarantined.push(info),
            FileKind::Temp => self.temp_files.push(info),
            FileKind::Store | FileKind::Other => self.other.push(info),
        }
        Ok(())
    }
}

impl WorkspaceFiles {
    /// Files an entry of `hosts/`: a regular file is a marker, anything else is not ours.
    fn add_host_entry(&mut self, path: &Path) -> Result<()> {
        let Some((info, file_type)) = file_info(path)? else {
            return Ok(());
        };
        if file_type.is_file() {
            self.host_markers.push(info);
        } else if file_type.is_dir() {
            self.other_dirs.push(info.path);
        } else {
            self.other.push(info);
        }
        Ok(())
    }
}

/// A directory, not a symbolic link to one.
fn is_real_dir(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

/// The entries of `dir`, sorted; none when it does not exist or is a symbolic link.
fn list(dir: &Path) -> Result<Vec<PathBuf>> {
    if !is_real_dir(dir) {
        return Ok(Vec::new());
    }
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", dir.display())),
    };
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        paths.push(entry.path());
    }
    paths.sort();
    Ok(paths)
}

/// Size, modification time and type of what is at `path` (a link's own, which a removal
/// affects, not its target's); `None` when it vanished meanwhile. A directory's size is 0:
/// only files are counted.
fn file_info(path: &Path) -> Result<Option<(FileInfo, fs::FileType)>> {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot inspect {}", path.display())),
    };
    let modified_ms = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_millis() as i64);
    let info = FileInfo {
        path: path.to_path_buf(),
        bytes: if meta.is_dir() { 0 } else { meta.len() },
        modified_ms,
    };
    Ok(Some((info, meta.file_type())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_classified_by_name() {
        assert_eq!(
            classify("workspace-memory.json"),
            (FileKind::Store, "workspace-memory.json")
        );
        assert_eq!(classify("ab12.json.lock"), (FileKind::Lock, "ab12.json"));
        assert_eq!(
            classify("ab12.json.corrupt-1795276434504"),
            (FileKind::Quarantined, "ab12.json")
        );
        assert_eq!(
            classify("ab12.json.corrupt-soon"),
            (FileKind::Other, "ab12.json.corrupt-soon")
        );
        assert_eq!(
            classify("ab12.json.tmp-4242-991"),
            (FileKind::Temp, "ab12.json")
        );
        assert_eq!(
            classify("workspace-memory.json.tmp"),
            (FileKind::Temp, "workspace-memory.json")
        );
        assert_eq!(classify("notes.txt"), (FileKind::Other, "notes.txt"));
    }

    #[test]
    fn scan_lists_workspaces_and_their_files() {
        let tmp = tempfile::tempdir().unwrap();
        let ws = tmp.path().join("workspaces/0123456789abcdef");
        fs::create_dir_all(ws.join("sessions")).unwrap();
        fs::write(ws.join(MEMORY_FILE), "{}").unwrap();
        // Derived from memory, not a store: listed, never read as memory.
        fs::write(ws.join("workspace-memory.top.json"), "{}").unwrap();
        fs::write(ws.join("workspace-memory.json.lock"), "").unwrap();
        fs::write(ws.join("sessions/aa.json"), "{}").unwrap();
        fs::write(ws.join("sessions/aa.json.corrupt-5"), "x").unwrap();
        fs::write(ws.join("sessions/bb.json.tmp-1-2"), "xy").unwrap();
        fs::create_dir_all(tmp.path().join("workspaces/fedcba9876543210")).unwrap();

        let all = scan(tmp.path(), None).unwrap();
        assert_eq!(all.len(), 2);
        let first = &all[0];
        assert_eq!(first.key, "0123456789abcdef");
        assert!(first.memory.is_some());
        assert_eq!(first.sessions.len(), 1);
        assert_eq!(first.locks.len(), 1);
        assert_eq!(
            first.quarantined[0].store_path(),
            ws.join("sessions/aa.json")
        );
        assert_eq!(
            first.temp_files[0].store_path(),
            ws.join("sessions/bb.json")
        );
        assert_eq!(first.memory.as_ref().unwrap().name(), MEMORY_FILE);
        assert_eq!(first.other[0].name(), "workspace-memory.top.json");
        assert_eq!(first.bytes(), 2 + 2 + 2 + 1 + 2);
        assert!(all[1].memory.is_none() && all[1].sessions.is_empty());

        let one = scan(tmp.path(), Some("fedcba9876543210")).unwrap();
        assert!(one[0].host_markers.is_empty() && one[0].other_dirs.is_empty());
        assert_eq!(one.len(), 1);
        assert!(scan(&tmp.path().join("missing"), None).unwrap().is_empty());
    }

    #[test]
    fn host_markers_are_listed_apart_and_never_through_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let ws = tmp.path().join("workspaces/0123456789abcdef");
        let hosts = ws.join(HOSTS_DIR);
        fs::create_dir_all(hosts.join("notes")).unwrap();
        fs::write(hosts.join("opencode"), "").unwrap();
        fs::write(hosts.join("some-future-host"), "").unwrap();
        // Not a workspace's: the warnings log at the data directory's root.
        fs::write(tmp.path().join("ocmem.log"), "{}\n").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(tmp.path().join("ocmem.log"), hosts.join("claude-code"))
            .unwrap();
        let linked = tmp.path().join("workspaces/fedcba9876543210");
        fs::create_dir_all(&linked).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&hosts, linked.join(HOSTS_DIR)).unwrap();

        let all = scan(tmp.path(), None).unwrap();
        let names: Vec<String> = all[0].host_markers.iter().map(FileInfo::name).collect();
        assert_eq!(names, ["opencode", "some-future-host"]);
        assert_eq!(all[0].other_dirs, [hosts.join("notes")]);
        assert!(all[0].memory.is_none() && all[0].sessions.is_empty());
        #[cfg(unix)]
        {
            assert_eq!(all[0].other.len(), 1, "the link is not a marker");
            // A hosts/ that is a link is listed as the link, never entered.
            assert!(all[1].host_markers.is_empty());
            assert_eq!(all[1].other[0].path, linked.join(HOSTS_DIR));
        }
    }
}
