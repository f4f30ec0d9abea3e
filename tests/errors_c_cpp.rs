//! Real C and C++ tool outputs through the open-errors rules; see `common/error_corpus.rs`.

mod common;

#[test]
fn c_cpp_failures_are_recorded_with_what_failed_and_passes_clear() {
    common::error_corpus::check_every_case(
        "c-cpp",
        include_str!("fixtures/errors/c-cpp/cases.jsonl"),
    );
}
