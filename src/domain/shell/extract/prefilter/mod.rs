//! A cheap necessary condition of a signal: a line for which `may_signal` is false is neither
//! a strong nor a validation error line, so the extractor and the pruner skip their checks on
//! it. Most lines of a long output (a passing test, a compiled crate, a listed path) fail it
//! after one pass of an automaton.
//!
//! Every check of `is_strong_error` and `is_validation_error` needs one of:
//! - a word or fragment of `TRIGGERS`, in any case: the loose error words and the stems
//!   (`err`, `fail`, `exception`, `panic`) that the exception names, runner reports and labels
//!   contain, and every fragment and line start of the extractor's tables;
//! - `TS` (a TypeScript code, `TS2345`);
//! - a line start: pytest's `E `, shellcheck's `^`, rubocop's `== file ==`, a lint code
//!   (`F401`);
//! - a line's first colon after a path and before a number (`src/a.ts:3:`), or after rubocop's
//!   severity letter (`C:  3:  5:`).
//!
//! A rule added to the extractor must keep this true: the tests check it on every line of the
//! fixtures and on generated lines.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind};
use memchr::memmem::Finder;

use super::{
    starts_with_lint_code, LOOSE_ERROR_WORDS, NATIVE_AND_SCRIPT_ERROR_FRAGMENTS,
    NATIVE_AND_SCRIPT_ERROR_STARTS, PYTEST_DETAIL_START, RUBOCOP_FILE_TITLE, RUBOCOP_SEVERITIES,
    RUBY_FRAME_METHOD, SHELL_LINE_MARK, STRONG_FRAGMENTS, STRONG_STARTS, STRONG_STARTS_ANY_CASE,
    TAP_FAILED_START, TEST_FAILED_STARTS, TEST_FAILURE_WORDS, UNFORMATTED_FILE_STARTS,
    UNRESOLVED_DEPENDENCY_FRAGMENTS, VALIDATION_STARTS,
};

/// Stems in every exception name, error label and runner report, and what the shell-level
/// checks look for (`:in \``: a Ruby frame; `: line `: a shell's signal report).
const STEMS: &[&str] = &[
    "err",
    "fail",
    "exception",
    "panic",
    RUBY_FRAME_METHOD,
    SHELL_LINE_MARK,
    TAP_FAILED_START,
];

/// Every trigger, matched in any case. A contiguous NFA, not the DFA the builder would choose
/// for so few patterns: a hook that reads one failing command's lines builds it, and building
/// the DFA was nine tenths of what recording a failure cost.
static TRIGGERS: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .kind(Some(AhoCorasickKind::ContiguousNFA))
        .build(trigger_words())
        .expect("fixed triggers build an automaton")
});

fn trigger_words() -> impl Iterator<Item = &'static &'static str> {
    let tables: [&'static [&'static str]; 12] = [
        STEMS,
        LOOSE_ERROR_WORDS,
        STRONG_STARTS,
        STRONG_STARTS_ANY_CASE,
        TEST_FAILURE_WORDS,
        &STRONG_FRAGMENTS,
        VALIDATION_STARTS,
        &UNRESOLVED_DEPENDENCY_FRAGMENTS,
        NATIVE_AND_SCRIPT_ERROR_FRAGMENTS,
        NATIVE_AND_SCRIPT_ERROR_STARTS,
        TEST_FAILED_STARTS,
        UNFORMATTED_FILE_STARTS,
    ];
    // A word holding a stem is found by the stem on the same line: leaving it out finds the
    // same lines with a smaller automaton, which every run that reads an output builds.
    tables
        .into_iter()
        .flatten()
        .filter(|word| STEMS.contains(word) || !STEMS.iter().any(|stem| holds(word, stem)))
}

/// Whether `word` contains `stem`, ASCII case ignored (as the automaton matches).
fn holds(word: &str, stem: &str) -> bool {
    word.as_bytes()
        .windows(stem.len())
        .any(|window| window.eq_ignore_ascii_case(stem.as_bytes()))
}

