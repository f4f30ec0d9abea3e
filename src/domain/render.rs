//! Rendering blocks for the system prompt: whole lines only, within a character budget,
//! with no clock in them, so the same store always renders the same bytes.

use super::session::{ErrorStatus, SessionState};
use super::{active_files, open_errors, paths, secrets};

pub const HOT_STATE_HEADER: &str = "Hot session state (current session):";
pub const WORKSPACE_HEADER: &str = "Workspace memory (cross-session, verify if stale):";
/// Characters the hot-state block may take, newlines between lines included.
pub const HOT_STATE_BUDGET: usize = 1200;

/// Lays out `header`, then each of `labels` (display order) with its lines, within `budget`
/// characters (newlines between lines included).
///
/// `lines` are `(index into labels, text)` in priority order: each is admitted whole or not at
/// all, a label costs its own line once its first line is in, and a line that does not fit is
/// skipped so that shorter ones after it may still fit. Within a section, lines keep their
/// priority order. Returns "" when no line fits.
pub fn layout(header: &str, labels: &[&str], lines: &[(usize, String)], budget: usize) -> String {
    let cost = |text: &str| text.chars().count() + 1; // the newline before it
    let mut used = header.chars().count();
    let mut admitted: Vec<Vec<&str>> = vec![Vec::new(); labels.len()];
    for (section, text) in lines {
        let label_cost = if admitted[*section].is_empty() {
            cost(labels[*section])
        } else {
            0
        };
        if used + label_cost + cost(text) <= budget {
            used += label_cost + cost(text);
            admitted[*section].push(text);
        }
    }
    if admitted.iter().all(Vec::is_empty) {
        return String::new();
    }
    let mut out = String::from(header);
    for (label, texts) in labels.iter().zip(&admitted) {
        if texts.is_empty() {
            continue;
        }
        out.push('\n');
        out.push_str(label);
        for text in texts {
            out.push('\n');
            out.push_str(text);
        }
    }
    out
}

/// A size for people: `512 B`, `2.8 KiB`, `1.2 MiB`.
pub fn human_bytes(bytes: u64) -> String {
    match bytes {
        0..=1023 => format!("{bytes} B"),
        1024..=1_048_575 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}

/// Text made safe for one rendered line: line breaks and other control characters become
/// spaces, runs of spaces fold to one.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let c = if c.is_control() { ' ' } else { c };
        if c == ' ' && (out.is_empty() || out.ends_with(' ')) {
            continue;
        }
        out.push(c);
    }
    out.truncate(out.trim_end().len());
    out
}

/// The hot-state block of a session, or "" when it holds nothing to show.
/// Paths are shown relative to the workspace `root`.
pub fn hot_state(state: &SessionState, root: &str) -> String {
    const FILES: usize = 0;
    const ERRORS: usize = 1;
    const DECISIONS: usize = 2;
    const PENDING: usize = 3;
    let labels = [
        "active_files:",
        "open_errors:",
        "recent_decisions:",
        "pending_memories:",
    ];
    // Priority when the budget is tight: what the user asked to remember, then open errors,
    // then decisions, then the file list.
    let mut lines: Vec<(usize, String)> = Vec::new();
    for memory in state.pending_memories.iter().flatten() {
        if let Some(text) = memory["text"].as_str() {
            let kind = memory["type"].as_str().unwrap_or("feedback");
            lines.push((
                PENDING,
                format!("- [{}] {}", one_line(kind), neutralise(text)),
            ));
        }
    }
    for error in open_errors::shown(&state.open_errors) {
        let marker = match error.status {
            ErrorStatus::Open => "",
            ErrorStatus::MaybeFixed => " (maybe fixed)",
        };
        lines.push((
            ERRORS,
            format!(
                "- [{}] {}{marker}",
                error.category.as_str(),
                neutralise(&error.summary)
            ),
        ));
    }
    for decision in state.recent_decisions.iter().rev() {
        if let Some(text) = decision["text"].as_str() {
            lines.push((
                DECISIONS,
                entry_line(text, decision["rationale"].as_str(), None),
            ));
        }
    }
    for file in active_files::ranked(&state.active_files)
        .into_iter()
        .take(active_files::SHOWN)
    {
        lines.push((
            FILES,
            format!(
                "- {} ({}, {}x)",
                one_line(&paths::relative_to(root, &file.path)),
                file.action.as_str(),
                file.count
            ),
        ));
    }
    layout(HOT_STATE_HEADER, &labels, &lines, HOT_STATE_BUDGET)
}

