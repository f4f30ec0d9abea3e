//! Real C and C++ tool outputs through the open-errors rules; see `errors_corpus/mod.rs`.

mod errors_corpus;

#[test]
fn c_cpp_failures_are_recorded_with_what_failed_and_passes_clear() {
    errors_corpus::check("c-cpp", include_str!("fixtures/errors/c-cpp/cases.jsonl"));
}
