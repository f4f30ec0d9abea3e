//! Real python runs (see `tests/fixtures/errors/python/README.md`) through the open-error rules.

mod common;

#[test]
fn python_runs_record_what_failed_and_nothing_else() {
    let score = common::error_corpus::held_out_score(
        "python",
        include_str!("fixtures/errors/python/cases.jsonl"),
    );
    println!("{score}");
}
