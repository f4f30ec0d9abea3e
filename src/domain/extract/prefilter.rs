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
//! - a colon before a number (`src/a.ts:3:`, rubocop's `C:  3:  5:`).
//!
//! A rule added to the extractor must keep this true: the tests check it on every line of the
//! fixtures and on generated lines.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use memchr::memmem::Finder;

use super::{
    starts_with_lint_code, LOOSE_ERROR_WORDS, NATIVE_AND_SCRIPT_ERROR_FRAGMENTS,
    NATIVE_AND_SCRIPT_ERROR_STARTS, STRONG_FRAGMENTS, STRONG_STARTS, TEST_FAILED_STARTS,
    UNFORMATTED_FILE_STARTS, UNRESOLVED_DEPENDENCY_FRAGMENTS, VALIDATION_STARTS,
};

/// Stems in every exception name, error label and runner report, and what the shell-level
/// checks look for (`:in \``: a Ruby frame; `: line `: a shell's signal report).
const STEMS: &[&str] = &[
    "err",
    "fail",
    "exception",
    "panic",
    ":in `",
    ": line ",
    "not ok ",
];

/// Every trigger, matched in any case.
static TRIGGERS: LazyLock<AhoCorasick> = LazyLock::new(|| {
    let tables: [&[&str]; 10] = [
        STEMS,
        LOOSE_ERROR_WORDS,
        STRONG_STARTS,
        &STRONG_FRAGMENTS,
        VALIDATION_STARTS,
        &UNRESOLVED_DEPENDENCY_FRAGMENTS,
        NATIVE_AND_SCRIPT_ERROR_FRAGMENTS,
        NATIVE_AND_SCRIPT_ERROR_STARTS,
        TEST_FAILED_STARTS,
        UNFORMATTED_FILE_STARTS,
    ];
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(tables.iter().flat_map(|table| table.iter()))
        .expect("fixed triggers build an automaton")
});

static TYPESCRIPT_CODE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("TS"));

/// False only when `line` (trimmed, without escape codes) cannot be a strong or validation
/// error line.
pub(super) fn may_signal(line: &str) -> bool {
    line.starts_with("E ")
        || line.starts_with('^')
        || line.starts_with("== ")
        || starts_with_lint_code(line)
        || has_colon_before_number(line.as_bytes())
        || TYPESCRIPT_CODE.find(line.as_bytes()).is_some()
        || TRIGGERS.is_match(line)
}

/// `:` then, after spaces, a digit.
fn has_colon_before_number(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b':', bytes).any(|at| {
        bytes[at + 1..]
            .iter()
            .find(|b| **b != b' ')
            .is_some_and(u8::is_ascii_digit)
    })
}

#[cfg(test)]
mod tests;
