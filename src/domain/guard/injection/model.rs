//! Whether a text instructs the agent, learned: the words and word pairs of the text as the
//! rules read it (folded, so obfuscation changes nothing). It reads what the rules of `rules` have no words
//! for: an instruction said another way, in any of the nine languages, or placed inside a
//! tool's output or a session note. It is asked only about text about to be stored (a memory,
//! a compaction candidate, a team entry, an edit); text already stored and error lines are
//! read by the rules alone, which cost nothing at render.
//!
//! Classes: `none`, the seven kinds of `InjectionKind`, and `unnamed` for the labelled
//! instructions whose kind nobody said (the compaction gate's `instruction` lines). A text is
//! an instruction when `none` is below `FLAG_ODDS`; its kind is the likeliest named kind.

use crate::domain::base::classifier::{Contribution, Field, Input, Prediction, Weights};

use super::fold::fold;
use super::InjectionKind;

pub const CLASSES: [&str; 9] = [
    "none",
    "override-instructions",
    "approve-everything",
    "remote-code",
    "disable-safety",
    "role-reassignment",
    "exfiltration",
    "prompt-markup",
    "unnamed",
];
/// 15 bits: at 13, words no example held collided with the attacks' ("deploy onlyyadirf no
/// from main" read as exfiltration, 0.78 on the development split's model; 0.17 at 15).
pub const BITS: u32 = 15;
pub const WEIGHTS_FILE: &str = "src/domain/guard/injection/guard.weights";
static WEIGHTS: &[u8] = include_bytes!("guard.weights");

/// A text is read as an instruction when the odds it is none fall below this; chosen on the
/// development split (`train_models --tune`) so that few benign texts are flagged: with
/// blind11 trained on, from 0.4 to 0.3 the look-alikes left alone rose from 0.957 to 0.972
/// and the instructions caught fell from 0.771 to 0.757, and a rule users keep, "Never
/// force-push to main", is no longer read as one (none at 0.36). The round before, 0.5 to 0.4
/// did the same for it (none at 0.48).
pub const FLAG_ODDS: f64 = 0.3;

/// Longer texts are cut here: a memory is short, and a long paste should not cost more.
const MAX_CHARS: usize = 600;

pub fn weights() -> Weights {
    Weights::compiled(WEIGHTS, CLASSES.len())
}

/// The compiled-in weights file: training compares what it learns with it, since the gate's
/// rule hits read the guard (see `examples/train_models`).
pub fn compiled_bytes() -> &'static [u8] {
    WEIGHTS
}

/// The class of a labelled case: its kind's name, `none`, or `unnamed`.
pub fn class_of(expect: &str) -> usize {
    CLASSES
        .iter()
        .position(|&class| class == expect)
        .unwrap_or(CLASSES.len() - 1)
}

/// The text the model reads: folded as the rules read it, cut at `MAX_CHARS`, with each web
/// address read as `url` and each mail address as `email` (where a text sends something
/// counts, not which host: the attacks of the corpora name made-up hosts; and that it does,
/// not how many times: a list of links is a reference, not more of an attack), and a word
/// said again right after itself read once (a repeated word would outweigh the rest).
pub fn read_form(text: &str) -> String {
    let plain = fold(text).plain;
    let cut = match plain.char_indices().nth(MAX_CHARS) {
        Some((at, _)) => &plain[..at],
        None => plain.as_str(),
    };
    let mut out = String::with_capacity(cut.len());
    let mut last = "";
    let mut addresses: Vec<&str> = Vec::new();
    for word in cut.split(' ').filter(|w| !w.is_empty()) {
        let address = address_kind(word);
        let word = address.unwrap_or(word);
        if word == last || address.is_some_and(|kind| addresses.contains(&kind)) {
            continue;
        }
        addresses.extend(address);
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
        last = word;
    }
    out
}

/// `url` or `email` when `word` is a web or mail address.
fn address_kind(word: &str) -> Option<&'static str> {
    let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
    if word.contains("://") || bare.starts_with("www.") {
        return Some("url");
    }
    let (user, host) = bare.split_once('@')?;
    (!user.is_empty() && host.contains('.')).then_some("email")
}

/// The text is read by its words and word pairs (a memory's body), not its character grams:
/// on the development split the grams flagged more look-alikes and plain facts ("The queue is
/// paused at the moment for maintenance" by "e ", " a") for hardly more instructions caught.
pub fn input(read: &str) -> Input<'_> {
    Input::default().text(Field::Body, read)
}

pub fn predict_with(weights: &Weights, text: &str) -> Prediction {
    weights.predict(&input(&read_form(text)))
}

/// The kind a prediction names, when it reads as an instruction at `odds`.
pub fn kind_at(prediction: &Prediction, odds: f64) -> Option<InjectionKind> {
    if prediction.probability(0) >= odds {
        return None;
    }
    let mut best = 0;
    for (at, _) in InjectionKind::ALL.iter().enumerate() {
        if prediction.probability(at + 1) > prediction.probability(best + 1) {
            best = at;
        }
    }
    Some(InjectionKind::ALL[best])
}

/// What the model concludes about `text`.
pub fn learned_kind(text: &str) -> Option<InjectionKind> {
    kind_at(&predict_with(&weights(), text), FLAG_ODDS)
}

/// The odds that `text` is none, and the features that weighed most against it.
pub fn explain(text: &str, top: usize) -> (Prediction, Vec<Contribution>) {
    let read = read_form(text);
    weights().explain(&input(&read), 0, top)
}
