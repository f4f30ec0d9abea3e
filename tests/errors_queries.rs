//! Real queries runs (see `tests/fixtures/errors/queries/README.md`) through the open-error rules.

mod common;

#[test]
fn queries_runs_record_what_failed_and_nothing_else() {
    let score = common::error_corpus::held_out_score(
        "queries",
        include_str!("fixtures/errors/queries/cases.jsonl"),
    );
    println!("{score}");
}
