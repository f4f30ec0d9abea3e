//! Unit and property tests of the scrubber, one file per concern under `tests/`, and the
//! helpers they share.

mod names_and_labels;
mod placeholders;
mod properties;
mod redactions;
mod rules_and_triggers;
mod vendor_keys;

use std::borrow::Cow;
use std::cell::Cell;

use super::{scrub, secret_kinds};

thread_local! {
    /// How often this thread asked for a rule's regex (and so might have compiled one).
    /// Counted per thread, so tests running in parallel do not disturb a test's count.
    static RULE_REGEX_USES: Cell<usize> = const { Cell::new(0) };
}

/// Called by `rules::rule_regex` in test builds.
pub(super) fn count_rule_regex_use() {
    RULE_REGEX_USES.with(|uses| uses.set(uses.get() + 1));
}

fn rule_regex_uses() -> usize {
    RULE_REGEX_USES.with(Cell::get)
}

/// `len` characters that mix upper case, lower case and digits, like a generated key.
fn fake_key(len: usize) -> String {
    "Ab3dE5fG7h".repeat(len / 10 + 1)[..len].to_string()
}

/// `scrub(input)` is `expected`, reporting exactly `kinds`, and scrubbing again changes
/// nothing.
#[track_caller]
fn assert_scrubs(input: &str, expected: &str, kinds: &[&str]) {
    assert_eq!(scrub(input), expected, "scrubbing {input:?}");
    assert_eq!(secret_kinds(input), kinds, "kinds in {input:?}");
    assert!(
        matches!(scrub(expected), Cow::Borrowed(_)),
        "scrubbing {expected:?} again changed it"
    );
    assert!(secret_kinds(expected).is_empty());
}

#[track_caller]
fn assert_untouched(input: &str) {
    let scrubbed = scrub(input);
    assert!(
        matches!(scrubbed, Cow::Borrowed(_)),
        "{input:?} became {scrubbed:?}"
    );
    assert!(secret_kinds(input).is_empty(), "{input:?}");
}
