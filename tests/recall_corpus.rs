//! Recall requests against realistic user messages, one corpus per language in
//! `tests/fixtures/recall/` (see its README): each case is a message and whether it asks what
//! happened in an earlier session. Every case must pass, the decoys as much as the requests.

mod common;

use common::corpus;
use ocmem::domain::capture::explicit::recall::asks_to_recall;
use serde_json::Value;

fn cases(language: &str) -> Vec<Value> {
    corpus::language_file("recall", language)
}

#[test]
fn every_language_has_requests_and_decoys() {
    for (language, requests, decoys) in corpus::expecting_and_decoys(cases, |c| c["recall"] == true)
    {
        assert!(requests >= 5, "{language}: {requests} requests");
        assert!(decoys >= 4, "{language}: {decoys} decoys");
    }
}

#[test]
fn every_case_is_read_as_written() {
    corpus::assert_every_case(corpus::in_every_language(cases, |_| true), |case| {
        let message = case["message"].as_str().unwrap();
        let expected = case["recall"].as_bool().unwrap();
        (asks_to_recall(message) != expected)
            .then(|| format!("misread {} ({}): {message}", case["id"], case["source"]))
    });
}

/// What the engine asks: the learned model, which read four in five of these cases in training
/// (the rest are its test split). It reads every case but a few: a question about one thing
/// placed in an earlier session, which the tables' end-of-clause rule leaves ("what did we do
/// last time we hit this timeout?", "Onde paramos o servidor de staging ontem?"), and, since
/// blind13 was trained on, where an error's work was left ("这个错误上次做到哪一步了", "이 에러는
/// 어디까지 했는지 모르겠어"), which the tables read as about the open error: at most four
/// misreads, printed.
#[test]
fn the_model_the_engine_asks_reads_all_but_a_few_cases() {
    use ocmem::domain::capture::explicit::recall_model::asks_to_recall_learned;
    let mut misread = Vec::new();
    for case in corpus::in_every_language(cases, |_| true) {
        let message = case["message"].as_str().unwrap();
        if asks_to_recall_learned(message) != case["recall"].as_bool().unwrap() {
            misread.push(format!("{} ({}): {message}", case["id"], case["source"]));
        }
    }
    println!("{misread:#?}");
    assert!(misread.len() <= 4, "{misread:#?}");
}
