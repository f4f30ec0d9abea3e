//! Context pressure: how full the model's context window is, from the host's token counts.
//! The level only rises within a session (a warning that came and went would change the
//! prompt every turn); a compaction starts it over, since the prompt is new then anyway.

use serde::{Deserialize, Serialize};

use crate::domain::shell::prune::{Limits, LIMITS};

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

/// Tokens in use and the window they are counted against, as the host reported them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextUsage {
    pub tokens: u64,
    pub limit: u64,
}

/// The pressure to store when `usage` is seen in a session whose pressure is `current`: only
/// when its level is above the stored one, so the warning changes at most once per level.
pub fn raised(current: Option<&ContextPressure>, usage: ContextUsage) -> Option<ContextPressure> {
    let level = level_for(usage.tokens, usage.limit)?;
    if current.is_some_and(|stored| stored.level >= level) {
        return None;
    }
    Some(ContextPressure {
        level,
        percent: usage.tokens.saturating_mul(100) / usage.limit,
        tokens: usage.tokens,
        limit: usage.limit,
    })
}

/// The hot-state line of each level, for the model: what to do about it. `{percent}`,
/// `{tokens}` and `{limit}` are filled with the stored counts, never with text.
pub const WARNINGS: [(Level, &str); 2] = [
    (
        Level::High,
        "context {percent} % full ({tokens} of {limit} tokens): prefer targeted reads and grep \
         to whole files and long listings; long tool outputs are pruned harder from now on",
    ),
    (
        Level::Critical,
        "context {percent} % full ({tokens} of {limit} tokens): compaction is near: write down \
         what matters (decisions, findings, next steps) and finish the current step before \
         starting another",
    ),
];

/// The warning line of `pressure`, the same bytes for as long as it is stored.
pub fn warning_line(pressure: &ContextPressure) -> String {
    let template = WARNINGS
        .iter()
        .find(|(level, _)| *level == pressure.level)
        .map_or("", |(_, text)| *text);
    template
        .replace("{percent}", &pressure.percent.to_string())
        .replace("{tokens}", &pressure.tokens.to_string())
        .replace("{limit}", &pressure.limit.to_string())
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

    fn usage(tokens: u64, limit: u64) -> ContextUsage {
        ContextUsage { tokens, limit }
    }

    #[test]
    fn the_level_only_rises() {
        assert_eq!(raised(None, usage(37_499, 50_000)), None);
        let high = raised(None, usage(37_500, 50_000)).unwrap();
        assert_eq!(
            (high.level, high.percent, high.tokens, high.limit),
            (Level::High, 75, 37_500, 50_000)
        );
        // More tokens at the same level, or fewer: the stored counts stand.
        assert_eq!(raised(Some(&high), usage(44_000, 50_000)), None);
        assert_eq!(raised(Some(&high), usage(15, 50_000)), None);
        let critical = raised(Some(&high), usage(45_000, 50_000)).unwrap();
        assert_eq!((critical.level, critical.percent), (Level::Critical, 90));
        assert_eq!(raised(Some(&critical), usage(100_005, 50_000)), None);
        assert_eq!(raised(Some(&critical), usage(40_000, 50_000)), None);
        // Straight to critical from nothing: the recorded overflow.
        let over = raised(None, usage(100_005, 50_000)).unwrap();
        assert_eq!((over.level, over.percent), (Level::Critical, 200));
        assert_eq!(raised(None, usage(100_005, 0)), None);
    }

    #[test]
    fn the_warning_line_is_built_from_the_stored_counts() {
        let high = raised(None, usage(39_000, 50_000)).unwrap();
        let line = warning_line(&high);
        assert!(
            line.starts_with("context 78 % full (39000 of 50000 tokens): prefer targeted reads"),
            "{line}"
        );
        let critical = raised(Some(&high), usage(46_000, 50_000)).unwrap();
        let line = warning_line(&critical);
        assert!(
            line.starts_with("context 92 % full (46000 of 50000 tokens): compaction is near"),
            "{line}"
        );
        assert!(!line.contains('{') && !line.contains('\n'), "{line}");
        assert_eq!(line, warning_line(&critical.clone()));
    }
}
