//! When each host last called ocmem for a workspace, for `doctor`.

use crate::domain::host_name::HostName;

use super::{Store, Workspace};

impl Store {
    /// Notes that `host` called ocmem for `workspace` now. Best effort, and cheap when it
    /// was noted recently.
    pub fn note_host_call(&self, _workspace: &Workspace, _host: HostName) {}

    /// Each host that called ocmem for `workspace`, with the Unix milliseconds of its last call.
    pub fn host_calls(&self, _workspace: &Workspace) -> Vec<(HostName, i64)> {
        Vec::new()
    }
}
