//! Real Java tool outputs through the open-errors rules; see `common/error_corpus.rs`.

mod common;

#[test]
fn java_failures_are_recorded_with_what_failed_and_passes_clear() {
    common::error_corpus::check_every_case(
        "java",
        include_str!("fixtures/errors/java/cases.jsonl"),
    );
}
