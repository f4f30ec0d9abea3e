//! Session digests: `digests/<first 32 hex of sha256(sessionID)>.json` beside a workspace's
//! sessions, under the same locks, and swept by the same TTL as the sessions themselves.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::{Deserialize, Serialize};
use serde_json::Map;

use super::layout::DIGESTS_DIR;
use super::{Document, Store, Stored, Workspace};
use crate::domain::base::time::parse_rfc3339;
use crate::domain::session::digest::{request_line, Ending, SessionDigest, DIGEST_VERSION};
use crate::domain::session::event::SessionRef;
use crate::domain::session::state::SessionState;
use crate::domain::upkeep::sweep::is_idle;

/// `handoffs.json` in the data directory: what ocmem last wrote at each path `handoff
/// --write` wrote to, so that a file changed since is not overwritten.
pub const HANDOFFS_FILE: &str = "handoffs.json";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HandoffWrites {
    #[serde(default = "handoffs_version")]
    pub version: u64,
    /// sha256 of what was written, by absolute path.
    #[serde(default)]
    pub written: std::collections::BTreeMap<String, String>,
    #[serde(flatten)]
    pub extra: Map<String, serde_json::Value>,
}

fn handoffs_version() -> u64 {
    1
}

impl Document for HandoffWrites {
    const KIND: &'static str = "handoff record";
    const VERSION: u64 = 1;
    const DURABLE: bool = true;
    fn version(&self) -> u64 {
        self.version
    }
}

impl HandoffWrites {
    pub fn new() -> Self {
        HandoffWrites {
            version: 1,
            written: Default::default(),
            extra: Map::new(),
        }
    }
}

impl Default for HandoffWrites {
    fn default() -> Self {
        Self::new()
    }
}

/// A digest is a recollection: a power cut may cost its last update.
impl Document for SessionDigest {
    const KIND: &'static str = "session digest";
    const VERSION: u64 = DIGEST_VERSION;
    const DURABLE: bool = false;
    fn version(&self) -> u64 {
        self.version
    }
}

impl Workspace {
    /// `digests/<first 32 hex of sha256(sessionID)>.json`
    pub fn digest_file(&self, session_id: &str) -> PathBuf {
        let session = self.session_file(session_id);
        let name = session.file_name().unwrap_or_default().to_owned();
        self.dir.join(DIGESTS_DIR).join(name)
    }
}

impl Store {
    /// Notes the user's request `text` in `session`'s digest, with the hot state the session
    /// had before it: the digest stays as current as the latest request, whatever the host
    /// says when the session ends (or does not).
    pub fn note_request(
        &self,
        workspace: &Workspace,
        session: SessionRef,
        text: &str,
        state: Option<&SessionState>,
    ) -> Result<()> {
        if text.trim().is_empty() {
            return Ok(());
        }
        let path = workspace.digest_file(session.session_id);
        // A host may render once per model call: a request already noted costs no lock.
        let noted = self.read::<SessionDigest>(&path)?;
        if noted.is_some_and(|d| d.latest_request == request_line(text)) {
            return Ok(());
        }
        self.update_digest(&path, session, |digest, now| {
            if let Some(state) = state {
                let ended_by = digest.ended_by;
                digest.fold(state, Ending::Idle, now);
                digest.ended_by = ended_by;
            }
            digest.note_request(text, now);
        })
    }

    /// Changes `session`'s digest at `path` under its lock, starting from an empty one, with
    /// the time of this run.
    fn update_digest(
        &self,
        path: &Path,
        session: SessionRef,
        change: impl FnOnce(&mut SessionDigest, i64),
    ) -> Result<()> {
        let now = self.now_ms;
        self.update(
            path,
            || SessionDigest::new(session.session_id, session.host.as_str(), now),
            |digest| change(digest, now),
        )?;
        Ok(())
    }

    /// Notes in `session`'s digest the errors a command fixed and the validation commands
    /// that passed; nothing is written when there are none.
    pub fn note_outcomes(
        &self,
        workspace: &Workspace,
        session: SessionRef,
        fixed: &[String],
        passed: &[&str],
    ) -> Result<()> {
        if fixed.is_empty() && passed.is_empty() {
            return Ok(());
        }
        let path = workspace.digest_file(session.session_id);
        self.update_digest(&path, session, |digest, _| {
            digest.note_fixed(fixed);
            for command in passed {
                digest.note_validation(command);
            }
        })
    }

    /// Brings `session`'s digest up to date with its hot state, and with the next steps of
    /// `summary` when a compaction gave one. A session that left nothing is not kept.
    pub fn keep_digest(
        &self,
        session: SessionRef,
        ending: Ending,
        summary: Option<&str>,
    ) -> Result<()> {
        let workspace = self.workspace(session.directory);
        let state =
            match self.snapshot::<SessionState>(&workspace.session_file(session.session_id))? {
                Stored::Ok(state) => Some(state),
                _ => None,
            };
        self.fold_digest(&workspace, session, state.as_ref(), ending, summary)
    }

