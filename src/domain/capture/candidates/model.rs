//! The gate's model: whether a candidate line is a durable fact (class 0) or junk, and which
//! kind of junk (the other classes: each kind is learned apart, so a platitude need not look
//! like a progress report to be junk), from the line's n-grams, its type tag, how many words
//! name something of this project, and which of the gate's rules matched it. The rules
//! are features, not verdicts: a rule that fires on a fact it was not written for ("…was merged
//! into the 2024 roadmap") is outweighed by what the rest of the line says. The weights are
//! learned by `examples/train_models.rs` from `tests/fixtures/capture/`.

use crate::domain::base::classifier::{Contribution, Field, Input, Prediction, Weights};
use crate::domain::capture::explicit::recurrence::{mentions, RECURRING, TASK_BOUND};

use super::structure::said_of_the_user;
use super::{judged_text, Candidate, Rejection};

pub const CLASSES: [&str; 20] = [
    "durable",
    "progress",
    "count",
    "remaining-count",
    "next-step",
    "platitude",
    "question",
    "hot-state",
    "instruction",
    "credential",
    "diagnosis",
    "user-request",
    "command-run",
    "branch-state",
    "service-state",
    "files-looked-at",
    "rolled-back",
    "issue-opened",
    "phase",
    "other",
];
pub const BITS: u32 = 15;

/// The class of a line labelled `kind`, kept (`durable`) or not.
pub fn class_of(keep: bool, kind: &str) -> usize {
    if keep {
        return 0;
    }
    CLASSES
        .iter()
        .skip(1)
        .position(|&class| class == kind)
        .map_or(CLASSES.len() - 1, |at| at + 1)
}

/// The probability that the line is junk, of any kind.
pub fn junk_probability(prediction: &Prediction) -> f64 {
    1.0 - prediction.probability(0)
}

/// The kind of junk the model finds likeliest.
pub fn junk_kind(prediction: &Prediction) -> usize {
    (1..CLASSES.len())
        .max_by(|&a, &b| {
            prediction
                .probability(a)
                .total_cmp(&prediction.probability(b))
        })
        .unwrap_or(1)
}
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
        .named_if(hits.is_empty(), "rule:none")
        .named(specificity(judged))
        .named_if(said_of_the_user(judged), "subject:user")
        .named_if(mentions(&candidate.text, TASK_BOUND), "task-bound")
        .named_if(mentions(&candidate.text, RECURRING), "recurring");
    for hit in hits {
        input = input.named(hit.name());
    }
    input
}

/// How many words of `text` name something only this project has: a path, a file, an
/// identifier (`snake_case`, `camelCase`, `a.b`), a number, an acronym, code. A platitude
/// ("good tests make refactoring safer") names none; a fact usually names one.
pub(super) fn specificity(text: &str) -> &'static str {
    let specific = text
        .split(|c: char| {
            c.is_whitespace() || matches!(c, ',' | '，' | '、' | '。' | '：' | '（' | '）')
        })
        .filter(|word| is_specific(word))
        .count();
    match specific {
        0 => "specific:none",
        1 => "specific:one",
        _ => "specific:many",
    }
}

pub(super) fn is_specific(word: &str) -> bool {
    let word =
        word.trim_matches(|c: char| matches!(c, '.' | ':' | ';' | '!' | '(' | ')' | '"' | '\''));
    let letters = word.chars().filter(|c| c.is_ascii_alphabetic()).count();
    let upper = word.chars().filter(|c| c.is_ascii_uppercase()).count();
    word.contains(['/', '_', '`', '=', '#', '@', '<', '>', '\\'])
        || word.chars().any(|c| c.is_ascii_digit())
        || (word.contains('.') && letters > 0)
        || upper >= 2
        || (upper == 1 && !word.starts_with(|c: char| c.is_ascii_uppercase()) && letters > 1)
}

fn tag(candidate: &Candidate) -> &'static str {
    if !candidate.tagged {
        return "tag:none";
    }
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

/// The model's verdict on the candidate, the kind of junk it finds likeliest, and the features
/// that weighed most for that kind.
pub fn explain(
    candidate: &Candidate,
    hits: &[Rejection],
    top: usize,
) -> (Prediction, usize, Vec<Contribution>) {
    let weights = weights();
    let input = input(candidate, hits);
    let prediction = weights.predict(&input);
    let kind = junk_kind(&prediction);
    let (_, why) = weights.explain(&input, kind, top);
    (prediction, kind, why)
}
