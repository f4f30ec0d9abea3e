//! Real formatters runs (see `tests/fixtures/errors/formatters/README.md`) through the open-error rules.

mod error_corpus;

#[test]
fn formatters_runs_record_what_failed_and_nothing_else() {
    let score = error_corpus::check(
        "formatters",
        include_str!("fixtures/errors/formatters/cases.jsonl"),
    );
    println!("{score}");
}
