//! Real queries runs (see `tests/fixtures/errors/queries/README.md`) through the open-error rules.

mod error_corpus;

#[test]
fn queries_runs_record_what_failed_and_nothing_else() {
    let score = error_corpus::check(
        "queries",
        include_str!("fixtures/errors/queries/cases.jsonl"),
    );
    println!("{score}");
}
