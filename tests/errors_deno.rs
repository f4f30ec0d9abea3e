//! Real deno runs (see `tests/fixtures/errors/deno/README.md`) through the open-error rules.

mod common;

#[test]
fn deno_runs_record_what_failed_and_nothing_else() {
    let score = common::error_corpus::held_out_score(
        "deno",
        include_str!("fixtures/errors/deno/cases.jsonl"),
    );
    println!("{score}");
}
