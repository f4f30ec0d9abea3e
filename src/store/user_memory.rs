//! `<data dir>/user-memory.json`: the memory that follows the person into every workspace. It
//! is a workspace-memory document (the same format, read and written by the same rules: the
//! lock, atomic and durable writes, quarantine of a file that does not parse, a newer version
//! left alone), with the top entries of its block kept beside it in `user-memory.top.json` as
//! for a workspace (see `memory_top`).

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::{memory_top, open_contents, parse, read_contents, Contents, Document, Opened, Store};
use super::{Stored, Updated};
use crate::domain::base::time::format_rfc3339_ms;
use crate::domain::memory::workspace::{
    block_memory, merge_all, MemoryEntry, Merged, NewMemory, WorkspaceMemory, MEMORY_VERSION,
};

/// The file name of user memory, at the root of the data directory.
pub const USER_MEMORY_FILE: &str = "user-memory.json";
/// What user memory records as its workspace key, having no workspace.
pub const USER_KEY: &str = "user";

/// User memory as stored: a workspace-memory document under its own name in messages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UserMemory(pub WorkspaceMemory);

impl UserMemory {
    pub fn new() -> Self {
        UserMemory(WorkspaceMemory::new("", USER_KEY))
    }
}

impl Default for UserMemory {
    fn default() -> Self {
        UserMemory::new()
    }
}

impl Document for UserMemory {
    const KIND: &'static str = "user memory";
    const VERSION: u64 = MEMORY_VERSION;
    const DURABLE: bool = true;
    fn version(&self) -> u64 {
        self.0.version
    }
    fn written(&self, path: &Path, bytes: &[u8]) {
        memory_top::write_top(path, bytes, &self.0);
    }
}

impl Store {
    /// `<data dir>/user-memory.json`
    pub fn user_memory_file(&self) -> PathBuf {
        self.data_dir.join(USER_MEMORY_FILE)
    }

    /// User memory as it is on disk; `None` when there is none (or it was quarantined, or
    /// belongs to a newer ocmem: both warned about).
    pub fn read_user_memory(&self) -> Result<Option<WorkspaceMemory>> {
        Ok(self
            .read::<UserMemory>(&self.user_memory_file())?
            .map(|m| m.0))
    }

    /// User memory for its section of the block, like `read_block_memory`: from its top
    /// entries when they were made from the file as it is now.
    pub fn read_user_block_memory(&self) -> Result<Option<WorkspaceMemory>> {
        let path = self.user_memory_file();
        if let Opened::File(file, _) = open_contents(&path)? {
            if let Some(top) = memory_top::read_top(&path, file) {
                return Ok(Some(top));
            }
        }
        let Contents::Bytes(bytes) = read_contents(&path)? else {
            return self.read_user_memory();
        };
        match parse::<UserMemory>(&bytes) {
            Stored::Ok(memory) => {
                memory_top::write_top(&path, &bytes, &memory.0);
                Ok(Some(block_memory(&memory.0)))
            }
            Stored::Newer(_) | Stored::Corrupt(_) | Stored::Missing => self.read_user_memory(),
        }
    }

    /// Changes user memory under its lock (see `Store::update`).
    pub fn update_user_memory<R>(
        &self,
        change: impl FnOnce(&mut WorkspaceMemory) -> R,
    ) -> Result<Updated<R>> {
        self.update(&self.user_memory_file(), UserMemory::new, |memory| {
            change(&mut memory.0)
        })
    }

    /// Merges memories into user memory in order, as captured memories are merged into a
    /// workspace's: cleaned, scrubbed of secrets, refused when they read as instructions to
    /// the agent, deduplicated. `None` when the file belongs to a newer ocmem and was left
    /// alone.
    pub fn add_user_memories(
        &self,
        news: impl IntoIterator<Item = NewMemory>,
        now_ms: i64,
    ) -> Result<Option<Vec<Merged>>> {
        let updated = self.update_user_memory(|memory| {
            let merged = merge_all(memory, news, now_ms);
            if merged
                .iter()
                .any(|m| matches!(m, Merged::Added { .. } | Merged::Replaced { .. }))
            {
                memory.updated_at = format_rfc3339_ms(now_ms);
            }
            merged
        })?;
        Ok(match updated {
            Updated::Done { result, .. } => Some(result),
            Updated::LeftNewer => None,
        })
    }

    /// One memory added to user memory, as `ocmem memory add --user` does.
    pub fn add_user_memory(&self, new: NewMemory, now_ms: i64) -> Result<Option<Merged>> {
        Ok(self
            .add_user_memories([new], now_ms)?
            .and_then(|mut merged| merged.pop()))
    }

    /// Every entry of user memory in store order, superseded ones too, for listing.
    pub fn user_entries(&self) -> Result<Vec<MemoryEntry>> {
        Ok(self
            .read_user_memory()?
            .map(|memory| memory.entries)
            .unwrap_or_default())
    }
}
