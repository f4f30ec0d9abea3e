//! A handoff note in Markdown from a session's digest: `## Now`, `## Decisions`, `## Next`,
//! `## Risks`, 3 to 5 bullets each. Every bullet ends with the digest field it comes from, so
//! a reader can check it; where the digest holds too little, a bullet says what is missing
//! (and names the empty field) rather than inventing anything.

use super::{cut, SessionDigest};

/// Bullets in each section, at least and at most.
pub const BULLETS_MIN: usize = 3;
pub const BULLETS_MAX: usize = 5;
/// Files named in one bullet.
const FILES_NAMED: usize = 4;

/// One bullet: what it says, and the digest field it says it from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bullet {
    pub text: String,
    pub field: &'static str,
}

fn bullet(text: impl Into<String>, field: &'static str) -> Bullet {
    Bullet {
        text: text.into(),
        field,
    }
}

/// The four sections, each with its bullets.
pub fn sections(d: &SessionDigest) -> [(&'static str, Vec<Bullet>); 4] {
    [
        ("Now", now(d)),
        ("Decisions", decisions(d)),
        ("Next", next(d)),
        ("Risks", risks(d)),
    ]
}

/// The note: a title line, where it comes from, and the four sections.
pub fn handoff(d: &SessionDigest) -> String {
    let mut out = format!("# Handoff: {}\n\n", d.title());
    out.push_str(&format!(
        "From {} session `{}`, {} to {}.\n",
        d.host,
        d.session_id,
        d.started_at,
        if d.ended_at.is_empty() {
            "now"
        } else {
            &d.ended_at
        }
    ));
    for (heading, bullets) in sections(d) {
        out.push_str(&format!("\n## {heading}\n\n"));
        for b in bullets {
            out.push_str(&format!("- {} `[{}]`\n", b.text, b.field));
        }
    }
    out
}

fn now(d: &SessionDigest) -> Vec<Bullet> {
    let mut bullets = Vec::new();
    if !d.latest_request.is_empty() {
        bullets.push(bullet(
            format!("Latest request: \"{}\"", d.latest_request),
            "latestRequest",
        ));
    }
    if !d.first_request.is_empty() && d.first_request != d.latest_request {
        bullets.push(bullet(
            format!("The session began with: \"{}\"", d.first_request),
            "firstRequest",
        ));
    }
    if !d.files_edited.is_empty() {
        bullets.push(bullet(
            format!("Edited {}", files(&d.files_edited)),
            "filesEdited",
        ));
    }
    if let Some(fixed) = list(&d.fixed_errors) {
        bullets.push(bullet(format!("Fixed: {fixed}"), "fixedErrors"));
    }
    if let Some(passed) = list(&d.validations) {
        bullets.push(bullet(format!("Passed: {passed}"), "validations"));
    }
    pad(
        bullets,
        &[
            ("No file was edited", "filesEdited"),
            ("No validation command passed", "validations"),
            ("No error was fixed", "fixedErrors"),
        ],
    )
}

fn decisions(d: &SessionDigest) -> Vec<Bullet> {
    let mut bullets: Vec<Bullet> = d
        .decisions
        .iter()
        .rev()
        .map(|text| bullet(text.clone(), "decisions"))
        .collect();
    bullets.extend(
        d.memories
            .iter()
            .rev()
            .map(|text| bullet(format!("Remembered: {text}"), "memories")),
    );
    pad(
        bullets,
        &[
            ("No decision was recorded", "decisions"),
            ("No memory was captured", "memories"),
            (
                "Nothing else was decided on record: ask before assuming",
                "sessionID",
            ),
        ],
    )
}

fn next(d: &SessionDigest) -> Vec<Bullet> {
    let mut bullets: Vec<Bullet> = d
        .next_steps
        .iter()
        .map(|step| bullet(step.clone(), "nextSteps"))
        .collect();
    bullets.extend(
        d.open_errors
            .iter()
            .map(|e| bullet(format!("Fix: {e}"), "openErrors")),
    );
    if !d.latest_request.is_empty() {
        bullets.push(bullet(
            format!("Check that \"{}\" is done", cut(&d.latest_request, 120)),
            "latestRequest",
        ));
    }
    pad(
        bullets,
        &[
            ("No next step was stated", "nextSteps"),
            ("No error was left open", "openErrors"),
            ("No request was recorded to continue from", "latestRequest"),
        ],
    )
}

fn risks(d: &SessionDigest) -> Vec<Bullet> {
    let mut bullets: Vec<Bullet> = d
        .open_errors
        .iter()
        .map(|e| bullet(format!("Still failing: {e}"), "openErrors"))
        .collect();
    if !d.files_edited.is_empty() && d.validations.is_empty() {
        bullets.push(bullet(
            format!(
                "Edits to {} were not followed by a passing validation command",
                files(&d.files_edited)
            ),
            "validations",
        ));
    }
    if d.next_steps.is_empty() {
        bullets.push(bullet(
            "No compaction summary stated what comes next: the plan may be in the conversation only",
            "nextSteps",
        ));
    }
    if d.ended_by.is_none() {
        bullets.push(bullet(
            "The session did not end or compact on record: later work may be missing",
            "endedBy",
        ));
    }
    pad(
        bullets,
        &[
            ("No error was left open", "openErrors"),
            (
                "This note is a recollection: check the working tree before relying on it",
                "endedAt",
            ),
            ("Secrets in requests were redacted", "latestRequest"),
        ],
    )
}

/// Files named, the rest counted.
fn files(paths: &[String]) -> String {
    let named: Vec<String> = paths
        .iter()
        .rev()
        .take(FILES_NAMED)
        .map(|p| format!("`{p}`"))
        .collect();
    let more = paths.len().saturating_sub(FILES_NAMED);
    if more == 0 {
        named.join(", ")
    } else {
        format!("{} and {more} more", named.join(", "))
    }
}

/// Items joined with "; ", newest first; `None` when there are none.
fn list(items: &[String]) -> Option<String> {
    (!items.is_empty()).then(|| {
        let named: Vec<&str> = items.iter().rev().take(3).map(String::as_str).collect();
        named.join("; ")
    })
}

/// At most `BULLETS_MAX` bullets, brought up to `BULLETS_MIN` with the fallbacks whose field
/// no bullet already comes from (each list names distinct fields, so enough are left).
fn pad(mut bullets: Vec<Bullet>, fallbacks: &[(&str, &'static str)]) -> Vec<Bullet> {
    bullets.truncate(BULLETS_MAX);
    for (text, field) in fallbacks {
        if bullets.len() >= BULLETS_MIN {
            break;
        }
        if !bullets.iter().any(|b| b.field == *field) {
            bullets.push(bullet(*text, field));
        }
    }
    bullets
}
