//! Files that belong to the hosts, which `ocmem init` changes: their settings and plugin
//! files. Each is replaced atomically (temp file, rename) keeping its permissions, written
//! through a symbolic link to its target (a dotfiles checkout stays one), and what it was
//! before ocmem first changed it is kept under `<data dir>/init/` so that `--uninstall` can put
//! it back byte for byte.

use std::fs::{self, DirBuilder};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::domain::base::hash::sha256_hex;

/// A host file's bytes; `None` when there is none.
pub fn read(path: &Path) -> Result<Option<Vec<u8>>> {
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => bail!("{} is not a regular file", path.display()),
        Ok(_) => {}
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
    fs::read(path)
        .map(Some)
        .with_context(|| format!("cannot read {}", path.display()))
}

/// A host's JSON settings file as read: its text and JSON, or nothing when missing.
pub struct Settings {
    pub text: Option<String>,
    pub value: Value,
}

/// Reads a host's JSON settings file (an empty object when there is none); refuses one that
/// is not valid JSON.
pub fn read_settings(path: &Path) -> Result<Settings> {
    let Some(bytes) = read(path)? else {
        return Ok(Settings {
            text: None,
            value: Value::Object(Default::default()),
        });
    };
    let value = serde_json::from_slice(&bytes).with_context(|| {
        format!(
            "{} is not valid JSON; fix it, then run this again",
            path.display()
        )
    })?;
    // Valid JSON is UTF-8.
    let text = String::from_utf8(bytes).expect("JSON that parsed is UTF-8");
    Ok(Settings {
        text: Some(text),
        value,
    })
}

/// A `config.toml` as read: its text, `None` when there is none.
pub fn read_config(path: &Path) -> Result<Option<String>> {
    let Some(bytes) = read(path)? else {
        return Ok(None);
    };
    String::from_utf8(bytes).map(Some).map_err(|_| {
        anyhow::anyhow!(
            "{} is not UTF-8 text; fix it, then run this again",
            path.display()
        )
    })
}

/// Replaces `path` with `bytes`, creating its missing directories; returns those it created,
/// outermost first.
pub fn write(path: &Path, bytes: &[u8]) -> Result<Vec<PathBuf>> {
    let target = match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path)
            .with_context(|| format!("cannot follow the link {}", path.display()))?,
        _ => path.to_path_buf(),
    };
    let dir = target.parent().context("a host file has a directory")?;
    let created = create_dirs(dir)?;
    let mode = fs::metadata(&target).ok().map(|m| m.permissions());
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(
            ".{}.ocmem-",
            target.file_name().unwrap_or_default().to_string_lossy()
        ))
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temp file in {}", dir.display()))?;
    temp.write_all(bytes)
        .and_then(|()| temp.as_file().sync_all())
        .with_context(|| format!("cannot write {}", temp.path().display()))?;
    if let Some(mode) = mode {
        fs::set_permissions(temp.path(), mode)
            .with_context(|| format!("cannot set the permissions of {}", temp.path().display()))?;
    }
    temp.persist(&target)
        .with_context(|| format!("cannot replace {}", target.display()))?;
    Ok(created)
}

/// Removes a host file (a link, not its target); nothing to do when it is gone.
pub fn remove(path: &Path) -> Result<()> {
    super::remove_file(path).map(|_| ())
}

/// Removes the directories of `dirs` that are empty, innermost first.
pub fn remove_empty_dirs(dirs: &[PathBuf]) -> Result<()> {
    for dir in dirs.iter().rev() {
        super::remove_dir_if_empty(dir)?;
    }
    Ok(())
}

/// The directories of `dir`'s path that do not exist, outermost first.
pub fn missing_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut missing: Vec<PathBuf> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && fs::symlink_metadata(d).is_err())
        .map(Path::to_path_buf)
        .collect();
    missing.reverse();
    missing
}