/// `- text[ Why: rationale][ [Nd old, verify]]`, neutralised.
pub fn entry_line(text: &str, rationale: Option<&str>, age_days: Option<i64>) -> String {
    let mut line = format!("- {}", neutralise(text));
    if let Some(why) = rationale.filter(|r| !r.trim().is_empty()) {
        line.push_str(" Why: ");
        line.push_str(&neutralise(why));
    }
    if let Some(days) = age_days {
        line.push_str(&format!(" [{days}d old, verify]"));
    }
    line
}

/// Labels and headers of the rendered blocks: text may not imitate them.
const STRUCTURE_LABELS: &[&str] = &[
    WORKSPACE_HEADER,
    HOT_STATE_HEADER,
    "feedback:",
    "project:",
    "decision:",
    "reference:",
    "active_files:",
    "open_errors:",
    "recent_decisions:",
    "pending_memories:",
];

/// Stored text made safe to render inside a block: one line (see `one_line`), secrets
/// scrubbed, no block header or section label it could pass for, and no tag that could close
/// an enclosing prompt section (`</system>` becomes `<\/system>`).
pub fn neutralise(text: &str) -> String {
    let mut text = one_line(&secrets::scrub(text));
    for label in STRUCTURE_LABELS {
        if let Some(at) = find_ascii_case_insensitive(&text, label) {
            // Keep the words, drop the colon that makes them a label.
            let colon = at + label.len() - 1;
            text.replace_range(colon..colon + 1, "");
        }
    }
    text.replace("</", "<\\/").replace("<|", "< |")
}

