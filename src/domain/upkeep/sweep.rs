//! The rules of `gc --sweep`: what in the data directory is dead. Workspace memory entries are
//! never on this list (those superseded long ago move to the archive, see `domain::memory::archive`);
//! everything here is short-term state or leftovers.
//!
//! - a session store idle longer than the TTL (by `SessionState::last_used_ms`, else the
//!   file's modification time);
//! - a temp file older than an hour (its writer died before the rename);
//! - quarantined copies of a store beyond the newest `QUARANTINE_KEPT`;
//! - a lock file whose store is gone and which no process holds;
//! - the host-call markers (`hosts/<host>`) of a workspace that holds nothing else, once
//!   every one of them is older than the TTL: no host called for that long, and nothing
//!   else keeps the workspace (fresher markers keep it, and markers beside anything else
//!   are kept: they are how `doctor` knows when a host last called);
//! - a saved tool output (`outputs/<session>/<call>.txt`) older than the TTL, by its
//!   modification time: the model that was told of it has long moved on;
//! - a workspace directory (or its `sessions/`, `hosts/` or `outputs/` folders) left empty.

use std::fmt;

/// The TTL when neither `--older-than` nor `OCMEM_TTL_DAYS` says otherwise.
pub const DEFAULT_TTL_DAYS: u16 = 30;
/// The range `--older-than` and `OCMEM_TTL_DAYS` accept.
pub const TTL_DAYS_RANGE: std::ops::RangeInclusive<u16> = 1..=365;
const DAY_MS: i64 = 86_400_000;

/// Why something is removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemovalKind {
    IdleSession,
    OrphanTemp,
    SurplusQuarantined,
    StaleLock,
    EmptyDirectory,
    /// Memory entries superseded long ago, moved to the archive (see `domain::memory::archive`).
    ArchivedEntries,
    /// `workspace-memory.top.json` left behind by a memory file that is gone.
    OrphanBlockCache,
    /// The marker of a host that has not called for longer than the TTL, in a workspace
    /// holding nothing else.
    IdleHostMarker,
    /// A session digest not brought up to date for longer than the TTL.
    IdleDigest,
    /// A saved tool output older than the TTL.
    OldOutput,
}

impl RemovalKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RemovalKind::IdleSession => "idle-session",
            RemovalKind::OrphanTemp => "orphan-temp",
            RemovalKind::SurplusQuarantined => "surplus-quarantined",
            RemovalKind::StaleLock => "stale-lock",
            RemovalKind::EmptyDirectory => "empty-directory",
            RemovalKind::ArchivedEntries => "archived-entries",
            RemovalKind::OrphanBlockCache => "orphan-block-cache",
            RemovalKind::IdleHostMarker => "idle-host-marker",
            RemovalKind::IdleDigest => "idle-digest",
            RemovalKind::OldOutput => "old-output",
        }
    }
}

impl fmt::Display for RemovalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The TTL in days: the flag, else the environment variable, else the default. A value
/// outside `TTL_DAYS_RANGE` or not a number is an error naming it.
pub fn ttl_days(flag: Option<u16>, env: Option<&str>) -> Result<u16, String> {
    if let Some(days) = flag {
        return Ok(days);
    }
    let Some(text) = env.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(DEFAULT_TTL_DAYS);
    };
    match text.parse::<u16>() {
        Ok(days) if TTL_DAYS_RANGE.contains(&days) => Ok(days),
        _ => Err(format!(
            "invalid value {text:?} for OCMEM_TTL_DAYS: expected whole days from {} to {}",
            TTL_DAYS_RANGE.start(),
            TTL_DAYS_RANGE.end()
        )),
    }
}

/// Whole days from `last_used_ms` to `now_ms` (0 for a time in the future).
pub fn idle_days(last_used_ms: i64, now_ms: i64) -> i64 {
    (now_ms - last_used_ms).max(0) / DAY_MS
}

/// A session unused for longer than `ttl_days` at `now_ms`.
pub fn is_idle(last_used_ms: i64, now_ms: i64, ttl_days: u16) -> bool {
    now_ms - last_used_ms > i64::from(ttl_days) * DAY_MS
}

/// Of the quarantined copies of one store, given as their `corrupt-<unix ms>` stamps, the
/// indices of those beyond the newest `keep`.
pub fn surplus_quarantined(stamps: &[u64], keep: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..stamps.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(stamps[i]));
    let mut surplus = order.split_off(keep.min(order.len()));
    surplus.sort_unstable();
    surplus
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ttl_comes_from_the_flag_then_the_environment_then_the_default() {
        assert_eq!(ttl_days(Some(7), Some("90")), Ok(7));
        assert_eq!(ttl_days(None, Some("90")), Ok(90));
        assert_eq!(ttl_days(None, Some(" 365 ")), Ok(365));
        assert_eq!(ttl_days(None, None), Ok(DEFAULT_TTL_DAYS));
        assert_eq!(ttl_days(None, Some("")), Ok(DEFAULT_TTL_DAYS));
        for bad in ["0", "366", "-3", "30d", "1.5", "lots"] {
            let err = ttl_days(None, Some(bad)).unwrap_err();
            assert!(err.contains("OCMEM_TTL_DAYS") && err.contains(bad), "{err}");
        }
    }

    #[test]
    fn a_session_is_idle_only_past_its_ttl() {
        let now = 100 * DAY_MS;
        assert!(!is_idle(now - 30 * DAY_MS, now, 30));
        assert!(is_idle(now - 30 * DAY_MS - 1, now, 30));
        assert!(!is_idle(now + DAY_MS, now, 1));
        assert_eq!(idle_days(now - 45 * DAY_MS - 5, now), 45);
        assert_eq!(idle_days(now + 5, now), 0);
    }

    #[test]
    fn only_copies_beyond_the_newest_are_surplus() {
        assert_eq!(surplus_quarantined(&[5, 9, 1, 7, 3], 3), vec![2, 4]);
        assert_eq!(surplus_quarantined(&[5, 9], 3), Vec::<usize>::new());
        assert_eq!(surplus_quarantined(&[], 3), Vec::<usize>::new());
    }
}
