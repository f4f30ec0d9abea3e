//! Real python runs (see `tests/fixtures/errors/python/README.md`) through the open-error rules.

mod error_corpus;

#[test]
fn python_runs_record_what_failed_and_nothing_else() {
    let score = error_corpus::check("python", include_str!("fixtures/errors/python/cases.jsonl"));
    println!("{score}");
}