/// The same triggers as a DFA, for reading a whole output at once: slower to build, faster to
/// run, so it is built only for long outputs (see `lines_that_may_signal`).
static TRIGGERS_DFA: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .kind(Some(AhoCorasickKind::DFA))
        .build(trigger_words())
        .expect("fixed triggers build an automaton")
});

static TYPESCRIPT_CODE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("TS"));

/// False only when `line` (trimmed, without escape codes) cannot be a strong or validation
/// error line.
pub(super) fn may_signal(line: &str) -> bool {
    line.starts_with(PYTEST_DETAIL_START)
        || line.starts_with('^')
        || line.starts_with(RUBOCOP_FILE_TITLE.0)
        || starts_with_lint_code(line)
        || first_colon_may_be_located(line.as_bytes())
        || TYPESCRIPT_CODE.find(line.as_bytes()).is_some()
        || TRIGGERS.is_match(line)
}

/// `may_signal` for each of `lines`, slices of `text` in order (as `str::lines` cuts them),
/// reading the whole text once per search rather than each line again: what a long output
/// costs. A line holding an escape sequence or a carriage return (whose visible text is not
/// its bytes) may always signal.
pub(super) fn lines_that_may_signal(text: &str, lines: &[&str]) -> Vec<bool> {
    let bytes = text.as_bytes();
    let starts: Vec<usize> = lines
        .iter()
        .map(|line| line.as_ptr() as usize - text.as_ptr() as usize)
        .collect();
    let mut flags = vec![false; lines.len()];
    let mut mark = |offsets: &mut dyn Iterator<Item = usize>| {
        let mut line = 0;
        for offset in offsets {
            while line + 1 < starts.len() && starts[line + 1] <= offset {
                line += 1;
            }
            flags[line] = true;
        }
    };
    // No trigger holds a line break, so each match lies within one line.
    mark(&mut TRIGGERS_DFA.find_iter(text).map(|found| found.start()));
    mark(&mut TYPESCRIPT_CODE.find_iter(bytes));
    let mut line = 0;
    let located = memchr::memchr_iter(b':', bytes).filter(|at| {
        while line + 1 < starts.len() && starts[line + 1] <= *at {
            line += 1;
        }
        may_be_located(&bytes[starts[line]..*at], &bytes[at + 1..])
    });
    mark(&mut located.collect::<Vec<_>>().into_iter());
    for (flag, line) in flags.iter_mut().zip(lines) {
        if !*flag {
            let trimmed = line.trim();
            *flag = trimmed.starts_with(PYTEST_DETAIL_START)
                || trimmed.starts_with('^')
                || trimmed.starts_with(RUBOCOP_FILE_TITLE.0)
                || starts_with_lint_code(trimmed)
                || line.contains(['\r', '\x1b']);
        }
    }
    flags
}

/// `may_be_located` of the first colon of `line`.
fn first_colon_may_be_located(line: &[u8]) -> bool {
    memchr::memchr(b':', line).is_some_and(|at| may_be_located(&line[..at], &line[at + 1..]))
}

/// Whether the first colon of a line, between `before` (from the line's start) and `after`,
/// may be that of a located diagnostic (`src/a.rs:3:`: a path with a dot and no space, then
/// digits) or of rubocop's `C:  3:  5:` (its severity letter, then a number). A colon after another is
/// neither. Every other check that needs a colon has a trigger of its own.
fn may_be_located(before: &[u8], after: &[u8]) -> bool {
    if !before.is_ascii() {
        // Other whitespace may lead the line: not worth reading here.
        return true;
    }
    let before = before.trim_ascii_start();
    if memchr::memchr(b':', before).is_some() {
        return false;
    }
    let path = !before.contains(&b' ')
        && before.contains(&b'.')
        && after.first().is_some_and(u8::is_ascii_digit);
    let severity = before.trim_ascii_end();
    let offence = RUBOCOP_SEVERITIES
        .iter()
        .any(|letter| letter.as_bytes() == severity);
    path || offence && number_follows(after)
}

/// Whether `rest` starts with a digit, after spaces.
fn number_follows(rest: &[u8]) -> bool {
    rest.iter()
        .find(|b| **b != b' ')
        .is_some_and(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests;
