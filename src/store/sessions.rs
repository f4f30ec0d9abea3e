//! Finding a workspace's sessions for a reader outside any hook (the agent's `hot_state`
//! tool): read-only, never creating, quarantining or changing a file.

use anyhow::Result;

use super::inventory::scan;
use super::{Store, Stored, Workspace};
use crate::domain::base::time::parse_rfc3339;
use crate::domain::session::state::SessionState;

impl Store {
    /// The stored session `session_id` of `workspace`; `None` when it has none (or a newer or
    /// corrupt file, which hooks report).
    pub fn read_session(
        &self,
        workspace: &Workspace,
        session_id: &str,
    ) -> Result<Option<SessionState>> {
        Ok(match self.snapshot(&workspace.session_file(session_id))? {
            Stored::Ok(state) => Some(state),
            _ => None,
        })
    }

    /// The session of `workspace` updated last, by the time it records (the file's
    /// modification time breaks ties and stands in for a missing one).
    pub fn latest_session(&self, workspace: &Workspace) -> Result<Option<SessionState>> {
        let Some(files) = scan(&self.data_dir, Some(&workspace.key))?.pop() else {
            return Ok(None);
        };
        let mut latest: Option<((i64, i64), SessionState)> = None;
        for file in files.sessions {
            let Stored::Ok(state) = self.snapshot::<SessionState>(&file.path)? else {
                continue;
            };
            let modified = file.modified_ms.unwrap_or(0);
            let at = (
                parse_rfc3339(&state.updated_at).unwrap_or(modified),
                modified,
            );
            if latest.as_ref().is_none_or(|(best, _)| at > *best) {
                latest = Some((at, state));
            }
        }
        Ok(latest.map(|(_, state)| state))
    }
}
