//! The names of what lies in the data directory, in one place: every module of the store that
//! writes a file and every one that lists or sweeps them agree on these.

/// The file name of a workspace's memory store.
pub const MEMORY_FILE: &str = "workspace-memory.json";
/// The directory of a workspace's session stores.
pub const SESSIONS_DIR: &str = "sessions";
/// The directory of a workspace's host-call markers (see `host_calls`).
pub const HOSTS_DIR: &str = "hosts";
/// The folder of a workspace's saved outputs.
pub const OUTPUTS_DIR: &str = "outputs";
/// The folder of a workspace's session digests.
pub const DIGESTS_DIR: &str = "digests";

/// A temp file older than this has no writer left: it is an orphan.
pub const ORPHAN_TEMP_AGE_MS: i64 = 60 * 60 * 1000;
