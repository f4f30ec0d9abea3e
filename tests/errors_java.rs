//! Real Java tool outputs through the open-errors rules; see `errors_corpus/mod.rs`.

mod errors_corpus;

#[test]
fn java_failures_are_recorded_with_what_failed_and_passes_clear() {
    errors_corpus::check("java", include_str!("fixtures/errors/java/cases.jsonl"));
}
