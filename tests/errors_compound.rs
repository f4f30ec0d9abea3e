//! Real compound runs (see `tests/fixtures/errors/compound/README.md`) through the open-error rules.

mod common;

#[test]
fn compound_runs_record_what_failed_and_nothing_else() {
    let score = common::error_corpus::held_out_score(
        "compound",
        include_str!("fixtures/errors/compound/cases.jsonl"),
    );
    println!("{score}");
}