    /// `keep_digest` from a state already read.
    pub fn fold_digest(
        &self,
        workspace: &Workspace,
        session: SessionRef,
        state: Option<&SessionState>,
        ending: Ending,
        summary: Option<&str>,
    ) -> Result<()> {
        let path = workspace.digest_file(session.session_id);
        let mut probe = SessionDigest::new(session.session_id, session.host.as_str(), 0);
        if let Some(state) = state {
            probe.fold(state, ending, 0);
        }
        if let Some(summary) = summary {
            probe.note_summary(summary);
        }
        if probe.is_empty() && fs::symlink_metadata(&path).is_err() {
            return Ok(());
        }
        self.update_digest(&path, session, |digest, now| {
            if let Some(state) = state {
                digest.fold(state, ending, now);
            } else {
                digest.ended_by = Some(ending);
            }
            if let Some(summary) = summary {
                digest.note_summary(summary);
            }
        })
    }

    /// A workspace's digests, the latest first (by end, then start).
    pub fn digests(&self, workspace: &Workspace) -> Result<Vec<SessionDigest>> {
        let mut digests = Vec::new();
        for path in digest_paths(workspace) {
            if let Stored::Ok(digest) = self.snapshot::<SessionDigest>(&path)? {
                digests.push(digest);
            }
        }
        digests.sort_by_key(|d| {
            std::cmp::Reverse((
                parse_rfc3339(&d.ended_at).unwrap_or(0),
                parse_rfc3339(&d.started_at).unwrap_or(0),
            ))
        });
        Ok(digests)
    }

    /// Removes a workspace's digests last brought up to date more than `ttl_days` ago;
    /// returns what was removed, with its size, and whether the digests folder is gone (or,
    /// with `dry_run`, which removes nothing, would be).
    pub fn sweep_digests(
        &self,
        workspace_dir: &Path,
        ttl_days: u16,
        dry_run: bool,
    ) -> Result<(Vec<(PathBuf, u64)>, bool)> {
        let now = self.now_ms;
        let stale = |stored: &Stored<SessionDigest>| match stored {
            Stored::Ok(d) => parse_rfc3339(&d.ended_at)
                .or_else(|| parse_rfc3339(&d.started_at))
                .is_some_and(|used| is_idle(used, now, ttl_days)),
            _ => false,
        };
        let mut removed = Vec::new();
        let dir = workspace_dir.join(DIGESTS_DIR);
        for path in json_files(&dir) {
            if dry_run {
                if let Ok(stored) = self.snapshot::<SessionDigest>(&path) {
                    if stale(&stored) {
                        let bytes = fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                        removed.push((path, bytes));
                    }
                }
                continue;
            }
            if let Some(bytes) = self.remove_store_if::<SessionDigest>(&path, stale)? {
                removed.push((path, bytes));
            }
        }
        let emptied = if dry_run {
            fs::read_dir(&dir).is_ok_and(|entries| entries.count() == 2 * removed.len())
        } else {
            // Only an empty folder goes.
            let _ = fs::remove_dir(&dir);
            fs::symlink_metadata(&dir).is_err()
        };
        Ok((removed, emptied))
    }
}

impl Store {
    /// Writes `text` to `path` unless a file there changed since ocmem last wrote it (or was
    /// never written by ocmem) and `force` is not given; records what it wrote. Under the
    /// record's lock, so two writers do not both pass the check. Returns `false` when it
    /// refused.
    pub fn write_handoff(&self, path: &Path, text: &str, force: bool) -> Result<bool> {
        let key = path.to_string_lossy().into_owned();
        let current = super::host_files::read(path)?;
        let record = self.data_dir.join(HANDOFFS_FILE);
        let updated = self.update(&record, HandoffWrites::new, |writes| {
            let unchanged = match &current {
                None => true,
                Some(bytes) => writes.written.get(&key) == Some(&sha256_bytes(bytes)),
            };
            if !unchanged && !force {
                return Ok(false);
            }
            super::host_files::write(path, text.as_bytes())?;
            writes
                .written
                .insert(key.clone(), sha256_bytes(text.as_bytes()));
            Ok(true)
        })?;
        match updated {
            super::Updated::Done { result, .. } => result,
            super::Updated::LeftNewer => Ok(false),
        }
    }
}

fn sha256_bytes(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn digest_paths(workspace: &Workspace) -> Vec<PathBuf> {
    json_files(&workspace.dir.join(DIGESTS_DIR))
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
}
