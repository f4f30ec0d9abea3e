//! Real Ruby tool outputs through the open-errors rules; see `errors_corpus/mod.rs`.

mod errors_corpus;

#[test]
fn ruby_failures_are_recorded_with_what_failed_and_passes_clear() {
    errors_corpus::check("ruby", include_str!("fixtures/errors/ruby/cases.jsonl"));
}
