//! Real PHP tool outputs through the open-errors rules; see `errors_corpus/mod.rs`.

mod errors_corpus;

#[test]
fn php_failures_are_recorded_with_what_failed_and_passes_clear() {
    errors_corpus::check("php", include_str!("fixtures/errors/php/cases.jsonl"));
}
