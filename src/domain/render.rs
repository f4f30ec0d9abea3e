//! Rendering blocks for the system prompt: whole lines only, within a character budget,
//! with no clock in them, so the same store always renders the same bytes.

use super::session::{ErrorStatus, SessionState};
use super::{active_files, open_errors, paths};

pub const HOT_STATE_HEADER: &str = "Hot session state (current session):";
/// Characters the hot-state block may take, newlines between lines included.
pub const HOT_STATE_BUDGET: usize = 1200;

/// A labelled list of lines, e.g. `open_errors:` and its `- …` lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub label: &'static str,
    pub lines: Vec<String>,
}

/// Lays out `header` and `sections` in display order within `budget` characters.
///
/// Lines are admitted section by section in `priority` order (indexes into `sections`), each
/// line whole or not at all, and a section's label costs its own line once its first line is
/// in; a line that does not fit is skipped so that shorter ones after it may still fit.
/// Returns "" when no line fits.
pub fn layout(header: &str, sections: &[Section], priority: &[usize], budget: usize) -> String {
    let line_cost = |text: &str| text.chars().count() + 1; // the newline before it
    let mut used = header.chars().count();
    let mut admitted: Vec<Vec<&str>> = vec![Vec::new(); sections.len()];
    for &index in priority {
        let section = &sections[index];
        for line in &section.lines {
            let label_cost = if admitted[index].is_empty() {
                line_cost(section.label)
            } else {
                0
            };
            let cost = label_cost + line_cost(line);
            if used + cost <= budget {
                used += cost;
                admitted[index].push(line);
            }
        }
    }
    if admitted.iter().all(Vec::is_empty) {
        return String::new();
    }
    let mut out = String::from(header);
    for (section, lines) in sections.iter().zip(&admitted) {
        if lines.is_empty() {
            continue;
        }
        out.push('\n');
        out.push_str(section.label);
        for line in lines {
            out.push('\n');
            out.push_str(line);
        }
    }
    out
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
    let files = Section {
        label: "active_files:",
        lines: active_files::ranked(&state.active_files)
            .into_iter()
            .take(active_files::SHOWN)
            .map(|f| {
                format!(
                    "- {} ({}, {}x)",
                    one_line(&paths::relative_to(root, &f.path)),
                    f.action.as_str(),
                    f.count
                )
            })
            .collect(),
    };
    let errors = Section {
        label: "open_errors:",
        lines: open_errors::shown(&state.open_errors)
            .into_iter()
            .map(|e| {
                let marker = match e.status {
                    ErrorStatus::Open => "",
                    ErrorStatus::MaybeFixed => " (maybe fixed)",
                };
                format!(
                    "- [{}] {}{marker}",
                    e.category.as_str(),
                    one_line(&e.summary)
                )
            })
            .collect(),
    };
    // Open errors matter more than the file list when the budget is tight.
    layout(
        HOT_STATE_HEADER,
        &[files, errors],
        &[1, 0],
        HOT_STATE_BUDGET,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::command::Category;
    use crate::domain::session::{ActiveFile, FileAction, OpenError};
    use serde_json::Map;

    fn section(label: &'static str, lines: &[&str]) -> Section {
        Section {
            label,
            lines: lines.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn layout_keeps_display_order_but_fills_by_priority() {
        let a = section("a:", &["- 1234567890", "- 1234567890"]);
        let b = section("b:", &["- x"]);
        // header(1) + "\nb:"(3) + "\n- x"(4) = 8; one a line costs 3 + 13 = 16.
        assert_eq!(
            layout("H", &[a.clone(), b.clone()], &[1, 0], 24),
            "H\na:\n- 1234567890\nb:\n- x"
        );
        assert_eq!(
            layout("H", &[a.clone(), b.clone()], &[1, 0], 23),
            "H\nb:\n- x"
        );
        assert_eq!(layout("H", &[a, b], &[0, 1], 23), "H\na:\n- 1234567890");
    }

    #[test]
    fn layout_skips_a_long_line_but_takes_later_short_ones() {
        let a = section("a:", &["- a very very very long line", "- ok"]);
        assert_eq!(layout("H", &[a], &[0], 12), "H\na:\n- ok");
    }

    #[test]
    fn layout_renders_nothing_when_nothing_fits() {
        assert_eq!(layout("H", &[section("a:", &[])], &[0], 100), "");
        assert_eq!(layout("H", &[section("a:", &["- too long"])], &[0], 5), "");
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