/// The missing directories of `dir`'s path, created, outermost first.
fn create_dirs(dir: &Path) -> Result<Vec<PathBuf>> {
    let missing = missing_dirs(dir);
    if !missing.is_empty() {
        DirBuilder::new()
            .recursive(true)
            .create(dir)
            .with_context(|| format!("cannot create directory {}", dir.display()))?;
    }
    Ok(missing)
}

/// Whether a file can be created in `dir`, or, when it does not exist yet, in the nearest
/// directory above it that does (where it would be created). Leaves nothing behind.
pub fn dir_writable(dir: &Path) -> bool {
    let Some(existing) = dir.ancestors().find(|d| d.is_dir()) else {
        return false;
    };
    tempfile::Builder::new()
        .prefix(".ocmem-probe-")
        .tempfile_in(existing)
        .is_ok()
}

/// A host file as it was before ocmem first changed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Original {
    pub path: PathBuf,
    /// Its text; `None` when there was no file.
    pub text: Option<String>,
    /// The directories ocmem created for it, outermost first.
    pub created_dirs: Vec<PathBuf>,
}

/// `<data dir>/init/<first 16 hex of sha256(path)>.json`
fn original_file(data_dir: &Path, path: &Path) -> PathBuf {
    let key = &sha256_hex(&path.to_string_lossy())[..16];
    data_dir.join("init").join(format!("{key}.json"))
}

/// What `path` was before ocmem changed it, if that was kept.
pub fn read_original(data_dir: &Path, path: &Path) -> Result<Option<Original>> {
    let file = original_file(data_dir, path);
    let Some(bytes) = read(&file)? else {
        return Ok(None);
    };
    match serde_json::from_slice::<Original>(&bytes) {
        Ok(original) if original.path == path => Ok(Some(original)),
        // Unreadable, or another path's: useless for this one.
        _ => Ok(None),
    }
}

pub fn save_original(data_dir: &Path, original: &Original) -> Result<()> {
    let file = original_file(data_dir, &original.path);
    let mut text = serde_json::to_string_pretty(original)?;
    text.push('\n');
    let dir = file.parent().context("the init directory")?;
    super::create_private_dir(dir)?;
    super::write_atomically(&file, text.as_bytes(), true)
}

pub fn forget_original(data_dir: &Path, path: &Path) -> Result<()> {
    remove(&original_file(data_dir, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_creates_what_is_missing_keeps_the_mode_and_follows_a_link() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("a/b/settings.json");
        let created = write(&path, b"{}\n").unwrap();
        assert_eq!(created, [tmp.path().join("a"), tmp.path().join("a/b")]);
        assert_eq!(read(&path).unwrap().unwrap(), b"{}\n");

        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        assert!(write(&path, b"{\"a\": 1}\n").unwrap().is_empty());
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o640
        );

        let link = tmp.path().join("link.json");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        write(&link, b"[]").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&path).unwrap(), b"[]");

        remove_empty_dirs(&created).unwrap();
        assert!(path.exists(), "a directory with a file in it stays");
        remove(&path).unwrap();
        remove(&link).unwrap();
        remove_empty_dirs(&created).unwrap();
        assert!(!tmp.path().join("a").exists());
        assert_eq!(
            fs::read_dir(tmp.path()).unwrap().count(),
            0,
            "no temp file left"
        );
        assert!(read(tmp.path()).is_err(), "a directory is no host file");
    }

    #[test]
    fn originals_are_kept_per_path() {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        let one = Original {
            path: "/home/dev/.claude/settings.json".into(),
            text: Some("{}".into()),
            created_dirs: vec![],
        };
        save_original(&data, &one).unwrap();
        assert_eq!(read_original(&data, &one.path).unwrap(), Some(one.clone()));
        assert_eq!(read_original(&data, Path::new("/elsewhere")).unwrap(), None);
        forget_original(&data, &one.path).unwrap();
        assert_eq!(read_original(&data, &one.path).unwrap(), None);
    }

    #[test]
    fn writability_is_probed_where_a_file_would_go() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(dir_writable(&tmp.path().join("not/yet")));
        assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 0);
    }
}
