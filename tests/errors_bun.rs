//! Real bun runs (see `tests/fixtures/errors/bun/README.md`) through the open-error rules.

mod common;

#[test]
fn bun_runs_record_what_failed_and_nothing_else() {
    let score = common::error_corpus::held_out_score(
        "bun",
        include_str!("fixtures/errors/bun/cases.jsonl"),
    );
    println!("{score}");
}
