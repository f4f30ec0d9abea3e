//! Real Ruby tool outputs through the open-errors rules; see `common/error_corpus.rs`.

mod common;

#[test]
fn ruby_failures_are_recorded_with_what_failed_and_passes_clear() {
    common::error_corpus::check_every_case(
        "ruby",
        include_str!("fixtures/errors/ruby/cases.jsonl"),
    );
}
