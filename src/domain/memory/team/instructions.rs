//! The team memory as a marked section of an agent's own instruction file (`AGENTS.md`,
//! `CLAUDE.md`), for teammates whose agent runs without ocmem. Only the bytes between the
//! markers, markers included, are ever replaced: everything else in the file, its line
//! endings and a missing final newline stay as they were.

use std::fmt::Write as _;

use super::{TeamEntry, SECTIONS, TEAM_FILE};

/// The markers around the section, each on a line of its own.
pub const START: &str = "<!-- ocmem:team-memory:start -->";
pub const END: &str = "<!-- ocmem:team-memory:end -->";

/// Why a file's section cannot be updated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenMarkers {
    pub starts: usize,
    pub ends: usize,
}

impl BrokenMarkers {
    pub fn describe(&self) -> String {
        format!(
            "its ocmem section is broken ({} start and {} end markers, expected one `{START}` before one `{END}`): fix or remove them by hand",
            self.starts, self.ends
        )
    }
}

/// The section for `entries`, markers included, lines ended by `eol`, no trailing newline.
pub fn section(entries: &[TeamEntry], eol: &str) -> String {
    let mut lines = vec![
        START.to_string(),
        "## Team memory".to_string(),
        String::new(),
        format!(
            "Written by `ocmem memory export` from `{TEAM_FILE}`: edit that file, not this section."
        ),
    ];
    for (kind, heading) in SECTIONS {
        let mut bullets: Vec<&TeamEntry> = entries.iter().filter(|e| e.kind == kind).collect();
        if bullets.is_empty() {
            continue;
        }
        bullets.sort_by(|a, b| a.id.cmp(&b.id));
        lines.push(String::new());
        lines.push(format!("### {heading}"));
        lines.push(String::new());
        for entry in bullets {
            let mut line = format!("- {}", entry.text);
            if let Some(why) = entry.rationale.as_deref().filter(|w| !w.is_empty()) {
                let _ = write!(line, " Why: {why}");
            }
            lines.push(line);
        }
    }
    lines.push(END.to_string());
    lines.join(eol)
}

/// `existing` (None: no file yet) with its section replaced by, or else followed by, the one
/// for `entries`. Fails, changing nothing, when the markers are not exactly one pair in order.
pub fn splice(existing: Option<&str>, entries: &[TeamEntry]) -> Result<String, BrokenMarkers> {
    let Some(existing) = existing else {
        return Ok(format!("{}\n", section(entries, "\n")));
    };
    let eol = if existing.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let new = section(entries, eol);
    let starts: Vec<usize> = existing.match_indices(START).map(|(at, _)| at).collect();
    let ends: Vec<usize> = existing.match_indices(END).map(|(at, _)| at).collect();
    match (starts.as_slice(), ends.as_slice()) {
        ([], []) => {
            let mut out = existing.to_string();
            if !out.is_empty() {
                if !out.ends_with('\n') {
                    out.push_str(eol);
                }
                out.push_str(eol);
            }
            out.push_str(&new);
            out.push_str(eol);
            Ok(out)
        }
        ([start], [end]) if start < end => Ok(format!(
            "{}{new}{}",
            &existing[..*start],
            &existing[end + END.len()..]
        )),
        _ => Err(BrokenMarkers {
            starts: starts.len(),
            ends: ends.len(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::memory::kind::MemoryType;
    use crate::domain::memory::team::entry_with_id as entry;

    #[test]
    fn the_rest_of_the_file_is_kept_byte_for_byte() {
        let first = [entry("0a000000", MemoryType::Project, "Use pnpm")];
        let second = [entry("0b000000", MemoryType::Decision, "Postgres 16 only")];
        let before = "# Agents\r\n\r\nRun `make check`.";
        let once = splice(Some(before), &first).unwrap();
        assert!(once.starts_with(before), "{once:?}");
        assert!(once.contains("- Use pnpm\r\n"), "{once:?}");
        let twice = splice(Some(&once), &second).unwrap();
        let at = twice.find(START).unwrap();
        assert_eq!(&twice[..at], &once[..at]);
        assert!(twice.contains("Postgres 16 only") && !twice.contains("Use pnpm"));
        assert_eq!(splice(Some(&twice), &second).unwrap(), twice);
    }

    #[test]
    fn broken_markers_are_refused() {
        let entries = [entry("0a000000", MemoryType::Project, "Use pnpm")];
        for text in [
            format!("{START}\nold\n"),
            format!("{END}\nold\n{START}\n"),
            format!("{START}\n{END}\n{START}\n{END}\n"),
        ] {
            assert!(splice(Some(&text), &entries).is_err(), "{text:?}");
        }
    }
}
