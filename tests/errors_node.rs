//! Real node runs (see `tests/fixtures/errors/node/README.md`) through the open-error rules.

mod common;

#[test]
fn node_runs_record_what_failed_and_nothing_else() {
    let score = common::error_corpus::held_out_score(
        "node",
        include_str!("fixtures/errors/node/cases.jsonl"),
    );
    println!("{score}");
}
