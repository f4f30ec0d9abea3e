//! Which text of a message is a memory the user asked for, learned. Extraction stays
//! structural: each readable sentence proposes where its memory could be (the whole sentence;
//! the sentence without a short opening, "pls remeber:"; without a short ending, ", keep that in
//! mind" or "…ことを覚えといて"; the sentence before it when it only points back, "remember that";
//! the items of a list under it) and the model scores each proposal from the n-grams of what the
//! proposal leaves out (the trigger, if it is one), of the memory itself (a one-off for this
//! task, "before you finish this", is not a memory), and from whether the phrase tables of
//! `triggers.rs` took the same text. A sentence yields its best proposal when the model gives
//! it more than even odds.

use crate::domain::base::classifier::{Contribution, Field, Input, Prediction, Weights};

use super::scan::{list_item, sentences};

pub const CLASSES: [&str; 2] = ["not a memory", "memory"];
pub const BITS: u32 = 16;
pub const WEIGHTS_FILE: &str = "src/domain/capture/explicit/request.weights";
static WEIGHTS: &[u8] = include_bytes!("request.weights");

/// A sentence proposes at most this many openings and as many endings to leave out: a trigger
/// is short, and proposals cost a scoring each.
const REACH: usize = 10;
/// Sentences longer than this propose only themselves and their list.
const MAX_SENTENCE_BYTES: usize = 600;
/// A sentence this short (in boundaries) may point back at the one before it.
const POINTER_REACH: usize = 9;

pub fn weights() -> Weights {
    Weights::compiled(WEIGHTS, CLASSES.len())
}

/// Where a proposal's memory text comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body<'a> {
    /// A span of the sentence.
    Span(&'a str),
    /// The sentence before, which this one points back at.
    Before(&'a str),
    /// The items of the list under the sentence.
    Items(Vec<&'a str>),
}

/// One place a sentence's memory could be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal<'a> {
    /// What the sentence holds before the memory, and after it.
    pub head: &'a str,
    pub tail: &'a str,
    pub body: Body<'a>,
    /// The sentence after, when it is short: "X. Remember that." shows in X's proposal too.
    pub next: &'a str,
}

/// Whether `c` is written without spaces between words, or glues its particles to words
/// (Korean), so that any character boundary may start a memory.
fn is_unspaced(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xAC00..=0xD7AF)
}

/// The byte offsets of `s` where a memory may start or end: word starts and ends, and every
/// character boundary beside unspaced script.
fn boundaries(s: &str) -> Vec<usize> {
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut out = Vec::new();
    for i in 1..chars.len() {
        let (at, c) = chars[i];
        let prev = chars[i - 1].1;
        let word = |c: char| c.is_alphanumeric();
        if is_unspaced(c)
            || is_unspaced(prev)
            || (word(c) && !word(prev))
            || (!word(c) && word(prev))
        {
            out.push(at);
        }
    }
    out
}

/// Every proposal of the sentence `s`, given the sentence before it (`before`, not a question)
/// and the one after, and the list items under it when it ends its line.
pub fn proposals<'a>(
    s: &'a str,
    before: Option<&'a str>,
    next: &'a str,
    items: &[&'a str],
) -> Vec<Proposal<'a>> {
    let trimmed = s.trim();
    let mut out = vec![Proposal {
        head: "",
        tail: "",
        body: Body::Span(trimmed),
        next,
    }];
    if !items.is_empty() {
        out.push(Proposal {
            head: trimmed,
            tail: "",
            body: Body::Items(items.to_vec()),
            next: "",
        });
    }
    if trimmed.len() > MAX_SENTENCE_BYTES {
        return out;
    }
    let cuts = boundaries(trimmed);
    for &at in cuts.iter().take(REACH) {
        out.push(Proposal {
            head: &trimmed[..at],
            tail: "",
            body: Body::Span(&trimmed[at..]),
            next,
        });
    }
    for &at in cuts.iter().rev().take(REACH) {
        out.push(Proposal {
            head: "",
            tail: &trimmed[at..],
            body: Body::Span(&trimmed[..at]),
            next,
        });
    }
    // An opening and an ending both left out: "please remember: X, ok?"
    if let (Some(&head), Some(&tail)) = (
        cuts.iter()
            .take(REACH)
            .find(|&&at| trimmed[..at].trim_end().ends_with([':', '：'])),
        cuts.last(),
    ) {
        for &end in cuts.iter().rev().take(REACH).filter(|&&end| end > head) {
            out.push(Proposal {
                head: &trimmed[..head],
                tail: &trimmed[end..],
                body: Body::Span(&trimmed[head..end]),
                next,
            });
        }
        let _ = tail;
    }
    if let Some(before) = before {
        if cuts.len() < POINTER_REACH {
            out.push(Proposal {
                head: "",
                tail: trimmed,
                body: Body::Before(before),
                next: "",
            });
        }
    }
    out
}

/// The model's input for a proposal; `rule_took` says whether the phrase tables took the same
/// text, `rule_in_sentence` whether they took anything from the sentence.
pub fn input<'a>(proposal: &Proposal<'a>, rule_took: bool, rule_in_sentence: bool) -> Input<'a> {
    let mut input = Input::default()
        .named_if(rule_took, "rule:took")
        .named_if(rule_in_sentence, "rule:sentence")
        .named_if(proposal.head.is_empty(), "head:none")
        .named_if(proposal.tail.is_empty(), "tail:none")
        .named_if(
            proposal.head.trim_end().ends_with([':', '：', '-', '—']),
            "head:colon",
        )
        .named_if(
            proposal
                .tail
                .trim_start()
                .starts_with([',', '，', '、', '-', '—', '(']),
            "tail:comma",
        );
    if !proposal.head.is_empty() {
        input = input.text(Field::Head, proposal.head);
    }
    if !proposal.tail.is_empty() {
        input = input.text(Field::Tail, proposal.tail);
    }
    if !proposal.next.is_empty() {
        input = input.named("next").text(Field::Whole, proposal.next);
    }
    match &proposal.body {
        Body::Span(text) => input.text(Field::Body, text),
        Body::Before(text) => input.named("points-back").text(Field::Body, text),
        Body::Items(items) => {
            let mut input = input.named("list");
            for item in items.iter().take(3) {
                input = input.text(Field::Body, item);
            }
            input
        }
    }
}

pub fn predict_with(weights: &Weights, input: &Input) -> Prediction {
    weights.predict(input)
}

pub fn explain(input: &Input, top: usize) -> (Prediction, Vec<Contribution>) {
    weights().explain(input, 1, top)
}

/// The sentences of a readable line, with the span of each (trimmed) and whether it is a
/// question, and whether it ends the line.
pub fn line_sentences(line: &str) -> Vec<(&str, bool)> {
    sentences(line)
        .map(|s| (line[s.start..s.end].trim(), s.is_question))
        .filter(|(text, _)| !text.is_empty())
        .collect()
}

/// The list items on the lines from `from`, past blank lines, and the first line after them.
pub fn items_from<'a>(lines: &[&'a str], readable: &[bool], from: usize) -> (Vec<&'a str>, usize) {
    let mut index = from;
    while index < lines.len() && readable[index] && lines[index].trim().is_empty() {
        index += 1;
    }
    let mut items = Vec::new();
    let mut end = from;
    while index < lines.len() && readable[index] {
        if lines[index].trim().is_empty() {
            index += 1;
            continue;
        }
        let Some(item) = list_item(lines[index]) else {
            break;
        };
        items.push(item.trim());
        index += 1;
        end = index;
    }
    (items, end)
}
