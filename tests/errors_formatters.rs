//! Real formatters runs (see `tests/fixtures/errors/formatters/README.md`) through the open-error rules.

mod common;

#[test]
fn formatters_runs_record_what_failed_and_nothing_else() {
    let score = common::error_corpus::held_out_score(
        "formatters",
        include_str!("fixtures/errors/formatters/cases.jsonl"),
    );
    println!("{score}");
}
