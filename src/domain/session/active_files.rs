//! Active files: which files the agent is working on, ranked by what it did to them and when.
//!
//! rank = (weight of the strongest action + 3 × touches) × 2^(−age / 30 min)
//!
//! where the weights are edit 50, write 45, grep 30, read 20, and `age` is measured from the
//! newest touch in the session, not from the wall clock, so the same store always ranks (and
//! renders) the same way. With a 30-minute half-life a file untouched for an hour keeps a
//! quarter of its rank: a file read once now (23) outranks one with the same history, or
//! even one edited five times (65 × ¼ ≈ 16), left alone for an hour. Ties go to the more
//! recent file, then to the path.

use std::cmp::Ordering;

use crate::domain::session::state::{ActiveFile, FileAction};
use serde_json::Map;

pub const STORED: usize = 20;
pub const SHOWN: usize = 8;
const PER_TOUCH: f64 = 3.0;
const HALF_LIFE_MS: f64 = 30.0 * 60.0 * 1000.0;

/// The rank of `file` when the newest activity of its session happened at `reference_ms`.
pub fn rank(file: &ActiveFile, reference_ms: i64) -> f64 {
    let age_ms = (reference_ms - file.last_seen).max(0) as f64;
    (file.action.weight() + PER_TOUCH * file.count as f64) * (-age_ms / HALF_LIFE_MS).exp2()
}

/// Files best first.
pub fn ranked(files: &[ActiveFile]) -> Vec<&ActiveFile> {
    let reference = files.iter().map(|f| f.last_seen).max().unwrap_or(0);
    let mut order: Vec<&ActiveFile> = files.iter().collect();
    order.sort_by(|a, b| compare(a, b, reference));
    order
}

fn compare(a: &ActiveFile, b: &ActiveFile, reference: i64) -> Ordering {
    rank(b, reference)
        .total_cmp(&rank(a, reference))
        .then(b.last_seen.cmp(&a.last_seen))
        .then_with(|| a.path.cmp(&b.path))
}

/// Records one touch of the file at absolute `path`. The file just touched is never the one
/// evicted to keep `STORED` entries.
pub fn touch(files: &mut Vec<ActiveFile>, path: &str, action: FileAction, now_ms: i64) {
    match files.iter_mut().find(|f| f.path == path) {
        Some(file) => {
            file.action = file.action.stronger(action);
            file.count += 1;
            file.last_seen = file.last_seen.max(now_ms);
        }
        None => files.push(ActiveFile {
            path: path.to_string(),
            action,
            count: 1,
            last_seen: now_ms,
            extra: Map::new(),
        }),
    }
    while files.len() > STORED {
        let reference = files.iter().map(|f| f.last_seen).max().unwrap_or(now_ms);
        let weakest = files
            .iter()
            .enumerate()
            .filter(|(_, f)| f.path != path)
            .max_by(|(_, a), (_, b)| compare(a, b, reference))
            .map(|(i, _)| i);
        match weakest {
            Some(i) => {
                files.remove(i);
            }
            None => break,
        }
    }
}

/// Drops a file that no longer exists (deleted by a patch).
pub fn forget(files: &mut Vec<ActiveFile>, path: &str) -> bool {
    let before = files.len();
    files.retain(|f| f.path != path);
    files.len() != before
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: i64 = 60_000;

    fn file(path: &str, action: FileAction, count: u64, last_seen: i64) -> ActiveFile {
        ActiveFile {
            path: path.into(),
            action,
            count,
            last_seen,
            extra: Map::new(),
        }
    }

    #[test]
    fn rank_follows_the_documented_formula() {
        let f = file("/a", FileAction::Edit, 5, 0);
        assert_eq!(rank(&f, 0), 65.0);
        assert_eq!(rank(&f, 30 * MIN), 32.5);
        assert_eq!(rank(&f, 60 * MIN), 16.25);
        assert_eq!(rank(&file("/b", FileAction::Read, 1, 0), 0), 23.0);
    }

    #[test]
    fn touching_merges_and_keeps_the_strongest_action() {
        let mut files = Vec::new();
        touch(&mut files, "/r/a.ts", FileAction::Read, 10);
        touch(&mut files, "/r/a.ts", FileAction::Edit, 20);
        touch(&mut files, "/r/a.ts", FileAction::Read, 30);
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].action, FileAction::Edit);
        assert_eq!(files[0].count, 3);
        assert_eq!(files[0].last_seen, 30);
    }

    #[test]
    fn a_new_file_displaces_an_hour_old_one_with_the_same_history() {
        let mut files: Vec<ActiveFile> = (0..STORED)
            .map(|i| file(&format!("/r/old{i:02}.ts"), FileAction::Read, 1, 0))
            .collect();
        // One of them stays fresh; the rest are an hour old when the new file arrives.
        files[7].last_seen = 60 * MIN;
        touch(&mut files, "/r/new.ts", FileAction::Read, 60 * MIN);
        assert_eq!(files.len(), STORED);
        assert!(files.iter().any(|f| f.path == "/r/new.ts"));
        assert!(files.iter().any(|f| f.path == "/r/old07.ts"));
        let order = ranked(&files);
        assert!(order[..2].iter().any(|f| f.path == "/r/new.ts"));
    }

    #[test]
    fn a_new_file_is_kept_even_among_twenty_strong_recent_ones() {
        let mut files: Vec<ActiveFile> = (0..STORED)
            .map(|i| file(&format!("/r/hot{i:02}.ts"), FileAction::Edit, 30, 100))
            .collect();
        touch(&mut files, "/r/new.ts", FileAction::Read, 100);
        assert_eq!(files.len(), STORED);
        assert!(files.iter().any(|f| f.path == "/r/new.ts"));
    }

    #[test]
    fn heavy_history_fades_after_hours() {
        let files = vec![
            file("/r/heavy.ts", FileAction::Edit, 20, 0),
            file("/r/new.ts", FileAction::Read, 1, 120 * MIN),
        ];
        let order = ranked(&files);
        assert_eq!(order[0].path, "/r/new.ts");
        let files = vec![
            file("/r/heavy.ts", FileAction::Edit, 20, 100 * MIN),
            file("/r/new.ts", FileAction::Read, 1, 120 * MIN),
        ];
        assert_eq!(ranked(&files)[0].path, "/r/heavy.ts");
    }

    #[test]
    fn ranking_ignores_the_clock_and_breaks_ties_by_recency_then_path() {
        let files = vec![
            file("/r/b.ts", FileAction::Read, 1, 5),
            file("/r/a.ts", FileAction::Read, 1, 5),
            file("/r/c.ts", FileAction::Read, 1, 5),
        ];
        let paths: Vec<&str> = ranked(&files).iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["/r/a.ts", "/r/b.ts", "/r/c.ts"]);
    }

    #[test]
    fn forgetting_removes_only_that_file() {
        let mut files = vec![
            file("/a", FileAction::Read, 1, 0),
            file("/b", FileAction::Read, 1, 0),
        ];
        assert!(forget(&mut files, "/a"));
        assert!(!forget(&mut files, "/a"));
        assert_eq!(files.len(), 1);
    }
}
