//! The text `ocmem memory` prints for people: the table of entries, cut to the terminal's
//! width, coloured only on a terminal that wants colour, and one entry in full.

use crate::context::TerminalEnv;
use crate::domain::memory::workspace::MemoryEntry;
use crate::domain::steer::edit::{self, History, Listed, NotShown, NOT_SHOWN};

const BOLD: &str = "\x1b[1m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";
/// Columns between two cells.
const GAP: usize = 2;
/// The text column never gets narrower than this, however narrow the terminal.
const MIN_TEXT_WIDTH: usize = 12;

/// How many columns `c` takes on a terminal: 2 for the wide characters of East Asian scripts
/// and emoji, else 1 (stored text has no control or invisible characters).
fn char_width(c: char) -> usize {
    match c as u32 {
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1F64F
        | 0x1F900..=0x1F9FF
        | 0x20000..=0x3FFFD => 2,
        _ => 1,
    }
}

pub fn width(text: &str) -> usize {
    text.chars().map(char_width).sum()
}

/// `text` cut to at most `max` columns, ending in "…" when cut.
fn cut(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        if used + char_width(c) + 1 > max {
            break;
        }
        used += char_width(c);
        out.push(c);
    }
    out.push('…');
    out
}

fn pad(text: &str, columns: usize) -> String {
    format!("{text}{}", " ".repeat(columns.saturating_sub(width(text))))
}

/// What the SHOWN column says.
fn shown_cell(not_shown: Option<NotShown>) -> String {
    match not_shown {
        None => "yes".into(),
        Some(reason) => format!("no: {}", reason.label()),
    }
}

/// The table of `rows`: id, type, source, age, whether the block shows it, (score,) text.
pub fn entries(
    term: &TerminalEnv,
    rows: &[&Listed],
    now_ms: i64,
    scores: Option<&[f64]>,
) -> String {
    let mut head: Vec<&str> = vec!["ID", "TYPE", "SOURCE", "AGE", "SHOWN"];
    if scores.is_some() {
        head.push("SCORE");
    }
    let cells: Vec<Vec<String>> = rows
        .iter()
        .enumerate()
        .map(|(n, l)| {
            let mut row = vec![
                l.entry.id.clone(),
                l.entry.kind.as_str().to_string(),
                l.entry.source.as_str().to_string(),
                edit::age(&created(l.entry), now_ms),
                shown_cell(l.not_shown),
            ];
            if let Some(scores) = scores {
                row.push(format!("{:.2}", scores[n]));
            }
            row
        })
        .collect();
    let widths: Vec<usize> = (0..head.len())
        .map(|col| {
            cells
                .iter()
                .map(|r| width(&r[col]))
                .chain([head[col].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let before_text: usize = widths.iter().map(|w| w + GAP).sum();
    let text_width = term
        .columns
        .map(|c| c.saturating_sub(before_text).max(MIN_TEXT_WIDTH));
    let line = |cells: &[String], text: &str| -> String {
        let mut out: String = cells
            .iter()
            .zip(&widths)
            .map(|(cell, w)| pad(cell, w + GAP))
            .collect();
        out.push_str(&match text_width {
            Some(max) => cut(text, max),
            None => text.to_string(),
        });
        out.trim_end().to_string()
    };
    let style = |text: String, code: &str| {
        if term.colour {
            format!("{code}{text}{RESET}")
        } else {
            text
        }
    };
    let head_cells: Vec<String> = head.iter().map(|h| h.to_string()).collect();
    let mut out = style(line(&head_cells, "TEXT"), BOLD);
    out.push('\n');
    for (row, l) in cells.iter().zip(rows) {
        let text = line(row, &l.entry.text);
        out.push_str(&match l.not_shown {
            Some(_) => style(text, DIM),
            None => text,
        });
        out.push('\n');
    }
    out
}

fn created(entry: &MemoryEntry) -> String {
    if entry.created_at.is_empty() {
        entry.updated_at.clone()
    } else {
        entry.created_at.clone()
    }
}

/// `capped 2, superseded 3`: how many of `listed` are not shown, by reason.
pub fn reason_counts<'a>(listed: impl Iterator<Item = &'a Listed<'a>>) -> String {
    let listed: Vec<&Listed> = listed.collect();
    NOT_SHOWN
        .iter()
        .filter_map(|(reason, label, _)| {
            let n = listed
                .iter()
                .filter(|l| l.not_shown == Some(*reason))
                .count();
            (n > 0).then(|| format!("{label} {n}"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One entry in full, with its history.
pub fn show(
    entry: &MemoryEntry,
    not_shown: Option<NotShown>,
    archived: bool,
    history: &History,
    now_ms: i64,
) -> String {
    let mut out = String::new();
    let mut row = |label: &str, text: String| out.push_str(&format!("{label:<15}{text}\n"));
    row("id", entry.id.clone());
    row("type", entry.kind.as_str().into());
    row(
        "source",
        format!(
            "{} (confidence {})",
            entry.source.as_str(),
            entry.confidence
        ),
    );
    let status = match (not_shown, archived) {
        (_, true) => "superseded, archived by gc --sweep".to_string(),
        (None, _) => "active, shown in the block".to_string(),
        (Some(NotShown::Superseded), _) => "superseded".to_string(),
        (Some(reason), _) => format!("active, not shown: {}", reason.meaning()),
    };
    row("status", status);
    row(
        "created",
        format!(
            "{} ({} ago)",
            entry.created_at,
            edit::age(&entry.created_at, now_ms)
        ),
    );
    row("updated", entry.updated_at.clone());
    row("text", entry.text.clone());
    if let Some(why) = &entry.rationale {
        row("why", why.clone());
    }
    for link in &history.supersedes {
        row(
            "supersedes",
            format!(
                "{}{} ({}{})",
                link.id,
                link.text
                    .as_ref()
                    .map_or(String::new(), |t| format!(" \"{t}\"")),
                link.why,
                link.at
                    .as_ref()
                    .map_or(String::new(), |at| format!(", {at}")),
            ),
        );
    }
    if let Some(link) = &history.superseded_by {
        let by = if link.id.is_empty() {
            String::new()
        } else {
            format!(
                "{}{} ",
                link.id,
                link.text
                    .as_ref()
                    .map_or(String::new(), |t| format!(" \"{t}\""))
            )
        };
        row(
            "superseded",
            format!(
                "{by}({}{})",
                link.why,
                link.at
                    .as_ref()
                    .map_or(String::new(), |at| format!(", {at}"))
            ),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_counts_wide_characters_twice() {
        assert_eq!(cut("Use pnpm for all packages", 10), "Use pnpm …");
        assert_eq!(width(&cut("回复用户时请使用中文", 9)), 9);
        assert_eq!(cut("回复用户时请使用中文", 9), "回复用户…");
        assert_eq!(cut("short", 10), "short");
    }
}
