//! The warnings log: hooks run where nobody sees stderr, so every warning ocmem prints is
//! also appended to a small, size-capped log file under the data directory, for `doctor`.
//!
//! `<data dir>/ocmem.log` holds one JSON object a line: `{"at", "host"?, "text"}`. A line is
//! appended with one `write` on a file opened `O_APPEND`, so lines of concurrent processes
//! never interleave. Once the file passes `LOG_CAP` bytes it is renamed to `ocmem.log.1`
//! (replacing the one before) and the next warning starts a new file: the log never takes
//! more than twice the cap, and the newest warnings are always kept. A symbolic link at
//! either path is never followed: a log that is a link is neither written nor read.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::domain::base::host_name::HostName;
use crate::domain::base::text::one_line;
use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::guard::secrets::scrub;

/// The log file's name in the data directory.
pub const LOG_FILE: &str = "ocmem.log";
/// The rotated log's name: the warnings before the current file's.
pub const ROTATED_LOG_FILE: &str = "ocmem.log.1";
/// The size past which the log is rotated.
pub const LOG_CAP: u64 = 64 * 1024;
/// Characters of one warning's text kept; the rest is cut, marked with `…`.
pub const MAX_TEXT_CHARS: usize = 1000;

/// One logged warning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedWarning {
    /// RFC 3339 time of the warning.
    pub at: String,
    /// The host whose hook was running, when known.
    pub host: Option<HostName>,
    pub text: String,
}

/// A line of the log as written.
#[derive(Serialize)]
struct LineOut<'a> {
    at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    host: Option<&'static str>,
    text: &'a str,
}

/// A line of the log as read: a host this build does not know still leaves its warning.
#[derive(Deserialize)]
struct LineIn {
    at: String,
    #[serde(default)]
    host: Option<String>,
    text: String,
}

/// `<data dir>/ocmem.log`
pub fn log_path(data_dir: &Path) -> PathBuf {
    data_dir.join(LOG_FILE)
}

/// Appends `text` to the log. Best effort: a log that cannot be written never fails a hook.
/// Usable from any command, e.g. for a hook that must exit quietly and say why only here.
pub fn record(data_dir: &Path, now_ms: i64, host: Option<HostName>, text: &str) {
    let _ = append(data_dir, &log_line(now_ms, host, text));
}

/// The latest `limit` warnings, oldest first. Lines that do not parse (a torn write, a
/// hand edit) are skipped.
pub fn recent(data_dir: &Path, limit: usize) -> Vec<LoggedWarning> {
    let mut warnings = Vec::new();
    for name in [ROTATED_LOG_FILE, LOG_FILE] {
        let Some(bytes) = read_log(&data_dir.join(name)) else {
            continue;
        };
        warnings.extend(
            String::from_utf8_lossy(&bytes)
                .lines()
                .filter_map(parse_line),
        );
    }
    let surplus = warnings.len().saturating_sub(limit);
    warnings.drain(..surplus);
    warnings
}

/// How many of the latest warnings `record_once` looks through.
const RECENT_FOR_ONCE: usize = 200;

/// `record`, unless one of the latest warnings already says the same: for a warning about
/// something that stays as it is while every hook reads it again. Returns whether it logged.
pub fn record_once(data_dir: &Path, now_ms: i64, host: Option<HostName>, text: &str) -> bool {
    let logged = logged_text(text);
    if recent(data_dir, RECENT_FOR_ONCE)
        .iter()
        .any(|w| w.text == logged)
    {
        return false;
    }
    record(data_dir, now_ms, host, text);
    true
}

/// A warning's text as the log keeps it: scrubbed of secrets, on one line, bounded.
fn logged_text(text: &str) -> String {
    // Scrubbed before it is cut, so that a secret cut in two is still recognised.
    let text = one_line(&scrub(text));
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// The JSON line for a warning: its text scrubbed of secrets, on one line, bounded.
fn log_line(now_ms: i64, host: Option<HostName>, text: &str) -> String {
    let text = logged_text(text);
    let line = LineOut {
        at: format_rfc3339_ms(now_ms),
        host: host.map(HostName::as_str),
        text: &text,
    };
    let mut json = serde_json::to_string(&line).unwrap_or_default();
    json.push('\n');
    json
}

fn parse_line(line: &str) -> Option<LoggedWarning> {
    let parsed: LineIn = serde_json::from_str(line).ok()?;
    Some(LoggedWarning {
        at: parsed.at,
        host: parsed.host.as_deref().and_then(HostName::from_name),
        text: parsed.text,
    })
}

/// Appends `line` in one write, then rotates the file when it has grown past the cap.
fn append(data_dir: &Path, line: &str) -> std::io::Result<()> {
    super::create_private_dir(data_dir).map_err(std::io::Error::other)?;
    let path = log_path(data_dir);
    let mut options = super::private_options();
    options.read(true).append(true).create(true);
    super::lock::no_follow(&mut options);
    let mut file = options.open(&path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        // A FIFO or a device: never ours to write to.
        return Ok(());
    }
    // After a line torn by a crash, start a new one, so that only the torn line is lost. (A
    // line another process is still copying in may look torn too: that costs an empty line.)
    if meta.len() > 0 && last_byte(&file, meta.len()) != Some(b'\n') {
        file.write_all(format!("\n{line}").as_bytes())?;
    } else {
        file.write_all(line.as_bytes())?;
    }
    if file.metadata()?.len() > LOG_CAP {
        rotate(&path, &file)?;
    }
    Ok(())
}

#[cfg(unix)]
fn last_byte(file: &File, len: u64) -> Option<u8> {
    use std::os::unix::fs::FileExt;
    let mut byte = [0u8];
    file.read_at(&mut byte, len - 1).ok()?;
    Some(byte[0])
}

#[cfg(not(unix))]
fn last_byte(_: &File, _: u64) -> Option<u8> {
    Some(b'\n')
}

/// Renames the log to `ocmem.log.1`, if it is still the file this process wrote to (another
/// process may have rotated it meanwhile).
fn rotate(path: &Path, written: &File) -> std::io::Result<()> {
    let at_path = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if !super::lock::same_file(&written.metadata()?, &at_path) {
        return Ok(());
    }
    fs::rename(path, path.with_file_name(ROTATED_LOG_FILE))
}

/// The bytes of a log file; `None` when it is missing, a link, or not a regular file.
fn read_log(path: &Path) -> Option<Vec<u8>> {
    let mut options = OpenOptions::new();
    options.read(true);
    super::lock::no_follow(&mut options);
    let mut file = options.open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    // Bounded, in case something else grew it: the newest lines are at the end.
    let keep = 4 * LOG_CAP;
    if meta.len() > keep {
        use std::io::{Seek, SeekFrom};
        file.seek(SeekFrom::End(-(keep as i64))).ok()?;
    }
    let mut bytes = Vec::with_capacity(meta.len().min(keep) as usize);
    file.take(keep).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

#[cfg(test)]
mod tests;
