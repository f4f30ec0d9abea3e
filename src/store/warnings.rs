//! The warnings log: hooks run where nobody sees stderr, so every warning ocmem prints is
//! also appended to a small, size-capped log file under the data directory, for `doctor`.

use std::path::Path;

use crate::domain::host_name::HostName;

/// One logged warning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedWarning {
    /// RFC 3339 time of the warning.
    pub at: String,
    /// The host whose hook was running, when known.
    pub host: Option<HostName>,
    pub text: String,
}

/// Appends `text` to the log. Best effort: a log that cannot be written never fails a hook.
pub fn record(_data_dir: &Path, _now_ms: i64, _host: Option<HostName>, _text: &str) {}

/// The latest `limit` warnings, oldest first.
pub fn recent(_data_dir: &Path, _limit: usize) -> Vec<LoggedWarning> {
    Vec::new()
}
