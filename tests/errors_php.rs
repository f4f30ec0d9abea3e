//! Real PHP tool outputs through the open-errors rules; see `common/error_corpus.rs`.

mod common;

#[test]
fn php_failures_are_recorded_with_what_failed_and_passes_clear() {
    common::error_corpus::check_every_case("php", include_str!("fixtures/errors/php/cases.jsonl"));
}
