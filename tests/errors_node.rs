//! Real node runs (see `tests/fixtures/errors/node/README.md`) through the open-error rules.

mod error_corpus;

#[test]
fn node_runs_record_what_failed_and_nothing_else() {
    let score = error_corpus::check("node", include_str!("fixtures/errors/node/cases.jsonl"));
    println!("{score}");
}
