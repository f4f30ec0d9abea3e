//! Real go runs (see `tests/fixtures/errors/go/README.md`) through the open-error rules.

mod common;

#[test]
fn go_runs_record_what_failed_and_nothing_else() {
    let score =
        common::error_corpus::held_out_score("go", include_str!("fixtures/errors/go/cases.jsonl"));
    println!("{score}");
}
