//! Real deno runs (see `tests/fixtures/errors/deno/README.md`) through the open-error rules.

mod error_corpus;

#[test]
fn deno_runs_record_what_failed_and_nothing_else() {
    let score = error_corpus::check("deno", include_str!("fixtures/errors/deno/cases.jsonl"));
    println!("{score}");
}
