//! Whether a message asks what happened in an earlier session, learned: the message's n-grams
//! with whether a recall phrase of `recall.rs` is in it, and whether it holds a question placed
//! in an earlier session ("… last time?", "…昨天…？"). A phrase with "last time" added, a
//! misspelling or a casual form the table lacks is still seen (class 1), and a phrase the table
//! knows inside a message about something else is outweighed (class 0).

use crate::domain::base::classifier::{Contribution, Field, Input, Prediction, Weights};

use super::recall::{asks_about_the_past, asks_to_recall};

pub const CLASSES: [&str; 2] = ["other", "recall"];
pub const BITS: u32 = 16;
pub const WEIGHTS_FILE: &str = "src/domain/capture/explicit/recall.weights";
static WEIGHTS: &[u8] = include_bytes!("recall.weights");

/// Longer messages are cut here: a recall question is short, and a long paste costs nothing.
const MAX_CHARS: usize = 600;

pub fn weights() -> Weights {
    Weights::compiled(WEIGHTS, CLASSES.len())
}

pub fn input(message: &str) -> Input<'_> {
    let cut = message
        .char_indices()
        .nth(MAX_CHARS)
        .map_or(message, |(i, _)| &message[..i]);
    Input::default()
        .text(Field::Whole, cut)
        .named_if(asks_to_recall(message), "rule:recall")
        .named_if(asks_about_the_past(message), "question:past")
}

pub fn predict_with(weights: &Weights, message: &str) -> Prediction {
    weights.predict(&input(message))
}

/// A message asks to recall when the model gives it more than this; chosen on the development
/// split (`train_models --tune`): 0.5 took a bare "hello" (0.54).
pub const ODDS: f64 = 0.6;

/// Whether `message` asks to recall an earlier session.
pub fn asks_to_recall_learned(message: &str) -> bool {
    predict_with(&weights(), message).probability(1) > ODDS
}

pub fn explain(message: &str, top: usize) -> (Prediction, Vec<Contribution>) {
    weights().explain(&input(message), 1, top)
}
