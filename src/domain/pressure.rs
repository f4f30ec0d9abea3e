//! Context pressure: how full the model's context window is, from the host's token counts.
//! The level only rises within a session (a warning that came and went would change the
//! prompt every turn); a compaction starts it over, since the prompt is new then anyway.

use serde::{Deserialize, Serialize};

use super::prune::{Limits, LIMITS};

/// How full the context is, by the share of the model's context window in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// At least 75 % of the window in use.
    High,
    /// At least 90 %.
    Critical,
}

/// The share of the window, in percent, at which each level begins.
pub const THRESHOLDS: [(Level, u64); 2] = [(Level::Critical, 90), (Level::High, 75)];

/// A session's pressure as it last rose: the level, and the counts that raised it (kept so the
/// warning line reads the same on every render until the level changes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextPressure {
    pub level: Level,
    pub percent: u64,
    pub tokens: u64,
    pub limit: u64,
}

/// The level `tokens` of a `limit`-token window is at, or None below the first threshold (or
/// when the limit is unknown).
pub fn level_for(tokens: u64, limit: u64) -> Option<Level> {
    if limit == 0 {
        return None;
    }
    let percent = tokens.saturating_mul(100) / limit;
    THRESHOLDS
        .iter()
        .find(|(_, from)| percent >= *from)
        .map(|(level, _)| *level)
}

/// The pruning limits of a session at `pressure`: halved from the first level on.
pub fn prune_limits(pressure: Option<&ContextPressure>) -> Limits {
    match pressure {
        Some(_) => LIMITS.halved(),
        None => LIMITS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_begin_at_75_and_90_percent() {
        assert_eq!(level_for(74_999, 100_000), None);
        assert_eq!(level_for(75_000, 100_000), Some(Level::High));
        assert_eq!(level_for(89_999, 100_000), Some(Level::High));
        assert_eq!(level_for(90_000, 100_000), Some(Level::Critical));
        assert_eq!(level_for(100_005, 50_000), Some(Level::Critical));
        assert_eq!(level_for(1_000, 0), None);
    }

    #[test]
    fn pruning_limits_halve_under_pressure() {
        let high = ContextPressure {
            level: Level::High,
            percent: 80,
            tokens: 80,
            limit: 100,
        };
        assert_eq!(prune_limits(None), LIMITS);
        assert_eq!(prune_limits(Some(&high)), LIMITS.halved());
    }
}
