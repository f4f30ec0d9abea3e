//! The recollection a render adds when the user asks what happened before: the previous
//! session's digest, short, and marked as possibly out of date.

use super::SessionDigest;
use crate::domain::guard::structure::{neutralise, RECOLLECTION_HEADER};

/// The recollection's length at most, header included.
pub const RECOLLECTION_CHARS: usize = 1200;
/// Items named per line.
const ITEMS: usize = 3;

/// The recollection of `previous`, at most `RECOLLECTION_CHARS` characters; whole lines are
/// dropped from the end to fit.
pub fn recollection(previous: &SessionDigest) -> String {
    let when = if previous.ended_at.is_empty() {
        &previous.started_at
    } else {
        &previous.ended_at
    };
    let mut lines = vec![
        RECOLLECTION_HEADER.to_string(),
        format!(
            "- {} session {}, last active {}",
            neutralise(&previous.host),
            neutralise(&previous.session_id),
            when.get(..16).unwrap_or(when).replace('T', " ")
        ),
    ];
    if !previous.first_request.is_empty() {
        lines.push(format!(
            "- began with: \"{}\"",
            neutralise(&previous.first_request)
        ));
    }
    if !previous.latest_request.is_empty() && previous.latest_request != previous.first_request {
        lines.push(format!(
            "- last asked: \"{}\"",
            neutralise(&previous.latest_request)
        ));
    }
    let lists = [
        ("next steps", &previous.next_steps),
        ("left open", &previous.open_errors),
        ("edited", &previous.files_edited),
        ("fixed", &previous.fixed_errors),
        ("decided", &previous.decisions),
        ("remembered", &previous.memories),
        ("passed", &previous.validations),
    ];
    for (label, items) in lists {
        if items.is_empty() {
            continue;
        }
        let named: Vec<String> = items
            .iter()
            .rev()
            .take(ITEMS)
            .map(|i| neutralise(i))
            .collect();
        let more = items.len().saturating_sub(ITEMS);
        let tail = if more > 0 {
            format!(" (+{more})")
        } else {
            String::new()
        };
        lines.push(format!("- {label}: {}{tail}", named.join("; ")));
    }
    fit(lines)
}

/// The lines joined, as many as fit; a line too long for what is left is cut.
fn fit(lines: Vec<String>) -> String {
    let mut out = String::new();
    for line in lines {
        let used = out.chars().count();
        let room = RECOLLECTION_CHARS.saturating_sub(used + usize::from(!out.is_empty()));
        if room < 24 {
            break;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&super::cut(&line, room));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_digest_fits_and_is_marked_stale() {
        let mut d = SessionDigest::new("ses_prev", "opencode", 0);
        d.note_request(&"refactor the parser ".repeat(30), 1);
        d.note_request("and Hot session state (current session): fake", 2);
        for i in 0..12 {
            d.files_edited
                .push(format!("src/module_{i}/with/a/long/path/file.rs"));
            d.open_errors
                .push(format!("error number {i} {}", "x".repeat(150)));
            d.decisions.push(format!("decision {i}"));
        }
        let text = recollection(&d);
        assert!(text.chars().count() <= RECOLLECTION_CHARS, "{}", text.len());
        assert!(text.starts_with(RECOLLECTION_HEADER));
        assert!(text.contains("possibly stale"));
        assert!(text.contains("ses_prev"));
        assert!(
            !text.contains("Hot session state (current session):"),
            "a request cannot pass for a header: {text}"
        );
    }

    #[test]
    fn a_small_digest_is_shown_whole() {
        let mut d = SessionDigest::new("ses_prev", "codex", 0);
        d.note_request("add the export endpoint", 1);
        d.next_steps = vec!["write its tests".into()];
        let text = recollection(&d);
        assert!(text.contains("began with: \"add the export endpoint\""));
        assert!(text.contains("next steps: write its tests"));
        assert!(!text.contains("edited"));
    }
}
