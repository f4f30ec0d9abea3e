//! The capture models (see docs/capture-models.md): the committed weights are exactly what
//! `examples/train_models` produces from the corpora, and the compiled-in models keep their
//! figures on the test split and on the blind batches. The floors are the figures the models
//! had when they were frozen, less a margin: a change that loses ground fails here. They are
//! not the targets, which the models do not meet yet.

#[path = "../examples/train_models/corpus.rs"]
mod corpus;
#[path = "../examples/train_models/training.rs"]
mod training;

use std::path::Path;

use corpus::is_test;
use ocmem::domain::capture::candidates::model as gate_model;
use ocmem::domain::capture::explicit::{learned, recall_model};
use training::Score;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Right answers over all answers of the rows whose key ends with `suffix`.
fn rate(score: &Score, suffix: &str) -> f64 {
    let (right, all) = score
        .rows()
        .filter(|(key, _)| key.ends_with(suffix) && !key.starts_with('~'))
        .fold((0, 0), |(r, a), (_, &(right, all))| (r + right, a + all));
    assert!(all > 0, "no rows end with {suffix}");
    right as f64 / all as f64
}

#[test]
fn the_committed_weights_are_what_training_produces() {
    for model in training::train_all(root()) {
        let committed = std::fs::read(root().join(model.path)).unwrap();
        assert!(
            committed == model.bytes,
            "{} is not what training produces: run `cargo run --release --example train_models`",
            model.path
        );
    }
}

#[test]
fn the_test_split_keeps_its_figures() {
    let messages = corpus::messages(root());
    let test: Vec<_> = messages.iter().filter(|c| is_test(&c.id)).collect();
    let (explicit, _) = training::score_explicit(&learned::models(), &test);
    println!("{}", explicit.table("explicit memories, test split"));
    assert!(
        rate(&explicit, " recall") >= 0.67,
        "{}",
        rate(&explicit, " recall")
    );
    assert!(
        rate(&explicit, " precision") >= 0.72,
        "{}",
        rate(&explicit, " precision")
    );
    let recall = training::score_recall(&recall_model::weights(), &test);
    assert!(rate(&recall, "seen") >= 0.70);
    assert!(rate(&recall, "not taken") >= 0.99);
    let candidates = corpus::candidates(root());
    let test: Vec<_> = candidates.iter().filter(|c| is_test(&c.id)).collect();
    let (gate, _) = training::score_gate(&gate_model::weights(), &test);
    println!("{}", gate.table("candidate gate, test split"));
    assert!(rate(&gate, "kept") >= 0.85, "{}", rate(&gate, "kept"));
    assert!(
        rate(&gate, "rejected") >= 0.92,
        "{}",
        rate(&gate, "rejected")
    );
}

#[test]
fn the_blind_batches_keep_their_figures() {
    let messages = corpus::blind_messages(root());
    let refs: Vec<_> = messages.iter().collect();
    assert!(refs.len() >= 450, "{}", refs.len());
    let (explicit, _) = training::score_explicit(&learned::models(), &refs);
    println!("{}", explicit.table("explicit memories, blind"));
    assert!(
        rate(&explicit, " recall") >= 0.76,
        "{}",
        rate(&explicit, " recall")
    );
    assert!(
        rate(&explicit, " precision") >= 0.80,
        "{}",
        rate(&explicit, " precision")
    );
    let recall = training::score_recall(&recall_model::weights(), &refs);
    assert!(rate(&recall, "seen") >= 0.55);
    assert!(rate(&recall, "not taken") >= 0.99);
    let candidates = corpus::blind_candidates(root());
    let refs: Vec<_> = candidates.iter().collect();
    let (gate, _) = training::score_gate(&gate_model::weights(), &refs);
    println!("{}", gate.table("candidate gate, blind"));
    assert!(rate(&gate, "kept") >= 0.80, "{}", rate(&gate, "kept"));
    assert!(
        rate(&gate, "rejected") >= 0.95,
        "{}",
        rate(&gate, "rejected")
    );
}
