//! The gate's model: whether a candidate line is a durable fact (class 0) or junk (class 1),
//! from the line's n-grams, its type tag, and which of the gate's rules matched it. The rules
//! are features, not verdicts: a rule that fires on a fact it was not written for ("…was merged
//! into the 2024 roadmap") is outweighed by what the rest of the line says. The weights are
//! learned by `examples/train_models.rs` from `tests/fixtures/capture/`.

use crate::domain::base::classifier::{Contribution, Field, Input, Prediction, Weights};

use super::{judged_text, Candidate, Rejection};

pub const CLASSES: [&str; 2] = ["durable", "junk"];
pub const BITS: u32 = 14;
pub const WEIGHTS_FILE: &str = "src/domain/capture/candidates/gate.weights";
static WEIGHTS: &[u8] = include_bytes!("gate.weights");

pub fn weights() -> Weights {
    Weights::compiled(WEIGHTS, CLASSES.len())
}

/// Whether the line is put as a question ("Should we …?", "…吗？"): no fact either way.
pub fn is_question(text: &str) -> bool {
    let text = text.trim_end_matches(|c: char| c.is_whitespace() || c == '"' || c == ')');
    text.ends_with('?') || text.ends_with('？')
}

/// The model's input for a candidate whose text matched `hits`.
pub fn input<'a>(candidate: &'a Candidate, hits: &[Rejection]) -> Input<'a> {
    let judged = judged_text(&candidate.text);
    let mut input = Input::default()
        .text(Field::Whole, &candidate.text)
        .named(tag(candidate))
        .named_if(judged.len() != candidate.text.len(), "opener")
        .named_if(hits.is_empty(), "rule:none");
    for hit in hits {
        input = input.named(hit.name());
    }
    input
}

fn tag(candidate: &Candidate) -> &'static str {
    match candidate.kind.as_str() {
        "feedback" => "tag:feedback",
        "project" => "tag:project",
        "decision" => "tag:decision",
        _ => "tag:reference",
    }
}

pub fn predict_with(weights: &Weights, candidate: &Candidate, hits: &[Rejection]) -> Prediction {
    weights.predict(&input(candidate, hits))
}

/// The model's verdict on the candidate and the features that weighed most for junk.
pub fn explain(
    candidate: &Candidate,
    hits: &[Rejection],
    top: usize,
) -> (Prediction, Vec<Contribution>) {
    weights().explain(&input(candidate, hits), 1, top)
}
