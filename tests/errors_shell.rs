//! Real shell runs (see `tests/fixtures/errors/shell/README.md`) through the open-error rules.

mod error_corpus;

#[test]
fn shell_runs_record_what_failed_and_nothing_else() {
    let score = error_corpus::check("shell", include_str!("fixtures/errors/shell/cases.jsonl"));
    println!("{score}");
}