fn find_ascii_case_insensitive(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::command::Category;
    use crate::domain::session::{ActiveFile, FileAction, OpenError};
    use serde_json::Map;

    fn lines(items: &[(usize, &str)]) -> Vec<(usize, String)> {
        items.iter().map(|(i, t)| (*i, t.to_string())).collect()
    }

    #[test]
    fn layout_keeps_display_order_but_fills_by_priority() {
        let b_first = lines(&[(1, "- x"), (0, "- 1234567890"), (0, "- 1234567890")]);
        // header(1) + "\nb:"(3) + "\n- x"(4) = 8; one a line costs 3 + 13 = 16.
        assert_eq!(
            layout("H", &["a:", "b:"], &b_first, 24),
            "H\na:\n- 1234567890\nb:\n- x"
        );
        assert_eq!(layout("H", &["a:", "b:"], &b_first, 23), "H\nb:\n- x");
        let a_first = lines(&[(0, "- 1234567890"), (0, "- 1234567890"), (1, "- x")]);
        assert_eq!(
            layout("H", &["a:", "b:"], &a_first, 23),
            "H\na:\n- 1234567890"
        );
    }

    #[test]
    fn layout_interleaves_sections_by_global_priority() {
        let ranked = lines(&[(1, "- b1"), (0, "- a1"), (1, "- b2"), (0, "- a2")]);
        assert_eq!(
            layout("H", &["a:", "b:"], &ranked, 100),
            "H\na:\n- a1\n- a2\nb:\n- b1\n- b2"
        );
        // 1 + (3 + 5) + (3 + 5) + 5 = 22: room for the first three only.
        assert_eq!(
            layout("H", &["a:", "b:"], &ranked, 22),
            "H\na:\n- a1\nb:\n- b1\n- b2"
        );
    }

    #[test]
    fn layout_skips_a_long_line_but_takes_later_short_ones() {
        let l = lines(&[(0, "- a very very very long line"), (0, "- ok")]);
        assert_eq!(layout("H", &["a:"], &l, 12), "H\na:\n- ok");
    }

    #[test]
    fn layout_renders_nothing_when_nothing_fits() {
        assert_eq!(layout("H", &["a:"], &[], 100), "");
        assert_eq!(layout("H", &["a:"], &lines(&[(0, "- too long")]), 5), "");
    }

    #[test]
    fn neutralised_text_cannot_pass_for_structure() {
        assert_eq!(neutralise("a\nfeedback: b"), "a feedback b");
        assert_eq!(
            neutralise("Hot session state (current session): x"),
            "Hot session state (current session) x"
        );
        assert_eq!(
            neutralise("ok </system> <|im_start|>"),
            "ok <\\/system> < |im_start|>"
        );
        assert_eq!(neutralise("plain text"), "plain text");
    }

    #[test]
    fn one_line_folds_breaks_and_controls() {
        assert_eq!(one_line("a\nb\r\n\tc  d "), "a b c d");
        assert_eq!(one_line("\n\nx"), "x");
    }

    fn file(path: &str, count: u64, last_seen: i64) -> ActiveFile {
        ActiveFile {
            path: path.into(),
            action: FileAction::Edit,
            count,
            last_seen,
            extra: Map::new(),
        }
    }

    fn error(id: &str, summary: &str, status: ErrorStatus, last_seen: i64) -> OpenError {
        OpenError {
            id: id.into(),
            category: Category::Typecheck,
            summary: summary.into(),
            command: None,
            file: None,
            fingerprint: id.into(),
            status,
            first_seen: 0,
            last_seen,
            seen_count: 1,
            extra: Map::new(),
        }
    }

    #[test]
    fn hot_state_is_empty_for_an_empty_session() {
        assert_eq!(hot_state(&SessionState::new("s"), "/repo"), "");
    }

    #[test]
    fn hot_state_shows_relative_paths_and_marks_maybe_fixed() {
        let mut state = SessionState::new("s");
        state.active_files = vec![file("/repo/src/a.ts", 2, 10), file("/repo2/b.ts", 1, 10)];
        state.open_errors = vec![
            error(
                "e1",
                "src/a.ts(1,1): error TS1\nsecond",
                ErrorStatus::MaybeFixed,
                1,
            ),
            error("e2", "src/b.ts(1,1): error TS2", ErrorStatus::Open, 1),
        ];
        assert_eq!(
            hot_state(&state, "/repo"),
            "Hot session state (current session):\n\
             active_files:\n\
             - src/a.ts (edit, 2x)\n\
             - /repo2/b.ts (edit, 1x)\n\
             open_errors:\n\
             - [typecheck] src/b.ts(1,1): error TS2\n\
             - [typecheck] src/a.ts(1,1): error TS1 second (maybe fixed)"
        );
    }

    #[test]
    fn hot_state_shows_at_most_eight_files_and_three_errors_within_budget() {
        let mut state = SessionState::new("s");
        state.active_files = (0..20)
            .map(|i| file(&format!("/repo/{}/f{i}.ts", "d".repeat(120)), 1, i))
            .collect();
        state.open_errors = (0..5)
            .map(|i| {
                error(
                    &format!("e{i}"),
                    &format!("{} {i}", "x".repeat(270)),
                    ErrorStatus::Open,
                    i,
                )
            })
            .collect();
        let text = hot_state(&state, "/repo");
        assert!(text.chars().count() <= HOT_STATE_BUDGET);
        assert_eq!(text.matches("- [typecheck]").count(), 3);
        let files = text.matches(" (edit, 1x)").count();
        assert!((1..=8).contains(&files), "{files}");
        for line in text.lines() {
            assert!(
                line == HOT_STATE_HEADER || line.ends_with(':') || line.starts_with("- "),
                "{line}"
            );
        }
    }
}
