//! Real shell runs (see `tests/fixtures/errors/shell/README.md`) through the open-error rules.

mod common;

#[test]
fn shell_runs_record_what_failed_and_nothing_else() {
    let score = common::error_corpus::held_out_score(
        "shell",
        include_str!("fixtures/errors/shell/cases.jsonl"),
    );
    println!("{score}");
}
