//! Secret scrubbing: every secret in a text becomes `[REDACTED:<kind>]`, before the text is
//! stored and again before it is rendered into a prompt.
//!
//! Every rule is one row of `RULES` in `rules.rs`: the kind it reports, the cheap literals
//! (triggers) that must occur in the text for it to apply, its pattern, and a last check on
//! the matched value.
//! A rule's regex is compiled the first time one of its triggers occurs, so text that mentions
//! nothing secret-like compiles no regex at all. In a fresh process compiling one costs 0.05 to
//! 0.3 ms, so triggers are as narrow as the pattern allows: `password`, not `pass` (which
//! `3 passed` contains), and only where used as a name (`password:`, not "the password").
//!
//! - Where a pattern has a group named `secret`, only that group is replaced: names, separators,
//!   quotes, URL schemes, users and hosts, and `Authorization` schemes stay readable.
//! - Overlapping matches merge into one redaction. Its kind is that of the match that starts
//!   first or, at the same start, of the rule listed first; so `token: ghp_…` reports `github`
//!   and `sk-ant-…` reports `anthropic` rather than `openai`.
//! - A value that already contains `[REDACTED:` is never redacted again, which (with the
//!   patterns never matching inside a placeholder) makes `scrub` idempotent.
//!
//! For the generic `name = value` rules and the password labels a value counts as a secret
//! only if it has at least 8 characters that mix letters and digits or include a symbol, and
//! is not a placeholder (`********`, `<token>`, `${DB_PASSWORD}`, `$(cmd)`, `%VAR%`,
//! `{{ secrets.X }}`, `your_key`, `changeme`, …), code (`get_token()`, `settings.SECRET`,
//! `Option<String>`), a path or a URL. So a number (`TOKEN_LIMIT=4096`, also
//! `password=12345678`) or a single word (`password: changeme`, `token: TokenKind`) is left
//! alone; digits alone are a secret only after a PIN label. Looking like a placeholder or like
//! code takes more than the first character or a dot: what follows `$`, `%` or `{`, and each
//! part of a dotted value, must read as a name, and `<…>` or `(…)` must hold words, so
//! `$ecretP4ss`, `<Xk29vLq8ZrTm>` and `P4ss.w0rd2024` are secrets. A value runs on through `&`
//! unless a query parameter (`&name=`) follows.
//!
//! Where things live:
//! - this file: `scrub` and `secret_kinds`, which repeat passes until nothing is found;
//! - `rules.rs`: the table of rules, one row per credential format, and their checks;
//! - `prefilter.rs`: the triggers, which decide whether a rule's regex is compiled and run;
//! - `placeholders.rs`: what a generic value must look like to be a secret, and the
//!   placeholders, references, code and paths that are kept;
//! - `redactions.rs`: one pass: matching, trimming a match to its value, merging, replacing;
//! - `tests.rs` and `tests/`: unit and property tests, by concern.

mod placeholders;
mod prefilter;
mod redactions;
mod rules;
#[cfg(test)]
mod tests;

use std::borrow::Cow;

use redactions::{find_redactions, replace};

/// The start of every replacement. A value containing it is never redacted again. Every value
/// that a check can reject admits `[`, letters and `:`, so one that runs into a replacement
/// contains it, rather than stopping short of it and passing a check it failed before.
pub const REDACTED_PREFIX: &str = "[REDACTED:";

/// Passes `scrub` makes at most. Replacing a secret can change what the text around it looks
/// like (a word boundary appears where a key ended), so a pass may find what the one before
/// could not (a key glued to the end of another shows only once the first is replaced). One
/// or two passes find everything in every case the tests know of; the cap only keeps a
/// pathological text from costing more.
const MAX_PASSES: usize = 8;

/// `text` with every secret replaced by `[REDACTED:<kind>]`. Borrowed when nothing was found.
/// Idempotent: `scrub(scrub(x)) == scrub(x)`.
pub fn scrub(text: &str) -> Cow<'_, str> {
    scrub_and_report(text).0
}

/// The kinds of secret found in `text`, in order of appearance, deduplicated (for audits:
/// "entries that still contain a secret"): exactly the kinds `scrub` writes.
pub fn secret_kinds(text: &str) -> Vec<&'static str> {
    scrub_and_report(text).1
}

/// Scrubs until a pass finds nothing, so that the result is a fixed point.
fn scrub_and_report(text: &str) -> (Cow<'_, str>, Vec<&'static str>) {
    let mut scrubbed = Cow::Borrowed(text);
    // Where each replacement is in the text so far: a later pass may find a secret before one
    // an earlier pass replaced (a key glued to the end of another shows once the first is
    // replaced), and the kinds are reported in the order of their replacements in the text.
    let mut written: Vec<(usize, &'static str)> = Vec::new();
    for _ in 0..MAX_PASSES {
        let redactions = find_redactions(&scrubbed);
        if redactions.is_empty() {
            break;
        }
        let growth = |kind: &str, range: &std::ops::Range<usize>| {
            (REDACTED_PREFIX.len() + kind.len() + 1) as isize - range.len() as isize
        };
        for (at, _) in written.iter_mut() {
            let before: isize = redactions
                .iter()
                .filter(|r| r.range.end <= *at)
                .map(|r| growth(r.kind, &r.range))
                .sum();
            *at = at.saturating_add_signed(before);
        }
        let mut shift = 0isize;
        for redaction in &redactions {
            written.push((
                redaction.range.start.saturating_add_signed(shift),
                redaction.kind,
            ));
            shift += growth(redaction.kind, &redaction.range);
        }
        scrubbed = Cow::Owned(replace(&scrubbed, &redactions));
    }
    written.sort_by_key(|(at, _)| *at);
    let mut kinds = Vec::new();
    for (_, kind) in written {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    (scrubbed, kinds)
}
